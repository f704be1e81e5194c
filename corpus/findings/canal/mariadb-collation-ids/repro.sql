CREATE DATABASE d;
CREATE TABLE d.t (id INT PRIMARY KEY, s VARCHAR(10));
-- the defect: on MariaDB 11.x every Query event carries the session's collation ids in
-- Q_CHARSET_CODE, and 11.x's default utf8mb4_uca1400_ai_ci is 2304; run on MariaDB 10.11
-- (utf8mb4_general_ci, 45), the same statements decode: the control
INSERT INTO d.t VALUES (1, 'a');
