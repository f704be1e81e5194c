"""harness/primary/running_dumps.py: which running dump a new one supersedes (Find_zombie_dump_thread's
rule); tests/test_primary_protocol.py shows it on the wire, against what real servers send."""
from __future__ import annotations

from harness.primary.running_dumps import RunningDumps

UUID_A, UUID_B = "5a1e0c1d-0000-4000-8000-00000000000a", "5a1e0c1d-0000-4000-8000-00000000000b"


def test_the_same_server_id_supersedes_the_older_dump_once() -> None:
    dumps = RunningDumps()
    first, _ = dumps.start(7, "", mysql=True)
    second, older = dumps.start(7, "", mysql=True)
    assert older is first and first.superseded.is_set() and not second.superseded.is_set()
    third, older = dumps.start(7, "", mysql=True)
    assert older is second  # the ended one is no longer running


def test_server_id_zero_without_a_uuid_is_never_matched() -> None:
    """mysqlbinlog dumps with server_id 0: any number of them read side by side."""
    dumps = RunningDumps()
    a, _ = dumps.start(0, "", mysql=True)
    _, older = dumps.start(0, "", mysql=True)
    assert older is None and not a.superseded.is_set()
    _, older = dumps.start(0, "", mysql=False)
    assert older is None


def test_mysql_matches_a_uuid_by_uuid_and_a_server_id_only_among_dumps_without_one() -> None:
    dumps = RunningDumps()
    with_uuid, _ = dumps.start(5, UUID_A, mysql=True)
    assert dumps.start(5, "", mysql=True)[1] is None  # its server_id alone does not match a UUID's dump
    assert dumps.start(6, UUID_B, mysql=True)[1] is None
    _, older = dumps.start(9, UUID_A, mysql=True)  # the same replica under another server_id
    assert older is with_uuid


def test_mariadb_matches_the_server_id_alone() -> None:
    dumps = RunningDumps()
    first, _ = dumps.start(5, "", mysql=False)
    assert dumps.start(5, UUID_A, mysql=False)[1] is first  # MariaDB has no replica UUID


def test_an_ended_dump_is_not_superseded() -> None:
    dumps = RunningDumps()
    first, _ = dumps.start(7, "", mysql=True)
    dumps.end(first)
    assert dumps.start(7, "", mysql=True)[1] is None and not first.superseded.is_set()
