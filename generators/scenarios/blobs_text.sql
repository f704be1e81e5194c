-- flavors: mysql, mariadb
-- min_version: mysql 5.6, mariadb 10.5
-- events: TABLE_MAP_EVENT, WRITE_ROWS_EVENT, UPDATE_ROWS_EVENT
-- columns: BLOB
CREATE DATABASE IF NOT EXISTS bl;
CREATE TABLE bl.b (id INT PRIMARY KEY, tb TINYBLOB, b BLOB, mb MEDIUMBLOB, lb LONGBLOB, tt TINYTEXT, t TEXT, mt MEDIUMTEXT CHARACTER SET utf8mb4, lt LONGTEXT CHARACTER SET latin1);
INSERT INTO bl.b VALUES (1, '', '', '', '', '', '', '', '');
INSERT INTO bl.b VALUES (2, REPEAT('a', 255), REPEAT('b', 65535), REPEAT('c', 300), REPEAT('d', 300), REPEAT('e', 255), REPEAT('f', 1000), REPEAT('ü', 1000), REPEAT('g', 5000));
INSERT INTO bl.b VALUES (3, X'00FF', X'00', X'DEADBEEF', X'0102', 'x', 'y', '😀', 'z');
INSERT INTO bl.b VALUES (4, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL);
UPDATE bl.b SET t = 'updated' WHERE id = 3;
DROP DATABASE bl;
