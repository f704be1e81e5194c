"""The mysqlbinlog -vvv text parser, on text the real tools print for real binlogs.

The text is produced here by running the real tool (mariadb-binlog of our pinned MariaDB 11.8
image, tests/pinned_tools.py; MySQL 9.7's mysqlbinlog through oracle.verify's default), never
written by hand.
"""
from __future__ import annotations

from dataclasses import replace
from functools import cache
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from oracle.decoder import decode_file
from oracle.errors import BinlogError
from oracle.event_types import EventType as T
from oracle.mysqlbinlog_text import TextDump, decode_output, parse
from oracle.mysqlbinlog_values import unquote
from oracle.verify import HEADER_CHECKS, Report, ToolUnavailable, compare, run_tool
from tests.external import ROOT, manifest
from tests.pinned_tools import count_events, external_mariadb_binlog, limit_problem
from tests.sample_fixtures import sample_params

EXTERNAL = [b for b in manifest() if b.path.exists()]


def _by_name(suffix: str) -> Path:
    for b in EXTERNAL:
        if b.file.endswith(suffix):
            return b.path
    pytest.skip(f"external binlog {suffix} not found under {ROOT}")


@cache
def _mariadb_dump(path: Path) -> TextDump:
    run = external_mariadb_binlog(path)
    return parse(decode_output(run.stdout), decode_output(run.stderr))


def _oracle(path: Path):
    events, error = [], None
    try:
        events.extend(decode_file(path))
    except BinlogError as e:
        error = e
    return events, error


def _header_disagreements(dump: TextDump, path: Path) -> list:
    events, error = _oracle(path)
    report = compare(dump, events, error, Report(str(path), "tool"))
    return [d for d in report.disagreements if d.field in HEADER_CHECKS]


@pytest.mark.build  # the real mariadb-binlog over every external binlog (one takes minutes): not the fast tier
@pytest.mark.parametrize("binlog", EXTERNAL, ids=lambda b: b.name)
def test_mariadb_binlog_text_parses_and_matches_the_oracle_headers(binlog):
    """Every event mariadb-binlog prints is recognised, and its header agrees with the oracle."""
    dump = _mariadb_dump(binlog.path)
    assert all(e.type_codes for e in dump.events), [e.label for e in dump.events if not e.type_codes]
    positions = [e.position for e in dump.events if not e.nested]
    assert all(p is not None for p in positions)
    assert positions == sorted(set(positions))
    assert _header_disagreements(dump, binlog.path) == []
    # every event the oracle decoded was printed, but where the tool's recorded limit says not
    events, _ = _oracle(binlog.path)
    stopped_at = next((e.position for e in events if e.position not in set(positions)), None)
    assert limit_problem(binlog.name, stopped_at) is None
    if stopped_at is None:
        assert len(dump.events) == count_events(events)


def test_mariadb_events_and_rows():
    dump = _mariadb_dump(_by_name("test-data__binlogs__mariadb-bin.000001"))
    by_pos = {e.position: e for e in dump.events}
    fde = by_pos[4]
    assert fde.type_codes == (T.FORMAT_DESCRIPTION_EVENT,)
    assert fde.in_use is True
    assert fde.body == {"binlog_version": 4, "at_startup": True,
                        "server_version": "10.5.15-MariaDB-1:10.5.15+maria~focal-log"}
    assert by_pos[256].body == {"list": []}
    assert by_pos[285].body == {"binlog_file_name": "mariadb-bin.000001"}
    assert by_pos[330].type_codes == (T.GTID_EVENT,)
    assert by_pos[330].body == {"gtid": "0-1-1", "domain_id": 0, "seq_no": 1, "flags_text": ["trans"]}
    assert by_pos[372].body["query"].startswith("insert into outbox (topic, event_type, event)")
    assert by_pos[476].body == {"schema": "toddy_test", "table": "outbox", "table_id": 38}
    rows = by_pos[612].body["rows"]
    assert by_pos[612].body["flags"] == ["STMT_END_F"]
    assert [r["kind"] for r in rows] == ["INSERT"]
    after = rows[0]["after"]
    assert [c["value"] for c in after] == [62, "foo", 2, '{"foo":1}', 1650493084]
    assert [c["column_type"] for c in after] == ["INT", "VARSTRING(1020)", "ENUM(1 byte)",
                                                 "BLOB/TEXT", "TIMESTAMP(0)"]
    assert [c["meta"] for c in after][:3] == [0, 1020, 63233]
    assert after[2]["nullable"] is True and after[2]["is_null"] is False
    assert by_pos[671].type_codes == (T.XID_EVENT,) and by_pos[671].body == {"xid": 800}


def test_query_db_and_multiline_statement():
    dump = _mariadb_dump(_by_name("bug27213339-bin.000001"))
    by_pos = {e.position: e for e in dump.events}
    assert by_pos[219].body["query"] == "CREATE SCHEMA db1"
    assert "db" not in by_pos[219].body  # no `use` line was printed for it
    assert by_pos[373].body["db"] == "db1"
    assert by_pos[373].body["query"] == "CREATE TABLE t1 (i INT)"
    assert by_pos[373].body["thread_id"] == 3 and by_pos[373].body["error_code"] == 0
    assert by_pos[533].body["query"].count("\n") == 1


def test_rotate_bodies_equal_the_oracle():
    """Rotate is decoded by the oracle already: the printed file name and position agree."""
    seen = 0
    for b in EXTERNAL:
        if b.flavor != "mysql" and "mariadb" not in b.file:
            continue
        dump = _mariadb_dump(b.path)
        events, _ = _oracle(b.path)
        oracle = {e.position: e for e in events if e.type_code == T.ROTATE_EVENT}
        for t in dump.events:
            if t.type_codes == (T.ROTATE_EVENT,) and t.position in oracle:
                o = oracle[t.position].body
                assert (t.body["new_log_ident"], t.body["pos"]) == (o["new_log_ident"], o["pos"])
                seen += 1
    assert seen >= 10


