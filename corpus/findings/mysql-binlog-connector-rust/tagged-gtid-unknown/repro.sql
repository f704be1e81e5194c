-- MySQL 9.7, gtid_mode=ON, enforce_gtid_consistency=ON: one tagged transaction (GTID_TAGGED_LOG_EVENT, type 42) between two untagged ones (GTID_LOG_EVENT, type 33)
DROP DATABASE IF EXISTS mbcr_tg;
CREATE DATABASE mbcr_tg;
CREATE TABLE mbcr_tg.t (id INT PRIMARY KEY);
SET gtid_next = 'AUTOMATIC:conformance';
INSERT INTO mbcr_tg.t VALUES (1);
SET gtid_next = 'AUTOMATIC';
INSERT INTO mbcr_tg.t VALUES (2);
