CREATE DATABASE d;
CREATE TABLE d.t (id INT PRIMARY KEY);
INSERT INTO d.t VALUES (1);
-- the defect needs no statement: cut the binlog 10 bytes into its fourth event; the control is
-- the whole file
