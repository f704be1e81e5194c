-- flavors: mysql, mariadb
-- min_version: mysql 5.7.7, mariadb 10.5
-- events: XA_PREPARE_LOG_EVENT, QUERY_EVENT
-- columns: LONG
CREATE DATABASE IF NOT EXISTS xa;
CREATE TABLE xa.t (id INT PRIMARY KEY) ENGINE=InnoDB;
XA START 'gtrid1', 'bqual1', 1;
INSERT INTO xa.t VALUES (1);
XA END 'gtrid1', 'bqual1', 1;
XA PREPARE 'gtrid1', 'bqual1', 1;
XA COMMIT 'gtrid1', 'bqual1', 1;
XA START X'0102ff', X'00', 7;
INSERT INTO xa.t VALUES (2);
XA END X'0102ff', X'00', 7;
XA PREPARE X'0102ff', X'00', 7;
XA ROLLBACK X'0102ff', X'00', 7;
XA START 'onephase';
INSERT INTO xa.t VALUES (3);
XA END 'onephase';
XA COMMIT 'onephase' ONE PHASE;
DROP DATABASE xa;
