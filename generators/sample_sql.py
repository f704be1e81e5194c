"""SQL that makes interesting binlogs: every column type at its extremes, the
statement-format side events (User_var, Intvar, Rand, LOAD DATA), XA, stored
routines. Written once for both flavors; the few differences are parameters.
"""
from __future__ import annotations

from .profiles import ServerProfile

ALL_TYPES_DDL = """\
CREATE DATABASE IF NOT EXISTS corpus;
USE corpus;
CREATE TABLE all_types (
  id INT NOT NULL AUTO_INCREMENT PRIMARY KEY,
  c_tinyint TINYINT, c_tinyint_u TINYINT UNSIGNED, c_smallint SMALLINT,
  c_smallint_u SMALLINT UNSIGNED, c_mediumint MEDIUMINT, c_mediumint_u MEDIUMINT UNSIGNED,
  c_int INT, c_int_u INT UNSIGNED, c_bigint BIGINT, c_bigint_u BIGINT UNSIGNED,
  c_decimal DECIMAL(20,6), c_decimal_small DECIMAL(5,2), c_decimal_wide DECIMAL(65,30),
  c_float FLOAT, c_double DOUBLE,
  c_bit1 BIT(1), c_bit10 BIT(10), c_bit64 BIT(64),
  c_date DATE, c_time TIME, c_time3 TIME(3), c_time6 TIME(6),
  c_datetime DATETIME, c_datetime6 DATETIME(6),
  c_timestamp TIMESTAMP NULL DEFAULT NULL, c_timestamp3 TIMESTAMP(3) NULL DEFAULT NULL,
  c_year YEAR,
  c_char CHAR(10) CHARACTER SET latin1, c_char_utf8 CHAR(10) CHARACTER SET utf8mb4,
  c_char_long CHAR(255) CHARACTER SET utf8mb4,
  c_varchar VARCHAR(255) CHARACTER SET utf8mb4, c_varchar_latin1 VARCHAR(300) CHARACTER SET latin1,
  c_binary BINARY(8), c_varbinary VARBINARY(64),
  c_tinytext TINYTEXT, c_text TEXT, c_mediumtext MEDIUMTEXT, c_longtext LONGTEXT,
  c_tinyblob TINYBLOB, c_blob BLOB, c_mediumblob MEDIUMBLOB, c_longblob LONGBLOB,
  c_enum ENUM('a','b','c'), c_enum_big ENUM({enum_big}), c_set SET('x','y','z'),
  c_set_big SET({set_big}),
  c_json JSON,
  c_geometry GEOMETRY, c_point POINT
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4;
CREATE TABLE no_pk (a INT, b VARCHAR(20)) ENGINE=InnoDB;
CREATE TABLE myisam_t (id INT PRIMARY KEY, v VARCHAR(20)) ENGINE=MyISAM;
{wide_ddl}
"""

_COLS = ("c_tinyint, c_tinyint_u, c_smallint, c_smallint_u, c_mediumint, c_mediumint_u, "
         "c_int, c_int_u, c_bigint, c_bigint_u, c_decimal, c_decimal_small, c_decimal_wide, "
         "c_float, c_double, c_bit1, c_bit10, c_bit64, c_date, c_time, c_time3, c_time6, "
         "c_datetime, c_datetime6, c_timestamp, c_timestamp3, c_year, c_char, c_char_utf8, "
         "c_char_long, c_varchar, c_varchar_latin1, c_binary, c_varbinary, c_tinytext, c_text, "
         "c_mediumtext, c_longtext, c_tinyblob, c_blob, c_mediumblob, c_longblob, c_enum, "
         "c_enum_big, c_set, c_set_big, c_json, c_geometry, c_point")

ROW_TYPICAL = """(
  -5, 200, -1234, 60000, -100000, 16000000, -123456789, 4000000000, -1234567890123, 12345678901234567890,
  -1234.5678, 3.14, 1234567890123456789012345678901234.567890123456789012345678901234,
  1.5, -2.25e-300, b'1', b'1010101010', b'1000000000000000000000000000000000000000000000000000000000000001',
  '2024-02-29', '12:34:56', '-01:02:03.450', '23:59:59.999999',
  '2024-02-29 12:34:56', '2024-02-29 12:34:56.000001', '2024-02-29 12:34:56', '2024-02-29 12:34:56.789',
  2024, 'abc', 'ü€😀', 'x', 'plain ascii', 'latin1 é', x'0102', x'DEADBEEF', 'tiny', 'text',
  'medium', 'long', x'00FF', x'0001FF', x'CAFE', x'BABE', 'b', 'v200', 'x,z', 's0,s63',
  '{"a": 1, "b": [true, false, null], "c": {"d": "e\\\\u00e9 \\\\"q\\\\""}, "big": 18446744073709551615, "neg": -9223372036854775808, "f": 3.14159, "s": "😀", "eo": {}, "ea": []}',
  ST_GeomFromText('POLYGON((0 0,10 0,10 10,0 10,0 0),(2 2,3 2,3 3,2 2))'), ST_GeomFromText('POINT(1.5 -2.5)'))"""

