-- flavors: mariadb
-- min_version: mariadb 11.7
-- events: TABLE_MAP_EVENT, WRITE_ROWS_EVENT
-- columns: VECTOR
CREATE DATABASE IF NOT EXISTS mvec;
CREATE TABLE mvec.v (id INT PRIMARY KEY, v VECTOR(3) NOT NULL);
INSERT INTO mvec.v VALUES (1, VEC_FromText('[1, 2.5, -3]'));
DROP DATABASE mvec;
