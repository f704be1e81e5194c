CREATE DATABASE d;
CREATE TABLE d.j (id INT PRIMARY KEY, j JSON, k JSON);
INSERT INTO d.j VALUES (1, '{"a": 1, "b": "long string value here"}', '[1, 2, 3]');
-- the control: a partial update of one JSON column (the last thing in the event)
UPDATE d.j SET k = JSON_REPLACE(k, '$[0]', 8) WHERE id = 1;
-- the defect: partial updates of two JSON columns in one row
UPDATE d.j SET j = JSON_SET(j, '$.a', 100), k = JSON_REPLACE(k, '$[0]', 9) WHERE id = 1;
