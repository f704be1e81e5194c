"""MySQL's binary DECIMAL (NEWDECIMAL) format, shared by row images and User_var events.

Layout (strings/decimal.cc bin2decimal, as documented): the integer part's digits are grouped in
nines from the decimal point outwards, each full group stored in 4 big-endian bytes, a leading
partial group of k digits in DIG2BYTES[k] bytes; the fraction likewise, the partial group last.
The sign is the top bit of the first byte (set for positive); negative numbers have every byte
inverted. Canonical text: optional '-', integer part without leading zeros ('0' when empty), and
exactly `scale` fraction digits, as MySQL's decimal2string prints it.
"""
from __future__ import annotations

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


def decode_decimal(data: bytes, precision: int, scale: int, offset: int = 0) -> str:
    """The canonical text of a binary decimal. Raises BadEventBody (at `offset`) for an invalid
    precision/scale, a wrong byte count, or a digit group out of range."""
    problem = check_precision(precision, scale)
    if problem:
        raise BadEventBody(offset, problem)
    size = decimal_bin_size(precision, scale)
    if len(data) != size:
        raise BadEventBody(offset, f"DECIMAL({precision},{scale}) takes {size} bytes, got {len(data)}")
    negative = not data[0] & 0x80
    b = bytearray(data)
    b[0] ^= 0x80
    if negative:
        b = bytearray(x ^ 0xFF for x in b)
    intg = precision - scale
    pos = 0
    int_digits = []
    lead = intg % DIG_PER_WORD
    if lead:
        n = DIG2BYTES[lead]
        int_digits.append(_group(b, pos, n, lead, offset))
        pos += n
    for _ in range(intg // DIG_PER_WORD):
        int_digits.append(_group(b, pos, 4, DIG_PER_WORD, offset))
        pos += 4
    frac_digits = []
    for _ in range(scale // DIG_PER_WORD):
        frac_digits.append(_group(b, pos, 4, DIG_PER_WORD, offset))
        pos += 4
    tail = scale % DIG_PER_WORD
    if tail:
        frac_digits.append(_group(b, pos, DIG2BYTES[tail], tail, offset))
    whole = "".join(int_digits).lstrip("0") or "0"
    text = whole + ("." + "".join(frac_digits) if scale else "")
    return "-" + text if negative else text


def _group(b: bytearray, pos: int, nbytes: int, digits: int, offset: int) -> str:
    v = int.from_bytes(b[pos:pos + nbytes], "big")
    if v >= 10 ** digits:
        raise BadEventBody(offset + pos, f"DECIMAL digit group {v} has more than {digits} digits")
    return str(v).zfill(digits)
