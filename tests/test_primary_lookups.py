"""The column lookups stream CDC clients make of the primary before decoding rows (issue 13),
asked by real clients: @vlasky/zongji's prepared statement through mysql2 (the npm package the
Node peers install), and go-mysql canal's SHOW INDEX and information_schema.TABLES through
PyMySQL. Also binlog_row_metadata, which python-mysql-replication reads to decide whether to
trust the Table_map's column metadata."""
from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from harness import peers
from tests.peers_fixtures import installed  # noqa: F401 (a fixture)
from tests.primary_fixtures import PASSWORD, serving

pymysql = pytest.importorskip("pymysql")

ROOT = Path(__file__).resolve().parents[1]
FULL = ROOT / "corpus" / "mysql-9.7" / "integers--row"  # binlog_row_metadata=FULL: names, keys
MINIMAL = ROOT / "corpus" / "mysql-9.7" / "integers--row-minimal"
MARIADB_105 = ROOT / "corpus" / "mariadb-10.5" / "integers--row"

MYSQL2_SCRIPT = """
const mysql = require(require("path").join(process.env.MODULES, "mysql2"));
const c = mysql.createConnection({host: "127.0.0.1", port: Number(process.env.PORT), user: "root",
                                  password: process.env.PASSWORD});
const sql = "SELECT COLUMN_NAME, COLUMN_TYPE FROM INFORMATION_SCHEMA.COLUMNS WHERE TABLE_SCHEMA=? AND TABLE_NAME=?";
c.execute(sql, ["ints", "unsigned"], (e1, r1) => {
  c.execute(sql, ["ints", "absent"], (e2, r2) => {
    console.log(JSON.stringify({e1: e1 && e1.message, r1, e2: e2 && e2.message, r2}));
    c.end();
  });
});
"""


def _query(port: int, sql: str) -> list[tuple]:
    conn = pymysql.connect(host="127.0.0.1", port=port, user="root", password=PASSWORD)
    try:
        with conn.cursor() as cur:
            cur.execute(sql)
            return list(cur.fetchall())
    finally:
        conn.close()


def test_mysql2_prepared_column_lookup(installed: None, tmp_path: Path) -> None:  # noqa: F811
    with serving([FULL], tmp_path) as served:
        env = {**os.environ, "MODULES": str(peers.node_modules()), "PORT": str(served.port), "PASSWORD": PASSWORD}
        out = subprocess.run(["node", "-e", MYSQL2_SCRIPT], capture_output=True, text=True, env=env, timeout=60)
        assert out.returncode == 0, out.stderr
        reply = json.loads(out.stdout)
        assert reply["e1"] is None and reply["e2"] is None
        columns = [(r["COLUMN_NAME"], r["COLUMN_TYPE"]) for r in reply["r1"]]
        assert columns == [tuple(r[:2]) for r in _query(served.port, "SHOW COLUMNS FROM ints.unsigned")]
        assert ("ti", "tinyint unsigned") in columns and reply["r2"] == []
        assert "COM_STMT_PREPARE" in served.stderr() and "COM_STMT_EXECUTE" in served.stderr()


def test_show_index_and_information_schema_tables(tmp_path: Path) -> None:
    with serving([FULL], tmp_path) as served:
        index = _query(served.port, "show index from `ints`.`unsigned`")
        assert [(r[2], r[4]) for r in index] == [("PRIMARY", "id")]
        tables = _query(served.port, "SELECT * FROM INFORMATION_SCHEMA.TABLES WHERE TABLE_SCHEMA = 'ints' "
                                     "and TABLE_NAME = 'unsigned' LIMIT 1")
        assert [(r[1], r[2], r[3]) for r in tables] == [("ints", "unsigned", "BASE TABLE")]


@pytest.mark.parametrize("case, value", [(FULL, "FULL"), (MINIMAL, "MINIMAL"), (MARIADB_105, "FULL")])
def test_binlog_row_metadata_says_how_the_files_were_written(case: Path, value: str, tmp_path: Path) -> None:
    with serving([case], tmp_path) as served:
        assert _query(served.port, "SHOW VARIABLES LIKE 'BINLOG_ROW_METADATA'") == [("binlog_row_metadata", value)]
