"""Typed errors for bad packets. They are BinlogErrors, so every caller that already tells a clean
rejection from a bug (the CLI, fuzzers) handles them the same way; `offset` is the byte offset in
the packet stream (or in the payload, for the payload parsers)."""
from __future__ import annotations

from ..errors import BinlogError


class PacketError(BinlogError):
    """Base of the wire-protocol input errors."""


class TruncatedPacket(PacketError):
    """The stream or a payload ends before the bytes a header or field needs."""


class PacketTooLarge(PacketError):
    """A logical packet (after 16 MB reassembly) would exceed the reader's limit."""


class BadSequence(PacketError):
    """A packet's sequence id is not the one that must follow the previous packet."""


class BadPacket(PacketError):
    """A payload holds a value its packet kind does not allow."""
