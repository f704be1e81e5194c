"""Findings 3 and 6 to 11 of python-mysql-replication (docs/findings.md), shown with the library ALONE
(tests/library_alone/pymysqlreplication.py: its BinLogStreamReader, no adapter, no harness
primary) against a real MySQL 9.7 or MariaDB 10.11, and, for the entries of the MySQL 5.7 / 8.0
cases, against a real server of that version. Each statement runs in a binlog of its own,
read from that file's start; the same reading of a control statement shows the library right,
so a test fails if the defect is fixed upstream or if the reading stops reading at all.
Findings 1 to 5: tests/test_pymysqlreplication_live.py."""
from __future__ import annotations

import datetime
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest

from generators.server import Server
from tests.library_alone.binlogs import in_a_fresh_binlog
from tests.library_alone.pymysqlreplication import Reading, read
from tests.library_alone.servers import lazy_servers

pytestmark = pytest.mark.server

USER, PASSWORD = "alone", "alone-pw"
# The README asks for binlog_row_metadata=FULL (and binlog_row_image=FULL, the default).
SERVERS = {
    "mysql": ("mysql-9.7", {"binlog_row_metadata": "FULL"}),
    "mysql-gtid": ("mysql-9.7", {"binlog_row_metadata": "FULL", "gtid_mode": "ON",
                                 "enforce_gtid_consistency": "ON"}),
    # finding 12's own: its control (an untagged set) must find no tagged transaction of another
    # test before its own, or the server streams that one and the binlog after it, whose tagged
    # Previous_gtids the library cannot read (a finding of its own)
    "mysql-gtid-untagged": ("mysql-9.7", {"binlog_row_metadata": "FULL", "gtid_mode": "ON",
                                          "enforce_gtid_consistency": "ON"}),
    "mariadb": ("mariadb-10.11", {"binlog_format": "ROW", "binlog_row_metadata": "FULL"}),
    "mysql-8.0": ("mysql-8.0", {"binlog_row_metadata": "FULL"}),
    # 5.7 writes no optional metadata at all (no charsets, names, ENUM members): 1.0 supports
    # MySQL 8.0.14+ only, its README says (5.x: v0.1 to v0.45).
    "mysql-5.7": ("mysql-5.7", {"binlog_format": "ROW"}),
}


@dataclass(frozen=True)
class Finding:
    """A defect (or documented limit) and its control: statements over table {t}, each run in a
    binlog of its own on its server, and what the library alone reports for them."""
    name: str
    setup: str
    defect: str
    shows_defect: Callable[[Reading], bool]
    control: str
    right: Callable[[Reading], bool]
    server: str = "mysql"
    control_server: str | None = None  # default: the same server
    options: dict[str, Any] = field(default_factory=dict)  # BinLogStreamReader options, both runs
    control_options: Callable[[Server], dict[str, Any]] | None = None  # default: options


@pytest.fixture(scope="module")
def servers() -> Iterator[Callable[[str], Server]]:
    """servers(kind) -> that server (SERVERS)."""
    with lazy_servers(SERVERS, USER, PASSWORD) as get:
        yield get


def reading_of(server: Server, sql: str, **options: Any) -> Reading:
    """sql run in a binlog of its own, that binlog read by the library from its start."""
    return read(server.port, USER, PASSWORD, in_a_fresh_binlog(server, sql), **options)


def clean(r: Reading) -> bool:
    return r.failure is None


def column(name: str, *want: Any) -> Callable[[Reading], bool]:
    return lambda r: clean(r) and r.column(name) == list(want)


def failed(prefix: str) -> Callable[[Reading], bool]:
    return lambda r: bool(r.failure and r.failure.startswith(prefix))


def rows_lost(r: Reading) -> bool:
    return clean(r) and not r.rows and "XidEvent" in r.events


def td(**kw: int) -> datetime.timedelta:
    return datetime.timedelta(**kw)


