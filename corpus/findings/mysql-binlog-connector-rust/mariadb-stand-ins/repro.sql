-- MariaDB (run on 10.11, binlog_format=ROW, binlog_annotate_row_events=ON by default): one
-- transaction, whose binlog holds Gtid_list, GTID and Annotate_rows events.
CREATE DATABASE IF NOT EXISTS bcm;
CREATE TABLE bcm.a (id INT PRIMARY KEY, s VARCHAR(10));
INSERT INTO bcm.a VALUES (1, 'annotated');
