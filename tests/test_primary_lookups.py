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

from tests.peers_fixtures import installed, package_dir  # noqa: F401 (a fixture)
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
        env = {**os.environ, "MODULES": str(package_dir("@vlasky/zongji").parents[1]),  # mysql2 comes with it
               "PORT": str(served.port), "PASSWORD": PASSWORD}
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


# Cases whose Table_maps name no columns and no ENUM/SET members (binlog_row_metadata=MINIMAL;
# MariaDB 10.5 writes no optional metadata): the lookups answer with what the real server said
# (case.json `tables`, recorded from its information_schema.COLUMNS by generators/table_schema.py).
NAMELESS = [ROOT / "corpus" / "mysql-9.7" / "enum_set_bit--row-minimal",
            ROOT / "corpus" / "mysql-9.7" / "strings_charsets--row-minimal",
            ROOT / "corpus" / "mariadb-10.5" / "enum_set_bit--row-minimal"]
_COLUMNS = ("SELECT COLUMN_NAME, COLUMN_TYPE, DATA_TYPE, IS_NULLABLE, COLUMN_KEY, CHARACTER_SET_NAME, "
            "COLLATION_NAME, COLUMN_DEFAULT, EXTRA FROM information_schema.COLUMNS "
            "WHERE TABLE_SCHEMA = '{schema}' AND TABLE_NAME = '{table}' ORDER BY ORDINAL_POSITION")


def _recorded(case: Path) -> list[dict]:
    return json.loads((case / "case.json").read_text(encoding="utf-8"))["tables"]


def _server_said(t: dict) -> list[tuple]:
    return [(c["name"], c["type"], c["data_type"], "YES" if c["nullable"] else "NO", c["key"], c["charset"],
             c["collation"], c["default"], c["extra"]) for c in t["columns"]]


