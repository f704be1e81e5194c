"""The committed corpus: every case is well formed, unchanged, and decodes as recorded.

A decoder change that alters any canonical output fails here; if the change is intended, run
`python -m generators refresh-expected` and commit the rewritten expected.jsonl files. The
generator's pure parts (matrix selection, marker parsing, statement attribution, summaries) are
tested here too, without servers.
"""
from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest

from generators import casefile, coverage, matrix
from generators.capture import rebuild_stream
from generators.cases import (
    Position,
    StatementRecord,
    _attribute,
    _parse_marks,
    _script,
)
from generators.generate import plan
from generators.profiles import LOCAL_PROFILES
from generators.sqlscript import catalogue

CASE_DIRS = casefile.iter_case_dirs()
IDS = [d.relative_to(casefile.CORPUS_DIR).as_posix() for d in CASE_DIRS]
SCHEMA = json.loads(casefile.SCHEMA_PATH.read_text())
CAPTURE_SCHEMA = json.loads((casefile.CORPUS_DIR / "capture.schema.json").read_text())
COMMITTED_SERVERS = ("mysql-9.7", "mariadb-10.5", "mariadb-10.11", "mariadb-11.8",
                     "mysql-5.6", "mysql-5.7", "mysql-8.0")
# MySQL event types that arrived after 5.6, by the version that first writes them into a file.
MYSQL_SINCE = {"ANONYMOUS_GTID_LOG_EVENT": (5, 7, 6), "XA_PREPARE_LOG_EVENT": (5, 7, 7),
               "PARTIAL_UPDATE_ROWS_EVENT": (8, 0, 3), "TRANSACTION_PAYLOAD_EVENT": (8, 0, 20),
               "GTID_TAGGED_LOG_EVENT": (8, 3)}


def test_corpus_has_every_local_server() -> None:
    servers = {d.parent.name for d in CASE_DIRS}
    assert set(COMMITTED_SERVERS) <= servers


@pytest.mark.parametrize("case_dir", CASE_DIRS, ids=IDS)
def test_case(case_dir: Path) -> None:
    case = casefile.read_case(case_dir)
    jsonschema.validate(case, SCHEMA)
    assert case["name"] == case_dir.name
    assert case["server"]["profile"] == case_dir.parent.name
    assert case["files"] == [b["name"] for b in case["binlogs"]]
    on_disk = {p.name for p in case_dir.iterdir()}
    expected_names = {casefile.CASE_FILE}
    lines: list[str] = []
    for b in case["binlogs"]:
        binlog = case_dir / b["name"]
        assert binlog.stat().st_size == b["size"]
        for name, digest in ((b["name"], b["sha256"]), (b["tool_text"]["path"], b["tool_text"]["sha256"]),
                             (b["expected"]["path"], b["expected"]["sha256"])):
            assert casefile.sha256_file(case_dir / name) == digest, name
            expected_names.add(name)
        assert b["tool_text"]["exit_code"] == 0, b["tool_text"].get("stderr")
        recorded = (case_dir / b["expected"]["path"]).read_text(encoding="utf-8").splitlines()
        decoded = casefile.oracle_lines(binlog)
        assert decoded == recorded, f"{b['name']}: oracle output changed (refresh-expected if intended)"
        assert "error" not in json.loads(decoded[-1]), decoded[-1]  # decodes to its end
        _check_against_server(b["server_events"], [json.loads(x) for x in decoded], case["server"]["flavor"])
        lines += decoded
    if "capture" in case:  # what the real server sent for dumps (corpus/capture.schema.json)
        capture = case_dir / case["capture"]["path"]
        assert casefile.sha256_file(capture) == case["capture"]["sha256"]
        doc = json.loads(capture.read_text(encoding="utf-8"))
        jsonschema.validate(doc, CAPTURE_SCHEMA)
        files = {n: (case_dir / n).read_bytes() for n in doc["files"]}
        for cap in doc["captures"]:  # file references still point at the same bytes
            assert len(rebuild_stream(cap, files)) == sum(4 + n for n, _ in cap["packets"])
        expected_names.add(capture.name)
    assert on_disk == expected_names, "files in the case dir that case.json does not list (or missing)"
    assert (case["event_types"], case["column_types"]) == casefile.summarize(lines)
    _check_statements(case)


