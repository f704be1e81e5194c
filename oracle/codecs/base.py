"""What every value codec shares: the reader signature and the bounds error.

A value reader is `read(buf, pos, end) -> (value, new_pos)`: it decodes one column value starting
at buffer index `pos`, never reading at or past `end`. Readers are closures built once per table
(oracle/codecs/plan.py), so the hot loop does no per-value table lookups. Offsets in the errors
they raise are buffer indices; the row decoder adds the buffer's file origin.
"""
from __future__ import annotations

from typing import Any, Callable

from ..errors import BadEventBody, LengthPastEnd, TruncatedEvent

ValueReader = Callable[[bytes, int, int], tuple[Any, int]]


def short(pos: int, need: int, end: int, what: str) -> TruncatedEvent:
    return TruncatedEvent(pos, f"{what} value needs {need} bytes, {end - pos} left in the row image")


def past(pos: int, length: int, end: int, what: str) -> LengthPastEnd:
    return LengthPastEnd(pos, f"{what} length {length} runs past the row image ({end - pos} bytes left)")


def failing(message: str) -> ValueReader:
    """A reader for a column whose metadata makes it undecodable: it fails only if a row
    actually holds a value for it, as mysqlbinlog does."""
    def read(buf: bytes, pos: int, end: int) -> tuple[Any, int]:
        raise BadEventBody(pos, message)
    return read
