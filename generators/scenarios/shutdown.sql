-- flavors: mysql, mariadb
-- min_version: mysql 5.6, mariadb 10.5
-- events: STOP_EVENT, QUERY_EVENT
-- columns: LONG
-- end: shutdown
CREATE DATABASE IF NOT EXISTS stp;
CREATE TABLE stp.t (id INT PRIMARY KEY);
INSERT INTO stp.t VALUES (1);
DROP DATABASE stp;
