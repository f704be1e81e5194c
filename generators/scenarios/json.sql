-- flavors: mysql
-- min_version: mysql 5.7
-- events: TABLE_MAP_EVENT, WRITE_ROWS_EVENT, UPDATE_ROWS_EVENT
-- columns: JSON
CREATE DATABASE IF NOT EXISTS js;
CREATE TABLE js.j (id INT PRIMARY KEY, j JSON);
INSERT INTO js.j VALUES (1, '{}'), (2, '[]'), (3, 'null'), (4, 'true'), (5, 'false'), (6, '0'), (7, '-1'), (8, '"str"');
INSERT INTO js.j VALUES (9, '{"a": 1, "b": [1, 2.5, "x", null, true, false], "c": {"d": {"e": [[]]}}}');
INSERT INTO js.j VALUES (10, '[32767, 32768, -32768, -32769, 2147483647, 2147483648, -2147483649, 9223372036854775807, 18446744073709551615, -9223372036854775808, 1e300, -0.5, 3.14159]');
INSERT INTO js.j VALUES (11, JSON_OBJECT('date', CAST('2024-02-29' AS DATE), 'time', CAST('-12:34:56.789' AS TIME(3)), 'datetime', CAST('2024-02-29 12:34:56.123456' AS DATETIME(6)), 'decimal', CAST(-123.456 AS DECIMAL(10,3)), 'bin', CAST(x'00ff' AS BINARY)));
INSERT INTO js.j VALUES (12, '{"unicode": "héllo ✓ 😀", "esc": "quote\\" backslash\\\\ tab\\t nl\\n ctl\\u0001", "empty": ""}');
INSERT INTO js.j VALUES (13, @@BIG_JSON_70K@@);
INSERT INTO js.j VALUES (14, @@DEEP_JSON_90@@);
INSERT INTO js.j VALUES (15, NULL);
UPDATE js.j SET j = JSON_SET(j, '$.a', 2) WHERE id = 9;
DROP DATABASE js;
