"""The classic event decoders against the real tool: `mariadb-binlog -vvv` from our pinned image
(binlog-mariadb:11.8) on every external binlog, on the samples real servers write during the run,
and on a hand-built MariaDB log. Compared for every event both sides read: end_log_pos, and for
each Query / Execute_load_query its header line (thread_id, exec_time, error_code, the MariaDB
Q_XID it prints as xid=), `use` line and statement, Xid events, Rand seeds, Intvar values, user
variables and load-data blocks.

The rule: a file passes only when every event the oracle decoded was printed by the tool and
compared. Where the tool stops early on a file it cannot read (a MySQL-only event, a column type
it does not print), that is the tool's limit, recorded with the offset in mariadb-binlog-11.8-limits.tsv, and
checked both ways: a new early stop fails, and so does a recorded one that no longer happens.
"""
from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

from generators.profiles import get
from oracle import BinlogError, decode_file
from oracle.mysqlbinlog_text import decode_output
from tests.classic_binlog import MARIADB_VERSION, binlog, query_body
from tests.external import EITHER, broken_expectation, manifest
from tests.pinned_tools import MARIADB_PROFILE, external_mariadb_binlog, limit_problem, mariadb_binlog_limits
from tests.sample_fixtures import sample_params
from tests.test_events_classic import FULL_MARIADB_STATUS

TOOL_PROFILE = MARIADB_PROFILE  # the tool is this image's mariadb-binlog, whatever the host has
TOOL_ARGS = ("-vvv", "--base64-output=never")
CASES = [b for b in manifest() if not any(b.file.endswith(x) for x in EITHER)]

# The tools print one header line per event, in file order; the k-th is the oracle's k-th event
# (checked by its end_log_pos). Positions alone are ambiguous: relay logs carry the source's.
HEADER = re.compile(r"^#\d{6} [ \d]\d:\d\d:\d\d server id \d+\s+end_log_pos (\d+)[^\t\n]*", re.M)
QUERY = re.compile(r"\t(?:Query|Query_compressed|Execute_load_query)\tthread_id=(\d+)\texec_time=(\d+)"
                   r"\terror_code=(\d+)(?:\txid=(\d+))?(?:\tXid = (\d+))?\n(?:use `([^`]*)`/\*!\*/;)?")
XID = re.compile(r"\tXid = (\d+)")
RAND = re.compile(r"\tRand\nSET @@RAND_SEED1=(\d+), @@RAND_SEED2=(\d+)/")
INTVAR = re.compile(r"\tIntvar\nSET (LAST_INSERT_ID|INSERT_ID)=(\d+)/")
USER_VAR = re.compile(r"\tUser_var\n(?:[^\n]*\n){0,2}?SET @`([^`]*)`:="
                      r"(?:(-?[0-9.e+]+|NULL)|_\w+ (?:0x|X')([0-9A-F]*)'? COLLATE)")
BLOCK = re.compile(r"\n#(?:Begin_load_query|Append_block): file_id: (\d+)  block_len: (\d+)")


@dataclass(frozen=True)
class ToolOutput:
    text: str
    exit_status: int


@dataclass(frozen=True)
class Decoded:
    events: list[dict]
    error: BinlogError | None  # where the oracle stopped, for a file broken on purpose


def decoded(path: Path, may_break: tuple[tuple[str, ...], int] | None = None) -> Decoded:
    """Events in the order the tools print them: a Transaction_payload's own events follow it.
    The oracle must read the file to its end, except a file broken on purpose (`may_break`: the
    error kinds and the offset of the event where it must stop, tests/external.py BROKEN)."""
    events: list[dict] = []
    try:
        for e in decode_file(path):
            events.append(e.to_json())
            if e.type_code == 40:
                events.extend(e.body["events"])
    except BinlogError as e:
        if may_break is None:
            raise
        kinds, offset = may_break
        assert e.kind in kinds and (e.event_offset if e.event_offset is not None else e.offset) == offset, e
        return Decoded(events, e)
    assert may_break is None, f"{path.name} is broken on purpose, yet the oracle read it to its end"
    return Decoded(events, None)


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
    if m[5] is not None:  # MySQL prints a DDL's Q_DDL_LOGGED_WITH_XID
        ok &= plain_number(b["status_vars"].get("Q_DDL_LOGGED_WITH_XID")) == int(m[5])
    return ok and (m[6] is None or b["db"] == m[6])


