-- MySQL 9.0+ (run on 9.7, binlog_row_metadata=FULL): a table with a VECTOR column.
CREATE DATABASE IF NOT EXISTS bc;
-- control: a table without one
CREATE TABLE bc.nv (id INT PRIMARY KEY, f FLOAT);
INSERT INTO bc.nv VALUES (1, 1.5);
CREATE TABLE bc.v (id INT PRIMARY KEY, v VECTOR(2));
INSERT INTO bc.v VALUES (1, STRING_TO_VECTOR('[1,2]'));
