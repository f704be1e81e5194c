"""The fast paths of the JSON and DECIMAL codecs against slower, obviously-correct references.

- canonical_at (the canonical text written while decoding) must equal to_canonical(decode_jsonb)
  (the model, then rendered) on every document, and fail with the same error on every bad one.
- decode_decimal (bit fields of one integer, a cached layout) must equal a digit-by-digit
  reference built from the format's description.
- format_double (from repr) must equal the Decimal-based reference and read back as the same
  double.
"""
from __future__ import annotations

import math
import struct
from decimal import Decimal

from hypothesis import given, settings, strategies as st

from oracle.codecs.decimal import DIG2BYTES, decimal_bin_size, decode_decimal
from oracle.codecs.jsonb import canonical_at, decode_jsonb, format_double, to_canonical
from oracle.errors import BinlogError
from oracle.values import plain
from tests.test_jsonb import VALID, encode, json_docs, json_scalars


def _outcome(fn, *args):
    try:
        return ("ok", fn(*args))
    except BinlogError as e:
        return (type(e).__name__, e.offset, e.message)


def _both(data: bytes, origin: int = 50) -> tuple:
    """(model route, one-pass route) over data placed inside a bigger buffer, layout-only keys
    aside (only the one-pass route judges whether the layout is fresh; tests/test_json_opaque.py)."""
    pad = b"\xee" * 5
    model = _outcome(lambda: plain(to_canonical(decode_jsonb(data, origin))))
    direct = _outcome(lambda: plain(canonical_at(pad + data + pad, 5, 5 + len(data), origin - 5)))
    return model, direct


@settings(max_examples=300, deadline=None)
@given(json_docs, st.booleans())
def test_one_pass_text_equals_model_then_render(doc, large):
    model, direct = _both(encode(doc, large))
    assert model[0] == "ok"
    assert direct == model


def test_one_pass_text_of_opaque_temporal_and_decimal_values():
    for data in VALID:
        model, direct = _both(data)
        assert model[0] == "ok" and direct == model
        assert '"b": "2020-01-02 03:04:05.000006"' in direct[1]["value"]


def _damage(base: bytes, edits: list[tuple[int, int]], cut: int) -> bytes:
    """base with some bytes overwritten, then cut short."""
    data = bytearray(base)
    for pos, byte in edits:
        data[pos % len(data)] = byte
    return bytes(data[:cut])


damaged_documents = st.builds(_damage, st.sampled_from(VALID),
                              st.lists(st.tuples(st.integers(0, 400), st.integers(0, 255)), min_size=1, max_size=6),
                              st.integers(1, 400))


@settings(max_examples=500, deadline=None)
@given(damaged_documents)
def test_one_pass_fails_like_the_model_on_damaged_documents(data):
    model, direct = _both(data)
    assert direct == model


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=200))
def test_one_pass_fails_like_the_model_on_random_bytes(data):
    model, direct = _both(data)
    assert direct == model


# -- DECIMAL ----------------------------------------------------------------------------------------

