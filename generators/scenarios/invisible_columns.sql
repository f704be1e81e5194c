-- flavors: mysql
-- min_version: mysql 8.0.23
-- events: TABLE_MAP_EVENT, WRITE_ROWS_EVENT
-- columns: LONG
CREATE DATABASE IF NOT EXISTS inv;
CREATE TABLE inv.t (id INT PRIMARY KEY, a INT, h INT INVISIBLE DEFAULT 7);
INSERT INTO inv.t (id, a, h) VALUES (1, 2, 3);
INSERT INTO inv.t VALUES (2, 4);
DROP DATABASE inv;
