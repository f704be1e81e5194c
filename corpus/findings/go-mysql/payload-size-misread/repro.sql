-- MySQL 8.0.20+ (run on 9.7): a compressed transaction whose sizes are 251 or more.
SET SESSION binlog_transaction_compression = ON;
CREATE DATABASE IF NOT EXISTS gm;
CREATE TABLE gm.p (id INT PRIMARY KEY, b VARBINARY(1000));
-- control: a transaction whose compressed and uncompressed sizes are both below 251
INSERT INTO gm.p VALUES (1, 'x');
-- the defect: RANDOM_BYTES do not compress, so both sizes pass 251
INSERT INTO gm.p VALUES (2, RANDOM_BYTES(600));
