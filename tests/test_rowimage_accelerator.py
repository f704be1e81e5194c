"""oracle/codecs/_rowimage.c against the Python row-image loop it twins (plan.read_image_pure).

The C loop hands anything unusual back to the Python loop (it returns None), so errors are the
Python loop's by construction; what must be checked is that every image the C loop does decode
comes out as the same Python objects. Checked here on random column sets of every type code
with random metadata (valid generated values, then damaged and random bytes), on every row image
of the committed corpus and of the external binlogs, on every buffer type, and for leaks.
BINLOG_ORACLE_PURE is read at import, so the module is imported directly and both loops are
called side by side in one process. Under CI=true a missing build fails instead of skipping.
"""
from __future__ import annotations

import importlib
import mmap
import struct
import tracemalloc
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from oracle.codecs import plan as plan_module
from oracle.codecs.base import Native, spec_of
from oracle.codecs.decimal import DIG2BYTES
from oracle.codecs.plan import FACTORIES, RowPlan, read_image_pure
from oracle.codecs.types import ColumnType as T
from oracle.decoder import decode_file
from oracle.errors import BadEventBody, BinlogError
from oracle.events import rows as rows_module
from oracle.events.table_map import Column
from tests.conftest import IN_CI
from tests.external import manifest
from tests.test_jsonb import encode, json_docs

try:
    C = importlib.import_module("oracle.codecs._rowimage")
except ImportError:
    C = None

CORPUS = Path(__file__).resolve().parents[1] / "corpus"


@pytest.fixture(autouse=True)
def _built():
    if C is None:
        why = "oracle.codecs._rowimage is not built (python setup.py build_ext --inplace)"
        if IN_CI:
            pytest.fail(why)
        pytest.skip(why)


def _outcome(fn, *args) -> tuple:
    try:
        return ("ok", fn(*args))
    except Exception as e:  # noqa: BLE001 - the comparison is of whatever either loop raises
        return (type(e).__name__, getattr(e, "offset", None), str(e))


def _compiled(readers: list) -> Any:
    return C.compile([spec_of(rd) for rd in readers])


def c_or_fallback(buf, pos: int, end: int, readers: list):
    """What plan.read_image does with the accelerator on, whatever BINLOG_ORACLE_PURE says."""
    got = C.read_image(buf, pos, end, _compiled(readers))
    return got if got is not None else read_image_pure(buf, pos, end, readers)


def test_kind_numbers_agree_with_the_c_enum():
    assert C.KINDS == {k.name: int(k) for k in Native}


def test_every_decodable_type_code_has_a_native_spec():
    """Only the failing readers (bad metadata) are called back as Python."""
    for code in FACTORIES:
        col = Column(0, code, _good_meta(code), True, code, 10, False)
        assert spec_of(plan_module.build_reader(col))[0] != Native.PYTHON, T(code).name


def test_plan_uses_the_accelerator_unless_pure():
    readers = RowPlan([Column(0, T.LONG, 0, True, T.LONG, 0)]).select(1)
    assert (readers.native is not None) == (plan_module._C is not None)


# ---- random column sets ----------------------------------------------------------------------

def _good_meta(code: int) -> int:
    return {T.NEWDECIMAL: 10 << 8 | 2, T.BIT: 1 << 8 | 3, T.ENUM: 2, T.SET: 4, T.TIME2: 3,
            T.DATETIME2: 6, T.TIMESTAMP2: 1, T.VARCHAR: 300, T.VAR_STRING: 20, T.TINY_BLOB: 1,
            T.BLOB: 2, T.MEDIUM_BLOB: 3, T.LONG_BLOB: 4, T.GEOMETRY: 4, T.VECTOR: 4, T.JSON: 4,
            T.VARCHAR_COMPRESSED: 100, T.BLOB_COMPRESSED: 2}.get(code, 0)


