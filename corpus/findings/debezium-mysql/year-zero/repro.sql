CREATE DATABASE d;
CREATE TABLE d.t (id INT PRIMARY KEY, y YEAR);
-- the defect: YEAR 0000
INSERT INTO d.t VALUES (1, 0);
-- the control: a YEAR Debezium reads right
INSERT INTO d.t VALUES (2, 2024);