ROW_MAX = """(
  127, 255, 32767, 65535, 8388607, 16777215, 2147483647, 4294967295, 9223372036854775807, 18446744073709551615,
  99999999999999.999999, 999.99, 99999999999999999999999999999999999.999999999999999999999999999999,
  3.402823e38, 1.7976931348623157e308, b'1', b'1111111111', b'1111111111111111111111111111111111111111111111111111111111111111',
  '9999-12-31', '838:59:59', '838:59:59.000', '838:59:59.000000',
  '9999-12-31 23:59:59', '9999-12-31 23:59:59.999999', '2038-01-19 03:14:07', '2038-01-19 03:14:07.999',
  2155, REPEAT('z', 10), REPEAT('😀', 10), REPEAT('é', 255), REPEAT('é', 255), REPEAT('x', 300),
  x'FFFFFFFFFFFFFFFF', REPEAT(x'AB', 64), REPEAT('t', 255), REPEAT('T', 65535),
  REPEAT('m', 70000), REPEAT('L', 200000), REPEAT(x'01', 255), REPEAT(x'02', 65535),
  REPEAT(x'03', 70000), REPEAT(x'04', 200000), 'c', 'v299', 'x,y,z', {set_all},
  JSON_OBJECT('k', REPEAT('x', 70000), 'arr', JSON_ARRAY(1, 2.5, 'three', NULL, TRUE)),
  ST_GeomFromText('MULTIPOINT(0 0,1 1,2 2)'), ST_GeomFromText('POINT(180 90)'))"""

ROW_MIN = """(
  -128, 0, -32768, 0, -8388608, 0, -2147483648, 0, -9223372036854775808, 0,
  -99999999999999.999999, -999.99, -99999999999999999999999999999999999.999999999999999999999999999999,
  -3.402823e38, -1.7976931348623157e308, b'0', b'0', b'0',
  '1000-01-01', '-838:59:59', '-838:59:59.000', '-838:59:59.000000',
  '1000-01-01 00:00:00', '1000-01-01 00:00:00.000000', '1970-01-01 00:00:01', '1970-01-01 00:00:01.000',
  1901, '', '', '', '', '', x'0000000000000000', '', '', '', '', '', '', '', '', '', 'a', 'v0', '', '',
  JSON_ARRAY(), ST_GeomFromText('LINESTRING(0 0,1 1)'), ST_GeomFromText('POINT(0 0)'))"""

ROW_NULLS = "(" + ", ".join(["NULL"] * 49) + ")"

# MySQL stores DATETIME/DECIMAL/TIME/DATE inside JSON as opaque values; MariaDB as strings.
JSON_OPAQUE = ("JSON_ARRAY(CAST('2024-01-01 12:00:00.5' AS DATETIME(1)), CAST(1.50 AS DECIMAL(5,2)), "
               "CAST('12:00:01' AS TIME), CAST('2024-01-01' AS DATE), 1.0e0, -1, 65536, 4294967296)")


def _wide_ddl(ncols: int = 300) -> str:
    """A table with more than 250 columns: column counts and bitmaps need
    multi-byte packed lengths."""
    cols = ", ".join(f"c{i} INT" for i in range(ncols))
    return f"CREATE TABLE wide (id INT PRIMARY KEY, {cols}) ENGINE=InnoDB;"


def setup_sql() -> str:
    enum_big = ", ".join(f"'v{i}'" for i in range(300))  # >255 values: 2-byte enum
    set_big = ", ".join(f"'s{i}'" for i in range(64))     # 64 members: 8-byte set
    return ALL_TYPES_DDL.format(enum_big=enum_big, set_big=set_big, wide_ddl=_wide_ddl())


