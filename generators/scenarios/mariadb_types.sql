-- flavors: mariadb
-- min_version: mariadb 10.5
-- events: ANNOTATE_ROWS_EVENT, TABLE_MAP_EVENT, WRITE_ROWS_EVENT_V1, GTID_EVENT
-- columns: BLOB, STRING
CREATE DATABASE IF NOT EXISTS mdb;
CREATE TABLE mdb.t (id INT PRIMARY KEY, j JSON, i6 INET6 NULL, i4 INET6 NULL);
INSERT INTO mdb.t VALUES (1, '{"a": [1, 2, {"b": null}]}', '2001:db8::1', '::ffff:192.0.2.1');
INSERT INTO mdb.t VALUES (2, NULL, NULL, '::'), (3, '[]', 'ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', NULL);
DROP DATABASE mdb;
