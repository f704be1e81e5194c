-- MySQL 9.7 (or 8.0), binlog_row_image=MINIMAL, binlog_row_value_options=PARTIAL_JSON: a JSON_SET update is logged as PARTIAL_UPDATE_ROWS_EVENT (type 39); the insert before it is a WRITE_ROWS_EVENT
DROP DATABASE IF EXISTS mbcr_pj;
CREATE DATABASE mbcr_pj;
CREATE TABLE mbcr_pj.t (id INT PRIMARY KEY, j JSON);
INSERT INTO mbcr_pj.t VALUES (1, '{"a": 1, "b": "some text to keep the document long"}');
UPDATE mbcr_pj.t SET j = JSON_SET(j, '$.a', 2) WHERE id = 1;
