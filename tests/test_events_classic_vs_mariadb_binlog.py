"""The classic event decoders against the real tool: `mariadb-binlog -vvv` (Debian's mariadb-client,
installed by .ci/run) on every external binlog and on a hand-built MariaDB log. Compared: each
Query / Execute_load_query header line (thread_id, exec_time, error_code, and the MariaDB Q_XID it
prints as xid=), `use` lines, Xid events, Rand seeds, Intvar values and user variables."""
from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from oracle import BinlogError, decode_file
from tests.classic_binlog import MARIADB_VERSION, binlog, query_body
from tests.external import EITHER, manifest
from tests.test_events_classic import FULL_MARIADB_STATUS

TOOL = shutil.which("mariadb-binlog")
pytestmark = pytest.mark.skipif(TOOL is None, reason="mariadb-binlog is not installed (mariadb-client)")
CASES = [b for b in manifest() if not any(b.file.endswith(x) for x in EITHER)]

# The tools print one header line per event, in file order; the k-th is the oracle's k-th event
# (checked by its end_log_pos). Positions alone are ambiguous: relay logs carry the source's.
HEADER = re.compile(r"^#\d{6} [ \d]\d:\d\d:\d\d server id \d+\s+end_log_pos (\d+)[^\t\n]*", re.M)
QUERY = re.compile(r"\t(?:Query|Query_compressed|Execute_load_query)\tthread_id=(\d+)\texec_time=(\d+)"
                   r"\terror_code=(\d+)(?:\txid=(\d+))?\n(?:use `([^`]*)`/\*!\*/;)?")
XID = re.compile(r"\tXid = (\d+)")
RAND = re.compile(r"\tRand\nSET @@RAND_SEED1=(\d+), @@RAND_SEED2=(\d+)/")
INTVAR = re.compile(r"\tIntvar\nSET (LAST_INSERT_ID|INSERT_ID)=(\d+)/")
USER_VAR = re.compile(r"\tUser_var\n(?:[^\n]*\n){0,2}?SET @`([^`]*)`:="
                      r"(?:(-?[0-9.e+]+|NULL)|_\w+ (?:0x|X')([0-9A-F]*)'? COLLATE)")
BLOCK = re.compile(r"\n#(?:Begin_load_query|Append_block): file_id: (\d+)  block_len: (\d+)")


def tool_text(path: Path) -> str:
    return subprocess.run([TOOL, "-vvv", "--base64-output=never", str(path)], capture_output=True,
                          timeout=120).stdout.decode("utf-8", "surrogateescape")


def decoded(path: Path) -> list[dict]:
    """Events in the order the tools print them: a Transaction_payload's own events follow it."""
    events = []
    try:
        for e in decode_file(path):
            events.append(e.to_json())
            if e.type_code == 40:
                events.extend(e.body["events"])
    except BinlogError:
        pass  # the broken files: compare what comes before the break
    return events


def plain_number(v):
    return int(v["value"]) if isinstance(v, dict) and v.get("type") == "int" else v


def _user_var_agrees(b: dict, number: str | None, hexed: str | None) -> bool:
    value = b["value"]
    if hexed is not None:  # a string, printed as its bytes
        raw = bytes.fromhex(value["value"]) if isinstance(value, dict) else value.encode()
        return raw.hex().upper() == hexed
    if number == "NULL":
        return value is None
    if b["type"] == "REAL":
        return float(number) == value
    if b["type"] == "DECIMAL":
        return value["value"] == number
    return plain_number(value) == int(number)


def _query_agrees(b: dict, m) -> bool:
    """Header fields, Q_XID, the database, and the statement as printed (the tools print it on its
    own lines, ended by the /*!*/; delimiter; Execute_load_query's is rewritten, so not compared)."""
    ok = (b["thread_id"], b["query_exec_time"], b["error_code"]) == (int(m[1]), int(m[2]), int(m[3]))
    if isinstance(b["query"], str) and "file_id" not in b:
        # (a query MariaDB must replay as BINLOG, such as a COMMIT ALTER, is echoed after "### ")
        ok &= f"\n{b['query']}\n/*!*/;" in m.string or f"\n### {b['query']}\n" in m.string
    if m[4] is not None:  # MariaDB prints Q_XID (0 when absent)
        ok &= plain_number(b["status_vars"].get("Q_XID", 0)) == int(m[4])
    return ok and (m[5] is None or b["db"] == m[5])


