"""Live generation: real MySQL 9.7 and MariaDB 10.11 servers run a few scenarios through the same
code path as `python -m generators generate`, including the >16 MB event the committed corpus
leaves out; the oracle must decode every file they wrote to its end, and agree with the server's
own mysqlbinlog / mariadb-binlog -vvv on each event's position, next position, server id and type.

Builds nothing: the images come from `python -m generators images build` (.ci/run does it).
"""
from __future__ import annotations

import json
import re
from pathlib import Path

import jsonschema
import pytest

from generators import casefile
from generators.sqlscript import catalogue

from .live_cases import run_live

pytestmark = pytest.mark.server

SUBSETS = {
    "mysql-9.7": ("ddl_dml_basic", "temporal", "huge_event", "shutdown"),
    "mariadb-10.11": ("ddl_dml_basic", "strings_charsets", "huge_event", "shutdown"),
}
BIG_EVENT = 16 * 1024 * 1024

_AT = re.compile(r"^# at (\d+)$")
_HEADER = re.compile(r"^#\d{6} +\d+:\d\d:\d\d server id (\d+) +end_log_pos (\d+)(?: CRC32 0x[0-9a-f]{8})?\s+(.*)$")
# Labels whose first word does not name the type.
_LABEL_KEYS = (("Gtid list", "gtid_list"), ("Binlog checkpoint", "binlog_checkpoint"),
               ("Start:", "format_description"), ("Previous-GTIDs", "previous_gtids"),
               ("GTID", "gtid"), ("XA PREPARE", "xa_prepare"))


def _normal(name: str) -> str:
    for part in ("_event", "_log", "_v1", "_compressed", "_tagged"):
        name = name.replace(part, "")
    return name


def label_key(label: str) -> str:
    for prefix, key in _LABEL_KEYS:
        if label.startswith(prefix):
            return key
    return _normal(re.split(r"[\s:=]", label, maxsplit=1)[0].lower())


def type_key(type_name: str) -> str:
    return _normal(type_name.lower())


def tool_headers(text: str) -> list[tuple[int, int, int, str]]:
    """(position, end_log_pos, server id, label) of every event header the tool printed.
    mariadb-binlog defers an Annotate_rows event's text until the Table_map after it, printing
    both `# at` lines first, so headers take pending positions in order."""
    out, pending = [], []
    for line in text.splitlines():
        m = _AT.match(line)
        if m:
            pending.append(int(m[1]))
            continue
        h = _HEADER.match(line)
        if h and pending:
            out.append((pending.pop(0), int(h[2]), int(h[1]), h[3].strip()))
    return out


def _flat(events: list[dict]) -> list[dict]:
    out = []
    for ev in events:
        out.append(ev)
        if ev["type"] == "TRANSACTION_PAYLOAD_EVENT":
            out += ev["body"].get("events", [])
    return out


@pytest.fixture(scope="module", params=sorted(SUBSETS))
def generated(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    scenarios = tuple(s for s in catalogue() if s.name in SUBSETS[request.param])
    return run_live(request.param, scenarios, tmp_path_factory.mktemp(request.param))


def test_oracle_decodes_and_agrees_with_the_servers_tool(generated: list[Path]) -> None:
    sizes = []
    for case_dir in generated:
        case = casefile.read_case(case_dir)
        jsonschema.validate(case, json.loads(casefile.SCHEMA_PATH.read_text()))
        for b in case["binlogs"]:
            lines = (case_dir / b["expected"]["path"]).read_text(encoding="utf-8").splitlines()
            events = [json.loads(x) for x in lines]
            assert events and "error" not in events[-1], f"{case_dir.name}: {events[-1] if events else None}"
            assert events[-1]["next_position"] == b["size"], "decoded to the end of the file"
            sizes += [e["event_size"] for e in events]
            assert b["tool_text"]["exit_code"] == 0
            text = (case_dir / b["tool_text"]["path"]).read_text(encoding="utf-8", errors="replace")
            headers = tool_headers(text)
            assert headers, f"{case_dir.name}: no event headers in the tool's text"
            flat = _flat(events)
            for pos, end, server_id, label in headers:
                match = [e for e in flat if e["position"] == pos and e["next_position"] == end
                         and e["server_id"] == server_id and type_key(e["type"]) == label_key(label)]
                assert match, f"{case_dir.name} {b['name']}: tool event at {pos} ({label[:60]!r}) " \
                              f"end {end} has no oracle event alike"
            printed_at = {int(m) for m in re.findall(r"^# at (\d+)$", text, re.MULTILINE)}
            assert {e["position"] for e in events} <= printed_at
        if case["scenario"]["end"] == "shutdown":
            assert "STOP_EVENT" in case["event_types"]
    assert max(sizes) > BIG_EVENT, "the huge_event scenario wrote an event above 16 MiB"


def test_statements_map_to_the_events_they_wrote(generated: list[Path]) -> None:
    case = casefile.read_case(next(d for d in generated if d.name.startswith("ddl_dml_basic")))
    by_sql = {s["sql"]: s for s in case["statements"]}
    insert = by_sql["INSERT INTO t1db.people VALUES (1, 'ada', NULL), (2, 'bob', 'x'), (3, 'cy', '')"]
    assert [e["type"] for e in insert["events"] if e["type"] in ("Table_map", "Write_rows", "Write_rows_v1")]
    assert by_sql["BEGIN"]["events"] == []  # a transaction is written at COMMIT
    assert any(e["type"] in ("Write_rows", "Write_rows_v1") for e in by_sql["COMMIT"]["events"])


def test_cases_record_their_tables_and_a_capture(generated: list[Path]) -> None:
    """A case closed by FLUSH names the columns of every table its Table_maps use (a dropped
    table from the snapshot taken just before its DROP) and carries a capture of real dumps that
    rebuilds from the case's own files; a case closed by a shutdown has neither."""
    from generators.capture import rebuild_stream
    for case_dir in generated:
        case = casefile.read_case(case_dir)
        if case["scenario"]["end"] != "flush":
            assert "capture" not in case and "tables" not in case
            continue
        assert case["tables"] and all(t.get("columns") for t in case["tables"]), case["tables"]
        doc = json.loads((case_dir / case["capture"]["path"]).read_text())
        files = {n: (case_dir / n).read_bytes() for n in case["files"]}
        caps = {c["request"]["name"]: c for c in doc["captures"]}
        assert caps["nonblock"]["end"] == "EOF"
        for cap in caps.values():
            assert len(rebuild_stream(cap, files)) == sum(4 + n for n, _ in cap["packets"])
