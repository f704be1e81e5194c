CREATE DATABASE d;
-- the defect: every MariaDB binlog's second event is Gtid_list (type 163), and each
-- transaction starts with a Gtid event (162): open-replicator looks its parser up in an array of
-- 128 entries and throws ArrayIndexOutOfBoundsException
CREATE TABLE d.t (id INT PRIMARY KEY);
-- the control: the Format_description before it decodes
INSERT INTO d.t VALUES (1);
