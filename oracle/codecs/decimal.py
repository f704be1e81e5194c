"""MySQL's binary DECIMAL (NEWDECIMAL) format, shared by row images and User_var events.

Layout (strings/decimal.cc bin2decimal, as documented): the integer part's digits are grouped in
nines from the decimal point outwards, each full group stored in 4 big-endian bytes, a leading
partial group of k digits in DIG2BYTES[k] bytes; the fraction likewise, the partial group last.
The sign is the top bit of the first byte (set for positive); negative numbers have every byte
inverted. Canonical text: optional '-', integer part without leading zeros ('0' when empty), and
exactly `scale` fraction digits, as MySQL's decimal2string prints it.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from ..errors import BadEventBody

DIG_PER_WORD = 9
DIG2BYTES = (0, 1, 1, 2, 2, 3, 3, 4, 4, 4)
MAX_PRECISION = 65
MAX_SCALE = 30


def decimal_bin_size(precision: int, scale: int) -> int:
    """Bytes a DECIMAL(precision, scale) value takes (decimal_bin_size)."""
    intg = precision - scale
    return ((intg // DIG_PER_WORD) * 4 + DIG2BYTES[intg % DIG_PER_WORD]
            + (scale // DIG_PER_WORD) * 4 + DIG2BYTES[scale % DIG_PER_WORD])


def check_precision(precision: int, scale: int) -> str | None:
    """Why (precision, scale) cannot describe a binary decimal, or None when it can."""
    if precision < 1 or precision > MAX_PRECISION:
        return f"DECIMAL precision {precision} is outside 1..{MAX_PRECISION}"
    if scale > MAX_SCALE or scale > precision:
        return f"DECIMAL scale {scale} exceeds {min(precision, MAX_SCALE)}"
    return None


@dataclass(frozen=True, slots=True)
class _Layout:
    """How to cut one DECIMAL(precision, scale) value, worked out once per type: the value is read
    as one big-endian integer and each digit group is a bit field of it."""
    size: int
    sign: int  # the sign bit; set for positive values
    flip_negative: int  # XOR that undoes a negative value's inversion (the sign bit stays clear)
    fields: tuple[tuple[int, int], ...]  # per group, most significant first: (shift, mask)
    limits: tuple[int, ...]  # 10 ** digits of each group
    starts: tuple[int, ...]  # each group's first byte (for error offsets)
    text: str  # %-format of the groups, zero-padded, '.' before the fraction
    width: int  # the length of that text when every group is in range


@lru_cache(maxsize=4096)
def _layout(precision: int, scale: int) -> _Layout | str:
    """The layout of DECIMAL(precision, scale), or why there is none."""
    problem = check_precision(precision, scale)
    if problem:
        return problem
    intg = precision - scale
    digits = ([intg % DIG_PER_WORD] if intg % DIG_PER_WORD else []) + [DIG_PER_WORD] * (intg // DIG_PER_WORD)
    fraction = [DIG_PER_WORD] * (scale // DIG_PER_WORD) + ([scale % DIG_PER_WORD] if scale % DIG_PER_WORD else [])
    widths = [DIG2BYTES[d] for d in digits + fraction]
    size = sum(widths)
    starts = [sum(widths[:i]) for i in range(len(widths))]
    fields = tuple((8 * (size - start - width), (1 << 8 * width) - 1) for start, width in zip(starts, widths))
    text = "".join(f"%0{d}d" for d in digits) + ("." + "".join(f"%0{d}d" for d in fraction) if scale else "")
    sign = 1 << (8 * size - 1)
    return _Layout(size, sign, ((1 << 8 * size) - 1) ^ sign, fields,
                   tuple(10 ** d for d in digits + fraction), tuple(starts), text, precision + (1 if scale else 0))


def decode_decimal(data: bytes, precision: int, scale: int, offset: int = 0) -> str:
    """The canonical text of a binary decimal. Raises BadEventBody (at `offset`) for an invalid
    precision/scale, a wrong byte count, or a digit group out of range."""
    lay = _layout(precision, scale)
    if isinstance(lay, str):
        raise BadEventBody(offset, lay)
    if len(data) != lay.size:
        raise BadEventBody(offset, f"DECIMAL({precision},{scale}) takes {lay.size} bytes, got {len(data)}")
    n = int.from_bytes(data, "big")
    negative = not n & lay.sign
    n ^= lay.flip_negative if negative else lay.sign
    groups = tuple([(n >> shift) & mask for shift, mask in lay.fields])
    text = lay.text % groups
    if len(text) != lay.width:  # a group printed more digits than it may hold
        _reject(groups, lay, offset)
    text = text.lstrip("0")
    if not text or text[0] == ".":
        text = "0" + text  # decimal2string: an empty integer part prints as 0
    return "-" + text if negative else text


def _reject(groups: tuple[int, ...], lay: _Layout, offset: int) -> None:
    """The first digit group that holds more digits than its width allows."""
    for v, limit, start in zip(groups, lay.limits, lay.starts):
        if v >= limit:
            raise BadEventBody(offset + start, f"DECIMAL digit group {v} has more than "
                                               f"{len(str(limit)) - 1} digits")
    raise BadEventBody(offset, "DECIMAL digit groups out of range")  # unreachable: the text grows only then
