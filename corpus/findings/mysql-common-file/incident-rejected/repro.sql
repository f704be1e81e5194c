-- mysql_common: the Incident event MySQL 9.7 writes is rejected ("bytes remaining on stream
-- while reading IncidentEvent"). Needs max_binlog_stmt_cache_size=4096 on the server: a
-- non-transactional statement larger than the statement cache fails with error 1705 and the
-- server logs INCIDENT_LOST_EVENTS, then rotates.
CREATE DATABASE IF NOT EXISTS mc;
CREATE TABLE mc.i (id INT PRIMARY KEY, b LONGBLOB) ENGINE=MyISAM;
INSERT INTO mc.i VALUES (1, REPEAT('x', 20000));
