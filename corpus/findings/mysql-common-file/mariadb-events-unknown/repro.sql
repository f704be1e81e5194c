-- MariaDB 10.11, binlog_format=ROW, log_bin_compress=ON, log_bin_compress_min_len=10: the binlog
-- holds MariaDB's own events (Gtid_list, Binlog_checkpoint, Gtid, Annotate_rows) and, the
-- statements being longer than 10 bytes, QUERY_COMPRESSED and WRITE_ROWS_COMPRESSED_V1 events;
-- mysql_common names none of them (control: BEGIN, a plain Query, and the Xid are named).
CREATE DATABASE IF NOT EXISTS mc2;
CREATE TABLE mc2.c (id INT PRIMARY KEY, s VARCHAR(100));
INSERT INTO mc2.c VALUES (1, REPEAT('compressible ', 5));
