-- flavors: mysql, mariadb
-- min_version: mysql 5.6, mariadb 10.5
-- events: QUERY_EVENT, TABLE_MAP_EVENT, WRITE_ROWS_EVENT, UPDATE_ROWS_EVENT, DELETE_ROWS_EVENT, XID_EVENT
-- columns: LONG, VARCHAR
CREATE DATABASE IF NOT EXISTS t1db;
CREATE TABLE t1db.people (id INT PRIMARY KEY, name VARCHAR(40) NOT NULL, note VARCHAR(10));
INSERT INTO t1db.people VALUES (1, 'ada', NULL), (2, 'bob', 'x'), (3, 'cy', '');
UPDATE t1db.people SET note = 'changed' WHERE id IN (1, 2);
DELETE FROM t1db.people WHERE id = 3;
BEGIN;
INSERT INTO t1db.people VALUES (4, 'dee', 'tx');
UPDATE t1db.people SET name = 'deedee' WHERE id = 4;
COMMIT;
ALTER TABLE t1db.people ADD COLUMN age SMALLINT;
INSERT INTO t1db.people VALUES (5, 'eve', NULL, 42);
TRUNCATE TABLE t1db.people;
DROP TABLE t1db.people;
DROP DATABASE t1db;
