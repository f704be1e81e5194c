-- flavors: mysql, mariadb
-- min_version: mysql 5.7, mariadb 10.5
-- events: QUERY_EVENT
-- columns: LONG
CREATE DATABASE IF NOT EXISTS obj;
CREATE TABLE obj.t (id INT PRIMARY KEY, v INT);
CREATE TABLE obj.audit (id INT AUTO_INCREMENT PRIMARY KEY, msg VARCHAR(50));
CREATE USER 'binlog_u'@'localhost' IDENTIFIED BY 'pw-1';
GRANT SELECT ON obj.* TO 'binlog_u'@'localhost';
CREATE VIEW obj.v AS SELECT id, v * 2 AS v2 FROM obj.t;
DELIMITER //
CREATE PROCEDURE obj.p(IN n INT)
BEGIN
  INSERT INTO obj.t VALUES (n, n * 10);
END //
CREATE TRIGGER obj.trg AFTER INSERT ON obj.t FOR EACH ROW
BEGIN
  INSERT INTO obj.audit (msg) VALUES (CONCAT('inserted ', NEW.id));
END //
DELIMITER ;
CALL obj.p(1);
INSERT INTO obj.t VALUES (2, 20);
DROP TRIGGER obj.trg;
DROP PROCEDURE obj.p;
DROP VIEW obj.v;
DROP USER 'binlog_u'@'localhost';
DROP DATABASE obj;
