-- flavors: mariadb
-- min_version: mariadb 10.7
-- events: TABLE_MAP_EVENT, WRITE_ROWS_EVENT_V1
-- columns: STRING
CREATE DATABASE IF NOT EXISTS muu;
CREATE TABLE muu.t (id INT PRIMARY KEY, u UUID NULL);
INSERT INTO muu.t VALUES (1, '123e4567-e89b-12d3-a456-426655440000'), (2, '00000000-0000-0000-0000-000000000000'), (3, 'ffffffff-ffff-ffff-ffff-ffffffffffff'), (4, NULL);
UPDATE muu.t SET u = '123e4567-e89b-12d3-a456-426614174000' WHERE id = 1;
DROP DATABASE muu;
