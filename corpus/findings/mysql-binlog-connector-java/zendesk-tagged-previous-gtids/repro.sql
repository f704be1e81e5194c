-- MySQL 8.3 or later with gtid_mode=ON, enforce_gtid_consistency=ON
CREATE DATABASE d;
CREATE TABLE d.t (id INT PRIMARY KEY);
SET gtid_next = 'AUTOMATIC:conformance';
INSERT INTO d.t VALUES (1);
SET gtid_next = 'AUTOMATIC';
-- the next binlog opens with a Previous_gtids event in the tagged format
FLUSH BINARY LOGS;
-- the control: the same statement, read by the Debezium line from that binlog
INSERT INTO d.t VALUES (2);
