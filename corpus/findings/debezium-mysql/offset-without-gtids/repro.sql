CREATE DATABASE d;
CREATE TABLE d.t (id INT PRIMARY KEY, v VARCHAR(20));
-- the rows the connector should stream from binlog.000001 position 4 (server: gtid_mode=ON)
INSERT INTO d.t VALUES (1, 'one');
-- the control: the same offset with gtid.ignore.on.recovery=true streams this row too
INSERT INTO d.t VALUES (2, 'two');