def _check_against_server(server_events: list[dict], events: list[dict], flavor: str) -> None:
    """SHOW BINLOG EVENTS and the oracle agree on where each event starts and ends and who wrote it.
    (The server lists the events inside a Transaction_payload at the payload's end position.)"""
    by_pos: dict[int, list[dict]] = {}
    for ev in events:
        by_pos.setdefault(ev["position"], []).append(ev)
        for inner in ev["body"].get("events", []) if ev["type"] == "TRANSACTION_PAYLOAD_EVENT" else []:
            by_pos.setdefault(inner["position"], []).append(inner)
    for se in server_events:
        candidates = by_pos.get(se["pos"], [])
        assert any(ev["next_position"] == se["end_log_pos"] and ev["server_id"] == se["server_id"]
                   for ev in candidates), f"server event {se} has no oracle event"
    top = {ev["position"] for ev in events if ev["type"] != "STOP_EVENT"}
    assert top <= {se["pos"] for se in server_events}


def _check_statements(case: dict) -> None:
    listed = {(b["name"], se["pos"]) for b in case["binlogs"] for se in b["server_events"]}
    prev_end = None
    for st in case["statements"]:
        if prev_end is not None:
            assert st["start"] == prev_end  # statements are contiguous
        prev_end = st["end"]
        assert all((e["file"], e["pos"]) in listed for e in st["events"])


def test_coverage_report_is_current() -> None:
    assert (casefile.CORPUS_DIR / "COVERAGE.md").read_text(encoding="utf-8") == coverage.render()


def test_corpus_covers_the_event_types_of_each_server() -> None:
    """Every event type a server can write into a file (NOT_WRITTEN lists those it cannot) shows
    up in some case of that server."""
    per_server: dict[str, set[str]] = {}
    for d in CASE_DIRS:
        per_server.setdefault(d.parent.name, set()).update(casefile.read_case(d)["event_types"])
    mysql_types = {"FORMAT_DESCRIPTION_EVENT", "PREVIOUS_GTIDS_LOG_EVENT", "GTID_LOG_EVENT",
                   "ANONYMOUS_GTID_LOG_EVENT", "GTID_TAGGED_LOG_EVENT", "QUERY_EVENT", "XID_EVENT",
                   "TABLE_MAP_EVENT", "WRITE_ROWS_EVENT", "UPDATE_ROWS_EVENT", "DELETE_ROWS_EVENT",
                   "PARTIAL_UPDATE_ROWS_EVENT", "ROWS_QUERY_LOG_EVENT", "INTVAR_EVENT", "RAND_EVENT",
                   "USER_VAR_EVENT", "BEGIN_LOAD_QUERY_EVENT", "APPEND_BLOCK_EVENT",
                   "EXECUTE_LOAD_QUERY_EVENT", "XA_PREPARE_LOG_EVENT", "ROTATE_EVENT", "STOP_EVENT",
                   "TRANSACTION_PAYLOAD_EVENT"}
    mariadb_types = {"FORMAT_DESCRIPTION_EVENT", "GTID_LIST_EVENT", "BINLOG_CHECKPOINT_EVENT",
                     "GTID_EVENT", "QUERY_EVENT", "XID_EVENT", "TABLE_MAP_EVENT", "WRITE_ROWS_EVENT_V1",
                     "UPDATE_ROWS_EVENT_V1", "DELETE_ROWS_EVENT_V1", "ANNOTATE_ROWS_EVENT",
                     "INTVAR_EVENT", "RAND_EVENT", "USER_VAR_EVENT", "BEGIN_LOAD_QUERY_EVENT",
                     "APPEND_BLOCK_EVENT", "EXECUTE_LOAD_QUERY_EVENT", "XA_PREPARE_LOG_EVENT",
                     "ROTATE_EVENT", "STOP_EVENT", "QUERY_COMPRESSED_EVENT",
                     "WRITE_ROWS_COMPRESSED_EVENT_V1", "UPDATE_ROWS_COMPRESSED_EVENT_V1",
                     "DELETE_ROWS_COMPRESSED_EVENT_V1"}
    from generators.cases import parse_version
    for server in COMMITTED_SERVERS:
        want = mysql_types if server.startswith("mysql") else mariadb_types
        if server.startswith("mysql"):
            version = parse_version(casefile.read_case(next(
                d for d in CASE_DIRS if d.parent.name == server))["server"]["version"])
            want = {t for t in want if version >= MYSQL_SINCE.get(t, (0,))}
        assert want - per_server.get(server, set()) == set(), server


