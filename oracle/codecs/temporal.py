"""DATE, TIME, TIME2, DATETIME, DATETIME2, TIMESTAMP and TIMESTAMP2.

The "2" types (MySQL 5.6.4+) are big-endian packed integers followed by 0..3 bytes of fraction,
(fsp + 1) // 2 bytes for fsp digits; the old types are little-endian decimal-ish integers.
Canonical forms, fraction printed with exactly fsp digits (none when fsp = 0):
DATE 'YYYY-MM-DD', TIME '[-]HH:MM:SS[.f]' (hours may exceed 99), DATETIME 'YYYY-MM-DD HH:MM:SS[.f]',
TIMESTAMP the seconds since the epoch '<sec>[.f]' (the server's time zone is not in the log).
Zero and partial-zero dates come out as stored ('0000-00-00', '2024-00-15').
"""
from __future__ import annotations

from ..values import tagged
from .base import Native, ValueReader, failing, native, short

_FRAC_BYTES = (0, 1, 1, 2, 2, 3, 3)
_FRAC_SCALE = (0, 10000, 10000, 100, 100, 1, 1)  # stored fraction unit -> microseconds


def _frac_text(usec: int, fsp: int) -> str:
    return "." + str(usec // 10 ** (6 - fsp)).zfill(fsp) if fsp else ""


def read_date(buf: bytes, pos: int, end: int):
    if pos + 3 > end:
        raise short(pos, 3, end, "DATE")
    v = int.from_bytes(buf[pos:pos + 3], "little")
    return tagged("date", f"{v >> 9:04d}-{(v >> 5) & 15:02d}-{v & 31:02d}"), pos + 3


def read_time(buf: bytes, pos: int, end: int):
    """Old TIME: a signed 3-byte HHMMSS."""
    if pos + 3 > end:
        raise short(pos, 3, end, "TIME")
    v = int.from_bytes(buf[pos:pos + 3], "little", signed=True)
    sign, v = ("-", -v) if v < 0 else ("", v)
    return tagged("time", f"{sign}{v // 10000:02d}:{v // 100 % 100:02d}:{v % 100:02d}"), pos + 3


def read_datetime(buf: bytes, pos: int, end: int):
    """Old DATETIME: an 8-byte YYYYMMDDhhmmss."""
    if pos + 8 > end:
        raise short(pos, 8, end, "DATETIME")
    v = int.from_bytes(buf[pos:pos + 8], "little")
    d, t = divmod(v, 1000000)
    return tagged("datetime", f"{d // 10000:04d}-{d // 100 % 100:02d}-{d % 100:02d} "
                              f"{t // 10000:02d}:{t // 100 % 100:02d}:{t % 100:02d}"), pos + 8


def read_timestamp(buf: bytes, pos: int, end: int):
    if pos + 4 > end:
        raise short(pos, 4, end, "TIMESTAMP")
    return tagged("timestamp", str(int.from_bytes(buf[pos:pos + 4], "little"))), pos + 4


for _reader, _kind in ((read_date, Native.DATE), (read_time, Native.TIME),
                      (read_datetime, Native.DATETIME), (read_timestamp, Native.TIMESTAMP)):
    native(_reader, _kind)


def _bad_fsp(fsp: int, what: str) -> ValueReader | None:
    return failing(f"{what} fractional precision {fsp} exceeds 6") if fsp > 6 else None


def timestamp2_reader(fsp: int) -> ValueReader:
    bad = _bad_fsp(fsp, "TIMESTAMP2")
    if bad:
        return bad
    size = 4 + _FRAC_BYTES[fsp]
    scale = _FRAC_SCALE[fsp]

    def read(buf: bytes, pos: int, end: int):
        nxt = pos + size
        if nxt > end:
            raise short(pos, size, end, "TIMESTAMP2")
        sec = int.from_bytes(buf[pos:pos + 4], "big")
        frac = int.from_bytes(buf[pos + 4:nxt], "big") * scale
        return tagged("timestamp", f"{sec}{_frac_text(frac, fsp)}"), nxt
    return native(read, Native.TIMESTAMP2, fsp)


def datetime2_reader(fsp: int) -> ValueReader:
    bad = _bad_fsp(fsp, "DATETIME2")
    if bad:
        return bad
    size = 5 + _FRAC_BYTES[fsp]
    scale = _FRAC_SCALE[fsp]

    def read(buf: bytes, pos: int, end: int):
        nxt = pos + size
        if nxt > end:
            raise short(pos, size, end, "DATETIME2")
        packed = ((int.from_bytes(buf[pos:pos + 5], "big") - 0x8000000000) << 24) \
            + int.from_bytes(buf[pos + 5:nxt], "big") * scale
        sign, packed = ("-", -packed) if packed < 0 else ("", packed)
        usec = packed & 0xFFFFFF
        ymdhms = packed >> 24
        ymd, hms = ymdhms >> 17, ymdhms & 0x1FFFF
        ym = ymd >> 5
        return tagged("datetime", f"{sign}{ym // 13:04d}-{ym % 13:02d}-{ymd & 31:02d} "
                                  f"{hms >> 12:02d}:{(hms >> 6) & 63:02d}:{hms & 63:02d}"
                                  f"{_frac_text(usec, fsp)}"), nxt
    return native(read, Native.DATETIME2, fsp)


def time2_reader(fsp: int) -> ValueReader:
    bad = _bad_fsp(fsp, "TIME2")
    if bad:
        return bad
    fbytes = _FRAC_BYTES[fsp]
    size = 3 + fbytes
    scale = _FRAC_SCALE[fsp]

    def read(buf: bytes, pos: int, end: int):
        nxt = pos + size
        if nxt > end:
            raise short(pos, size, end, "TIME2")
        if fbytes == 3:
            packed = int.from_bytes(buf[pos:nxt], "big") - 0x800000000000
        else:
            intpart = int.from_bytes(buf[pos:pos + 3], "big") - 0x800000
            frac = int.from_bytes(buf[pos + 3:nxt], "big")
            if intpart < 0 and frac:
                # Negative times store the fraction as a complement of the next whole second.
                intpart += 1
                frac -= 1 << (8 * fbytes)
            packed = (intpart << 24) + frac * scale
        sign, packed = ("-", -packed) if packed < 0 else ("", packed)
        usec = packed & 0xFFFFFF
        hms = packed >> 24
        return tagged("time", f"{sign}{(hms >> 12) & 0x3FF:02d}:{(hms >> 6) & 63:02d}:{hms & 63:02d}"
                              f"{_frac_text(usec, fsp)}"), nxt
    return native(read, Native.TIME2, fsp)