@st.composite
def columns(draw, valid: bool) -> Column:
    code = draw(st.sampled_from(sorted(FACTORIES)))
    real, length = code, 0
    if valid:
        meta = draw(_valid_meta(code))
    else:
        meta = draw(st.one_of(st.just(_good_meta(code)), st.integers(0, 0xFFFF)))
    if code == T.STRING:
        real = draw(st.sampled_from([T.STRING, T.ENUM, T.SET]))
        length = draw(st.integers(1, 8) if valid and real != T.STRING else st.integers(0, 700))
        meta = real << 8 | length & 0xFF  # as table_map packs it; the readers key on the real type
    return Column(0, code, meta, True, real, length, draw(st.booleans()))


def _valid_meta(code: int):
    if code == T.NEWDECIMAL:
        return st.integers(1, 65).flatmap(
            lambda p: st.integers(0, min(p, 30)).map(lambda s: p << 8 | s))
    if code in (T.TIME2, T.DATETIME2, T.TIMESTAMP2):
        return st.integers(0, 6)
    if code == T.BIT:
        return st.integers(0, 7).flatmap(lambda b: st.integers(1 if b == 0 else 0, 7).map(lambda r: b << 8 | r))
    if code in (T.ENUM, T.SET):
        return st.integers(1, 8)
    if code in (T.TINY_BLOB, T.BLOB, T.MEDIUM_BLOB, T.LONG_BLOB, T.GEOMETRY, T.VECTOR, T.JSON,
                T.BLOB_COMPRESSED):
        return st.integers(1, 4)
    return st.one_of(st.integers(0, 255), st.integers(256, 0xFFFF))


