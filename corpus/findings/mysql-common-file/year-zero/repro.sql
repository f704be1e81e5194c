-- mysql_common: YEAR 0000 decoded as 1900 (control: YEAR 2024 decoded as 2024)
CREATE DATABASE IF NOT EXISTS mc;
CREATE TABLE mc.y (id INT PRIMARY KEY, y YEAR);
INSERT INTO mc.y VALUES (1, 0), (2, 2024);
