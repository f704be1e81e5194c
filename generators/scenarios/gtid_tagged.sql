-- flavors: mysql
-- min_version: mysql 8.3
-- settings: gtid_mode=ON
-- events: GTID_TAGGED_LOG_EVENT, PREVIOUS_GTIDS_LOG_EVENT
-- columns: LONG
CREATE DATABASE IF NOT EXISTS gt;
CREATE TABLE gt.t (id INT PRIMARY KEY);
SET gtid_next = 'AUTOMATIC:conformance';
INSERT INTO gt.t VALUES (1);
SET gtid_next = 'AUTOMATIC';
INSERT INTO gt.t VALUES (2);
FLUSH BINARY LOGS;
INSERT INTO gt.t VALUES (3);
DROP DATABASE gt;
