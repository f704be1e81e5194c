CREATE DATABASE d;
CREATE TABLE d.n (id INT PRIMARY KEY);
-- the control: a table without a VECTOR column
INSERT INTO d.n VALUES (1);
CREATE TABLE d.v (id INT PRIMARY KEY, v VECTOR(2));
-- the defect: the Table_map of d.v has a VECTOR column (its metadata byte, then MySQL 9's optional metadata)
INSERT INTO d.v VALUES (1, STRING_TO_VECTOR('[1.5, 2]'));
