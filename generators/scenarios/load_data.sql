-- flavors: mysql, mariadb
-- min_version: mysql 5.6, mariadb 10.5
-- settings: binlog_format=STATEMENT
-- events: BEGIN_LOAD_QUERY_EVENT, APPEND_BLOCK_EVENT, EXECUTE_LOAD_QUERY_EVENT
-- columns:
CREATE DATABASE IF NOT EXISTS ld;
CREATE TABLE ld.t (a INT, b VARCHAR(20));
INSERT INTO ld.t VALUES (1, 'one'), (2, 'two'), (3, 'three');
SELECT * FROM ld.t INTO OUTFILE '@@SECURE_FILE_DIR@@/ld.txt';
DELETE FROM ld.t;
LOAD DATA INFILE '@@SECURE_FILE_DIR@@/ld.txt' INTO TABLE ld.t;
CREATE TABLE ld.d (i INT PRIMARY KEY);
INSERT INTO ld.d VALUES (0), (1), (2), (3), (4), (5), (6), (7), (8), (9), (10), (11), (12), (13), (14), (15), (16), (17), (18), (19);
CREATE TABLE ld.big (id INT PRIMARY KEY, pad VARCHAR(100)) ENGINE=InnoDB;
INSERT INTO ld.big SELECT a.i * 20 + b.i, REPEAT('l', 60) FROM ld.d a, ld.d b ORDER BY 1;
SELECT * FROM ld.big ORDER BY id INTO OUTFILE '@@SECURE_FILE_DIR@@/ld_big.txt';
DELETE FROM ld.big;
LOAD DATA INFILE '@@SECURE_FILE_DIR@@/ld_big.txt' INTO TABLE ld.big;
LOAD DATA INFILE '@@SECURE_FILE_DIR@@/ld_big.txt' INTO TABLE ld.big /* expect-error 1062 */;
DROP DATABASE ld;
