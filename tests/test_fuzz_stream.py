"""Issue 13, item 5: fuzzing stream parsers. Every mutant is served to the parser by the harness's
own primary (harness/fuzz/stream_target.py), and what it reports is judged and recorded by the same
code as a file parser's. Real parts: python-mysql-replication's BinLogStreamReader, the primary
(BackgroundPrimary on 127.0.0.1), a real MySQL 9.7 binlog from the corpus."""
from __future__ import annotations

import json
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from harness.fuzz import findings as F
from harness.fuzz.mutate_engine import Settings, run
from harness.fuzz.outcome import oracle_parse
from harness.fuzz.targets import differential_parse, plugin_parse
from harness.fuzz.seeds import load_seeds
from harness.fuzz.stream_target import NOT_SERVED, as_streamed, served_frames
from tests.peers_fixtures import installed  # noqa: F401 (a fixture)

pytest.importorskip("pymysqlreplication")

PROJECT = Path(__file__).resolve().parents[1]
SCRIPTS = PROJECT / "tests" / "harness_scripts"
# MySQL 9.7, CRC32, GTIDs: a case python-mysql-replication decodes right (test_harness_stream_runner)
SEED_DIR = PROJECT / "corpus" / "mysql-9.7" / "ddl_dml_basic--row"
OPERATORS = ("crc_flip_bit", "truncate_inside_event", "header_timestamp", "magic_damaged")
COUNT = 24
STATUSES = ("accepted", *F.KINDS)


@pytest.fixture(scope="module")
def seeds():
    if not SEED_DIR.is_dir():
        pytest.skip(f"{SEED_DIR} is not there")
    return load_seeds([SEED_DIR], max_bytes=4096, count=2)


@pytest.fixture(scope="module")
def session(seeds, tmp_path_factory):
    """A short mutate session against the built-in stream plugin, fixed seed."""
    out = tmp_path_factory.mktemp("stream-fuzz")
    summary = run(seeds, Settings(seed=7, count=COUNT, operators=OPERATORS, timeout=60, batch=6, out_dir=out),
                  parse=plugin_parse("python-mysql-replication"))
    return summary, out


def test_a_stream_session_classifies_every_input(session):
    summary, _ = session
    per_op = summary["per_operator"]
    statuses = Counter(status for counts in per_op.values() for status, n in counts.items() for _ in range(n))
    assert sum(statuses.values()) == COUNT == summary["inputs"] + summary["not_applicable"]
    assert all(s in STATUSES or s == "n/a" or s.startswith("rejected:") for s in statuses), statuses
    assert set(per_op) == set(OPERATORS)
    # A new timestamp is only a new timestamp, over the wire too.
    assert set(per_op["header_timestamp"]) == {"accepted"}, per_op["header_timestamp"]
    # A file the primary will not load (bad magic) is never handed to the parser.
    assert set(per_op["magic_damaged"]) == {f"rejected:{NOT_SERVED}"}, per_op["magic_damaged"]
    # A cut event never crashes or hangs the client (the events it reports are another test's).
    assert not {F.CRASH, F.HANG, F.MEMORY} & set(per_op["truncate_inside_event"]), per_op["truncate_inside_event"]


# Found by this fuzzing: the primary streamed a cut last event's packet header and the bytes that
# were there, then ERR 1236 inside that packet; clients decoded the ERR as the event's tail (an
# event never sent), saw "Packet sequence number wrong", or reconnected forever. Fixed in the
# primary (main b088c9e, cherry-picked here): the dump ends with ERR 1236 and nothing of the event.
def test_every_cut_event_ends_the_dump_cleanly(session):
    summary, _ = session
    per_op = summary["per_operator"]["truncate_inside_event"]
    assert all(s.startswith("rejected:") for s in per_op), per_op


def test_a_stream_session_records_the_known_crc_defect_with_its_transport(session):
    """python-mysql-replication leaves verify_checksum off by default: a flipped CRC32 on the wire
    is decoded silently (corpus/findings/python-mysql-replication/bad-crc-accepted-12b8f157515a)."""
    summary, out = session
    assert summary["findings"]["by_kind"][F.BAD_CRC] >= 1, summary["findings"]["signatures"]
    notes = [json.loads(p.read_text()) for p in sorted((out / "findings").glob("*.json"))]
    assert notes and all(n["seed_outcome"]["transport"] == "stream" for n in notes)
    crc = [n for n in notes if n["kind"] == F.BAD_CRC]
    assert crc and all(n["outcome"] == {**n["outcome"], "transport": "stream", "error": None} for n in crc)


def _cut_stream_reports_what_was_served(data: bytes) -> None:
    served = served_frames(data)
    assert not served.whole and served.frames
    got = plugin_parse("python-mysql-replication")(data)
    assert not got.accepted and got.transport == "stream"
    assert [e["next_position"] for e in got.events] == [f.log_pos for f in served.frames]
    want = as_streamed(oracle_parse(data).events)
    assert [e["type"] for e in got.events] == [e["type"] for e in want]


def _last_event_start(data: bytes) -> int:
    pos = 4
    for f in served_frames(data).frames[:-1]:
        pos += f.event_size
    return pos