def _decimal_bytes(draw, precision: int, scale: int) -> bytes:
    intg = precision - scale
    digits = ([intg % 9] if intg % 9 else []) + [9] * (intg // 9) + [9] * (scale // 9) \
        + ([scale % 9] if scale % 9 else [])
    out = b"".join(draw(st.integers(0, 10 ** d - 1)).to_bytes(DIG2BYTES[d], "big") for d in digits)
    out = bytes([out[0] ^ 0x80]) + out[1:]
    return bytes(b ^ 0xFF for b in out) if draw(st.booleans()) else out


def _value_bytes(draw, spec: tuple) -> bytes:
    kind, a, b, _ = spec
    fixed = {Native.INT: a, Native.UINT_BE: a, Native.UINT_LE: a, Native.YEAR: 1, Native.FLOAT: 4,
             Native.DOUBLE: 8, Native.DATE: 3, Native.TIME: 3, Native.DATETIME: 8,
             Native.TIMESTAMP: 4, Native.TIMESTAMP2: 4 + (a + 1) // 2,
             Native.DATETIME2: 5 + (a + 1) // 2, Native.TIME2: 3 + (a + 1) // 2, Native.NULL: 0}
    if kind in fixed:
        special = st.sampled_from([struct.pack("<d", x) for x in (float("nan"), float("inf"), -0.0, 1e308)])
        if kind == Native.DOUBLE:
            return draw(st.one_of(st.binary(min_size=8, max_size=8), special))
        return draw(st.binary(min_size=fixed[kind], max_size=fixed[kind]))
    if kind == Native.DECIMAL:
        return _decimal_bytes(draw, a, b)
    if kind == Native.CONVERT:
        payload = encode(draw(json_docs), draw(st.booleans()))
        if len(payload) >= 1 << 8 * a:  # too long for a 1-byte prefix: a document that fits
            payload = encode([1, "two"])
    else:
        payload = draw(st.one_of(st.text(max_size=40).map(lambda s: s.encode("utf-8")), st.binary(max_size=40)))
    payload = payload[:(1 << 8 * a) - 1]
    return len(payload).to_bytes(a, "little") + payload


@st.composite
def images(draw, valid: bool) -> tuple[list, bytes]:
    cols = draw(st.lists(columns(valid), min_size=0, max_size=12))
    readers = [plan_module.build_reader(c) for c in cols]
    nulls = draw(st.integers(0, (1 << (len(cols) + 7 & ~7)) - 1))
    body = b"".join(b"" if nulls >> i & 1 else _value_bytes(draw, spec_of(rd))
                    for i, rd in enumerate(readers) if spec_of(rd)[0] != Native.PYTHON)
    bitmap = nulls.to_bytes((len(cols) + 7) >> 3, "little")
    return readers, bitmap + body


def _damaged(draw, data: bytes) -> bytes:
    how = draw(st.sampled_from(["cut", "flip", "random", "grow"]))
    if how == "cut":
        return data[:draw(st.integers(0, len(data)))]
    if how == "flip" and data:
        i = draw(st.integers(0, len(data) - 1))
        return data[:i] + bytes([draw(st.integers(0, 255))]) + data[i + 1:]
    if how == "grow":
        return data + draw(st.binary(min_size=1, max_size=8))
    return draw(st.binary(max_size=len(data) + 8))


def _compare(readers: list, data: bytes) -> tuple:
    pad = b"\xa5" * 3
    buf = pad + data + pad
    want = _outcome(read_image_pure, buf, 3, 3 + len(data), readers)
    got = _outcome(c_or_fallback, buf, 3, 3 + len(data), readers)
    assert got == want
    return want


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(images(valid=True))
def test_valid_images_are_decoded_by_c_as_by_python(image):
    readers, data = image
    buf = b"\x00" + data
    got = C.read_image(buf, 1, len(buf), _compiled(readers))
    assert got is not None  # valid values: the C loop decodes them itself
    assert got == read_image_pure(buf, 1, len(buf), readers)
    assert _compare(readers, data)[0] == "ok"


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(images(valid=True), st.data())
def test_damaged_images_give_the_same_outcome(image, data):
    readers, raw = image
    _compare(readers, _damaged(data.draw, raw))


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(images(valid=False), st.binary(max_size=64))
def test_random_metadata_and_bytes_give_the_same_outcome(image, noise):
    readers, raw = image
    _compare(readers, raw)
    _compare(readers, raw[:(len(readers) + 7) >> 3] + noise)


def test_every_buffer_type_and_bounds(tmp_path):
    cols = [Column(0, T.LONG, 0, True, T.LONG, 0), Column(1, T.VARCHAR, 10, True, T.VARCHAR, 0),
            Column(2, T.NEWDECIMAL, 5 << 8 | 2, True, T.NEWDECIMAL, 0)]
    readers = RowPlan(cols).select(7)
    data = b"\x00" + struct.pack("<i", -5) + b"\x02hi" + bytes([0x80 ^ 0x01, 0x02, 0x03])
    want = read_image_pure(data, 0, len(data), readers)
    assert want[0]["values"] == [-5, "hi", {"type": "decimal", "value": "258.03"}]
    path = tmp_path / "image"
    path.write_bytes(data)
    with open(path, "rb") as f, mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ) as mm:
        for buf in (data, bytearray(data), memoryview(data), mm):
            assert C.read_image(buf, 0, len(data), _compiled(readers)) == want
    compiled = _compiled(readers)
    for pos, end in ((0, len(data) + 1), (-1, len(data)), (3, 2), (0, len(data) - 1)):
        assert C.read_image(data, pos, end, compiled) is None  # the Python loop decides
    assert C.read_image(memoryview(data)[::2], 0, 4, compiled) is None  # not contiguous


def test_callback_errors_propagate_unchanged():
    col = Column(0, T.BIT, 0, True, T.BIT, 0)  # 0 bytes: a failing reader, called back
    readers = [plan_module.build_reader(col)]
    assert _outcome(c_or_fallback, b"\x00", 0, 1, readers) == _outcome(read_image_pure, b"\x00", 0, 1, readers)
    assert _outcome(c_or_fallback, b"\x00", 0, 1, readers)[0] == "BadEventBody"


def test_no_leaks_over_many_calls():
    doc = encode({"k": [1, "x", 2.5]})
    cols = [Column(0, T.LONGLONG, 0, True, T.LONGLONG, 0, True), Column(1, T.BLOB, 2, True, T.BLOB, 0),
            Column(2, T.JSON, 4, True, T.JSON, 0), Column(3, T.DATETIME2, 6, True, T.DATETIME2, 0),
            Column(4, T.BIT, 0, True, T.BIT, 0), Column(5, T.DOUBLE, 8, True, T.DOUBLE, 0)]
    readers = [plan_module.build_reader(c) for c in cols]
    good = (b"\x10" + b"\xff" * 8 + b"\x02\x00\xff\xfe" + len(doc).to_bytes(4, "little") + doc
            + b"\x99" * 8 + struct.pack("<d", float("nan")))
    failing = b"\x00" + b"\x01" * 8 + b"\x00\x00" + b"\x00" * 4 + b"\x80" * 8 + b"\x00" * 8
    compiled = _compiled(readers)

    def loop(n: int) -> None:
        for _ in range(n):
            assert C.read_image(good, 0, len(good), compiled) is not None
            assert C.read_image(good, 0, len(good) - 1, compiled) is None
            with pytest.raises(BadEventBody):
                C.read_image(failing, 0, len(failing), compiled)
            C.compile([spec_of(rd) for rd in readers])

    loop(1000)
    tracemalloc.start()
    try:
        loop(1000)
        before = tracemalloc.get_traced_memory()[0]
        loop(30000)
        grown = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    assert grown < 64 * 1024, f"{grown} bytes kept after 30000 rounds"


# ---- every row image of real binlogs ---------------------------------------------------------

def _binlogs() -> list[Path]:
    corpus = [p for p in sorted(CORPUS.glob("*/*/binlog.*")) if p.suffix[1:].isdigit()]
    external = [b.path for b in manifest() if b.path.exists()]
    return corpus + external


def test_every_real_row_image_decodes_identically(monkeypatch):
    stats = {"images": 0, "by_c": 0}

    def both(buf, pos, end, readers):
        want = _outcome(read_image_pure, buf, pos, end, readers)
        got = _outcome(c_or_fallback, buf, pos, end, readers)
        assert got == want, (pos, end)
        stats["images"] += 1
        stats["by_c"] += C.read_image(buf, pos, end, _compiled(readers)) is not None
        if want[0] != "ok":
            return read_image_pure(buf, pos, end, readers)
        return want[1]

    monkeypatch.setattr(rows_module, "read_image", both)
    paths = _binlogs()
    assert len(paths) > 50
    for path in paths:
        try:
            for _ in decode_file(path):
                pass
        except BinlogError:  # a damaged case: its images up to the damage were compared
            pass
    print(stats)
    assert stats["images"] > 40000
    assert stats["by_c"] > 0.95 * stats["images"]


@pytest.mark.parametrize("precision,scale,text", [(2, 2, "-0.50"), (4, 2, "-0.05"), (5, 0, "-7"),
                                                  (3, 3, "0.000"), (65, 30, "-1." + "0" * 30)])
def test_decimal_signs_and_empty_integer_parts(precision, scale, text):
    """'-' and a leading '0' both go before the digits (once written outside the C buffer)."""
    col = Column(0, T.NEWDECIMAL, precision << 8 | scale, True, T.NEWDECIMAL, 0)
    readers = [plan_module.build_reader(col)]
    intg = precision - scale
    digits = ([intg % 9] if intg % 9 else []) + [9] * (intg // 9) + [9] * (scale // 9) \
        + ([scale % 9] if scale % 9 else [])
    groups = {"-0.50": [50], "-0.05": [0, 5], "-7": [7], "0.000": [0]}.get(text, [0, 0, 0, 1, 0, 0, 0, 0])
    raw = b"".join(g.to_bytes(DIG2BYTES[d], "big") for g, d in zip(groups, digits))
    raw = bytes([raw[0] | 0x80]) + raw[1:]
    if text.startswith("-"):
        raw = bytes(b ^ 0xFF for b in raw)
    data = b"\x00" + raw
    got = C.read_image(data, 0, len(data), _compiled(readers))
    assert got is not None and got[0]["values"] == [{"type": "decimal", "value": text}]
    assert got == read_image_pure(data, 0, len(data), readers)
