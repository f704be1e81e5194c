-- flavors: mysql, mariadb
-- min_version: mysql 5.6, mariadb 10.5
-- settings: binlog_format=STATEMENT
-- events: QUERY_EVENT, INTVAR_EVENT, RAND_EVENT, USER_VAR_EVENT, XID_EVENT
-- columns:
CREATE DATABASE IF NOT EXISTS sc;
CREATE TABLE sc.t (id INT AUTO_INCREMENT PRIMARY KEY, v VARCHAR(100), r DOUBLE);
SET @s = 'text value', @i = -42, @u = CAST(18446744073709551615 AS UNSIGNED), @d = 1.5e10, @dec = CAST(-123.45 AS DECIMAL(10,2)), @n = NULL;
INSERT INTO sc.t (v) VALUES (@s), (CONCAT(@i, ',', @u, ',', @d, ',', @dec, ',', IFNULL(@n, 'null')));
INSERT INTO sc.t (v, r) VALUES ('rand', RAND());
INSERT INTO sc.t (id, v) VALUES (100, 'explicit');
INSERT INTO sc.t (v) VALUES ('after');
INSERT INTO sc.t (v) VALUES (LAST_INSERT_ID());
SET @x = 5;
UPDATE sc.t SET v = @x WHERE id = 1;
DROP DATABASE sc;