def test_compare_reports_each_changed_header_field():
    path = _by_name("test-data__binlogs__mariadb-bin.000001")
    dump = _mariadb_dump(path)
    events, error = _oracle(path)
    events[3] = replace(events[3], server_id=99, next_position=1)
    del events[5]
    report = compare(dump, events, error, Report(str(path), "tool"))
    found = {(d.position, d.field) for d in report.disagreements}
    assert found == {(events[3].position, "server_id"), (events[3].position, "end_log_pos"),
                     (dump.events[5].position, "event")}


def test_ignorable_names_the_real_type():
    """mariadb-binlog prints MySQL-only events as Ignorable with their real type code."""
    dump = _mariadb_dump(_by_name("bug27213339-bin.000001"))
    codes = {e.type_codes for e in dump.events}
    assert (T.PREVIOUS_GTIDS_LOG_EVENT,) in codes and (T.ANONYMOUS_GTID_LOG_EVENT,) in codes


def test_tool_error_offset_is_read():
    dump = _mariadb_dump(_by_name("bug40482-bin.000001"))
    assert dump.error_offset == 106 and not dump.complete
    assert [e.position for e in dump.events] == [4]


def test_statement_rows_go_to_the_last_event_of_a_multi_event_statement():
    dump = _mariadb_dump(_by_name("write-full-row.binlog"))
    rows_events = [e for e in dump.events if "table_id" in e.body and "schema" not in e.body]
    assert [e.position for e in rows_events] == [275, 334, 428]
    assert "statement_rows" in rows_events[-1].body
    tables = [r["table"] for r in rows_events[-1].body["statement_rows"]]
    assert tables[0] == "`mysql`.`ndb_apply_status`" and "`test`.`ba`" in tables


def test_last_previous_gtids_set_and_a_server_version_with_spaces():
    """Seen on generated binlogs (tests/test_strategies.py): mysqlbinlog 9.7 starts each line of a
    GTID set with "# " and prints its trailer right after a last event; MariaDB 11.8 from Debian
    names its version with spaces."""
    sid1, sid2 = "e3e70682-c209-4cac-629f-6fbed82c07cd", "f728b4fa-4248-5e3a-0a5d-2f346baa9455"
    dump = parse("\n".join([
        "# at 4",
        "#010909  1:46:40 server id 1  end_log_pos 123 CRC32 0x6e04b880 \tStart: binlog v 4, "
        "server v 11.8.6-MariaDB-0+deb13u1 from Debian-log created 010909  1:46:40 at startup",
        "# at 123",
        "#010909  1:46:40 server id 1  end_log_pos 234 CRC32 0x7aa87f5a \tPrevious-GTIDs",
        f"# {sid1}:1,", f"# {sid2}:1-3",
        "SET @@SESSION.GTID_NEXT= 'AUTOMATIC' /* added by mysqlbinlog */ /*!*/;",
        "DELIMITER ;",
        "# End of log file"]))
    start, previous = dump.events
    assert start.body == {"binlog_version": 4, "server_version": "11.8.6-MariaDB-0+deb13u1 from Debian-log",
                          "at_startup": True}
    assert previous.body == {"gtid_set": f"{sid1}:1,\n{sid2}:1-3"} and dump.complete


def test_mysql_9_7_text_when_available():
    """MySQL 9.7's own mysqlbinlog (docker image) on a MySQL 8.0 file: parsed and consistent."""
    path = _by_name("binlog-invisible-columns.000001")
    try:
        run = run_tool(path)
    except ToolUnavailable as e:
        pytest.skip(str(e))
    dump = parse(run.stdout, run.stderr)
    assert dump.complete and all(e.type_codes for e in dump.events)
    assert _header_disagreements(dump, path) == []


@pytest.mark.parametrize(("profile", "part"), sample_params())
def test_samples_from_real_servers(profile, part, sample_binlog):
    """Samples a real server wrote in this session, with the real tool's text for them."""
    sample = sample_binlog(profile, part)
    dump = parse(sample.tool_text())
    assert dump.complete and dump.events and all(e.type_codes for e in dump.events)
    assert _header_disagreements(dump, sample.path) == []


def test_unquote_reverses_my_b_write_quoted():
    assert unquote(r"'a\'b\\c\n\x01\x1f'") == b"a'b\\c\n\x01\x1f"
    assert unquote("'caf\udcc3\udca9'") == "café".encode()
    assert unquote("12") is None


_FRAGMENTS = ["# at 4", "# at 120", "#220420 22:17:51 server id 1  end_log_pos 256 CRC32 0x5b2d3aa0 \tQuery\tthread_id=1",
              "#220420 22:17:51 server id 1  end_log_pos 99 \t", "###   @1=1 /* INT meta=0 nullable=0 is_null=0 */",
              "### INSERT INTO `a`.`b`", "### SET", "### WHERE", "BINLOG '", "'/*!*/;", "/*!*/;",
              "# Number of rows: 3", "# Start of compressed events!", "# End of compressed events!",
              "#Q> x", "use `d`/*!*/;", "ERROR: Could not read entry at offset 5: x", "###      x"]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.one_of(st.sampled_from(_FRAGMENTS), st.text(max_size=40)), max_size=40))
def test_parser_never_raises_on_any_text(lines):
    dump = parse("\n".join(lines))
    for e in dump.events:
        e.to_json()
