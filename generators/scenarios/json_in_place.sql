-- flavors: mysql
-- min_version: mysql 8.0.3
-- settings: binlog_row_image=FULL
-- events: TABLE_MAP_EVENT, WRITE_ROWS_EVENT, UPDATE_ROWS_EVENT
-- columns: JSON
-- MySQL updates a JSON document in place when JSON_SET/JSON_REPLACE/JSON_REMOVE can: the stored
-- bytes keep the free space a shorter value leaves, so full row images carry documents that no
-- fresh serialization of their text gives (a parser that re-serializes, or that assumes values
-- are packed, reads them wrong). Mixed with a signed/unsigned integer pair the text cannot tell.
CREATE DATABASE IF NOT EXISTS jip;
CREATE TABLE jip.j (id INT PRIMARY KEY, j JSON);
INSERT INTO jip.j VALUES (1, '{"a": 1, "b": "long string value here", "c": [1, 2, 3], "n": 4294967296}');
INSERT INTO jip.j VALUES (2, JSON_ARRAY(4294967296, CAST(7 AS UNSIGNED), -1));
UPDATE jip.j SET j = JSON_REPLACE(j, '$.b', 'short') WHERE id = 1;
UPDATE jip.j SET j = JSON_REMOVE(j, '$.c[1]') WHERE id = 1;
UPDATE jip.j SET j = JSON_SET(j, '$.a', 100000) WHERE id = 1;
UPDATE jip.j SET j = JSON_REPLACE(j, '$[0]', 5) WHERE id = 2;
DROP DATABASE jip;
