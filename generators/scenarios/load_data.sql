-- flavors: mysql, mariadb
-- min_version: mysql 5.6, mariadb 10.5
-- settings: binlog_format=STATEMENT
-- events: BEGIN_LOAD_QUERY_EVENT, EXECUTE_LOAD_QUERY_EVENT
-- columns:
CREATE DATABASE IF NOT EXISTS ld;
CREATE TABLE ld.t (a INT, b VARCHAR(20));
INSERT INTO ld.t VALUES (1, 'one'), (2, 'two'), (3, 'three');
SELECT * FROM ld.t INTO OUTFILE '@@SECURE_FILE_DIR@@/ld.txt';
DELETE FROM ld.t;
LOAD DATA INFILE '@@SECURE_FILE_DIR@@/ld.txt' INTO TABLE ld.t;
DROP DATABASE ld;
