-- MySQL 9.0 or later
CREATE DATABASE d;
-- the defect: a Table_map with a VECTOR column (type 242)
CREATE TABLE d.v (id INT PRIMARY KEY, v VECTOR(2));
INSERT INTO d.v VALUES (1, STRING_TO_VECTOR('[1.5, -2]'));
-- the control: a table without one, in the same binlog
CREATE TABLE d.w (id INT PRIMARY KEY);
INSERT INTO d.w VALUES (2);
