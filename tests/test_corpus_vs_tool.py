"""Every event of every corpus binlog against the real tool, run now: MySQL 9.7's mysqlbinlog for
the MySQL cases, the case's own MariaDB image's mariadb-binlog for the MariaDB ones (the tool and
image case.json names for its committed .vvv.txt).

For each file: the tool reads it to its end (exit 0, "# End of log file"), prints today exactly
the committed .vvv.txt (so the tests that read those texts, such as test_corpus_rows.py's `###`
lines, compare with the real tool), and its text, read by oracle/mysqlbinlog_text.py, agrees with
the oracle's decoding on every field oracle/verify.py compares (header: end_log_pos, server id,
type, CRC32, timestamp, in-use flag; body: queries, xids, GTIDs, GTID sets, rotate targets, table
ids, ...) plus the ones listed in EXTRA_FIELDS, for every event, a Transaction_payload's own
events included. A file compares fewer events than both sides decoded only as a failure.

The tool runs once per image for all its files (DecoderSession.run_each), on first use.
"""
from __future__ import annotations

import subprocess
from collections.abc import Callable, Iterator
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from generators import casefile
from generators.profiles import LOCAL_PROFILES
from generators.tools import DecoderSession
from oracle.decoder import decode_file
from oracle.model import Event
from oracle.mysqlbinlog_text import TextDump, TextEvent, decode_output, parse
from oracle.values import plain
from oracle.verify import Disagreement, Report, compare
from tests.server_fixtures import require_image


@dataclass(frozen=True)
class CorpusBinlog:
    path: Path
    committed_text: Path
    image: str
    tool: str

    @property
    def id(self) -> str:
        return self.path.relative_to(casefile.CORPUS_DIR).as_posix()


def corpus_binlogs() -> list[CorpusBinlog]:
    out = []
    for case_dir in casefile.iter_case_dirs():
        for b in casefile.read_case(case_dir)["binlogs"]:
            text = b["tool_text"]
            out.append(CorpusBinlog(case_dir / b["name"], case_dir / text["path"], text["image"],
                                    text["command"].split()[0]))
    return out


BINLOGS = corpus_binlogs()


def count_events(events: list[Event]) -> int:
    """Top-level events and those inside each Transaction_payload (the tool prints both)."""
    return sum(1 + len(e.body["events"]) if e.type_code == 40 else 1 for e in events)


# Fields the text shows that oracle/verify.py does not compare, by the text parser's body key:
# how to read the oracle's value for it. (Row images are compared line by line through the
# committed text: test_corpus_rows.py.)
EXTRA_FIELDS: dict[str, Callable[[dict[str, Any]], Any]] = {
    "payload_size": lambda b: b["payload_size"],
    "uncompressed_size": lambda b: b["uncompressed_size"],
    "name": lambda b: b["name"],  # User_var
}


def extra_disagreements(dump: TextDump, events: list[Event]) -> list[Disagreement]:
    by_position = {e.position: e for e in events}
    out = []
    for t in dump.events:
        o = by_position.get(t.position) if not t.nested else None
        if o is None:
            continue
        body = plain(o.body)
        for key, oracle_value in EXTRA_FIELDS.items():
            if key in t.body and key in body and plain(t.body[key]) != oracle_value(body):
                out.append(Disagreement(o.position, o.type_name, f"body.{key}", oracle_value(body),
                                        plain(t.body[key])))
    return out


@pytest.fixture(scope="module")
def tool_output() -> Iterator[Callable[[CorpusBinlog], subprocess.CompletedProcess[bytes]]]:
    """`tool_output(binlog)` -> the real tool's -vvv run on it; each image's files are run in
    one batch when the first of them is asked for."""
    done: dict[Path, subprocess.CompletedProcess[bytes]] = {}
    with ExitStack() as stack:
        def get(b: CorpusBinlog) -> subprocess.CompletedProcess[bytes]:
            if b.path not in done:
                require_image(next(p for p in LOCAL_PROFILES.values() if p.image == b.image))
                batch = [x for x in BINLOGS if (x.image, x.tool) == (b.image, b.tool)]
                session = stack.enter_context(DecoderSession([casefile.CORPUS_DIR], b.image, b.tool))
                done.update(zip((x.path for x in batch), session.run_each([x.path for x in batch])))
            return done[b.path]
        yield get


