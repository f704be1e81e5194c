"""A bounded memo for decoders that are pure functions of an event's body bytes.

The same bodies recur: a Table_map before every transaction of a table, `BEGIN` as a Query,
and, in the fuzz loop, every unmutated event of a seed in each of its mutants (issue 14). A decoder
keyed here must read nothing but the key (body bytes plus the format fields it names), keep no
error (errors carry offsets, which depend on where the event is), and hand out results its
callers do not change in place. When full, the memo starts again empty: bounded memory, no
bookkeeping per hit. Bounded in entries and in body bytes (what it keeps per body is a few
times the body's size: a 4 KiB Table_map is a thousand columns).
"""
from __future__ import annotations

from typing import Any, Callable, Hashable


class BodyMemo:
    __slots__ = ("_kept", "_max", "_max_body", "_max_bytes", "_bytes")

    def __init__(self, max_entries: int = 8192, max_body: int = 4096, max_bytes: int = 2 << 20) -> None:
        self._kept: dict[Hashable, Any] = {}
        self._max = max_entries
        self._max_body = max_body  # larger bodies are decoded every time, not kept
        self._max_bytes = max_bytes  # of all the bodies kept
        self._bytes = 0

    def get(self, fields: Hashable, body: bytes, make: Callable[[], Any]) -> Any:
        """make()'s value for (fields, body), made once."""
        if len(body) > self._max_body:
            return make()
        key = (fields, body)
        value = self._kept.get(key)
        if value is None:
            value = make()
            if len(self._kept) >= self._max or self._bytes + len(body) > self._max_bytes:
                self._kept.clear()
                self._bytes = 0
            self._kept[key] = value
            self._bytes += len(body)
        return value
