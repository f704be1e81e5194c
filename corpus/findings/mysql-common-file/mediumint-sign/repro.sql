-- mysql_common: a signed MEDIUMINT is not sign-extended (-1 -> 16777215; control: INT -1 -> -1)
CREATE DATABASE IF NOT EXISTS mc;
CREATE TABLE mc.m (id INT PRIMARY KEY, m MEDIUMINT, i INT);
INSERT INTO mc.m VALUES (1, -1, -1), (2, -8388608, -8388608);
