"""Where each client reads, for the column lookups: a CDC client dumps on one connection and looks
tables up on another, so the two are tied by their account (a client group: one user name). The
position a lookup of table T answers for is that of the last Table_map of T sent to a dump of the
group (harness/primary/epochs.py gives the definition in force there).

A dump sends ahead of what its client has read, so the last Table_map sent can be past the rows
the client is looking the table up for. With pacing on, a dump about to send the first Table_map
of T's next epoch (a DDL changed T in between) first waits until the group has looked T up in
the epoch it is leaving, or `pacing` seconds: as on a live server, where a tailing client reads
the rows before an ALTER, and looks their table up, before the ALTER is written."""
from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field
from typing import Callable

from .epochs import Key, Position, SchemaEpochs

_WAIT_SLICE = 0.05  # how often a paced dump checks that the primary is not stopping


@dataclass
class ClientGroups:
    pacing: float = 0.0  # seconds; 0: a dump never waits for lookups
    _cond: threading.Condition = field(default_factory=threading.Condition)
    _mapped: dict[str, dict[Key, Position]] = field(default_factory=dict)  # group -> table -> last Table_map sent
    _looked_up: dict[str, set[tuple[Key, int | None]]] = field(default_factory=dict)  # group -> (table, epoch)

    def position(self, group: str, key: Key) -> Position | None:
        with self._cond:
            return self._mapped.get(group, {}).get(key)

    def looked_up(self, group: str, key: Key, epoch: int | None) -> None:
        with self._cond:
            self._looked_up.setdefault(group, set()).add((key, epoch))
            self._cond.notify_all()

    def sending(self, group: str, pos: Position, keys: tuple[Key, ...], epochs: SchemaEpochs,
                flush: Callable[[], None], stop: threading.Event) -> None:
        """Before a dump of `group` sends the event at pos that maps `keys`: pace (above), then
        note the event as the group's last Table_map of each."""
        for key in keys:
            last = self.position(group, key)
            leaving = epochs.epoch_at(key, last)
            if self.pacing > 0 and leaving is not None and epochs.epoch_at(key, pos) != leaving:
                flush()  # the client must get the rows of the epoch it looks the table up for
                self._wait(group, (key, leaving), stop)
        with self._cond:
            mapped = self._mapped.setdefault(group, {})
            for key in keys:
                mapped[key] = pos

    def _wait(self, group: str, wanted: tuple[Key, int], stop: threading.Event) -> None:
        deadline = time.monotonic() + self.pacing
        with self._cond:
            while wanted not in self._looked_up.get(group, set()) and not stop.is_set():
                left = deadline - time.monotonic()
                if left <= 0:
                    return
                self._cond.wait(min(left, _WAIT_SLICE))
