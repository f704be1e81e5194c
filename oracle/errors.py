"""Typed errors for bad binlog input.

Every failure the oracle reports on untrusted input is one of these, so callers (the CLI, the
harness, fuzzers) can tell a clean rejection from a bug: any other exception is a bug.
Each carries the absolute byte offset in the file where the problem was found.
"""
from __future__ import annotations


class BinlogError(Exception):
    """Base of all input errors. `kind` is the class name, stable for reports."""

    def __init__(self, offset: int, message: str) -> None:
        super().__init__(f"{type(self).__name__} at offset {offset}: {message}")
        self.offset = offset
        self.message = message
        # Position of the event the bad byte belongs to; set by the decoder when it knows it.
        self.event_offset: int | None = None

    @property
    def kind(self) -> str:
        return type(self).__name__


class BadMagic(BinlogError):
    """The file does not start with the 4-byte binlog magic."""


class TruncatedEvent(BinlogError):
    """An event or field ends before the bytes it needs."""


class BadHeader(BinlogError):
    """A common header is inconsistent (event size below the header, and so on)."""


class LengthPastEnd(BinlogError):
    """A length field points past the end of its event or of the file."""


class ChecksumMismatch(BinlogError):
    """The stored CRC32 differs from the one computed over the event."""


class UnknownEventType(BinlogError):
    """A type code no MySQL or MariaDB server defines."""


class UnknownStatusVar(BinlogError):
    """A Query event status variable code that is not defined."""


class BadEventBody(BinlogError):
    """A field holds a value its event type does not allow."""


class DecompressionError(BinlogError):
    """A compressed payload does not decompress, or decompresses to more than it claims."""
