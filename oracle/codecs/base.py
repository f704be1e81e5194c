"""What every value codec shares: the reader signature and the bounds error.

A value reader is `read(buf, pos, end) -> (value, new_pos)`: it decodes one column value starting
at buffer index `pos`, never reading at or past `end`. Readers are closures built once per table
(oracle/codecs/plan.py), so the hot loop does no per-value table lookups. Offsets in the errors
they raise are buffer indices; the row decoder adds the buffer's file origin.
"""
from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum
from typing import Any, Callable

from ..errors import BadEventBody, LengthPastEnd, TruncatedEvent

ValueReader = Callable[[bytes, int, int], tuple[Any, int]]


class Native(IntEnum):
    """The value layouts the compiled row-image loop (oracle/codecs/_rowimage.c, enum kind) decodes
    itself; the numbers are shared with that file and checked against its KINDS table by
    tests/test_rowimage_accelerator.py. A reader without a spec is called back as Python."""
    PYTHON = 0  # call the reader itself
    NULL = 1
    INT = 2  # a = width (1, 2, 3, 4, 8), b = unsigned
    YEAR = 3
    FLOAT = 4
    DOUBLE = 5
    DECIMAL = 6  # a = precision, b = scale
    DATE = 7
    TIME = 8
    DATETIME = 9
    TIMESTAMP = 10
    TIME2 = 11  # a = fsp
    DATETIME2 = 12  # a = fsp
    TIMESTAMP2 = 13  # a = fsp
    UINT_BE = 14  # a = bytes (1..8): BIT
    UINT_LE = 15  # a = bytes (1..8): ENUM, SET
    TEXT = 16  # a = length prefix bytes (1..4): values.text of the bytes
    BINARY = 17  # a = length prefix bytes: tagged bytes
    CONVERT = 18  # a = length prefix bytes, call = convert(buf, start, end)


@dataclass(frozen=True, slots=True)
class NativeSpec:
    """What a reader does, in terms the compiled loop can do without calling it."""
    kind: Native
    a: int = 0
    b: int = 0
    call: Callable[..., Any] | None = None


def native(reader: ValueReader, kind: Native, a: int = 0, b: int = 0,
           call: Callable[..., Any] | None = None) -> ValueReader:
    """Attach the spec of `reader` to it (set where the reader is made, so the two cannot drift)."""
    reader.spec = NativeSpec(kind, a, b, call)  # type: ignore[attr-defined]
    return reader


def spec_of(reader: ValueReader) -> tuple[int, int, int, Any]:
    """The (kind, a, b, callable) tuple the compiled loop takes for one reader."""
    spec = getattr(reader, "spec", None)
    if spec is None:
        return (Native.PYTHON, 0, 0, reader)
    return (int(spec.kind), spec.a, spec.b, spec.call)


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
