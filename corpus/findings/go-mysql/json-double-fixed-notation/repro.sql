-- MySQL 5.7+ (run on 9.7): JSON doubles that MySQL prints in exponent form.
CREATE DATABASE IF NOT EXISTS gm;
CREATE TABLE gm.d (id INT PRIMARY KEY, j JSON);
-- control: 0.5 prints the same in both notations
INSERT INTO gm.d VALUES (1, '[0.5]');
-- the defect: MySQL's text is [1e300]; RenderJSONAsMySQLText gives the 301-digit expansion
INSERT INTO gm.d VALUES (2, '[1e300]');
