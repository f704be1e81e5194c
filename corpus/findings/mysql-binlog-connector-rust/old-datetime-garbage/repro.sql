-- MariaDB (run on 10.11, binlog_format=ROW): with mysql56_temporal_format=OFF a DATETIME column
-- is created in the pre-5.6.4 format (type 12, YYYYMMDDhhmmss in 8 bytes).
CREATE DATABASE IF NOT EXISTS bc;
SET GLOBAL mysql56_temporal_format = OFF;
CREATE TABLE bc.old_dt (id INT PRIMARY KEY, d DATETIME);
SET GLOBAL mysql56_temporal_format = ON;
-- control: the same column in today's format (DATETIME2, type 18)
CREATE TABLE bc.new_dt (id INT PRIMARY KEY, d DATETIME);
INSERT INTO bc.old_dt VALUES (1, '2006-02-14 22:04:36');
INSERT INTO bc.new_dt VALUES (1, '2006-02-14 22:04:36');
