"""Stream testees for the runner tests, built on python-mysql-replication's stream plugin."""
from __future__ import annotations

from typing import Any

from harness.plugins.protocol import StreamSource
from harness.plugins.pymysqlreplication_stream import PyMysqlReplicationStreamParser


class DropFourthEvent(PyMysqlReplicationStreamParser):
    """Reads the stream for real, then loses its 4th event, as a parser that skips an event it
    does not know would."""

    name = "drop-fourth-event"

    def parse_stream(self, source: StreamSource) -> list[dict[str, Any]]:
        events = super().parse_stream(source)
        return events[:3] + events[4:]


class DropHeartbeats(PyMysqlReplicationStreamParser):
    """Declares the heartbeats mode and asks for heartbeats, but loses them on the way to its
    user, as an adapter that filters them out would: the harness must see that."""

    name = "drop-heartbeats"

    def parse_stream(self, source: StreamSource) -> list[dict[str, Any]]:
        return [e for e in super().parse_stream(source) if e.get("type") != "HEARTBEAT_LOG_EVENT"]


class PositionOnly(PyMysqlReplicationStreamParser):
    """A stream testee that declares position mode only, and says why not the others."""

    name = "position-only"
    modes = ("position",)
    modes_unsupported = {"gtid": "the library documents no GTID start (README, 'Starting')"}
