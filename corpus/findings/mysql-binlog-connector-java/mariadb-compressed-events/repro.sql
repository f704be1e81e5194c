-- MariaDB (10.2.3 or later) with binlog_format=ROW
SET GLOBAL log_bin_compress = ON;
SET GLOBAL log_bin_compress_min_len = 256;
CREATE DATABASE d;
CREATE TABLE d.c (id INT PRIMARY KEY, s VARCHAR(400));
-- the defect: an event over 256 bytes, written as WRITE_ROWS_COMPRESSED_EVENT_V1
INSERT INTO d.c VALUES (1, REPEAT('compressed ', 30));
-- the control: a short row under log_bin_compress_min_len, written uncompressed
INSERT INTO d.c VALUES (2, 'control');
