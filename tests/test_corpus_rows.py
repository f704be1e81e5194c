"""Issue 3 acceptance on the committed corpus: `python -m oracle rows` equals the `###` lines of
the real server tool's `-vvv` text that each case carries (MySQL 9.7's mysqlbinlog, MariaDB's
mariadb-binlog, both run from the server's own image when the case was generated), with zero
differing lines. Also on binlogs a real server writes during the test run:
tests/test_generate_servers.py."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from oracle.decoder import decode_file
from oracle.render_rows import render

CORPUS = Path(__file__).resolve().parents[1] / "corpus"


def _binlogs() -> list[tuple[Path, Path]]:
    out = []
    for case_json in sorted(CORPUS.glob("*/*/case.json")):
        case = json.loads(case_json.read_text())
        for b in case["binlogs"]:
            text = b.get("tool_text") or {}
            if text.get("exit_code") == 0:
                out.append((case_json.parent / b["name"], case_json.parent / text["path"]))
    return out


BINLOGS = _binlogs()


def _hash_lines(text: bytes) -> list[bytes]:
    return [line for line in text.split(b"\n") if line.startswith(b"###")]


def test_the_corpus_has_row_events_of_both_flavors():
    servers = {p.parent.parent.name.split("-")[0] for p, _ in BINLOGS}
    assert servers == {"mysql", "mariadb"}
    assert sum(len(_hash_lines(t.read_bytes())) for _, t in BINLOGS) > 1000


@pytest.mark.parametrize("binlog,tool_text", BINLOGS,
                         ids=[f"{p.parent.parent.name}/{p.parent.name}/{p.name}" for p, _ in BINLOGS])
def test_rows_equal_the_real_tools_lines(binlog: Path, tool_text: Path):
    mine = b"".join(render(e.to_json() for e in decode_file(binlog))).split(b"\n")[:-1]
    theirs = _hash_lines(tool_text.read_bytes())
    assert len(mine) == len(theirs)
    differing = [(i, a, b) for i, (a, b) in enumerate(zip(mine, theirs)) if a != b]
    assert not differing, f"{len(differing)} differing lines; first: {differing[0]}"
