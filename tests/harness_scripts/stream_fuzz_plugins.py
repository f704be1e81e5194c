"""A stream testee with a planted defect, for the stream fuzz tests: it reads the stream for real
(python-mysql-replication through the harness's primary), then reports one more rows event, at a
log_pos the primary never sent, as a parser that misframes a stream and invents rows would."""
from __future__ import annotations

import copy
from typing import Any

from harness.plugins.protocol import StreamSource
from harness.plugins.pymysqlreplication_stream import PyMysqlReplicationStreamParser


class InventsAnEvent(PyMysqlReplicationStreamParser):
    name = "invents-an-event"

    def parse_stream(self, source: StreamSource) -> list[dict[str, Any]]:
        events = super().parse_stream(source)
        if events:
            extra = copy.deepcopy(events[-1])
            extra["next_position"] = int(extra.get("next_position") or 0) + 7
            events.append(extra)
        return events
