-- MySQL 8.0+ (run on 9.7): partial JSON updates, two paths changed by one UPDATE.
SET SESSION binlog_row_image = MINIMAL;
SET SESSION binlog_row_value_options = PARTIAL_JSON;
CREATE DATABASE IF NOT EXISTS gm;
CREATE TABLE gm.j (id INT PRIMARY KEY, j JSON);
INSERT INTO gm.j VALUES (1, '{"a": 1, "b": [10, 20]}');
-- control: one path, one diff
UPDATE gm.j SET j = JSON_REPLACE(j, '$.a', 2) WHERE id = 1;
-- the defect: two paths, two diffs in the binlog; the library delivers the first
UPDATE gm.j SET j = JSON_REPLACE(j, '$.a', 3, '$.b[0]', 11) WHERE id = 1;