def _reference_decimal(data: bytes, precision: int, scale: int) -> str:
    """bin2decimal read the long way: groups of 9 digits outwards from the point, partial groups
    in DIG2BYTES bytes, sign bit set for positive, negative values inverted."""
    b = bytearray(data)
    negative = not b[0] & 0x80
    b[0] ^= 0x80
    if negative:
        b = bytearray(x ^ 0xFF for x in b)
    intg = precision - scale
    sizes = ([intg % 9] if intg % 9 else []) + [9] * (intg // 9)
    frac_sizes = [9] * (scale // 9) + ([scale % 9] if scale % 9 else [])
    pos, parts = 0, []
    for digits in sizes + frac_sizes:
        n = DIG2BYTES[digits]
        parts.append(str(int.from_bytes(b[pos:pos + n], "big")).zfill(digits))
        pos += n
    whole = "".join(parts[:len(sizes)]).lstrip("0") or "0"
    text = whole + ("." + "".join(parts[len(sizes):]) if scale else "")
    return "-" + text if negative else text


@st.composite
def binary_decimals(draw):
    precision = draw(st.integers(1, 65))
    scale = draw(st.integers(0, min(precision, 30)))
    intg = precision - scale
    sizes = ([intg % 9] if intg % 9 else []) + [9] * (intg // 9) + [9] * (scale // 9) \
        + ([scale % 9] if scale % 9 else [])
    raw = b"".join(draw(st.integers(0, 10 ** d - 1)).to_bytes(DIG2BYTES[d], "big") for d in sizes)
    b = bytearray(raw)
    b[0] ^= 0x80
    if draw(st.booleans()):
        b = bytearray(x ^ 0xFF for x in b)
    return bytes(b), precision, scale


@settings(max_examples=1000, deadline=None)
@given(binary_decimals())
def test_decimal_matches_the_digit_by_digit_reference(value):
    data, precision, scale = value
    assert len(data) == decimal_bin_size(precision, scale)
    assert decode_decimal(data, precision, scale) == _reference_decimal(data, precision, scale)


def test_decimal_group_out_of_range_is_reported_at_its_byte():
    # DECIMAL(18,4): a 5-digit group in 3 bytes, a 9-digit group in 4, a 4-digit fraction in 2.
    good = bytes.fromhex("800000" "00000001" "0000")
    assert decode_decimal(good, 18, 4) == "1.0000"
    bad = bytes.fromhex("800000" "3b9aca00" "0000")  # 10**9 in the 9-digit group
    outcome = _outcome(decode_decimal, bad, 18, 4, 100)
    assert outcome[:2] == ("BadEventBody", 103)
    assert _outcome(decode_decimal, good, 18, 4, 100) == ("ok", "1.0000")
    assert _outcome(decode_decimal, good[:-1], 18, 4, 100)[0] == "BadEventBody"
    assert _outcome(decode_decimal, good, 0, 0, 100)[0] == "BadEventBody"


# -- doubles ------------------------------------------------------------------------------------------

def _reference_double(x: float) -> str:
    """The my_gcvt placement rules applied to the digits Decimal reads from repr."""
    if not math.isfinite(x):
        return "0.0"
    sign, digits, exp = Decimal(repr(x)).as_tuple()
    ds = "".join(map(str, digits)).rstrip("0") or "0"
    n = len(ds)
    decpt = len(digits) + exp if ds != "0" else 1
    width = 34 - (1 if x < 0 else 0)
    f_len = n - decpt + 2 if decpt <= 0 else (n + 1 if decpt < n else decpt)
    if f_len <= width and decpt >= -14 and (decpt <= 15 or n > decpt):
        text = ("0." + "0" * -decpt + ds if decpt <= 0 else
                ds[:decpt] + "." + ds[decpt:] if decpt < n else ds + "0" * (decpt - n))
    else:
        text = ds[0] + ("." + ds[1:] if n > 1 else "") + "e" + str(decpt - 1)
    text = ("-" if sign else "") + text
    return text if ("." in text or "e" in text) else text + ".0"


@settings(max_examples=2000, deadline=None)
@given(st.one_of(st.floats(allow_nan=True, allow_infinity=True),
                 st.integers(0, 2**64 - 1).map(lambda b: struct.unpack("<d", b.to_bytes(8, "little"))[0])))
def test_double_text_matches_the_reference_and_reads_back(x):
    text = format_double(x)
    assert text == _reference_double(x)
    if math.isfinite(x):
        assert float(text) == x



# Documents with opaque values (kept as bytes) and unsigned integers, whose paths only the
# layout lists keep.
_opaque_scalars = st.tuples(st.sampled_from([15, 252, 253, 254]), st.binary(max_size=6))
_layout_docs = st.recursive(json_scalars | _opaque_scalars, lambda kids: st.one_of(
    st.lists(kids, max_size=5), st.dictionaries(st.text(max_size=5), kids, max_size=5)), max_leaves=30)


def _layout_both(data: bytes) -> tuple:
    """(model route, one-pass route) with the layout lists ("opaque", "unsigned") kept. A
    document the one pass finds not freshly laid out (the large form where the small one fits)
    carries "binary" instead, which is all the encoder needs; the lists are then compared only
    where both routes have them."""
    pad = b"\xee" * 5
    model = _outcome(lambda: to_canonical(decode_jsonb(data, 50)))
    direct = _outcome(lambda: canonical_at(pad + data + pad, 5, 5 + len(data), 45))
    if model[0] == "ok" and "binary" in direct[1]:
        model = ("ok", {k: v for k, v in model[1].items() if k in ("type", "value")})
        direct = ("ok", {k: v for k, v in direct[1].items() if k != "binary"})
    return model, direct


@settings(max_examples=300, deadline=None)
@given(_layout_docs)
def test_one_pass_layout_lists_equal_the_models(doc):
    """The one pass gathers the opaque values' and unsigned integers' paths while it writes the
    text; layout_entries walks the model. Both must give the same lists."""
    model, direct = _layout_both(encode(doc))
    assert model[0] == "ok"
    assert direct == model


def test_one_pass_layout_lists_of_opaque_values():
    model, direct = _layout_both(VALID[0])
    assert model[0] == "ok" and direct == model
    assert [e["path"] for e in direct[1]["opaque"]] == [["a", 4, "b"], ["c"]]
