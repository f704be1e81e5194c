"""Every event of every corpus binlog against the real tool, run now: MySQL 9.7's mysqlbinlog for
the MySQL cases, the case's own MariaDB image's mariadb-binlog for the MariaDB ones (the tool and
image case.json names for its committed .vvv.txt).

For each file: the tool reads it to its end (exit 0, "# End of log file"); it prints today exactly
the committed .vvv.txt (so the tests that read those texts, such as test_corpus_rows.py's `###`
row lines, compare with the real tool); and its text, read by oracle/mysqlbinlog_text.py, agrees
with the oracle's decoding for every event, a Transaction_payload's own events included, on:
- what oracle/verify.py compares: header (position, end_log_pos, server id, type, CRC32,
  timestamp, in-use flag) and body fields (queries, databases, xids, GTIDs and their commit
  timestamps, GTID sets, rotate targets, table ids, seeds, ...);
- EXTRA_FIELDS: payload sizes and compression, user-variable names, rows flags, GTID flags,
  GTID lists, the Format_description's "at startup";
- each Query's session state, the `SET ...` lines (tests/tool_session_vars.py): timestamp with
  microseconds, pseudo_thread_id, the Q_FLAGS2 switches, sql_mode, auto_increment, character
  sets and collations, time zone, lc_time_names, and MySQL's later status variables.
Not compared here: user-variable values and the statements of Execute_load_query (compared by
test_events_classic_vs_mariadb_binlog.py) and row images (test_corpus_rows.py).
A file compares fewer events than both sides decoded only as a failure.

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
from oracle.decoder import decode_file
from oracle.model import Event
from oracle.mysqlbinlog_text import TextDump, decode_output, parse
from oracle.values import plain
from oracle.verify import Disagreement, Report, compare
from tests.pinned_tools import count_events
from tests.tool_session_vars import session_disagreements


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


def _mariadb_gtid_flags(b: dict[str, Any]) -> list[str]:
    """Gtid_log_event::print: " trans" for FL_TRANSACTIONAL, " ddl" for FL_DDL, then the
    thread id MariaDB 11.x records in flags_extra."""
    words = [word for bit, word in ((0x04, "trans"), (0x20, "ddl")) if b["flags2"] & bit]
    return words + ([f"thread_id={b['thread_id']}"] if "thread_id" in b else [])


# Fields the text shows that oracle/verify.py does not compare, by the text parser's body key:
# the oracle's value for it, from its plain body. (Row images are compared line by line through
# the committed text, test_corpus_rows.py; a Query's session variables by tool_session_vars.py.)
EXTRA_FIELDS: dict[str, Callable[[dict[str, Any]], Any]] = {
    "payload_size": lambda b: b["payload_size"],
    "uncompressed_size": lambda b: b["uncompressed_size"],
    "compression_type": lambda b: b["compression_name"],
    "name": lambda b: b["name"],  # User_var
    "flags": lambda b: b["flags"]["names"],  # Rows events
    "at_startup": lambda b: b["created"] != 0,  # Format_description
    "rbr_only": lambda b: not b["may_have_sbr_stmts"],  # MySQL Gtid
    "flags_text": _mariadb_gtid_flags,  # MariaDB Gtid
    "list": lambda b: [f"{g['domain_id']}-{g['server_id']}-{g['seq_no']}" for g in b["list"]],
}


def extra_disagreements(dump: TextDump, events: list[Event]) -> list[Disagreement]:
    by_position = {e.position: e for e in events}
    out = []
    for t in dump.events:
        o = by_position.get(t.position) if not t.nested else None
        if o is None:
            continue
        body = plain(o.body)
        for key in EXTRA_FIELDS.keys() & t.body.keys():
            try:
                expected = EXTRA_FIELDS[key](body)
            except KeyError as e:
                expected = f"absent ({e})"
            if plain(t.body[key]) != expected:
                out.append(Disagreement(o.position, o.type_name, f"body.{key}", expected, plain(t.body[key])))
    return out + session_disagreements(dump, events)[0]


@pytest.fixture(scope="module")
def tool_output() -> Iterator[Callable[[CorpusBinlog], subprocess.CompletedProcess[bytes]]]:
    """`tool_output(binlog)` -> the real tool's -vvv run on it; each image's files are run in
    one batch when the first of them is asked for."""
    from generators.tools import DecoderSession  # noqa: PLC0415 (docker-py: the servers extra)
    from tests.server_fixtures import require_image  # noqa: PLC0415
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


@pytest.mark.parametrize(("printed", "tampered", "field"), [
    ("SET @@session.sql_mode=", "SET @@session.sql_mode=1", "session.sql_mode"),
    ("SET @@session.pseudo_thread_id=", "SET @@session.pseudo_thread_id=9", "session.pseudo_thread_id"),
    ("SET TIMESTAMP=", "SET TIMESTAMP=1", "session.TIMESTAMP"),
    ("\tGTID\tlast_committed=", "\tGTID\tlast_committed=7", "body.last_committed"),
    ("flags: STMT_END_F", "flags: ", "body.flags"),
])
def test_a_changed_value_in_the_tool_text_is_a_disagreement(tool_output, printed, tampered, field) -> None:
    """The real tool's text with one printed value changed: the comparison names that field."""
    # A MySQL 9.7 file: its text prints every value below (5.6 writes no last_committed, and its
    # rows events carry STMT_END_F alone, which this tampering would blank rather than change).
    binlog = next(b for b in BINLOGS if b.id.startswith("mysql-9.7/") and b.tool == "mysqlbinlog"
                  and b"STMT_END_F" in b.committed_text.read_bytes())
    run = tool_output(binlog)
    text = run.stdout.decode("utf-8", "surrogateescape")
    assert printed in text
    changed = text.replace(printed, tampered, 1).encode("utf-8", "surrogateescape")
    found = problems(subprocess.CompletedProcess(run.args, 0, changed, run.stderr), list(decode_file(binlog.path)))
    assert any(f" {field}: " in p for p in found), found


def test_session_variables_are_compared_for_both_flavors(tool_output) -> None:
    for tool in ("mysqlbinlog", "mariadb-binlog"):
        binlog = next(b for b in BINLOGS if b.tool == tool)
        run = tool_output(binlog)
        dump = parse(decode_output(run.stdout), decode_output(run.stderr))
        wrong, compared = session_disagreements(dump, list(decode_file(binlog.path)))
        assert wrong == [] and compared >= 20, (tool, compared)
