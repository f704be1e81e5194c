"""State that outlives one event while a stream is encoded: the mirror of oracle/context.py."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..fde import FormatDescription


@dataclass(frozen=True, slots=True)
class EventHead:
    """The common-header fields a body encoder may depend on."""
    type_code: int
    server_id: int
    log_pos: int | None
    flags: int


@dataclass
class EncodeContext:
    format: FormatDescription
    # table_id -> the TableMap the oracle's decoder makes of the Table_map event just encoded,
    # so a rows event's values are written with the column types they are read with.
    tables: dict[int, Any] = field(default_factory=dict)
    # The nested-stream encoder (Transaction_payload), set by stream.py.
    encode_nested: Any = None
