-- MySQL (run on 9.7): JSON documents holding opaque scalars (a TIME, a binary string).
CREATE DATABASE IF NOT EXISTS bc;
CREATE TABLE bc.j (id INT PRIMARY KEY, j JSON);
INSERT INTO bc.j VALUES
  (1, JSON_OBJECT('a', 1)),                         -- control: an object of plain scalars
  (2, CAST(CAST('25:00:00' AS TIME) AS JSON)),      -- MySQL prints "25:00:00.000000"
  (3, CAST(x'55' AS JSON));                         -- MySQL prints "base64:type15:VQ=="
SELECT id, CAST(j AS CHAR) FROM bc.j ORDER BY id;
