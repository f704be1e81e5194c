CREATE DATABASE d;
CREATE TABLE d.j (id INT PRIMARY KEY, j JSON);
-- the defects: a negative TIME, an opaque binary value, a large double
INSERT INTO d.j VALUES (1, JSON_OBJECT('t', CAST('-12:34:56.789' AS TIME(6))));
INSERT INTO d.j VALUES (2, JSON_OBJECT('b', CAST(x'00ff' AS BINARY)));
INSERT INTO d.j VALUES (3, JSON_ARRAY(1e300));
-- the control: plain strings and numbers
INSERT INTO d.j VALUES (4, JSON_OBJECT('t', '12:34:56', 'b', 'x', 'n', 2.5));
