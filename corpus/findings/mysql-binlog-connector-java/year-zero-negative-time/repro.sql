CREATE DATABASE d;
CREATE TABLE d.t (id INT PRIMARY KEY, y YEAR, t TIME(1));
-- the defect: YEAR 0000 and a negative TIME(1)
INSERT INTO d.t VALUES (1, 0, '-00:00:01.5');
-- the control: a YEAR and a TIME the library reads right
INSERT INTO d.t VALUES (2, 2024, '12:34:56.5');
