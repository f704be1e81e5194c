-- flavors: mysql, mariadb
-- min_version: mysql 5.6, mariadb 10.5
-- events: TABLE_MAP_EVENT, WRITE_ROWS_EVENT, UPDATE_ROWS_EVENT, DELETE_ROWS_EVENT
-- columns: STRING, VARCHAR, BLOB
CREATE DATABASE IF NOT EXISTS str;
CREATE TABLE str.s (id INT PRIMARY KEY,
  c_u4 CHAR(10) CHARACTER SET utf8mb4, v_u4 VARCHAR(100) CHARACTER SET utf8mb4,
  c_u3 CHAR(10) CHARACTER SET utf8mb3, v_u3 VARCHAR(300) CHARACTER SET utf8mb3,
  c_l1 CHAR(10) CHARACTER SET latin1, v_l1 VARCHAR(255) CHARACTER SET latin1, v_l1_long VARCHAR(256) CHARACTER SET latin1,
  c_bin CHAR(5) CHARACTER SET binary, b BINARY(6), vb VARBINARY(300),
  c_big CHAR(255) CHARACTER SET utf8mb4);
INSERT INTO str.s VALUES (1, 'abc', 'héllo wörld ✓ 😀', 'abc', 'naïve café', 'abc', 'déjà vu', REPEAT('x', 256), 'ab', 'ab', 'ab', 'tail  ');
INSERT INTO str.s VALUES (2, '', '', '', '', '', '', '', '', '', '', '');
INSERT INTO str.s VALUES (3, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL);
INSERT INTO str.s VALUES (4, '😀😀', REPEAT('é', 100), '日本語', REPEAT('ж', 300), 'ÿ', REPEAT('ñ', 255), 'a', X'00FF00', X'000000', X'00010200', REPEAT('😀', 255));
INSERT INTO str.s VALUES (5, 'quote''s', 'back\\slash', 'tab\tx', 'nl\nx', 'x', 'y', 'z', 'q', X'7F80', X'', 'z');
UPDATE str.s SET v_u4 = CONCAT(v_u4, '!') WHERE id IN (1, 2);
DELETE FROM str.s WHERE id = 2;
DROP DATABASE str;
