"""The column lookups stream CDC clients make of the primary before decoding rows (issue 13),
asked by real clients: @vlasky/zongji's prepared statement through mysql2 (the npm package the
Node peers install), and go-mysql canal's SHOW INDEX and information_schema.TABLES through
PyMySQL. Also binlog_row_metadata, which python-mysql-replication reads to decide whether to
trust the Table_map's column metadata."""
from __future__ import annotations

import json
import os
import subprocess
import sys
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


# -- the schema at a position (docs/primary.md): ddl_dml_basic adds a column to t1db.people
# between its rows; each Table_map's column count is the definition the rows were written with.
ALTERED = [ROOT / "corpus" / "mysql-9.7" / "ddl_dml_basic--row", ROOT / "corpus" / "mariadb-10.11" / "ddl_dml_basic--row"]


def _lookups_per_table_id(port: int) -> list[tuple[int, int]]:
    """A client that looks tables up as zongji does: at the first Table_map of each table_id (a
    server gives an altered table a new one), on a second connection of the same account, before
    reading on. The dump is read by python-mysql-replication, the lookups made with PyMySQL (real
    client libraries). (Table_map column count, columns the lookup answered) per lookup."""
    from pymysqlreplication import BinLogStreamReader
    from pymysqlreplication.event import QueryEvent
    from pymysqlreplication.row_event import TableMapEvent
    settings = {"host": "127.0.0.1", "port": port, "user": "root", "password": PASSWORD}
    lookup = pymysql.connect(host="127.0.0.1", port=port, user="root", password=PASSWORD)
    stream = BinLogStreamReader(settings, server_id=77, blocking=False, only_events=[TableMapEvent, QueryEvent],
                                log_file="binlog.000001", log_pos=4)
    seen: dict[int, tuple[int, int]] = {}
    try:
        for event in stream:
            if isinstance(event, TableMapEvent) and event.table == "people" and event.table_id not in seen:
                with lookup.cursor() as cur:
                    cur.execute("SHOW FULL COLUMNS FROM `t1db`.`people`")
                    seen[event.table_id] = (event.column_count, len(cur.fetchall()))
    finally:
        stream.close()
        lookup.close()
    return list(seen.values())


@pytest.mark.parametrize("case", ALTERED, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_a_lookup_answers_the_definition_where_the_client_reads(case: Path, tmp_path: Path) -> None:
    """With pacing, each lookup answers with the columns the rows it is made for were written
    with: 3 before the ALTER, 4 after it."""
    with serving([case], tmp_path, "--schema-pacing", "10") as served:
        seen = _lookups_per_table_id(served.port)
    assert seen == [(3, 3), (4, 4)], seen


@pytest.mark.parametrize("case", ALTERED[:1], ids=lambda p: f"{p.parent.name}/{p.name}")
def test_without_pacing_the_dump_runs_ahead_of_the_lookups(case: Path, tmp_path: Path) -> None:
    """The control: without pacing the primary has sent the whole file (its last Table_map is
    after the ALTER) before the client reads its first rows, so both lookups answer 4 columns,
    as a live server answers a client that lags behind an ALTER."""
    with serving([case], tmp_path) as served:
        seen = _lookups_per_table_id(served.port)
    assert seen == [(3, 4), (4, 4)], seen


def test_a_lookup_before_any_dump_answers_the_final_definition(tmp_path: Path) -> None:
    """A client that has read no Table_map of the table yet gets the table as it is at the end,
    as a live server answers now. SHOW CREATE TABLE is the exception (docs/primary.md): the
    binlog's CREATE TABLE as the server ran it, which the Debezium control experiment validates
    against a real server (tests/test_debezium_control.py, mysql-5.6 ddl_dml_basic)."""
    with serving([ALTERED[0]], tmp_path, "--schema-pacing", "10") as served:
        assert [r[0] for r in _query(served.port, "SHOW COLUMNS FROM t1db.people")] == ["id", "name", "note", "age"]
        (row,) = _query(served.port, "SHOW CREATE TABLE t1db.people")
        assert row[1] == "CREATE TABLE t1db.people (id INT PRIMARY KEY, name VARCHAR(40) NOT NULL, note VARCHAR(10))"


@pytest.mark.parametrize("parser", ["go-mysql-js", "go-mysql-binlog-node"])
def test_canal_reads_the_rows_before_an_alter_with_the_columns_they_were_written_with(
        parser: str, installed: None, tmp_path: Path) -> None:  # noqa: F811
    """go-mysql's canal (inside both Node peers) looks a table up at its first rows after each
    DDL (SHOW FULL COLUMNS, SHOW INDEX). Served through the harness (a paced primary: the parser
    declares schema_lookups), rows before the ALTER no longer panic its Go wrapper ("index out of
    range [3] with length 3": it was told of the column the ALTER adds). What may remain differs
    only in rows counts (go-mysql-js reports the first row of a multi-row event: its finding)."""
    corpus = tmp_path / "corpus"
    for case in ALTERED:
        (corpus / case.parent.name).mkdir(parents=True)
        (corpus / case.parent.name / case.name).symlink_to(case)
    results = tmp_path / "results.jsonl"
    run = subprocess.run([sys.executable, "-m", "harness", "conformance", "--parser", parser, "--corpus", str(corpus),
                          "--results", str(results), "--quiet", "--modes", "position"], cwd=ROOT, capture_output=True, text=True,
                         timeout=600)
    got = [json.loads(line) for line in results.read_text().splitlines()]
    assert len(got) == len(ALTERED), run.stderr[-2000:]
    for r in got:
        assert r["outcome"] in ("pass", "mismatch"), r
        assert all(d["path"] == "body.rows.length" for d in r.get("diffs") or []), r
