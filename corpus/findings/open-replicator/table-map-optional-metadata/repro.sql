CREATE DATABASE d;
CREATE TABLE d.dates (d DATE);
INSERT INTO d.dates VALUES ('2024-01-02');
CREATE TABLE d.n (id INT PRIMARY KEY, s VARCHAR(10));
-- the defect: d.n's Table_map carries MySQL 8's optional metadata (SIGNEDNESS for the INT,
-- DEFAULT_CHARSET for the VARCHAR), written under the default binlog_row_metadata=MINIMAL;
-- d.dates (one DATE column) has none, so its row above decodes: the control
INSERT INTO d.n VALUES (1, 'a');
-- the control: after the defect, never reached
INSERT INTO d.dates VALUES ('2024-01-03');
