"""A row event above 16 MB, written by a real server, arrives whole from `harness serve` (issue 12):
python-mysql-replication's BinLogStreamReader reads the 17 MiB LONGBLOB value the oracle decodes
from the served file, and a real replica of each flavor applies it and ends with the writer's
CHECKSUM TABLE. The binlog is written at test time (never committed: the corpus stays small),
by one writer per flavor shared by the module's tests.
"""
from __future__ import annotations

import hashlib
from collections.abc import Iterator
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path

import pytest

from generators import profiles
from generators.server import Server, running_server
from oracle.decoder import decode_file
from oracle.wire.packets import MAX_PACKET
from tests.primary_fixtures import serving
from tests.server_fixtures import require_image
from tests.test_primary_replicas import PASSWORD, USER, _replicate, _status, _wait_for_checksums

pytestmark = pytest.mark.server

BLOB_LEN = 17 * 1024 * 1024
PAD = "bcdefghij0123"
EXPECTED = ("a" + PAD * (BLOB_LEN // len(PAD) + 1))[:BLOB_LEN].encode()  # RPAD('a', BLOB_LEN, PAD)
TABLE = "big.t"
WORKLOAD = f"""\
CREATE DATABASE big;
CREATE TABLE big.t (id INT PRIMARY KEY, note VARCHAR(20), b LONGBLOB);
INSERT INTO big.t VALUES (1, 'small', x'00ff');
INSERT INTO big.t VALUES (2, 'big', RPAD(_binary'a', {BLOB_LEN}, _binary'{PAD}'));
UPDATE big.t SET note = 'after' WHERE id = 1;
"""
# max_allowed_packet bounds REPEAT/RPAD results and the events a replica's applier takes.
SETTINGS = {"binlog_format": "ROW", "binlog_row_metadata": "FULL", "max_allowed_packet": str(64 << 20)}


@dataclass
class Written:
    profile_name: str
    first: str
    checksums: list[dict]
    served_dir: Path


@pytest.fixture(scope="module", params=["mysql-9.7", "mariadb-10.11"])
def written(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Written]:
    """A real server of the flavor runs WORKLOAD in a fresh binlog file; that file, complete, is
    copied out. The writer is removed before the tests run: what they need is in the copy."""
    profile = profiles.get(request.param)
    require_image(profile)
    with ExitStack() as stack:
        server: Server = stack.enter_context(running_server(profile, SETTINGS))
        server.execute(f"CREATE USER '{USER}'@'127.0.0.1' IDENTIFIED BY '{PASSWORD}';"
                       f"GRANT REPLICATION SLAVE, REPLICATION CLIENT, SELECT ON *.* TO '{USER}'@'127.0.0.1';")
        server.flush_logs()
        first = server.binlog_files()[-1]
        server.execute(WORKLOAD)
        checksums = server.query(f"CHECKSUM TABLE {TABLE}")
        server.flush_logs()
        files = server.binlog_files()
        served_dir = tmp_path_factory.mktemp(f"big-{profile.flavor}")
        server.copy_binlogs(served_dir, files[files.index(first):-1])
    yield Written(request.param, first, checksums, served_dir)


def _oracle_big_event(served_dir: Path, first: str):
    """The Write_rows event holding the big value, as the oracle decodes the served file."""
    for e in decode_file(served_dir / first):
        if e.type_code in (23, 30) and any(r["values"][0] == 2 for r in e.body["rows"]):
            return e
    raise AssertionError(f"no Write_rows event for id 2 in {first}")


def _blob(value) -> bytes:
    return value.encode() if isinstance(value, str) else bytes(value)


def test_the_written_event_is_above_one_packet(written: Written) -> None:
    event = _oracle_big_event(written.served_dir, written.first)
    assert event.event_size > MAX_PACKET, event.event_size
    assert _blob(event.body["rows"][0]["values"][2]) == EXPECTED


def test_python_mysql_replication_reads_the_big_row_whole(written: Written, tmp_path: Path) -> None:
    from pymysqlreplication import BinLogStreamReader
    from pymysqlreplication.row_event import WriteRowsEvent
    want = _oracle_big_event(written.served_dir, written.first)
    with serving([written.served_dir], tmp_path, "--user", USER, password=PASSWORD) as primary:
        stream = BinLogStreamReader(
            {"host": primary.host, "port": primary.port, "user": USER, "password": PASSWORD},
            server_id=4545, blocking=False, log_file=written.first, log_pos=4, only_events=[WriteRowsEvent])
        try:
            got = [(e.packet.log_pos, e.packet.event_size, [dict(r["values"]) for r in e.rows]) for e in stream]
        finally:
            stream.close()
    big = [g for g in got if any(r["id"] == 2 for r in g[2])]
    assert len(big) == 1, [(pos, size) for pos, size, _ in got]
    log_pos, size, rows = big[0]
    assert (log_pos, size) == (want.next_position, want.event_size)
    value = rows[0]["b"]
    assert len(value) == BLOB_LEN
    assert hashlib.sha256(_blob(value)).digest() == hashlib.sha256(EXPECTED).digest()
    assert rows[0]["note"] == "big"


def test_real_replica_applies_the_big_row(written: Written, tmp_path: Path) -> None:
    profile = profiles.get(written.profile_name)
    require_image(profile)
    with serving([written.served_dir], tmp_path, "--user", USER, password=PASSWORD) as primary, \
            running_server(profile, {**SETTINGS, "server_id": "2"}) as replica:
        _replicate(replica, primary.port, written.first)
        got = _wait_for_checksums(replica, written.checksums, tables=TABLE)
        status = _status(replica)
    assert written.checksums and written.checksums[0]["Checksum"] not in (None, "", "0")
    assert got == written.checksums, f"replica {got} != writer {written.checksums}; status {status}"
