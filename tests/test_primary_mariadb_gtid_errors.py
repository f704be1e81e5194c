"""A MariaDB GTID start the binlogs cannot serve is refused as real MariaDB refuses it (sql_repl.cc
check_slave_start_position, send_event_to_slave's strict-mode hole check): the same
@slave_connect_state, @slave_gtid_strict_mode and @slave_gtid_ignore_duplicates are sent to a real
MariaDB 10.11 and to `harness serve` serving its binlogs, and the dump ends the same way (the ERR
1236 and its text, or EOF), after the same number of events.

The real server writes 0-1-1 .. 0-1-4, then (gtid_seq_no jumps) 0-1-10 and 0-1-11: 0-1-7 is a hole;
then, in a second file whose Gtid_list holds 0-1-11, 0-1-12. Every file is served, the one the
server has open too (nothing is written to it after the copy), so where both end with EOF the
streams are compared packet by packet, byte for byte (tests/test_primary_vs_capture.compare).
"""
from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from generators import profiles, repl_user
from generators.capture import DumpRequest, capture_dump, rebuild_stream
from generators.server import Server, running_server
from tests.primary_fixtures import serving
from tests.server_fixtures import require_image
from tests.test_primary_vs_capture import compare

pytestmark = pytest.mark.server
pytest.importorskip("pymysql")

WORKLOAD = """\
CREATE DATABASE g;
CREATE TABLE g.t (id INT PRIMARY KEY);
INSERT INTO g.t VALUES (1);
INSERT INTO g.t VALUES (2);
SET SESSION gtid_seq_no = 10;
INSERT INTO g.t VALUES (3);
INSERT INTO g.t VALUES (4);
FLUSH BINARY LOGS;
INSERT INTO g.t VALUES (5);
"""

# name -> (@slave_connect_state, strict mode, ignore duplicates, what the real server answers)
REQUESTS = {
    "past_the_end": ("0-1-50", 0, 0, "not in the master's binlog"),
    "other_server_behind": ("0-2-3", 0, 0, "diverged"),
    "hole_strict": ("0-1-7", 1, 0, "missing the GTID 0-1-7"),
    "hole_not_strict": ("0-1-7", 0, 0, "EOF"),
    "past_the_end_ignore_duplicates": ("0-1-50", 0, 1, "EOF"),
    "unknown_domain": ("5-1-3", 1, 0, "EOF"),
    "present": ("0-1-2", 1, 0, "EOF"),
    "at_second_files_gtid_list": ("0-1-11", 1, 0, "EOF"),
    # an empty state is a GTID start from the first binlog (get_slave_connect_state: any non-NULL
    # value; stream mode gtid of a server's first binlog, harness/stream_modes.py)
    "empty_state": ("", 1, 0, "EOF"),
}


@dataclass
class Source:
    server: Server
    served_dir: Path
    files: dict[str, bytes]


@pytest.fixture(scope="module")
def source(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Source]:
    yield from _source("mariadb-10.11", tmp_path_factory)


@pytest.fixture(scope="module")
def source_11_8(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Source]:
    yield from _source("mariadb-11.8", tmp_path_factory)


def _source(name: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Source]:
    profile = profiles.get(name)
    require_image(profile)
    with running_server(profile, {"binlog_format": "ROW", "server_id": "1"}) as server:
        repl_user.ensure(server)
        server.execute(WORKLOAD)
        server.flush_logs()
        names = server.binlog_files()  # all, the open one too: nothing is written after the copy
        _wait_for_own_checkpoint(server, names[-1])
        served_dir = tmp_path_factory.mktemp("mariadb-gtid")
        server.copy_binlogs(served_dir, names)
        yield Source(server, served_dir, {n: (served_dir / n).read_bytes() for n in names})


def _wait_for_own_checkpoint(server: Server, name: str, seconds: float = 60) -> None:
    """The server writes the Binlog_checkpoint naming a new file once the previous file's
    transactions are durable, after FLUSH returns: the copy must hold it."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if any(e.get("Event_type") == "Binlog_checkpoint" and name in (e.get("Info") or "")
               for e in server.show_binlog_events(name)):
            return
        time.sleep(0.2)
    raise AssertionError(f"no Binlog_checkpoint for {name} after {seconds} s")


def _request(name: str) -> DumpRequest:
    state, strict, ignore, _ = REQUESTS[name]
    return DumpRequest(name, "", setup=("SET @master_binlog_checksum = 'CRC32'", "SET @mariadb_slave_capability = 4",
                                        f"SET @slave_connect_state = '{state}'",
                                        f"SET @slave_gtid_strict_mode = {strict}",
                                        f"SET @slave_gtid_ignore_duplicates = {ignore}"))


def _events_sent(capture) -> int:
    return sum(m["events"] if "events" in m else 1 for m in capture.messages if "response" not in m)


@pytest.mark.parametrize("name", sorted(REQUESTS))
def test_gtid_start_answered_as_real_mariadb(name: str, source: Source, tmp_path: Path) -> None:
    real = capture_dump(source.server.port, repl_user.USER, repl_user.PASSWORD, _request(name), source.files)
    assert REQUESTS[name][3] in real.end, real.end  # the scenario is what it says
    with serving([source.served_dir], tmp_path, "--user", repl_user.USER, password=repl_user.PASSWORD) as primary:
        ours = capture_dump(primary.port, repl_user.USER, repl_user.PASSWORD, _request(name), source.files)
    assert ours.end == real.end
    if real.end.startswith("ERR"):
        assert _events_sent(ours) == _events_sent(real)
    else:
        assert compare(real.to_json(), source.files, rebuild_stream(ours.to_json(), source.files)) == []


@pytest.mark.parametrize("name", ["empty_state", "present", "at_second_files_gtid_list"])
def test_gtid_start_with_the_gtid_index_answered_as_real_mariadb_11_8(name: str, source_11_8: Source,
                                                                    tmp_path: Path) -> None:
    """11.4+ looks a GTID start up in its GTID index, an empty state too (the start of the server's
    first binlog, as stream mode gtid asks it): the stream starts after the file's Gtid_list."""
    test_gtid_start_answered_as_real_mariadb(name, source_11_8, tmp_path)