def test_the_corpus_has_both_flavors_and_every_image():
    assert {b.image for b in BINLOGS} == {"binlog-mysql:9.7", "binlog-mariadb:10.5",
                                          "binlog-mariadb:10.11", "binlog-mariadb:11.8"}
    assert {(b.image.startswith("binlog-mysql"), b.tool) for b in BINLOGS} == {
        (True, "mysqlbinlog"), (False, "mariadb-binlog")}


def problems(run: subprocess.CompletedProcess[bytes], events: list[Event]) -> list[str]:
    """Why the tool's run does not show agreement on every event ([] when it does)."""
    stderr = decode_output(run.stderr)
    dump = parse(decode_output(run.stdout), stderr)
    out = []
    if run.returncode != 0:
        out.append(f"exit status {run.returncode}: {stderr.strip()[-300:]}")
    if not dump.complete or dump.error is not None or dump.warnings:
        last = max((t.position for t in dump.events if t.position is not None), default=None)
        out.append(f"the tool did not read to the end (last event printed at {last}): "
                   f"{dump.error or dump.warnings or 'no end-of-log line'}")
    report = compare(dump, events, None, Report("", run.args[0] if run.args else "tool"))
    out += [f"{d.position} {d.type} {d.field}: oracle {d.oracle!r}, tool {d.tool!r}"
            for d in report.disagreements + extra_disagreements(dump, events)]
    decoded = count_events(events)
    if not report.compared == decoded == len(dump.events):
        out.append(f"{report.compared} events compared; the oracle decoded {decoded}, "
                   f"the tool printed {len(dump.events)}")
    return out


@pytest.mark.parametrize("binlog", BINLOGS, ids=lambda b: b.id)
def test_every_event_agrees_with_the_real_tool(binlog: CorpusBinlog, tool_output) -> None:
    run = tool_output(binlog)
    assert run.stdout == binlog.committed_text.read_bytes(), (
        "the tool's text differs from the committed .vvv.txt (regenerate the case?)")
    wrong = problems(run, list(decode_file(binlog.path)))
    assert wrong == [], "\n".join(wrong[:20])


def _cut(run: subprocess.CompletedProcess[bytes], keep_events: int) -> subprocess.CompletedProcess[bytes]:
    """The run's text as if the tool had stopped before its `keep_events`+1-th event."""
    lines = run.stdout.split(b"\n")
    starts = [i for i, line in enumerate(lines) if line.startswith(b"# at ")]
    return subprocess.CompletedProcess(run.args, run.returncode, b"\n".join(lines[:starts[keep_events]]),
                                       run.stderr)


@pytest.mark.parametrize("exit_status", [0, 1])
def test_a_tool_output_cut_short_fails(tool_output, exit_status: int) -> None:
    """A tool that stops early, silently (exit 0) or not, is reported, never counted as agreement."""
    binlog = next(b for b in BINLOGS if b.tool == "mariadb-binlog")
    run = tool_output(binlog)
    events = list(decode_file(binlog.path))
    assert problems(run, events) == []
    cut = _cut(run, 3)
    cut = subprocess.CompletedProcess(cut.args, exit_status, cut.stdout, cut.stderr)
    found = problems(cut, events)
    assert any("did not read to the end (last event printed at" in p for p in found), found
    assert any(p.startswith("3 events compared; the oracle decoded") for p in found), found
    assert any(p.startswith("exit status 1") for p in found) == (exit_status == 1)