CHECKS = [
    (QUERY, _query_agrees),
    (XID, lambda b, m: plain_number(b["xid"]) == int(m[1])),
    (RAND, lambda b, m: (plain_number(b["seed1"]), plain_number(b["seed2"])) == (int(m[1]), int(m[2]))),
    (INTVAR, lambda b, m: (b["type_name"], plain_number(b["val"])) == (m[1], int(m[2]))),
    (USER_VAR, lambda b, m: b["name"] == m[1] and _user_var_agrees(b, m[2], m[3])),
    (BLOCK, lambda b, m: (b["file_id"], len(b["block"]["value"]) // 2) == (int(m[1]), int(m[2]))),
]


def compare(text: str, events: list[dict]) -> int:
    """Assert every event the tool printed agrees; return how many were compared."""
    n = 0
    heads = list(HEADER.finditer(text))
    for i, (head, event) in enumerate(zip(heads, events)):
        if event["next_position"] is not None:
            assert event["next_position"] == int(head[1]), (i, head[0])
        segment = text[head.end():heads[i + 1].start() if i + 1 < len(heads) else len(text)]
        for pattern, agrees in CHECKS:
            if (m := pattern.match(segment)) is not None:
                assert agrees(event["body"], m), (head[0], m[0], event["body"])
                n += 1
    return n


@pytest.mark.parametrize("binlog_file", CASES, ids=lambda b: b.name)
def test_external_binlog_agrees_with_mariadb_binlog(binlog_file):
    compare(tool_text(binlog_file.path), decoded(binlog_file.path))


def test_the_comparison_covers_many_events():
    """Guard against the patterns silently matching nothing."""
    counts = {b.name: compare(tool_text(b.path), decoded(b.path)) for b in CASES
              if b.name.endswith(("mariadb-repl-bin.000005", "corrupt-relay-bin.000624", "ver_trunk_row_v2.001"))}
    assert sorted(counts.values()) == [32, 435, 869]


SAMPLES = Path("/tmp/sample-binlogs")


@pytest.mark.allow_skip_in_ci
def test_samples_from_real_servers():
    """/tmp/sample-binlogs/<server>/<file> with the real tool's <file>.vvv.txt (MySQL 9.7's
    mysqlbinlog, MariaDB 10.5's mariadb-binlog), when they exist: User_var of every type, Intvar,
    Rand, LOAD DATA, compressed transactions."""
    pairs = sorted(p for p in SAMPLES.glob("*/*.vvv.txt") if Path(str(p)[:-len(".vvv.txt")]).exists())
    if not pairs:
        pytest.skip(f"no samples under {SAMPLES}")
    counts = {}
    for txt in pairs:
        text = txt.read_bytes().decode("utf-8", "surrogateescape")
        counts[txt.parent.name + "/" + txt.name] = compare(text, decoded(Path(str(txt)[:-len(".vvv.txt")])))
    statement = {k: v for k, v in counts.items() if k.endswith("statement.binlog.vvv.txt")}
    assert statement and all(n >= 30 for n in statement.values()), counts


def test_hand_built_mariadb_log(tmp_path):
    log = binlog(MARIADB_VERSION, (2, query_body(b"SELECT 1", status=FULL_MARIADB_STATUS)),
                 (16, (7).to_bytes(8, "little")))
    path = tmp_path / "hand.bin"
    path.write_bytes(log)
    text = tool_text(path)
    assert "xid=4242" in text and "SET TIMESTAMP=1700000000.123456" in text
    assert compare(text, decoded(path)) == 2
