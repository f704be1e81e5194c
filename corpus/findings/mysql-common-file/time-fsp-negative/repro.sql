-- mysql_common: a negative TIME(1) or TIME(2) with a fraction decodes to a wrong time
-- (-12:34:56.1 -> 612:29:07.1; control: TIME(3) -12:34:56.100 is right)
CREATE DATABASE IF NOT EXISTS mc;
CREATE TABLE mc.t (id INT PRIMARY KEY, t1 TIME(1), t2 TIME(2), t3 TIME(3));
INSERT INTO mc.t VALUES (1, '-12:34:56.1', '-12:34:56.12', '-12:34:56.100');