def row_dml(profile: ServerProfile) -> str:
    """Inserts, updates, deletes over all types; XA; a stored procedure; MyISAM."""
    set_all = "'" + ",".join(f"s{i}" for i in range(64)) + "'"
    wide_vals = ", ".join(str(i) for i in range(301))
    vector = _vector_sql(profile)
    return f"""\
USE corpus;
SET time_zone = '+00:00';
INSERT INTO all_types ({_COLS}) VALUES {ROW_TYPICAL};
INSERT INTO all_types ({_COLS}) VALUES {ROW_MAX.format(set_all=set_all)}, {ROW_MIN}, {ROW_NULLS};
INSERT INTO all_types (c_json) VALUES ({JSON_OPAQUE});
SET SESSION sql_mode = '';
INSERT INTO all_types (c_date, c_datetime, c_datetime6, c_timestamp) VALUES
  ('0000-00-00', '0000-00-00 00:00:00', '0000-00-00 00:00:00.000000', '0000-00-00 00:00:00'),
  ('2024-00-15', '2024-01-00 10:00:00', '2024-01-01 00:00:00.5', NULL);
SET SESSION sql_mode = DEFAULT;
UPDATE all_types SET c_int = c_int + 1, c_varchar = CONCAT('upd-', c_varchar) WHERE id = 1;
UPDATE all_types SET c_text = 'now text', c_json = NULL WHERE id = 5;
UPDATE all_types SET c_tinyint = 1 WHERE id IN (3, 4);
DELETE FROM all_types WHERE id = 3;
INSERT INTO no_pk VALUES (1, 'a'), (1, 'a'), (2, NULL);
UPDATE no_pk SET b = 'dup' WHERE a = 1;
DELETE FROM no_pk WHERE a = 2;
INSERT INTO myisam_t VALUES (1, 'myisam');
INSERT INTO wide VALUES ({wide_vals});
UPDATE wide SET c299 = -1 WHERE id = 0;
BEGIN;
INSERT INTO no_pk VALUES (10, 'multi'), (11, 'statement');
UPDATE all_types SET c_double = 0.0 WHERE id = 1;
DELETE FROM no_pk WHERE a = 10;
COMMIT;
BEGIN;
INSERT INTO no_pk VALUES (99, 'rolled back');
ROLLBACK;
XA START 'xa-corpus-1';
INSERT INTO no_pk VALUES (20, 'xa two-phase');
XA END 'xa-corpus-1';
XA PREPARE 'xa-corpus-1';
XA COMMIT 'xa-corpus-1';
XA START 'xa-corpus-2';
INSERT INTO no_pk VALUES (21, 'xa one-phase');
XA END 'xa-corpus-2';
XA COMMIT 'xa-corpus-2' ONE PHASE;
DELIMITER //
CREATE PROCEDURE fill_no_pk(n INT)
BEGIN
  DECLARE i INT DEFAULT 0;
  WHILE i < n DO
    INSERT INTO no_pk VALUES (100 + i, CONCAT('proc ', i));  -- a comment inside the body
    SET i = i + 1;
  END WHILE;
END//
DELIMITER ;
CALL fill_no_pk(3);
/* a comment before a statement */ INSERT INTO no_pk VALUES (200, 'commented');
{vector}
TRUNCATE TABLE no_pk;
ALTER TABLE no_pk ADD COLUMN c DATETIME(6) NULL;
INSERT INTO no_pk VALUES (300, 'after alter', '2001-02-03 04:05:06.070809');
"""


def _vector_sql(profile: ServerProfile) -> str:
    """VECTOR columns exist in MySQL 9.0+ and MariaDB 11.7+ (different syntax)."""
    major, minor = (int(x) for x in profile.version.split(".")[:2])
    if profile.flavor == "mysql" and major >= 9:
        return ("CREATE TABLE vec (id INT PRIMARY KEY, v VECTOR(4));\n"
                "INSERT INTO vec VALUES (1, STRING_TO_VECTOR('[1, 2.5, -3, 1e-7]')), (2, NULL);")
    if profile.flavor == "mariadb" and (major, minor) >= (11, 7):
        return ("CREATE TABLE vec (id INT PRIMARY KEY, v VECTOR(4));\n"
                "INSERT INTO vec VALUES (1, VEC_FromText('[1, 2.5, -3, 1e-7]'));")
    return ""


