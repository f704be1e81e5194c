"""State that outlives one event while a stream is decoded."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

from .fde import FormatDescription


@dataclass
class DecodeContext:
    format: FormatDescription
    verify_checksums: bool = True
    # table_id -> the decoded Table_map body, for the rows events that refer to it.
    tables: dict[int, Any] = field(default_factory=dict)
    # Set by decoder.py: decodes a nested event stream (Transaction_payload) with this context.
    decode_nested: Callable[..., list[dict[str, Any]]] | None = None
    # The event's place in its binlog file minus its offset in the buffer being decoded: 0 for a
    # file; set per event by oracle.wire.stream (the stream's offsets are not the file's), so the
    # events inside a Transaction_payload get the same `position` either way.
    position_shift: int = 0
