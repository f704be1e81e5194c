-- flavors: mysql
-- min_version: mysql 8.0.3
-- settings: binlog_row_value_options=PARTIAL_JSON, binlog_row_image=MINIMAL
-- events: PARTIAL_UPDATE_ROWS_EVENT
-- columns: JSON
CREATE DATABASE IF NOT EXISTS jp;
CREATE TABLE jp.j (id INT PRIMARY KEY, j JSON, k JSON);
INSERT INTO jp.j VALUES (1, '{"a": 1, "b": "long string value here", "c": [1, 2, 3]}', '[1, 2, 3]');
UPDATE jp.j SET j = JSON_SET(j, '$.a', 100) WHERE id = 1;
UPDATE jp.j SET j = JSON_REPLACE(j, '$.b', 'short') WHERE id = 1;
UPDATE jp.j SET j = JSON_REMOVE(j, '$.c[1]') WHERE id = 1;
UPDATE jp.j SET j = JSON_SET(j, '$.new', 'x'), k = JSON_REPLACE(k, '$[0]', 9) WHERE id = 1;
UPDATE jp.j SET j = JSON_SET(j, '$.a', 1.5, '$.c[0]', 'y') WHERE id = 1;
DROP DATABASE jp;
