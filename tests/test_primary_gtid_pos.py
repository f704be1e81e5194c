"""`SELECT BINLOG_GTID_POS(file, pos)` from `harness serve` equals a real MariaDB's own answer,
at every event boundary of binlogs that server wrote (both files of a rotation), at a position
inside an event (NULL) and for a file it does not have (NULL). python-mysql-replication's
plugin turns a later MariaDB file's start into a GTID start with it, as MariaDB users do."""
from __future__ import annotations

from pathlib import Path

import pytest

from generators.profiles import get as profile
from tests.primary_fixtures import PASSWORD, serving
from tests.server_fixtures import start_server  # noqa: F401 (a fixture)

pymysql = pytest.importorskip("pymysql")

WORKLOAD = ("CREATE DATABASE d; CREATE TABLE d.t (id INT PRIMARY KEY); INSERT INTO d.t VALUES (1);"
            " INSERT INTO d.t VALUES (2);")


def _served_answer(port: int, file: str, position: int) -> str | None:
    conn = pymysql.connect(host="127.0.0.1", port=port, user="root", password=PASSWORD)
    try:
        with conn.cursor() as cur:
            cur.execute(f"SELECT BINLOG_GTID_POS('{file}', {position})")
            (value,) = cur.fetchone()
            return value
    finally:
        conn.close()


def test_binlog_gtid_pos_as_a_real_mariadb_answers(start_server, tmp_path: Path) -> None:  # noqa: F811
    server = start_server(profile("mariadb-10.11"), {"binlog_format": "ROW"})
    server.execute(WORKLOAD)
    server.flush_logs()
    server.execute("INSERT INTO d.t VALUES (3); INSERT INTO d.t VALUES (4);")
    files = server.binlog_files()
    real: dict[tuple[str, int], str | None] = {}
    for f in files:
        events = server.show_binlog_events(f)
        boundaries = {4} | {int(e["Pos"]) for e in events} | {int(e["End_log_pos"]) for e in events}
        inside = int(events[1]["Pos"]) + 1  # one byte into the event after the Format_description
        for position in sorted(boundaries | {5, inside}):
            real[(f, position)] = server.scalar(f"SELECT BINLOG_GTID_POS('{f}', {position})")
    paths = server.copy_binlogs(tmp_path / "binlogs", files)
    assert len(files) == 2 and any(v for v in real.values()), real
    with serving(paths, tmp_path) as served:
        served_answers = {key: _served_answer(served.port, *key) for key in real}
        assert _served_answer(served.port, "binlog.000009", 4) is None
    assert served_answers == real
