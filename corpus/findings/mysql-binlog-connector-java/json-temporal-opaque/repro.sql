CREATE DATABASE d;
CREATE TABLE d.j (id INT PRIMARY KEY, j JSON);
-- the defects: a negative TIME, a TIME with a zero fraction, an opaque binary value
INSERT INTO d.j VALUES (1, JSON_OBJECT('t', CAST('-12:34:56.789' AS TIME(6))));
INSERT INTO d.j VALUES (2, JSON_OBJECT('t', CAST('25:00:00' AS TIME(6))));
INSERT INTO d.j VALUES (3, JSON_OBJECT('b', CAST(x'00ff' AS BINARY)));
-- the control: the same keys holding plain strings
INSERT INTO d.j VALUES (4, JSON_OBJECT('t', '12:34:56', 'b', 'x'));
