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

_AT = r"# at (\d+)\n#[^\n]*"
QUERY = re.compile(_AT + r"\t(?:Query|Execute_load_query)\tthread_id=(\d+)\texec_time=(\d+)"
                         r"\terror_code=(\d+)\txid=(\d+)\n(?:use `([^`]*)`/\*!\*/;)?")
XID = re.compile(_AT + r"\tXid = (\d+)")
RAND = re.compile(_AT + r"\tRand\nSET @@RAND_SEED1=(\d+), @@RAND_SEED2=(\d+)/")
INTVAR = re.compile(_AT + r"\tIntvar\nSET (LAST_INSERT_ID|INSERT_ID)=(\d+)/")
USER_VAR = re.compile(_AT + r"\tUser_var\nSET @`([^`]*)`:=(-?[0-9.]+|NULL)/")


def tool_text(path: Path) -> str:
    return subprocess.run([TOOL, "-vvv", "--base64-output=never", str(path)], capture_output=True,
                          timeout=120).stdout.decode("latin-1")


def decoded(path: Path) -> dict[int, dict]:
    events = {}
    try:
        for e in decode_file(path):
            events[e.position] = e.to_json()
    except BinlogError:
        pass  # the broken files: compare what comes before the break
    return events


def plain_number(v):
    return int(v["value"]) if isinstance(v, dict) and v.get("type") == "int" else v


def compare(text: str, events: dict[int, dict]) -> int:
    """Assert every matching event agrees; return how many were compared."""
    n = 0
    for m in QUERY.finditer(text):
        if (b := events.get(int(m[1]), {}).get("body")) is None:
            continue
        assert (b["thread_id"], b["query_exec_time"], b["error_code"]) == (int(m[2]), int(m[3]), int(m[4]))
        assert plain_number(b["status_vars"].get("Q_XID", 0)) == int(m[5])
        if m[6] is not None:
            assert b["db"] == m[6]
        n += 1
    for m in XID.finditer(text):
        if (b := events.get(int(m[1]), {}).get("body")) is not None:
            assert plain_number(b["xid"]) == int(m[2])
            n += 1
    for m in RAND.finditer(text):
        if (b := events.get(int(m[1]), {}).get("body")) is not None:
            assert (plain_number(b["seed1"]), plain_number(b["seed2"])) == (int(m[2]), int(m[3]))
            n += 1
    for m in INTVAR.finditer(text):
        if (b := events.get(int(m[1]), {}).get("body")) is not None:
            assert (b["type_name"], plain_number(b["val"])) == (m[2], int(m[3]))
            n += 1
    for m in USER_VAR.finditer(text):
        if (b := events.get(int(m[1]), {}).get("body")) is not None:
            value = b["value"]
            shown = "NULL" if value is None else value["value"] if isinstance(value, dict) else str(value)
            assert (b["name"], shown) == (m[2], m[3])
            n += 1
    return n


@pytest.mark.parametrize("binlog_file", CASES, ids=lambda b: b.name)
def test_external_binlog_agrees_with_mariadb_binlog(binlog_file):
    compare(tool_text(binlog_file.path), decoded(binlog_file.path))


def test_the_comparison_covers_many_events():
    """Guard against the patterns silently matching nothing."""
    counts = {b.name: compare(tool_text(b.path), decoded(b.path)) for b in CASES
              if b.name.endswith(("mariadb-repl-bin.000005", "corrupt-relay-bin.000624", "ver_trunk_row_v2.001"))}
    assert sorted(counts.values()) == [30, 435, 869]


def test_hand_built_mariadb_log(tmp_path):
    log = binlog(MARIADB_VERSION, (2, query_body(b"SELECT 1", status=FULL_MARIADB_STATUS)),
                 (16, (7).to_bytes(8, "little")))
    path = tmp_path / "hand.bin"
    path.write_bytes(log)
    text = tool_text(path)
    assert "xid=4242" in text and "SET TIMESTAMP=1700000000.123456" in text
    assert compare(text, decoded(path)) == 2