# -- the generator's pure parts ------------------------------------------------------------

def test_every_scenario_runs_on_each_server_that_supports_it() -> None:
    for profile in LOCAL_PROFILES.values():
        version = (*map(int, profile.version.split(".")), 999)
        for s in catalogue():
            chosen = matrix.select(s, profile.flavor, version)
            if s.supports(profile.flavor, version) and s.name not in matrix.NOT_COMMITTED:
                assert chosen, f"{s.name} never runs on {profile.name}"
                for c in chosen:
                    assert matrix.fits(c, s, profile.flavor, version)
            else:
                assert chosen == []


def test_matrix_covers_every_setting_value_somewhere() -> None:
    """The issue's list of settings and values; OFF of an ON/OFF option is its default elsewhere."""
    required = {"binlog_format": {"ROW", "STATEMENT", "MIXED"},
                "binlog_row_image": {"FULL", "MINIMAL", "NOBLOB"}, "binlog_checksum": {"CRC32", "NONE"},
                "gtid_mode": {"ON", "OFF"}, "binlog_row_metadata": {"MINIMAL", "FULL"},
                "binlog_transaction_compression": {"ON"}, "binlog_rows_query_log_events": {"ON"},
                "binlog_row_value_options": {"PARTIAL_JSON"}, "log_bin_compress": {"ON"},
                "binlog_annotate_row_events": {"ON", "OFF"}}
    for key, values in required.items():
        used = {c.settings[key] for c in matrix.CONFIGS.values() if key in c.settings}
        assert values <= used, key
        assert values <= set(matrix.SETTINGS[key].values), key


def test_settings_are_dropped_where_a_server_lacks_them() -> None:
    row = matrix.CONFIGS["row-compressed"]
    assert "gtid_mode" not in row.applicable("mariadb", (10, 11, 0))
    assert row.applicable("mariadb", (10, 11, 0))["log_bin_compress"] == "ON"
    opts = matrix.server_options(row, "mysql", (9, 7, 0))
    assert opts["enforce_gtid_consistency"] == "ON" and "log_bin_compress" not in opts
    assert "binlog_transaction_compression" not in matrix.CONFIGS["row"].applicable("mysql", (8, 0, 19))
    old = matrix.server_options(matrix.CONFIGS["row"], "mysql", (5, 6, 40))
    assert old["log_slave_updates"] == "ON" and "binlog_row_metadata" not in old


def test_plan_puts_the_shutdown_scenario_last() -> None:
    for run in plan(LOCAL_PROFILES["mysql-9.7"], catalogue()):
        ends = [s.end for s in run.scenarios]
        assert ends == sorted(ends, key=lambda e: e != "flush")
        assert ends.count("shutdown") <= 1


