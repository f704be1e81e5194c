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
