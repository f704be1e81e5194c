"""A YEAR column takes a bit in Table_map's SIGNEDNESS field (MySQL 9.7 and MariaDB 10.11 write
one), so the numeric columns after it must read their own bits. Found by re-encoding real logs:
before the fix, a signed TINYINT after a YEAR decoded -1 as 255 and an INT UNSIGNED max as -1.
The binlogs are written by real servers in the test; MySQL's own mysqlbinlog
--print-table-metadata is the reference for the column signedness."""
from __future__ import annotations

import pytest

from generators.profiles import get
from generators.tools import run_mysqlbinlog
from oracle.decoder import decode_file
from tests.server_fixtures import start_server  # noqa: F401  (fixture)

SQL = ("CREATE DATABASE y; CREATE TABLE y.t (a YEAR, b TINYINT UNSIGNED, c TINYINT, d INT UNSIGNED, "
       "e YEAR, f SMALLINT); INSERT INTO y.t VALUES (2000, 255, -1, 4294967295, 1999, -2);")
EXPECTED = [2000, 255, -1, 4294967295, 1999, -2]


def _write_binlog(server, tmp_path):
    server.flush_logs()
    server.execute(SQL)
    server.flush_logs()
    return server.copy_binlogs(tmp_path, [server.binlog_files()[-2]])[0]


def _rows(path):
    return [row["values"] for e in decode_file(path) if e.type_name.startswith("WRITE_ROWS")
            for row in e.body["rows"]]


@pytest.mark.server
@pytest.mark.parametrize("profile", ["mysql-9.7", "mariadb-10.11"])
def test_columns_after_a_year_column_read_their_own_sign(profile, start_server, tmp_path):  # noqa: F811
    server = start_server(get(profile), {"binlog_format": "ROW", "binlog_row_metadata": "FULL"})
    path = _write_binlog(server, tmp_path)
    assert _rows(path) == [EXPECTED]
    if profile.startswith("mysql"):
        text = run_mysqlbinlog(path, ["-vvv", "--print-table-metadata"]).stdout.decode()
        assert "`c` TINYINT,\n" in text and "`d` INT UNSIGNED,\n" in text and "`f` SMALLINT)" in text