def test_marks_and_attribution() -> None:
    script, owner = _script(["CREATE TABLE t (a INT)", "BEGIN;\nINSERT INTO t VALUES (1)"], "SHOW MASTER STATUS")
    assert script.count("@@MARK ") == 3 and owner.count(1) == 2
    out = ("mark\n@@MARK 0\nFile\tPosition\nbinlog.000001\t158\t\t\n"
           "mark\n@@MARK 1\nFile\tPosition\nbinlog.000001\t300\t\t\n"
           "mark\n@@MARK 2\nFile\tPosition\nbinlog.000002\t120\t\t\n")
    marks = _parse_marks(out)
    assert marks == {0: Position("binlog.000001", 158), 1: Position("binlog.000001", 300),
                     2: Position("binlog.000002", 120)}
    recs = [StatementRecord(0, "a", "a", marks[0], marks[1]), StatementRecord(1, "b", "b", marks[1], marks[2])]
    events = {"binlog.000001": [{"pos": 4, "type": "Format_desc"}, {"pos": 158, "type": "Query"},
                                {"pos": 300, "type": "Rotate"}],
              "binlog.000002": [{"pos": 4, "type": "Format_desc"}, {"pos": 120, "type": "Query"}]}
    _attribute(recs, ["binlog.000001", "binlog.000002"], events)
    assert [e["pos"] for e in recs[0].events] == [158]
    assert [(e["file"], e["pos"]) for e in recs[1].events] == [("binlog.000001", 300), ("binlog.000002", 4)]


def test_summaries_resolve_enum_and_set_and_nested_events() -> None:
    table_map = {"type": "TABLE_MAP_EVENT", "body": {
        "column_type_names": ["MYSQL_TYPE_STRING", "MYSQL_TYPE_STRING", "MYSQL_TYPE_STRING"],
        "column_metadata": [0xF701, 0xF808, 0xFE28]}}
    payload = {"type": "TRANSACTION_PAYLOAD_EVENT", "body": {"events": [table_map]}}
    assert casefile.summarize([json.dumps(payload)]) == (
        ["TABLE_MAP_EVENT", "TRANSACTION_PAYLOAD_EVENT"], ["ENUM", "SET", "STRING"])


def test_refresh_expected_rewrites_only_what_changed(tmp_path: Path) -> None:
    """refresh-expected on an up-to-date case changes nothing; on a stale expected file it
    restores the oracle's output and the recorded sha256."""
    src = min(CASE_DIRS, key=lambda d: sum(p.stat().st_size for p in d.iterdir()))
    case_dir = tmp_path / src.parent.name / src.name
    case_dir.mkdir(parents=True)
    for p in src.iterdir():
        (case_dir / p.name).write_bytes(p.read_bytes())
    assert casefile.refresh(case_dir) is False
    expected = case_dir / casefile.read_case(case_dir)["binlogs"][0]["expected"]["path"]
    expected.write_text("{}\n")
    assert casefile.refresh(case_dir) is True
    assert expected.read_bytes() == (src / expected.name).read_bytes()


def test_corpus_is_exactly_the_default_selection() -> None:
    """No stale case from a dropped scenario or configuration, none missing (regenerate if so)."""
    from generators.cases import parse_version
    from generators.generate import case_name
    for server in COMMITTED_SERVERS:
        dirs = [d for d in CASE_DIRS if d.parent.name == server]
        version = parse_version(casefile.read_case(dirs[0])["server"]["version"])
        flavor = LOCAL_PROFILES[server].flavor
        want = {case_name(s, c) for s in catalogue() for c in matrix.select(s, flavor, version)}
        assert {d.name for d in dirs} == want, server


def test_each_mysql_servers_binlogs_name_its_version() -> None:
    """The Format_description of every MySQL case names the server its registry entry pins
    (5.6.24, 5.7.29, 8.0.31, 9.7.x): the corpus really comes from those servers."""
    for server in COMMITTED_SERVERS:
        profile = LOCAL_PROFILES[server]
        dirs = [d for d in CASE_DIRS if d.parent.name == server]
        assert dirs, server
        for d in dirs:
            first = casefile.read_case(d)["binlogs"][0]["expected"]["path"]
            fde = json.loads((d / first).read_text().split("\n", 1)[0])
            assert fde["type"] == "FORMAT_DESCRIPTION_EVENT", d
            assert fde["body"]["server_version"].startswith(profile.expected_version), d