def statement_dml(load_dir: str | None) -> str:
    """Statement-format side events: User_var, Intvar (INSERT_ID/LAST_INSERT_ID),
    Rand, and LOAD DATA (Begin_load_query/Execute_load_query) if a dir is allowed."""
    load = ""
    if load_dir is not None:
        path = f"{load_dir.rstrip('/')}/corpus_load.txt"
        load = f"""\
SELECT id, v INTO OUTFILE '{path}' FROM stmt_t;
LOAD DATA INFILE '{path}' INTO TABLE stmt_load (id, v);
"""
    return f"""\
USE corpus;
CREATE TABLE stmt_t (id INT AUTO_INCREMENT PRIMARY KEY, v VARCHAR(100), r DOUBLE, n BIGINT UNSIGNED, d DECIMAL(10,3));
CREATE TABLE stmt_load (id INT, v VARCHAR(100));
SET @s = _utf8mb4'hällo', @b = _latin1 x'6ce474696e', @i = -42, @u = CAST(18446744073709551615 AS UNSIGNED),
    @d = 3.141, @r = 1e10, @n = NULL;
INSERT INTO stmt_t (v, n, d, r) VALUES (@s, @u, @d, @r);
INSERT INTO stmt_t (v, n) VALUES (@b, @n);
INSERT INTO stmt_t (v, r) VALUES ('rand', RAND());
INSERT INTO stmt_t (v) VALUES ('auto');
INSERT INTO stmt_t (v, n) VALUES ('last id', LAST_INSERT_ID());
INSERT INTO stmt_t (id, v) VALUES (1000, 'explicit id');
UPDATE stmt_t SET d = d * 2 WHERE id <= 2;
DELETE FROM stmt_t WHERE id = 2;
BEGIN;
INSERT INTO stmt_t (v) VALUES ('in trx 1');
INSERT INTO stmt_t (v) VALUES ('in trx 2');
COMMIT;
{load}DROP TABLE stmt_load;
"""


def mixed_dml() -> str:
    """MIXED format: safe statements logged as statements, unsafe ones as rows."""
    return """\
USE corpus;
CREATE TABLE mixed_t (id INT PRIMARY KEY, u VARCHAR(64));
INSERT INTO mixed_t VALUES (1, 'safe');
INSERT INTO mixed_t VALUES (2, UUID());
UPDATE mixed_t SET u = 'x' WHERE id = 1 LIMIT 1;
"""


def minimal_image_dml(profile: ServerProfile) -> str:
    """binlog_row_image=MINIMAL (+ partial JSON updates on MySQL)."""
    partial = ""
    if profile.flavor == "mysql":
        partial = """\
SET SESSION binlog_row_value_options = 'PARTIAL_JSON';
UPDATE all_types SET c_json = JSON_SET(c_json, '$.a', 2, '$.new', 'v') WHERE id = 1;
UPDATE all_types SET c_json = JSON_REPLACE(c_json, '$.arr[1]', 99) WHERE id = 2;
UPDATE all_types SET c_json = JSON_REMOVE(c_json, '$.k') WHERE id = 2;
"""
    return f"""\
USE corpus;
SET SESSION binlog_row_image = 'MINIMAL';
INSERT INTO all_types (c_int, c_varchar) VALUES (7, 'minimal');
UPDATE all_types SET c_int = 8 WHERE c_varchar = 'minimal';
UPDATE wide SET c5 = 5, c250 = 250 WHERE id = 0;
DELETE FROM all_types WHERE c_varchar = 'minimal';
{partial}"""


def compressed_dml() -> str:
    """Large, compressible transactions (Transaction_payload / compressed events)."""
    return """\
USE corpus;
INSERT INTO all_types (c_int, c_longtext, c_longblob) VALUES
  (1, REPEAT('compress me ', 10000), REPEAT(x'00', 50000)), (2, 'small', NULL);
UPDATE all_types SET c_longtext = REPEAT('again ', 5000) WHERE c_int = 1;
BEGIN;
INSERT INTO no_pk (a, b) VALUES (400, 'c1'), (401, 'c2');
DELETE FROM no_pk WHERE a = 400;
COMMIT;
SET SESSION binlog_format = 'STATEMENT';
INSERT INTO no_pk (a, b) VALUES (402, 'stmt compressed');
SET SESSION binlog_format = 'ROW';
"""


def nochecksum_dml() -> str:
    return """\
USE corpus;
INSERT INTO no_pk (a, b) VALUES (500, 'no checksum');
UPDATE no_pk SET b = 'no checksum upd' WHERE a = 500;
"""
