-- flavors: mysql, mariadb
-- min_version: mysql 8.0, mariadb 10.5
-- events: TABLE_MAP_EVENT, WRITE_ROWS_EVENT
-- columns: LONG, BLOB
CREATE DATABASE IF NOT EXISTS big;
CREATE TABLE big.huge (id INT PRIMARY KEY, b LONGBLOB);
INSERT INTO big.huge VALUES (1, REPEAT('h', 17 * 1024 * 1024));
DROP DATABASE big;
