-- MySQL 8.0+ (run on 9.7), binlog_row_image=MINIMAL, binlog_row_value_options=PARTIAL_JSON: a
-- JSON_SET update is logged as PARTIAL_UPDATE_ROWS_EVENT (39), which has no deserializer: the
-- event arrives with null data and its row is lost.
CREATE DATABASE IF NOT EXISTS pj;
CREATE TABLE pj.t (id INT PRIMARY KEY, n INT, j JSON);
INSERT INTO pj.t VALUES (1, 1, '{"a": 1, "b": "some text to keep the document long"}');
UPDATE pj.t SET j = JSON_SET(j, '$.a', 2) WHERE id = 1;
-- the control: the INSERT above (a WRITE_ROWS_EVENT) arrives with its row; with PARTIAL_JSON the
-- server logs this plain-column update as a PARTIAL_UPDATE_ROWS_EVENT too
UPDATE pj.t SET n = 2 WHERE id = 1;