LATIN1 = "CREATE TABLE {t} (id INT PRIMARY KEY, v VARCHAR(20) CHARACTER SET latin1)"
ENUM = "CREATE TABLE {t} (id INT PRIMARY KEY, e ENUM('a','b'))"
FINDINGS = [
    *[Finding(f"3-year-zero-as-1900{suffix}", "CREATE TABLE {t} (id INT PRIMARY KEY, y YEAR)",
              "INSERT INTO {t} VALUES (1, 0)", column("y", 1900),
              "INSERT INTO {t} VALUES (2, 2024)", column("y", 2024), server=server)
      for suffix, server in (("", "mysql"), ("[8.0]", "mysql-8.0"))],
    Finding("4-enum-none-without-metadata[5.7] (documented: 1.0 is for 8.0.14+)", ENUM,
            "INSERT INTO {t} VALUES (1, 'b')", column("e", None),
            "INSERT INTO {t} VALUES (2, 'b')", column("e", "b"), server="mysql-5.7", control_server="mysql-8.0"),
    Finding("5-latin1-without-charset-metadata[8.0]", LATIN1,
            "SET GLOBAL binlog_row_metadata = MINIMAL; INSERT INTO {t} VALUES (1, 'd\u00e9j\u00e0'); "
            "SET GLOBAL binlog_row_metadata = FULL", failed("UnicodeDecodeError"),
            "INSERT INTO {t} VALUES (2, 'd\u00e9j\u00e0')", column("v", "d\u00e9j\u00e0"), server="mysql-8.0"),
    Finding("5-latin1-without-charset-metadata[5.7] (documented: 1.0 is for 8.0.14+)", LATIN1,
            "INSERT INTO {t} VALUES (1, 'd\u00e9j\u00e0')", failed("UnicodeDecodeError"),
            "INSERT INTO {t} VALUES (2, 'd\u00e9j\u00e0')", column("v", "d\u00e9j\u00e0"),
            server="mysql-5.7", control_server="mysql-8.0"),
    Finding("6-json-time-of-24-hours-or-more", "CREATE TABLE {t} (id INT PRIMARY KEY, j JSON)",
            "INSERT INTO {t} VALUES (1, JSON_OBJECT('t', CAST('25:00:00' AS TIME)))", failed("ValueError"),
            "INSERT INTO {t} VALUES (2, JSON_OBJECT('t', CAST('12:00:00' AS TIME)))",
            lambda r: clean(r) and r.rows == [{"id": 2, "j": {b"t": datetime.time(12, 0)}}]),
    Finding("7-mariadb-compressed-rows-lost", "CREATE TABLE {t} (id INT PRIMARY KEY, v VARCHAR(100))",
            "SET GLOBAL log_bin_compress = ON; SET GLOBAL log_bin_compress_min_len = 10; "
            "INSERT INTO {t} VALUES (1, REPEAT('a', 100)), (2, REPEAT('b', 100)); SET GLOBAL log_bin_compress = OFF",
            rows_lost,
            "INSERT INTO {t} VALUES (3, REPEAT('c', 100)), (4, REPEAT('d', 100))", column("id", 3, 4),
            server="mariadb"),
    Finding("7b-negative-time-with-a-fraction", "CREATE TABLE {t} (id INT PRIMARY KEY, t TIME(1))",
            "INSERT INTO {t} VALUES (1, '-12:34:56.1')",
            column("t", td(days=-1, seconds=41103, microseconds=100000)),  # -12:34:56.9
            "INSERT INTO {t} VALUES (2, '12:34:56.1'), (3, '-12:34:56')",
            column("t", td(seconds=45296, microseconds=100000), -td(seconds=45296))),
    Finding("7c-zero-dates-none (documented limit)", "CREATE TABLE {t} (id INT PRIMARY KEY, d DATE, dt DATETIME)",
            "SET SESSION sql_mode = ''; INSERT INTO {t} VALUES (1, '0000-00-00', '0000-00-00 00:00:00')",
            lambda r: clean(r) and r.rows == [{"id": 1, "d": None, "dt": None}],
            "INSERT INTO {t} VALUES (2, '2024-02-29', '2024-02-29 12:34:56')",
            column("dt", datetime.datetime(2024, 2, 29, 12, 34, 56))),
    Finding("8-tagged-gtid-format", "CREATE TABLE {t} (id INT PRIMARY KEY)",
            # the tagged Gtid itself is dropped as not implemented; the next file's Previous_gtids,
            # holding a tagged GTID now, ends the stream
            "SET gtid_next = 'AUTOMATIC:tg'; INSERT INTO {t} VALUES (1); SET gtid_next = 'AUTOMATIC'; "
            "FLUSH BINARY LOGS", failed("AssertionError"),
            "INSERT INTO {t} VALUES (2)", column("id", 2), server="mysql-gtid"),
    Finding("9-newer-status-variable (limit)", "CREATE TABLE {t} (id INT PRIMARY KEY)",
            "SET SESSION binlog_format = 'STATEMENT'; INSERT INTO {t} VALUES (1)", failed("StatusVariableMismatch"),
            "INSERT INTO {t} VALUES (2)", column("id", 2)),
    Finding("10-vector-metadata", "CREATE TABLE {t} (id INT PRIMARY KEY, v VECTOR(2), n INT)",
            "INSERT INTO {t} (id, v) VALUES (1, STRING_TO_VECTOR('[1,2]'))", failed("ValueError"),
            "CREATE TABLE {t}_plain (id INT PRIMARY KEY, n INT); INSERT INTO {t}_plain VALUES (2, 5)", column("n", 5)),
    Finding("11a-no-annotate-rows-in-a-file-dump (limit)", "CREATE TABLE {t} (id INT PRIMARY KEY)",
            "INSERT INTO {t} VALUES (1)",
            lambda r: clean(r) and r.rows == [{"id": 1}] and "MariadbAnnotateRowsEvent" not in r.events,
            "INSERT INTO {t} VALUES (2)",
            lambda r: clean(r) and "MariadbAnnotateRowsEvent" in r.events,
            server="mariadb", options={"annotate_rows_event": True},
            control_options=lambda server: {"annotate_rows_event": True, "is_mariadb": True,
                                            "auto_position": server.scalar("SELECT @@gtid_binlog_pos")}),
]


