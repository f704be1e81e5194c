-- MySQL 9.7, binlog_format=ROW: any write; what matters is how the binlog is read (README.md).
CREATE DATABASE IF NOT EXISTS gm;
CREATE TABLE gm.t (id INT PRIMARY KEY, s VARCHAR(20));
INSERT INTO gm.t VALUES (1, 'one'), (2, 'two');
INSERT INTO gm.t VALUES (3, 'three');
UPDATE gm.t SET s = 'uno' WHERE id = 1;
DELETE FROM gm.t WHERE id = 2;
