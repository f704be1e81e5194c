-- MariaDB (10.2.3 or later) with binlog_format=ROW
SET GLOBAL log_bin_compress = ON;
SET GLOBAL log_bin_compress_min_len = 256;
CREATE DATABASE d;
CREATE TABLE d.t (id INT PRIMARY KEY, s VARCHAR(400));
INSERT INTO d.t VALUES (1, 'x');
-- the defect: a row event over 256 bytes, written as WRITE_ROWS_COMPRESSED_EVENT_V1 (166), which
-- MariaDB sends even to a replica that announced no MariaDB capability; open-replicator's parser
-- table has 128 entries
INSERT INTO d.t VALUES (2, REPEAT('compressed ', 30));
-- the control: nothing after the defect is reached; the short insert above decoded
INSERT INTO d.t VALUES (3, 'y');
