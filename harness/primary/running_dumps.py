"""At most one dump per replica. A dump that starts with the identity of one already running ends
the older one, as a real server's kill_zombie_dump_threads does (mysql-server rpl_source.cc,
MariaDB sql_repl.cc): the older dump stops at its next event or heartbeat wait and sends its
replica ERR (MySQL 1236, MariaDB 4052 ER_SLAVE_SAME_ID) with where it was. Measured on real
servers (9.7, 5.7, MariaDB 11.8): a second COM_BINLOG_DUMP with the first one's server_id ends the
first at once with those words (dump.MESSAGES["same_id"]).

The identity: on MySQL the replica's UUID (@replica_uuid / @slave_uuid) when it set one, else its
server_id, matched only against dumps without a UUID (Find_zombie_dump_thread); on MariaDB the
server_id. A dump with neither (server_id 0: mysqlbinlog) is never matched: its readers are many."""
from __future__ import annotations

import threading
from dataclasses import dataclass, field


@dataclass(eq=False)
class RunningDump:
    server_id: int
    uuid: str
    superseded: threading.Event = field(default_factory=threading.Event)


def _same_replica(new: RunningDump, old: RunningDump, mysql: bool) -> bool:
    if not mysql:
        return new.server_id == old.server_id
    if new.uuid:
        return new.uuid == old.uuid
    return new.server_id == old.server_id and not old.uuid


class RunningDumps:
    """The dumps running now, for one primary (ServerState.dumps)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._running: list[RunningDump] = []

    def start(self, server_id: int, uuid: str, mysql: bool) -> tuple[RunningDump, RunningDump | None]:
        """Register a dump; the older dump of the same replica it supersedes (set to end), if any."""
        new = RunningDump(server_id, uuid if mysql else "")
        with self._lock:
            old = None
            if new.uuid or new.server_id:
                old = next((d for d in self._running if _same_replica(new, d, mysql)), None)
            if old is not None:
                old.superseded.set()
                self._running.remove(old)
            self._running.append(new)
        return new, old

    def end(self, dump: RunningDump) -> None:
        with self._lock:
            if dump in self._running:
                self._running.remove(dump)
