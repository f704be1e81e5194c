-- MySQL (run on 9.7): an UPDATE logged with binlog_row_image=MINIMAL on a table of 9 columns,
-- so the before image (the key alone) has a 1-byte NULL bitmap, the table 2 bytes' worth.
CREATE DATABASE IF NOT EXISTS bc;
CREATE TABLE bc.wide (id INT PRIMARY KEY, c1 INT, c2 INT, c3 INT, c4 INT, c5 INT, c6 INT, c7 INT, c8 INT);
-- control: the same table's rows with full images
INSERT INTO bc.wide VALUES (1, 1, 2, 3, 4, 5, 6, 7, 8);
UPDATE bc.wide SET c8 = 80 WHERE id = 1;
-- the defect: partial images
SET SESSION binlog_row_image = MINIMAL;
UPDATE bc.wide SET c8 = 800 WHERE id = 1;
