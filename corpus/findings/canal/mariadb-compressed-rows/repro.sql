CREATE DATABASE d;
CREATE TABLE d.t (id INT PRIMARY KEY, s VARCHAR(200));
-- with log_bin_compress=ON, log_bin_compress_min_len=10, binlog_format=ROW (MariaDB 10.11)
-- the control: a row whose rows body uncompresses to under 128 bytes: decoded (but reported
-- as WRITE_ROWS_EVENT_V1, 23, not the WRITE_ROWS_COMPRESSED_EVENT_V1, 166, of the binlog)
INSERT INTO d.t VALUES (1, REPEAT('a', 20));
-- the defect: a rows body of 128..255 bytes: its one-byte uncompressed length is read signed
INSERT INTO d.t VALUES (2, REPEAT('b', 150));
