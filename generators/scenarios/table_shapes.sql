-- flavors: mysql, mariadb
-- min_version: mysql 8.0.23, mariadb 10.5
-- events: TABLE_MAP_EVENT, WRITE_ROWS_EVENT, UPDATE_ROWS_EVENT, DELETE_ROWS_EVENT
-- columns: LONG, VARCHAR
CREATE DATABASE IF NOT EXISTS shp;
CREATE TABLE shp.nopk (a INT, b VARCHAR(10));
INSERT INTO shp.nopk VALUES (1, 'a'), (1, 'a'), (2, NULL);
UPDATE shp.nopk SET b = 'z' WHERE a = 1;
DELETE FROM shp.nopk WHERE a = 2;
CREATE TABLE shp.gen (id INT PRIMARY KEY, a INT, b INT AS (a * 2) VIRTUAL, c INT AS (a + 1) STORED);
INSERT INTO shp.gen (id, a) VALUES (1, 10), (2, NULL);
UPDATE shp.gen SET a = 11 WHERE id = 1;
CREATE TABLE shp.cols300 (@@COLUMNS_300@@);
INSERT INTO shp.cols300 VALUES (@@VALUES_300@@);
CREATE TABLE shp.pk2 (a INT, b VARCHAR(20), c INT, PRIMARY KEY (b(5), a));
INSERT INTO shp.pk2 VALUES (1, 'abcdefgh', 3);
DROP DATABASE shp;
