CREATE DATABASE d;
CREATE TABLE d.j (id INT PRIMARY KEY, j JSON);
-- the defects: a double MySQL prints as 1e300, an opaque DATE, an opaque binary string and
-- an opaque DECIMAL with trailing zeros
INSERT INTO d.j VALUES (1, '[1e300]');
INSERT INTO d.j VALUES (2, JSON_OBJECT('d', CAST('2024-02-29' AS DATE)));
INSERT INTO d.j VALUES (3, JSON_OBJECT('b', CAST(x'00ff' AS BINARY)));
INSERT INTO d.j VALUES (4, JSON_OBJECT('e', CAST(9.00 AS DECIMAL(4,2))));
-- the control: a document of plain values
INSERT INTO d.j VALUES (5, '{"a": [1, 2.5, "x", null, true]}');
