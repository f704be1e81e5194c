"""python-mysql-replication alone: its BinLogStreamReader as its README uses it (connection
settings, a server id, where to start, blocking=False to stop at the end), no adapter and no
harness primary. What a user's loop sees: each event's class and, for a rows event, the rows as
the library gives them (`values`, or `after_values` of an update), and the exception that ended
the loop, if any."""
from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any


@dataclass
class Reading:
    events: list[str] = field(default_factory=list)
    rows: list[dict[Any, Any]] = field(default_factory=list)
    failure: str | None = None

    def column(self, name: str) -> list[Any]:
        return [r.get(name) for r in self.rows]


def read(port: int, user: str, password: str, log_file: str, log_pos: int = 4,
         connection: dict[str, Any] | None = None, **options: Any) -> Reading:
    """Every event from log_file:log_pos to the end of what the server has written; connection:
    more of pymysql's connection settings (a read_timeout, say)."""
    from pymysqlreplication import BinLogStreamReader
    from pymysqlreplication.row_event import RowsEvent
    reader = BinLogStreamReader(
        connection_settings={"host": "127.0.0.1", "port": port, "user": user, "passwd": password,
                             **(connection or {})},
        server_id=random.randint(1000, 2**31), blocking=False, resume_stream=True, log_file=log_file,
        log_pos=log_pos, **options)
    reading = Reading()
    try:
        for event in reader:
            reading.events.append(type(event).__name__)
            if isinstance(event, RowsEvent):
                reading.rows += [r.get("after_values", r.get("values")) for r in event.rows]
    except Exception as e:  # what the user's loop dies of
        reading.failure = f"{type(e).__name__}: {e}"
    finally:
        reader.close()
    return reading