def _table(finding: Finding) -> str:
    return "f.t_" + "".join(c if c.isalnum() else "_" for c in finding.name)[:40]


@pytest.mark.parametrize("finding", FINDINGS, ids=[f.name for f in FINDINGS])
def test_finding_with_the_library_alone(finding: Finding, servers) -> None:
    t = _table(finding)
    control_server = servers(finding.control_server or finding.server)
    control_server.execute(finding.setup.format(t=t))
    options = finding.control_options(control_server) if finding.control_options else finding.options
    control = reading_of(control_server, finding.control.format(t=t), **options)
    assert finding.right(control), control
    server = servers(finding.server)
    if server is not control_server:
        server.execute(finding.setup.format(t=t))
    shown = reading_of(server, finding.defect.format(t=t), **finding.options)
    assert finding.shows_defect(shown), shown


def test_11a_the_annotate_flag_goes_with_is_mariadb_whose_dump_names_no_file(servers) -> None:
    """Finding 11a's cause, with the library alone on MariaDB 10.11: `annotate_rows_event=True`
    reaches the server only with `is_mariadb=True` (as its documentation pairs them), and that dump
    names no file: without auto_position it reads from the server's first binlog whatever
    log_file says. So a reader started at a file and position has no Annotate_rows (a limit),
    and one that starts at the first binlog gets them as `is_mariadb=True` (the stream plugin's
    configuration there: harness/plugins/pymysqlreplication_stream.py)."""
    server = servers("mariadb")
    t = "f.t_11a_where_the_dump_starts"
    server.execute(f"CREATE TABLE {t} (id INT PRIMARY KEY)")
    server.execute(f"INSERT INTO {t} VALUES (6)")
    server.execute("FLUSH BINARY LOGS")
    log_file = server.binlog_files()[-1]
    server.execute(f"INSERT INTO {t} VALUES (7)")
    positioned = read(server.port, USER, PASSWORD, log_file, annotate_rows_event=True)
    mariadb = read(server.port, USER, PASSWORD, log_file, annotate_rows_event=True, is_mariadb=True)
    assert clean(positioned) and positioned.rows == [{"id": 7}], positioned
    assert "MariadbAnnotateRowsEvent" not in positioned.events, positioned
    assert clean(mariadb) and "MariadbAnnotateRowsEvent" in mariadb.events, mariadb
    assert {"id": 6} in mariadb.rows and {"id": 7} in mariadb.rows, mariadb  # from the first binlog on
    first = read(server.port, USER, PASSWORD, server.binlog_files()[0], annotate_rows_event=True, is_mariadb=True)
    assert first.events == mariadb.events  # log_file is not used


def _untagged(gtid_set: str) -> str:
    """The set without its tagged GTIDs: per UUID, the intervals before its first tag."""
    import itertools
    import re
    entries = []
    for entry in gtid_set.replace("\n", "").split(","):
        uuid, *rest = entry.split(":")
        kept = list(itertools.takewhile(lambda p: re.fullmatch(r"\d+(-\d+)?", p), rest))
        if kept:
            entries.append(":".join([uuid, *kept]))
    return ",".join(entries)


def test_12_a_tagged_gtid_set_as_auto_position_is_refused(servers) -> None:
    """Stream mode gtid on MySQL 8.4+ (harness/stream_modes.py): a client resuming from the
    server's executed set hands the library that set, tags included (`uuid:1-5:tg:1`, as
    @@gtid_executed and SHOW BINARY LOG STATUS print it). The library alone, real MySQL 9.7:
    `auto_position` with the set before a tagged transaction streams what follows (the control);
    with the set after it (tagged) the reader dies of `ValueError: GTID format is incorrect`
    before reading anything (GtidSet parses `uuid:interval` only). The harness's primary gives
    the same answer: mysql-9.7/gtid_tagged--row/binlog.000002@gtid, a crash."""
    server = servers("mysql-gtid-untagged")
    t = "f.t_12_tagged_gtid_start"
    server.execute(f"CREATE TABLE {t} (id INT PRIMARY KEY)")
    server.execute(f"SET gtid_next = 'AUTOMATIC:tg'; INSERT INTO {t} VALUES (1); SET gtid_next = 'AUTOMATIC'")
    tagged = server.scalar("SELECT @@GLOBAL.gtid_executed")
    assert ":tg:" in tagged.replace("\n", ""), tagged
    untagged = _untagged(tagged)
    server.execute(f"INSERT INTO {t} VALUES (2)")
    log_file = server.binlog_files()[-1]
    control = read(server.port, USER, PASSWORD, log_file, auto_position=untagged)
    assert clean(control) and {"id": 2} in control.rows, control
    shown = read(server.port, USER, PASSWORD, log_file, auto_position=tagged.replace("\n", ""))
    assert shown.failure is not None and shown.failure.startswith("ValueError: GTID format is incorrect"), shown
    assert not shown.events, shown