def test_a_stream_cut_in_a_header_reports_exactly_the_events_served_before_it(seeds):
    """The expectation over the wire is what the primary sends: every whole event before the cut,
    then ERR 1236 (here: the last event's header is cut, so the primary never starts it).
    python-mysql-replication reports those events, as they are in the file, then fails cleanly."""
    data = seeds[0].data
    _cut_stream_reports_what_was_served(data[:_last_event_start(data) + 10])


def test_a_stream_cut_in_a_body_reports_exactly_the_events_served_before_it(seeds):
    """The same, the last event's body cut: the primary sends nothing of it."""
    _cut_stream_reports_what_was_served(seeds[0].data[:-7])


def test_an_event_the_primary_never_sent_is_a_finding(seeds, tmp_path):
    """The worst a stream parser can do is report rows that are not in the served binlog. A parser
    planted with that defect is caught on the unmutated seed and under the engine; the real
    library on the same seed is not (and agrees with the oracle on what was sent)."""
    planted = plugin_parse("tests.harness_scripts.stream_fuzz_plugins:InventsAnEvent")
    got = planted(seeds[0].data)
    assert got.disagreement_key == "stream:not-sent" and "never sent" in (got.disagreement or "")
    real = differential_parse("python-mysql-replication")(seeds[0].data)
    assert real.accepted and real.disagreement is None, real.disagreement
    summary = run(seeds[:1], Settings(seed=1, count=3, operators=("header_timestamp",), timeout=60, out_dir=tmp_path),
                  parse=planted)
    assert summary["findings"]["by_kind"][F.DIFFERENTIAL] == summary["inputs"] == 3


def test_a_stream_finding_is_minimised_into_a_case_marked_stream(session, tmp_path):
    """record.py replays a stream finding through the primary while it drops events, and the
    case it writes under corpus/findings/<parser>/ says the finding came over the wire."""
    _, out = session
    reproducer = sorted((out / "findings").glob(f"{F.BAD_CRC}-*.bin"))[0]
    proc = subprocess.run([sys.executable, "-m", "harness.fuzz.record", str(reproducer), "--parser",
                           "python-mysql-replication", "--out", str(tmp_path)],
                          cwd=PROJECT, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr[-2000:]
    case_dir = Path(proc.stdout.strip().splitlines()[-1])
    case = json.loads((case_dir / "case.json").read_text())
    assert case_dir.parent.name == "python-mysql-replication"
    assert case["finding"]["transport"] == "stream" and case["finding"]["minimized"]
    assert case["finding"]["size"] < reproducer.stat().st_size
    assert case["expected_outcome"] == "reject"


def test_the_one_shot_stream_command_path(seeds, tmp_path):
    """`python -m harness fuzz --parser-stream CMD`: the command gets each mutant's StreamSource
    as flags (tests/harness_scripts/stream_oneshot.py reads it with BinLogStreamReader)."""
    out = tmp_path / "out"
    proc = subprocess.run([sys.executable, "-m", "harness", "fuzz", "--parser-stream",
                           f"{sys.executable} {SCRIPTS / 'stream_oneshot.py'}", "--count", "6", "--seed", "3",
                           "--seeds", str(SEED_DIR), "--max-seed-bytes", "4096", "--operators",
                           "header_timestamp", "crc_flip_bit", "--out", str(out)],
                          cwd=PROJECT, capture_output=True, text=True, timeout=600,
                          env={**__import__("os").environ, "PYTHONPATH": str(PROJECT)})
    assert proc.returncode in (0, 1), proc.stderr[-3000:]
    assert "(stream): 6 inputs" in proc.stdout, proc.stdout
    summary = json.loads((out / "summary.json").read_text())
    assert summary["transport"] == "stream" and summary["inputs"] == 6
    assert set(summary["per_operator"]["header_timestamp"]) == {"accepted"}
    # the one-shot reader does not verify checksums either
    assert summary["findings"]["by_kind"][F.BAD_CRC] == summary["per_operator"]["crc_flip_bit"][F.BAD_CRC]


def test_a_node_peer_is_fuzzed_over_the_wire(installed, seeds, tmp_path):  # noqa: F811
    """zongji-vlasky (npm @vlasky/zongji, a real Node client) reports only some event types and
    neither flags nor server_id: its events are put back in the file's places, so a changed
    timestamp is judged on the event it changed, and the session classifies every input."""
    summary = run(seeds[:1], Settings(seed=2, count=8, operators=("header_timestamp", "crc_flip_bit"),
                                      timeout=60, out_dir=tmp_path), parse=plugin_parse("zongji-vlasky"))
    per_op = summary["per_operator"]
    assert summary["inputs"] == 8
    assert set(per_op["header_timestamp"]) == {"accepted"}, summary["findings"]["signatures"]
    assert all(s == F.BAD_CRC or s.startswith("rejected:") for s in per_op["crc_flip_bit"]), per_op
    assert summary["findings"]["by_kind"][F.BAD_CRC] == per_op["crc_flip_bit"].get(F.BAD_CRC, 0)
