"""Vitess's go/mysql (v0.24.4) alone against a real MySQL 8.0: findings V1 and V2 of
docs/findings/vitess.md, shown by a small Go program that calls the library directly
(harness/parsers/vitess/probe: the dump as go/vt/binlog.BinlogConnection sends it, no harness
primary, no adapter), each beside a control where the library is right."""
from __future__ import annotations

import json
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from generators.profiles import LOCAL_PROFILES
from generators.server import Server, running_server

from .library_alone.binlogs import in_a_fresh_binlog
from .go_builds import probe as built_probe
from .server_fixtures import require_image

pytestmark = pytest.mark.server

USER, PASSWORD = "vt", "vt-secret-pw"
GRANTS = (f"CREATE USER '{USER}'@'127.0.0.1' IDENTIFIED BY '{PASSWORD}';"
          f"GRANT REPLICATION SLAVE, REPLICATION CLIENT ON *.* TO '{USER}'@'127.0.0.1';")


@pytest.fixture(scope="module")
def probe(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The probe, built from the parser folder's own go.mod/go.sum."""
    return built_probe("vitess", tmp_path_factory.mktemp("probe"))


@pytest.fixture(scope="module")
def mysql() -> Iterator[Server]:
    profile = LOCAL_PROFILES["mysql-8.0"]
    require_image(profile)
    with running_server(profile, {"binlog_format": "ROW"}) as server:
        server.execute(GRANTS)
        yield server


def dump(probe: Path, server: Server, first: str) -> list[dict[str, Any]]:
    proc = subprocess.run([str(probe), "127.0.0.1", str(server.port), USER, PASSWORD, first, "4"],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr[-2000:]
    return [json.loads(line) for line in proc.stdout.splitlines()]


def test_next_log_file_is_four_bytes_short_after_strip_checksum(probe: Path, mysql: Server) -> None:
    """V1: the Rotate at the end of a closed binlog names the next file; NextLogFile on the
    event as StripChecksum returns it drops four bytes. Control: the same call on the event
    before StripChecksum (the CRC32 still there to cut) gives the server's name."""
    first = in_a_fresh_binlog(mysql, "CREATE DATABASE IF NOT EXISTS vt1")
    mysql.flush_logs()
    following = mysql.binlog_files()[-1]
    rotates = [line for line in dump(probe, mysql, first) if "rotate" in line]
    assert rotates, "the dump delivered no Rotate"
    closing = rotates[-1]
    assert closing["rotate_unstripped"] == following  # control
    assert closing["rotate"] == following[:-4]  # the defect


def test_json_time_outside_a_day_is_lost_or_wrapped(probe: Path, mysql: Server) -> None:
    """V2: a TIME inside a JSON document. Control: 12:34:56 is right; -12:34:56 comes back empty
    and a TIME of 64 hours or more modulo 64 hours (its hour's upper bits dropped) (the server's own reading, j->>'$.t', is the
    reference)."""
    sql = ("DROP DATABASE IF EXISTS vt2; CREATE DATABASE vt2; CREATE TABLE vt2.j (id INT PRIMARY KEY, j JSON);"
           "INSERT INTO vt2.j VALUES (1, JSON_OBJECT('t', CAST('12:34:56' AS TIME))),"
           " (2, JSON_OBJECT('t', CAST('-12:34:56' AS TIME))), (3, JSON_OBJECT('t', CAST('87:31:46' AS TIME)))")
    first = in_a_fresh_binlog(mysql, sql)
    lines = dump(probe, mysql, first)
    rows = {int(line["values"][0]): line["values"][1] for line in lines if line.get("table") == "j"}
    assert sorted(rows) == [1, 2, 3], lines
    stored = [r["t"] for r in mysql.query("SELECT id, j->>'$.t' AS t FROM vt2.j ORDER BY id")]
    assert stored[:2] == ["12:34:56.000000", "-12:34:56.000000"] and int(stored[2].split(":")[0]) >= 64, stored
    hours, rest = stored[2].split(":", 1)
    assert json.loads(rows[1]) == {"t": "12:34:56.000000"}, rows  # control
    assert json.loads(rows[2]) == {"t": ""}, rows
    assert json.loads(rows[3]) == {"t": f"{int(hours) % 64:02d}:{rest}"}, (rows, stored)
