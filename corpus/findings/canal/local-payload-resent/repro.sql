CREATE DATABASE d;
CREATE TABLE d.t (id INT PRIMARY KEY, s VARCHAR(10));
-- the defect (MySQL 9.7 with binlog_transaction_compression=ON): this transaction is written as
-- one Transaction_payload holding its Table_map, Write_rows and Xid
INSERT INTO d.t VALUES (1, 'a'), (2, 'b');
SET SESSION binlog_transaction_compression = OFF;
-- the control: an uncompressed transaction
INSERT INTO d.t VALUES (3, 'c');
