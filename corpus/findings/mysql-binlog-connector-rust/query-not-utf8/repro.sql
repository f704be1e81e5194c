-- MySQL (run on 9.7): a statement whose text is latin1, not UTF-8 (the client's SET NAMES latin1;
-- CHAR(0xe9) is 'é' in latin1, built with PREPARE because this file itself is UTF-8).
CREATE DATABASE IF NOT EXISTS bc;
-- control: the same statement in utf8mb4
CREATE TABLE bc.control (id INT PRIMARY KEY) COMMENT 'café';
SET NAMES latin1;
SET @s = CONCAT('CREATE TABLE bc.caf (id INT PRIMARY KEY) COMMENT ''caf', CHAR(0xe9), '''');
PREPARE st FROM @s;
EXECUTE st;
DEALLOCATE PREPARE st;
SET NAMES utf8mb4;
