-- flavors: mysql, mariadb
-- min_version: mysql 5.6, mariadb 10.5
-- events: QUERY_EVENT, TABLE_MAP_EVENT, WRITE_ROWS_EVENT, UPDATE_ROWS_EVENT, DELETE_ROWS_EVENT, XID_EVENT, ROTATE_EVENT
-- columns: LONG, LONGLONG, VARCHAR, NEWDECIMAL, DATETIME2, BLOB, TINY
-- Leaves its tables in place (no DROP) so that a replica fed the case's binlogs can be compared
-- with the server that wrote them (CHECKSUM TABLE), and so the case records their schema
-- (case.json `tables`) for a primary's column lookups; a FLUSH in the middle makes the dump
-- captures (capture.json) cross a real Rotate from one case file to the next.
CREATE DATABASE IF NOT EXISTS kept;
CREATE TABLE kept.accounts (id INT UNSIGNED PRIMARY KEY, owner VARCHAR(40) NOT NULL, balance DECIMAL(12,2) NOT NULL DEFAULT 0, opened DATETIME(3), note TEXT, active TINYINT(1) NOT NULL DEFAULT 1) DEFAULT CHARSET=utf8mb4;
CREATE TABLE kept.ledger (seq BIGINT NOT NULL AUTO_INCREMENT PRIMARY KEY, account INT UNSIGNED NOT NULL, amount DECIMAL(12,2) NOT NULL, KEY (account));
INSERT INTO kept.accounts VALUES (1, 'ada', 100.00, '2024-01-02 03:04:05.678', NULL, 1), (2, 'bob', 5.50, NULL, 'ünïcødé', 1), (3, 'cy', 0, '1999-12-31 23:59:59.999', '', 0);
BEGIN;
INSERT INTO kept.ledger (account, amount) VALUES (1, -25.00), (2, 25.00);
UPDATE kept.accounts SET balance = balance - 25.00 WHERE id = 1;
UPDATE kept.accounts SET balance = balance + 25.00 WHERE id = 2;
COMMIT;
FLUSH BINARY LOGS;
DELETE FROM kept.accounts WHERE id = 3;
INSERT INTO kept.ledger (account, amount) VALUES (1, 0.01);
UPDATE kept.accounts SET note = REPEAT('x', 300), active = 0 WHERE id = 1;
