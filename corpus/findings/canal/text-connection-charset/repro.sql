CREATE DATABASE d;
CREATE TABLE d.s (id INT PRIMARY KEY, v VARCHAR(10) CHARACTER SET latin1, u VARCHAR(10) CHARACTER SET utf8mb4);
-- the limit: the latin1 'é' (byte e9) is decoded with the connection charset, UTF-8
INSERT INTO d.s VALUES (1, 'dé', 'dé');
-- the control: the same text in a utf8mb4 column (column u above) and ASCII in latin1
INSERT INTO d.s VALUES (2, 'de', 'de');
