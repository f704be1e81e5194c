CREATE DATABASE d;
CREATE TABLE d.t (id INT PRIMARY KEY);
INSERT INTO d.t VALUES (1);
-- the defect: an XA transaction's GTID event cannot be replaced for a replica that announced no
-- MariaDB capability (open-replicator never sets @mariadb_slave_capability): the server ends the
-- dump with error 1236
XA START 'x'; INSERT INTO d.t VALUES (2); XA END 'x'; XA PREPARE 'x'; XA COMMIT 'x';
-- the control: the plain transaction above was delivered
SELECT 1;
