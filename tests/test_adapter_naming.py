"""Issue 29 item 2, the adapters' side: every built-in third-party adapter claims the rows of every
rows event type, and names each event as its library does (class, enum, constant), never from
the header's raw type byte, so an event the library cannot name reaches the harness with
`"type": null` (docs/plugin-contract.md, "type").

Each test starts the real adapter over real binlogs (a corpus case, or one whose type byte a
mutation operator changed): about 40 s for all of them, most of it the JVMs starting."""
from __future__ import annotations

import struct
from pathlib import Path
from typing import Any

import pytest

from harness.isolation import Limits
from harness.mutations import mutate
from harness.parsers.registry import PARSERS
from harness.plugins.launch import named
from oracle.event_types import type_name
from oracle.events import ROWS_TYPES

from .server_fixtures import missing

ROOT = Path(__file__).resolve().parent.parent
TOOLS = {"oracle", "mysqlbinlog", "mariadb-binlog"}  # real tools: they keep what they report
THIRD_PARTY = [p.name for p in PARSERS if p.name not in TOOLS]
FILE_READERS = [p.name for p in PARSERS if p.name not in TOOLS and p.transport == "file"]
ROWS_NAMES = sorted(type_name(t) for t in ROWS_TYPES)
# A MySQL 9.7 binlog with a PARTIAL_UPDATE_ROWS_EVENT (binlog_row_value_options=PARTIAL_JSON) and
# Anonymous_gtid events, 3.5 KB.
CASE = ROOT / "corpus" / "mysql-9.7" / "integers--row-minimal" / "binlog.000001"
PARTIAL_UPDATE_AT = 3075


def _testee(name: str) -> Any:
    testee = named(name, Limits(timeout=60))
    hello = testee.hello()
    if hello is None or hello.unavailable:
        testee.close()
        missing(f"{name} cannot run here: {hello.unavailable if hello else 'no hello'}")
    return testee


def _events(name: str, path: Path) -> list[dict[str, Any]]:
    testee = _testee(name)
    try:
        reply = testee.parse(str(path))
    finally:
        testee.close()
    assert reply.events, f"{name} reported no event for {path.name}: {reply.status} {reply.detail}"
    return reply.events


@pytest.mark.parametrize("name", THIRD_PARTY)
def test_the_adapter_claims_the_rows_of_every_rows_event_type(name: str) -> None:
    """A rows type left out of `bodies` would excuse its lost rows: every one is claimed, with
    its rows, whether or not the library decodes it (then the lost rows are a failed check)."""
    testee = _testee(name)
    try:
        caps = testee.hello().capabilities
    finally:
        testee.close()
    unclaimed = [t for t in ROWS_NAMES if caps.body_fields(t) != "*" and "rows" not in caps.body_fields(t)]
    assert not unclaimed, f"{name} does not claim the rows of {unclaimed}"


@pytest.mark.parametrize("name", FILE_READERS)
def test_an_event_with_an_undefined_type_code_is_unnamed(name: str, tmp_path: Path) -> None:
    """The type byte of one event changed to a code no server defines (ignorable, so a library may
    skip it): wherever the adapter reports that event, its type is null, and every event it
    reports carries the library's own word for it."""
    mutation = mutate("header_type_undefined_ignorable", CASE.read_bytes(), 29)
    position = _position_of(mutation.data, mutation.event_index)
    path = tmp_path / "binlog.000001"
    path.write_bytes(mutation.data)
    events = _events(name, path)
    at = [e for e in events if e.get("position") == position]
    assert all(e.get("type") is None for e in at), (mutation.description, at)
    assert all("library_type" in e for e in events), [e for e in events if "library_type" not in e][:1]


def test_python_mysql_replication_names_what_its_event_classes_name() -> None:
    """The library decodes Anonymous_gtid as NotImplementedEvent: type null, though its header's
    code (34) has a name; the events it has classes for are named by them."""
    events = _events("python-mysql-replication-file", CASE)
    anonymous = [e for e in events if e["type_code"] == 34]
    assert anonymous and all(e["type"] is None and e["library_type"] == "NotImplementedEvent" for e in anonymous)
    partial = [e for e in events if e["position"] == PARTIAL_UPDATE_AT]
    assert [(e["type"], e["library_type"]) for e in partial] == [("PARTIAL_UPDATE_ROWS_EVENT", "PartialUpdateRowsEvent")]


@pytest.mark.parametrize("name", ["mysql-binlog-connector-java-file", "mysql-binlog-connector-java-zendesk-file"])
def test_binlog_connector_partial_update_without_data_is_unnamed_and_rowless(name: str) -> None:
    """The library names PARTIAL_UPDATE_ROWS_EVENT but has no deserializer for it: the event's data
    is null. It is reported, unnamed and without rows (rows lost), not excused (issue 29)."""
    events = _events(name, CASE)
    partial = [e for e in events if e["position"] == PARTIAL_UPDATE_AT]
    assert len(partial) == 1
    assert partial[0]["type"] is None and partial[0]["library_type"] == "PARTIAL_UPDATE_ROWS_EVENT (no data)"
    assert not partial[0].get("body", {}).get("rows")


def _position_of(data: bytes, index: int | None) -> int:
    """Where event `index` starts (events follow the 4-byte magic; event_size at header offset 9)."""
    assert index is not None
    position = 4
    for _ in range(index):
        position += struct.unpack_from("<I", data, position + 9)[0]
    return position
