-- MySQL (run on 9.7): one row event of about 1 MB, so one replication packet is long enough for
-- the connection to be closed in its middle (the test's TCP proxy closes it after 300 KB).
DROP DATABASE IF EXISTS bc;
CREATE DATABASE bc;
CREATE TABLE bc.big (id INT PRIMARY KEY, b LONGBLOB);
INSERT INTO bc.big VALUES (1, REPEAT('x', 1000000));
