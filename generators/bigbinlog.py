"""A large ROW-format binlog of mixed column types from a real server (benchmarks).

Rows are generated server-side (SHA2, not MD5/SHA1: MySQL 9.7 has
neither) with INSERT ... SELECT over a 10,000-row number
table, so the client round trips stay few; durability is switched off because
only the binlog's content matters, not crash safety. Every few batches an
UPDATE and a DELETE add before/after images and delete events to the mix.
"""
from __future__ import annotations

import time
from pathlib import Path

from .profiles import ServerProfile
from .server import Server, running_server

BATCH_ROWS = 10_000      # rows per INSERT ... SELECT (one transaction)
BATCHES_PER_CALL = 4     # transactions per client call (each call is a docker exec)
MAX_MB = 1000            # max_binlog_size is 1G; larger would rotate

SETUP = """\
CREATE DATABASE IF NOT EXISTS bench;
USE bench;
SET SESSION sql_log_bin = 0;
CREATE TABLE digits (d INT PRIMARY KEY);
INSERT INTO digits VALUES (0),(1),(2),(3),(4),(5),(6),(7),(8),(9);
CREATE TABLE seq (n INT PRIMARY KEY);
INSERT INTO seq SELECT a.d + 10*b.d + 100*c.d + 1000*e.d FROM digits a, digits b, digits c, digits e;
SET SESSION sql_log_bin = 1;
CREATE TABLE t (
  id BIGINT UNSIGNED NOT NULL AUTO_INCREMENT PRIMARY KEY,
  i INT, bi BIGINT, si SMALLINT, ti TINYINT UNSIGNED,
  d DECIMAL(18,4), f FLOAT, dbl DOUBLE,
  dt DATETIME(6), ts TIMESTAMP(3) NULL, dte DATE, tm TIME(2), y YEAR,
  vc VARCHAR(64), ch CHAR(16), txt TEXT, bl BLOB,
  e ENUM('red','green','blue'), st SET('a','b','c','d'), j JSON, bt BIT(12)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4;
"""

INSERT_BATCH = """\
INSERT INTO t (i, bi, si, ti, d, f, dbl, dt, ts, dte, tm, y, vc, ch, txt, bl, e, st, j, bt)
SELECT
  n * 7919 - 40000000, (n + @b) * 1000003 - 5000000000, n % 65536 - 32768, n % 256,
  (n * 13.0001) - 50000, n / 7.0, (n + @b) * 3.14159265358979,
  TIMESTAMPADD(MICROSECOND, (n + @b) * 987654, '2001-01-01 00:00:00'),
  IF(n % 17 = 0, NULL, FROM_UNIXTIME(1000000000 + (n + @b) * 61 + 0.123)),
  DATE_ADD('1990-01-01', INTERVAL (n + @b) % 20000 DAY),
  SEC_TO_TIME((n % 86400) - 43200 + 0.25), 1901 + n % 255,
  LEFT(SHA2(n + @b, 256), 32), LEFT(SHA2(n, 224), 1 + n % 16),
  IF(n % 11 = 0, NULL, REPEAT(CONCAT(LEFT(SHA2(n, 256), 32), ' '), 1 + n % 8)),
  UNHEX(SHA2(n + @b, 256)),
  ELT(1 + n % 3, 'red', 'green', 'blue'), MAKE_SET(n % 16, 'a', 'b', 'c', 'd'),
  JSON_OBJECT('n', n, 'b', @b, 's', LEFT(SHA2(n, 256), 16), 'f', n / 3, 'a', JSON_ARRAY(n % 2 = 0, NULL, 'x')),
  n % 4096
FROM seq WHERE n < {rows};
SET @b = @b + {rows};
"""

MIX_BATCH = """\
UPDATE t SET vc = CONCAT('u-', vc), i = i + 1, j = JSON_SET(j, '$.u', 1) WHERE id % 50 = @b % 50 LIMIT 2000;
DELETE FROM t WHERE id % 97 = @b % 97 LIMIT 500;
"""


def fast_settings(profile: ServerProfile) -> dict[str, str]:
    """ROW format, one binlog file, durability off, room for big transactions."""
    s = {"binlog_format": "ROW", "binlog_row_image": "FULL", "max_binlog_size": "1073741824",
         "sync_binlog": "0", "innodb_flush_log_at_trx_commit": "0",
         "innodb_buffer_pool_size": "536870912", "innodb_doublewrite": "0",
         "binlog_cache_size": "16777216", "max_allowed_packet": "67108864"}
    if profile.flavor == "mysql":
        s["innodb_redo_log_capacity"] = "1073741824"
    else:
        s["innodb_log_file_size"] = "536870912"
    return s


def _fill(server: Server, target: int) -> None:
    server.execute(SETUP)
    calls = 0
    while (size := server.binlog_sizes()[server.binlog_files()[-1]]) < target:
        script = ["USE bench;", "SET time_zone = '+00:00';",
                  "SET @b = (SELECT COALESCE(MAX(id), 0) FROM t);"]
        for k in range(BATCHES_PER_CALL):
            script.append(INSERT_BATCH.format(rows=BATCH_ROWS))
            if (calls * BATCHES_PER_CALL + k) % 5 == 4:
                script.append(MIX_BATCH)
        server.execute("\n".join(script))
        calls += 1
        print(f"[bigbinlog] {size / 2**20:.1f} MiB before call {calls}", flush=True)


def make_big_binlog(profile: ServerProfile, out: Path, mb: int = 100) -> Path:
    """Write one binlog file of at least `mb` MiB to `out` (exact server bytes)."""
    if not 0 < mb <= MAX_MB:
        raise ValueError(f"--mb must be in 1..{MAX_MB}")
    t0 = time.monotonic()
    with running_server(profile, fast_settings(profile)) as server:
        server.flush_logs()  # start from a fresh file: nothing from server start-up
        source = server.binlog_files()[-1]
        _fill(server, mb * 2**20)
        server.flush_logs()
        out.parent.mkdir(parents=True, exist_ok=True)
        server.copy_file(f"{server.binlog_dir()}/{source}", out)
        print(f"[bigbinlog] {profile.name} {server.version()}: {source} -> {out} "
              f"in {time.monotonic() - t0:.0f}s", flush=True)
    return out