_XID = (XID, lambda b, m: plain_number(b["xid"]) == int(m[1]))
_QUERY = (QUERY, _query_agrees)
_BLOCK = (BLOCK, lambda b, m: (b["file_id"], len(b["block"]["value"]) // 2) == (int(m[1]), int(m[2])))
# Type code -> (the pattern of the tool's text for that event, how its body must agree). An event
# of one of these types whose text the pattern does not match is a failure, not a skip.
CHECKS: dict[int, tuple[re.Pattern[str], Callable[[dict, re.Match[str]], bool]]] = {
    2: _QUERY, 165: _QUERY, 18: _QUERY,  # Query, Query_compressed, Execute_load_query
    16: _XID,
    13: (RAND, lambda b, m: (plain_number(b["seed1"]), plain_number(b["seed2"])) == (int(m[1]), int(m[2]))),
    5: (INTVAR, lambda b, m: (b["type_name"], plain_number(b["val"])) == (m[1], int(m[2]))),
    14: (USER_VAR, lambda b, m: b["name"] == m[1] and _user_var_agrees(b, m[2], m[3])),
    17: _BLOCK, 9: _BLOCK,  # Begin_load_query, Append_block
}


@dataclass(frozen=True)
class Comparison:
    printed: int  # events the tool printed (one header line each)
    decoded: int  # events the oracle decoded, a Transaction_payload's own events included
    compared: int  # events paired and compared (end_log_pos, and the body when CHECKS has the type)
    bodies: int  # of those, the events whose body was compared field by field
    stopped_at: int | None  # position of the first decoded event the tool did not print


def compare(text: str, events: list[dict]) -> Comparison:
    """Pair the k-th printed event with the oracle's k-th and assert that they agree. Pairs only
    as many as both sides have; `limit_problems` decides whether a shortfall is acceptable."""
    heads = list(HEADER.finditer(text))
    compared = bodies = 0
    for i, (head, event) in enumerate(zip(heads, events, strict=False)):
        if event["next_position"] is not None:
            assert event["next_position"] == int(head[1]), (i, head[0])
        compared += 1
        check = CHECKS.get(event["type_code"])
        if check is None:
            continue
        segment = text[head.end():heads[i + 1].start() if i + 1 < len(heads) else len(text)]
        pattern, agrees = check
        m = pattern.match(segment)
        assert m is not None, (f"{event['type']} at {event['position']}: the tool printed "
                               f"{(head[0] + segment)[:300]!r}")
        assert agrees(event["body"], m), (head[0], m[0], event["body"])
        bodies += 1
    stopped_at = events[len(heads)]["position"] if len(heads) < len(events) else None
    return Comparison(len(heads), len(events), compared, bodies, stopped_at)


def limit_problems(c: Comparison, exit_status: int, oracle_stopped: bool, name: str,
                   limits: dict[str, int] | None = None) -> list[str]:
    """Why the comparison does not cover every event both sides decoded ([] when it does). Where
    the tool stopped early must be the limit recorded for `name` (tests/pinned_tools.py)."""
    problems = []
    if c.printed > c.decoded:
        problems.append(f"the tool printed {c.printed} events, the oracle decoded {c.decoded}")
    limit = limit_problem(name, c.stopped_at, limits)
    if limit is not None:
        problems.append(f"{limit} (exit status {exit_status}; {c.compared} of {c.decoded} "
                        "decoded events compared)")
    if exit_status != 0 and c.stopped_at is None and not oracle_stopped:
        problems.append(f"exit status {exit_status} on a file the oracle reads to its end")
    return problems


def check_file(path: Path, name: str, out: ToolOutput, may_break=None) -> Comparison:
    d = decoded(path, may_break)
    c = compare(out.text, d.events)
    problems = limit_problems(c, out.exit_status, d.error is not None, name)
    assert problems == [], f"{name}: {problems}"
    return c


@pytest.mark.parametrize("binlog_file", CASES, ids=lambda b: b.name)
def test_external_binlog_agrees_with_mariadb_binlog(binlog_file):
    run = external_mariadb_binlog(binlog_file.path, TOOL_ARGS)
    check_file(binlog_file.path, binlog_file.name, ToolOutput(decode_output(run.stdout), run.returncode),
               broken_expectation(binlog_file))


def test_every_recorded_limit_names_an_external_binlog():
    """A stale entry (a file no longer in the manifest) fails too."""
    names = {b.name for b in CASES}
    if not names:
        pytest.skip("external binlogs not found")
    assert set(mariadb_binlog_limits()) <= names


@pytest.mark.parametrize(("profile", "part"), sample_params())
def test_samples_from_real_servers(profile, part, sample_binlog):
    """Samples real servers write during the run, with the real tool's text for them (MySQL 9.7's
    mysqlbinlog, the MariaDB server's own mariadb-binlog): User_var of every type, Intvar, Rand,
    LOAD DATA, compressed transactions. The tool read each to its end."""
    sample = sample_binlog(profile, part)
    exit_status = sample.manifest_entry()["decoder_exit"]
    c = check_file(sample.path, f"samples/{profile}/{part}", ToolOutput(sample.tool_text(), exit_status))
    assert c.compared == c.decoded > 0
    if part == "statement":
        assert c.bodies >= 30, c


def test_hand_built_mariadb_log(tmp_path):
    log = binlog(MARIADB_VERSION, (2, query_body(b"SELECT 1", status=FULL_MARIADB_STATUS)),
                 (16, (7).to_bytes(8, "little")))
    path = tmp_path / "hand.bin"
    path.write_bytes(log)
    from generators.tools import run_mariadb_binlog  # noqa: PLC0415 (docker-py: the servers extra)
    from tests.server_fixtures import require_image  # noqa: PLC0415
    require_image(get(TOOL_PROFILE))
    proc = run_mariadb_binlog(path, TOOL_ARGS, image=get(TOOL_PROFILE).image)
    text = decode_output(proc.stdout)
    assert "xid=4242" in text and "SET TIMESTAMP=1700000000.123456" in text
    c = check_file(path, "hand.bin", ToolOutput(text, proc.returncode))
    assert (c.compared, c.bodies) == (3, 2)


# -- the comparison itself fails when the tool stops early ------------------------------------

def _statement_sample(sample_binlog) -> tuple[Path, str]:
    sample = sample_binlog("mariadb-11.8", "statement")
    return sample.path, sample.tool_text()


def test_a_tool_output_cut_short_fails(sample_binlog):
    """The real tool's text cut after its 5th event: the comparison reports where the tool stopped
    and how few events it compared, and a recorded limit elsewhere does not excuse it."""
    path, text = _statement_sample(sample_binlog)
    heads = list(HEADER.finditer(text))
    cut = text[:heads[5].start()]
    events = decoded(path).events
    c = compare(cut, events)
    assert (c.printed, c.compared, c.stopped_at) == (5, 5, events[5]["position"])
    problems = limit_problems(c, 1, False, "cut")
    assert problems and f"stopped at offset {events[5]['position']}" in problems[0]
    assert "5 of" in problems[0]
    assert limit_problems(c, 1, False, "cut", {"cut": events[6]["position"]}) != []
    assert limit_problems(c, 1, False, "cut", {"cut": events[5]["position"]}) == []  # the recorded limit
    with pytest.raises(AssertionError, match="stopped at offset"):  # the committed list
        check_file(path, "samples/cut", ToolOutput(cut, 1))


def test_a_recorded_limit_that_disappears_fails(sample_binlog):
    path, text = _statement_sample(sample_binlog)
    c = compare(text, decoded(path).events)
    assert c.stopped_at is None
    assert any("is gone" in p for p in limit_problems(c, 0, False, "cut", {"cut": 1234}))


def test_a_tool_that_prints_more_than_the_oracle_decoded_fails(sample_binlog):
    path, text = _statement_sample(sample_binlog)
    events = decoded(path).events
    assert limit_problems(compare(text, events[:-1]), 0, False, "cut") != []


def test_an_exit_status_alone_is_not_agreement(sample_binlog):
    path, text = _statement_sample(sample_binlog)
    c = compare(text, decoded(path).events)
    assert any("exit status 1" in p for p in limit_problems(c, 1, False, "cut"))