@pytest.mark.parametrize("case", NAMELESS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_a_minimal_case_is_described_as_the_real_server_described_it(case: Path, tmp_path: Path) -> None:
    from harness.primary.served import load
    recorded = _recorded(case)
    assert recorded and not load([str(case)]).named_table_maps  # the binlog itself names nothing
    with serving([case], tmp_path) as served:
        for t in recorded:
            got = _query(served.port, _COLUMNS.format(**t))
            assert [tuple(r) for r in got] == _server_said(t)
            assert not any(r[0].startswith("@") or "()" in r[1] for r in got)
            full = _query(served.port, f"SHOW FULL COLUMNS FROM `{t['schema']}`.`{t['table']}`")
            assert [(r[0], r[1], r[2], r[3]) for r in full] == [
                (c["name"], c["type"], c["collation"], "YES" if c["nullable"] else "NO") for c in t["columns"]]
            if t.get("create_table"):
                create = _query(served.port, f"SHOW CREATE TABLE `{t['schema']}`.`{t['table']}`")
                assert create == [(t["table"], t["create_table"])]
            listed = _query(served.port, f"SHOW FULL TABLES FROM `{t['schema']}`")
            assert (t["table"], "BASE TABLE") in [tuple(r) for r in listed]


@pytest.mark.parametrize("case", NAMELESS[:1] + NAMELESS[2:], ids=lambda p: f"{p.parent.name}/{p.name}")
def test_a_bare_minimal_file_is_described_by_its_own_ddl(case: Path, tmp_path: Path) -> None:
    """Without case.json: the CREATE TABLEs in the binlog give the same names, types and members."""
    with serving(sorted(case.glob("binlog.0*[0-9]")), tmp_path) as served:
        for t in _recorded(case):
            got = _query(served.port, _COLUMNS.format(**t))
            assert [r[:5] for r in got] == [c[:5] for c in _server_said(t)]


def test_a_table_no_source_describes_is_one_the_server_does_not_have(tmp_path: Path) -> None:
    """A MINIMAL binlog whose DDL is not in the files served: no `@1`, no `enum()`, but what a
    server answers for a table it does not have."""
    from harness.primary.served import load
    case = ROOT / "corpus" / "mysql-9.7" / "enum_set_bit--row-minimal"
    rows_only = tmp_path / "binlog.000001"
    _without_ddl(case / "binlog.000001", rows_only)
    assert load([str(rows_only)]).tables == {}
    with serving([rows_only], tmp_path) as served:
        assert _query(served.port, _COLUMNS.format(schema="es", table="e")) == []
        assert _query(served.port, "SHOW TABLES FROM es") == []
        with pytest.raises(pymysql.err.ProgrammingError, match="1146"):
            _query(served.port, "SHOW COLUMNS FROM es.e")


def _without_ddl(src: Path, dst: Path) -> None:
    """The file re-encoded with each CREATE TABLE's text replaced by a statement of the same
    length that the replay ignores (so every position and the Table_maps stay as written)."""
    from oracle.encode import encode_binlog
    events = [json.loads(line) for line in Path(f"{src}.expected.jsonl").read_text(encoding="utf-8").splitlines()]
    for e in events:
        q = (e.get("body") or {}).get("query")
        if isinstance(q, str) and q.upper().startswith("CREATE TABLE"):
            e["body"]["query"] = ("SELECT 1" + " " * len(q))[:len(q)]
    dst.write_bytes(encode_binlog(events))


COMPRESSED = ROOT / "corpus" / "mysql-9.7" / "many_rows--row-compressed"


def test_show_binlog_events_is_the_real_servers_answer(tmp_path: Path) -> None:
    """For a corpus case, the real server's SHOW BINLOG EVENTS (case.json `server_events`): a
    Transaction_payload's events listed after it, at its end. Files without that record: 1235."""
    listed = json.loads((COMPRESSED / "case.json").read_text(encoding="utf-8"))["binlogs"][0]["server_events"]
    want = [("binlog.000001", e["pos"], e["type"], e["server_id"], e["end_log_pos"], e["info"]) for e in listed]
    assert any(e["type"] == "Transaction_payload" for e in listed)
    with serving([COMPRESSED], tmp_path) as served:
        assert [tuple(r) for r in _query(served.port, "SHOW BINLOG EVENTS")] == want
        assert [tuple(r) for r in _query(served.port, "SHOW BINLOG EVENTS IN 'binlog.000001' FROM 1249 LIMIT 1, 2")] \
            == [w for w in want if w[1] >= 1249 and not (w[1] == w[4] == 1249)][1:3]
        with pytest.raises(pymysql.err.OperationalError, match="1220"):
            _query(served.port, "SHOW BINLOG EVENTS IN 'binlog.000001' FROM 1250")
    with serving([COMPRESSED / "binlog.000001"], tmp_path) as served:
        with pytest.raises(pymysql.err.NotSupportedError, match="1235"):
            _query(served.port, "SHOW BINLOG EVENTS")


def test_a_parser_that_looks_tables_up_is_not_served_a_case_with_tables_nobody_describes(tmp_path: Path) -> None:
    """schema_lookups (docs/plugin-contract.md): such a case is skipped for it, with the reason."""
    from harness.corpus import discover
    from harness.plugins.base import Capabilities
    from harness.stream_serving import CannotServe, served
    assert Capabilities.from_json({"schema_lookups": True}).schema_lookups
    assert not Capabilities.from_json({}).schema_lookups
    rows_only = tmp_path / "binlog.000001"
    _without_ddl(ROOT / "corpus" / "mysql-9.7" / "enum_set_bit--row-minimal" / "binlog.000001", rows_only)
    case = discover(rows_only)[0]
    with pytest.raises(CannotServe, match=r"no schema known for es\.b, es\.e"):
        with served(case, rows_only.stat().st_size, schema_lookups=True):
            pass
    with served(case, rows_only.stat().st_size) as source:
        assert source.port > 0
