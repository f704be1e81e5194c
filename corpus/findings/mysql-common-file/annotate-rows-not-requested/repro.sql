-- mysql_async on MariaDB (binlog_annotate_row_events=ON, the default): the binlog holds an
-- Annotate_rows event before the Table_map; a dump from mysql_async never receives it
-- (control: BinlogFile over the same file reports it).
CREATE DATABASE IF NOT EXISTS mc;
CREATE TABLE mc.a (id INT PRIMARY KEY, s VARCHAR(10));
INSERT INTO mc.a VALUES (1, 'annotated');
