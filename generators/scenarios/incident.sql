-- flavors: mysql, mariadb
-- min_version: mysql 5.6, mariadb 10.5
-- events: INCIDENT_EVENT
-- columns: LONG, BLOB
-- settings: max_binlog_stmt_cache_size=4096
CREATE DATABASE IF NOT EXISTS inc;
CREATE TABLE inc.m (id INT PRIMARY KEY, b LONGBLOB) ENGINE=MyISAM;
INSERT INTO inc.m VALUES (1, REPEAT('x', 20000)) /* expect-error 1705 */;
INSERT INTO inc.m VALUES (2, 'after');
DROP DATABASE inc;
