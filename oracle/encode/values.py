"""Canonical values back to their binary forms, shared by User_var and row images: binary
DECIMAL (the inverse of oracle/codecs/decimal.py) and doubles."""
from __future__ import annotations

from typing import Any

from ..codecs.decimal import DIG2BYTES, DIG_PER_WORD, check_precision
from .writer import EncodeError


def float_value(v: Any) -> float:
    """A JSON number, or the {"type": "double"|"float", "value": "nan"|"inf"|"-inf"} tag."""
    if isinstance(v, dict) and v.get("type") in ("double", "float"):
        return float(v["value"])
    if isinstance(v, (int, float)) and not isinstance(v, bool):
        return float(v)
    raise EncodeError(f"{v!r} is not a floating-point value")


def _groups(digits: str, leading_partial: bool) -> list[tuple[str, int]]:
    """Split digits into nines; the partial group goes first (integer part) or last (fraction)."""
    k = len(digits) % DIG_PER_WORD
    if leading_partial:
        parts = [digits[:k]] if k else []
        parts += [digits[i:i + DIG_PER_WORD] for i in range(k, len(digits), DIG_PER_WORD)]
    else:
        cut = len(digits) - k
        parts = [digits[i:i + DIG_PER_WORD] for i in range(0, cut, DIG_PER_WORD)]
        parts += [digits[cut:]] if k else []
    return [(p, 4 if len(p) == DIG_PER_WORD else DIG2BYTES[len(p)]) for p in parts]


def encode_decimal(text: str, precision: int, scale: int) -> bytes:
    """The binary form of a DECIMAL(precision, scale) value given as canonical text."""
    problem = check_precision(precision, scale)
    if problem:
        raise EncodeError(problem)
    negative = text.startswith("-")
    whole, _, frac = text.lstrip("-").partition(".")
    whole = whole.lstrip("0")
    intg = precision - scale
    if not (whole + frac).isdigit() and (whole or frac) or len(whole) > intg or len(frac) > scale:
        raise EncodeError(f"{text!r} is not a DECIMAL({precision},{scale}) value")
    out = bytearray()
    for group, nbytes in _groups(whole.rjust(intg, "0"), True) + _groups(frac.ljust(scale, "0"), False):
        out += int(group).to_bytes(nbytes, "big")
    if negative:
        out = bytearray(b ^ 0xFF for b in out)
    out[0] ^= 0x80
    return bytes(out)
