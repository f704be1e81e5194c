"""Binary JSON and partial-JSON diffs against the real `mysqlbinlog -vvv`.

The rows decoder is written separately, so these tests find JSON column values by their own small
route (Table_map metadata + row images, for tables of INT/JSON/VARCHAR columns only) and compare
every decoded value with the text MySQL 9.7's mysqlbinlog printed for it. Hand-built documents
cover each format feature and the error paths.
"""
from __future__ import annotations

import json
import re
import struct
import time
import zlib
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from generators.profiles import get
from oracle.codecs.jsonb import (decode_jsonb, format_double, mysqlbinlog_text,
                                 to_canonical, to_json_text)
from oracle.codecs.jsondiff import decode_json_diffs, diffs_mysqlbinlog_text, diffs_to_canonical
from oracle.errors import BinlogError
from oracle.framing import walk
from oracle.values import plain
from tests.external import ROOT

BLACKBEAM = ROOT / "blackbeam__rust_mysql_common"

# -- a small independent route to the JSON column values ---------------------------------------

LONG, VARCHAR, JSON_T = 3, 15, 245
_META_LEN = {LONG: 0, VARCHAR: 2, JSON_T: 1}


def _packed(b: bytes, pos: int) -> tuple[int, int]:
    first = b[pos]
    if first < 251:
        return first, pos + 1
    width = {252: 2, 253: 3, 254: 8}[first]
    return int.from_bytes(b[pos + 1:pos + 1 + width], "little"), pos + 1 + width


def _table_map(b: bytes):
    """(table_id, column types, metadata) or None for tables with other column types."""
    table_id = int.from_bytes(b[:6], "little")
    pos = 8
    pos += 1 + b[pos] + 1  # database name + NUL
    pos += 1 + b[pos] + 1  # table name + NUL
    n, pos = _packed(b, pos)
    types = list(b[pos:pos + n])
    pos += n
    _, pos = _packed(b, pos)
    metas = []
    for t in types:
        if t not in _META_LEN:
            return table_id, None, None
        k = _META_LEN[t]
        metas.append(int.from_bytes(b[pos:pos + k], "little"))
        pos += k
    return table_id, types, metas


def _bits(b: bytes, pos: int, n: int) -> list[bool]:
    return [bool(b[pos + i // 8] >> (i % 8) & 1) for i in range(n)]


def _image(b, pos, types, metas, present, origin, partial_ok=False):
    """Yield ('full'|'partial', bytes, absolute offset) per JSON value; return the new pos."""
    out = []
    value_options = 0
    partial = []
    if partial_ok:
        value_options, pos = _packed(b, pos)
        if value_options & 1:
            njson = types.count(JSON_T)
            partial = _bits(b, pos, njson)
            pos += (njson + 7) // 8
    cols = [i for i in range(len(types)) if present[i]]
    nulls = _bits(b, pos, len(cols))
    pos += (len(cols) + 7) // 8
    json_index = {i: k for k, i in enumerate(i for i, t in enumerate(types) if t == JSON_T)}
    for col, is_null in zip(cols, nulls):
        if is_null:
            continue
        t = types[col]
        if t == LONG:
            pos += 4
        elif t == VARCHAR:
            width = 2 if metas[col] > 255 else 1
            pos += width + int.from_bytes(b[pos:pos + width], "little")
        else:
            n = int.from_bytes(b[pos:pos + metas[col]], "little")
            pos += metas[col]
            kind = "partial" if partial and partial[json_index[col]] else "full"
            out.append((kind, b[pos:pos + n], origin + pos, col + 1))
            pos += n
    return out, pos


def json_values(path: Path):
    """Every JSON column value of the file's row events, in the order mysqlbinlog prints them."""
    buf = path.read_bytes()
    tables = {}
    found = []
    for raw in walk(buf):
        code = raw.header.type_code
        b = bytes(buf[raw.body_start:raw.body_end])
        if code == 19:
            tid, types, metas = _table_map(b)
            tables[tid] = (types, metas)
        elif code in (30, 31, 32, 39):
            types, metas = tables.get(int.from_bytes(b[:6], "little"), (None, None))
            if types is None:
                continue
            pos = 10 + int.from_bytes(b[8:10], "little") - 2
            n, pos = _packed(b, pos)
            before = _bits(b, pos, n)
            pos += (n + 7) // 8
            after = before
            if code in (31, 39):
                after = _bits(b, pos, n)
                pos += (n + 7) // 8
            while pos < len(b):
                vals, pos = _image(b, pos, types, metas, before, raw.body_start)
                found += vals
                if code in (31, 39):
                    vals, pos = _image(b, pos, types, metas, after, raw.body_start, code == 39)
                    found += vals
    return found


_PRINTED = re.compile(r"(?s)^###   @\d+=(.*) /\* JSON meta=\d+ nullable=\d is_null=0 \*/$")


def printed_json(text: str) -> list[str]:
    """The JSON column values `mysqlbinlog -vvv` printed, in order. A value is one `###   @N=`
    line plus its `###      ` continuation lines (partial diffs span several)."""
    records: list[str] = []
    for line in text.split("\n"):
        if line.startswith("###   @"):
            records.append(line)
        elif line.startswith("###      ") and records:
            records[-1] += "\n" + line
    return [m.group(1) for m in map(_PRINTED.match, records) if m]


def render(kind: str, data: bytes, offset: int, column: int) -> str:
    if kind == "partial":
        return diffs_mysqlbinlog_text(decode_json_diffs(data, offset), f"@{column}")
    return mysqlbinlog_text(decode_jsonb(data, offset))


# What MySQL 9.7.4's `mysqlbinlog -vvv` printed for the external files' JSON columns (captured
# with generators.tools.run_mysqlbinlog; the test re-runs the tool and checks both).
_PEOPLE = ['{"age": %d, "data": "%s", "name": "%s"}' % (age, c * 10, name)
           for age, c, name in ((24, "x", "Joe"), (32, "y", "Sue"), (40, "z", "Pete"))]
_OLDER = [p.replace(str(a), str(a + 1)) for p, a in zip(_PEOPLE, (24, 32, 40))]
EXPECTED = {
    "test-data__binlogs__json-opaque.binlog": [
        "'%s'" % v for v in ('{"a": "base64:type15:VQ=="}', '{"b": "2012-03-18"}',
                             '{"c": "2012-03-18 11:30:45.000000"}', '{"c": "87:31:46.654321"}',
                             '{"d": 123.456}', '{"e": 9.00}', '{"e": [0, 1, true, false]}',
                             '{"e": null}')],
    "test-data__binlogs__json.binlog.000001": (
        ["'%s'" % v for v in _PEOPLE * 2]
        + ["'%s'" % v for pair in zip(_PEOPLE * 2, _OLDER * 2) for v in pair]
        + ["JSON_REPLACE(@2, '$.age', %d)" % n for n in (26, 34, 42) * 2]),
}


def _real_mysqlbinlog(path: Path) -> str:
    """The real tool's -vvv text. Without Docker or the image: a skip (a failure under CI=true).
    A rejection by the tool is a failure with its message, never a skip."""
    from generators.tools import run_mysqlbinlog  # noqa: PLC0415 (docker-py: the servers extra)
    from tests.server_fixtures import require_image  # noqa: PLC0415
    require_image(get("mysql-9.7"))
    result = run_mysqlbinlog(path, ("-vvv",), timeout=120)
    assert result.returncode == 0, result.stderr.decode("utf-8", "replace")[-500:]
    return result.stdout.decode("utf-8", "surrogateescape")


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_external_binlogs_match_mysqlbinlog(name: str):
    path = BLACKBEAM / name
    if not path.exists():
        pytest.skip("external binlogs not present")
    mine = [render(*v) for v in json_values(path)]
    assert mine == EXPECTED[name]
    assert mine == printed_json(_real_mysqlbinlog(path))


# The server samples (tests/sample_fixtures.py) are not read by this module's small route: their
# JSON tables have column types it does not read, so a test here compared nothing and always
# skipped. Their JSON values are compared byte for byte with mysqlbinlog's `###` lines by
# tests/test_render_rows.py; documents a server wrote are checked here by
# test_server_written_json_matches_mysqlbinlog.


# -- hand-built documents -----------------------------------------------------------------------

def _varlen(n: int) -> bytes:
    out = bytearray()
    while True:
        b = n & 0x7F
        n >>= 7
        out.append(b | (0x80 if n else 0))
        if not n:
            return bytes(out)


def encode(v, large: bool = False) -> bytes:
    """A test-only serializer: Python value -> binary JSON (type byte + value)."""
    t, body = _encode_value(v, large)
    return bytes([t]) + body


def _encode_value(v, large):
    if v is None or v is True or v is False:
        return 0x04, bytes([{None: 0, True: 1, False: 2}[v]])
    if isinstance(v, int):
        if -2**15 <= v < 2**15:
            return 0x05, struct.pack("<h", v)
        if -2**31 <= v < 2**31:
            return 0x07, struct.pack("<i", v)
        if v < 2**63:
            return 0x09, struct.pack("<q", v)
        return 0x0A, struct.pack("<Q", v)
    if isinstance(v, float):
        return 0x0B, struct.pack("<d", v)
    if isinstance(v, str):
        raw = v.encode()
        return 0x0C, _varlen(len(raw)) + raw
    if isinstance(v, tuple):  # (mysql type, payload): opaque
        return 0x0F, bytes([v[0]]) + _varlen(len(v[1])) + v[1]
    is_obj = isinstance(v, dict)
    items = list(v.items()) if is_obj else [(None, x) for x in v]
    osz = 4 if large else 2
    inl = {0x04, 0x05, 0x06} | ({0x07, 0x08} if large else set())
    n = len(items)
    header = 2 * osz + n * ((osz + 2) if is_obj else 0) + n * (1 + osz)
    keys = b"".join(k.encode() for k, _ in items) if is_obj else b""
    key_entries, off = b"", header
    for k, _ in items if is_obj else []:
        key_entries += off.to_bytes(osz, "little") + len(k.encode()).to_bytes(2, "little")
        off += len(k.encode())
    entries, tail = b"", b""
    for _, x in items:
        t, body = _encode_value(x, large)
        if t in inl:
            entries += bytes([t]) + body.ljust(osz, b"\0")
        else:
            entries += bytes([t]) + (header + len(keys) + len(tail)).to_bytes(osz, "little")
            tail += body
    size = header + len(keys) + len(tail)
    if not large and size > 0xFFFF:  # as MySQL does: too big for the small form
        return _encode_value(v, True)
    t = (0x00 if is_obj else 0x02) + (1 if large else 0)
    return t, n.to_bytes(osz, "little") + size.to_bytes(osz, "little") + key_entries + entries + keys + tail


def text(data: bytes) -> str:
    return to_json_text(decode_jsonb(data))


@pytest.mark.parametrize("large", [False, True])
def test_containers_and_inlined_scalars(large):
    doc = {"a": 1, "bb": [-32768, 32767, 65535, -2**31, 2**31 - 1, 2**32 - 1, True, False, None],
           "c": {"d": "x"}}
    assert text(encode(doc, large)) == ('{"a": 1, "bb": [-32768, 32767, 65535, -2147483648, '
                                        '2147483647, 4294967295, true, false, null], "c": {"d": "x"}}')


def test_uint16_and_uint32_entries_are_unsigned():
    small = bytes([0x02, 1, 0, 7, 0, 0x06, 0xFF, 0xFF])  # [uint16 65535], inlined
    assert text(small) == "[65535]"
    large = bytes([0x03, 1, 0, 0, 0, 13, 0, 0, 0, 0x08, 0xFF, 0xFF, 0xFF, 0xFF])
    assert text(large) == "[4294967295]"
    v = decode_jsonb(large).value[0]
    assert (v.kind, v.value) == ("uint", 4294967295)


def test_int64_uint64_double_and_top_level_scalars():
    assert text(encode([2**63 - 1, -2**63, 2**64 - 1])) == \
        "[9223372036854775807, -9223372036854775808, 18446744073709551615]"
    assert text(encode(1.0)) == "1.0"
    assert text(encode("str")) == "str"  # mysqlbinlog prints a top-level string bare
    assert to_json_text(decode_jsonb(encode("str")), quoted=True) == '"str"'
    assert mysqlbinlog_text(decode_jsonb(encode("it's"))) == "'it\\'s'"
    assert text(b"") == "null"  # empty document reads as null
    assert text(encode(-1)) == "-1"


@pytest.mark.parametrize("x, expected", [
    (0.0, "0.0"), (-0.0, "-0.0"), (1e14, "100000000000000.0"), (1e15, "1e15"), (1e300, "1e300"),
    (-0.5, "-0.5"), (3.14159, "3.14159"), (1e-5, "0.00001"), (1e-15, "0.000000000000001"),
    (1e-16, "1e-16"), (2.5e-300, "2.5e-300"), (1.2345678901234568e18, "1.2345678901234568e18"),
    (123456789012345.6, "123456789012345.6"), (float("nan"), "0.0")])
def test_double_formatting(x, expected):
    assert format_double(x) == expected


def test_string_escaping_and_long_lengths():
    s = 'q" b\\ t\t n\n c\x01 u\x1f del\x7f é✓😀'
    assert text(encode([s])) == '["q\\" b\\\\ t\\t n\\n c\\u0001 u\\u001f del\x7f é✓😀"]'
    assert mysqlbinlog_text(decode_jsonb(encode([s]))) == \
        "'[\"q\\\\\" b\\\\\\\\ t\\\\t n\\\\n c\\\\u0001 u\\\\u001f del\x7f é✓😀\"]'"
    long = "x" * 20000  # 3-byte variable length
    assert text(encode([long])) == '["' + long + '"]'


def test_keys_in_stored_order_and_escaped():
    assert text(encode({"b": 1, "a\"": 2, "": 3})) == '{"b": 1, "a\\"": 2, "": 3}'


def _packed_datetime(y, mo, d, h, mi, s, us, neg=False):
    ymd = ((y * 13 + mo) << 5) | d
    hms = (h << 12) | (mi << 6) | s
    v = (((ymd << 17) | hms) << 24) + us
    return struct.pack("<q", -v if neg else v)


def _packed_time(h, mi, s, us, neg=False):
    v = (((h << 12) | (mi << 6) | s) << 24) + us
    return struct.pack("<q", -v if neg else v)


def test_opaque_temporal_decimal_and_base64():
    dt = _packed_datetime(2024, 2, 29, 12, 34, 56, 123456)
    doc = [(10, _packed_datetime(2024, 2, 29, 0, 0, 0, 0)), (12, dt), (7, dt),
           (11, _packed_time(12, 34, 56, 789000, neg=True)), (11, _packed_time(838, 59, 59, 0)),
           (246, bytes([10, 3]) + bytes.fromhex("7fffff84fe37")),  # DECIMAL(10,3) -123.456
           (15, b"\x00\xff"), (253, b"as string")]
    assert text(encode(doc)) == (
        '["2024-02-29", "2024-02-29 12:34:56.123456", "2024-02-29 12:34:56.123456", '
        '"-12:34:56.789000", "838:59:59.000000", -123.456, "base64:type15:AP8=", "as string"]')
    assert text(encode((12, dt))) == "2024-02-29 12:34:56.123456"


def test_base64_breaks_lines_every_76_characters():
    v = decode_jsonb(encode([(252, bytes(range(100)))]))
    body = to_json_text(v)
    assert "\\n" in body and body.count("\\n") == 1  # 136 base64 characters: one break
    assert mysqlbinlog_text(v).count("\\\\n") == 1


def test_depth_limit_is_mysqls_100_levels():
    doc = []
    for _ in range(99):
        doc = [doc]
    assert text(encode(doc)).count("[") == 100
    with pytest.raises(BinlogError, match="deeper than 100"):
        decode_jsonb(encode([doc]))


def test_aliased_offsets_are_rejected_quickly():
    # Every level is a 2-element array whose entries both point at the next level: 2**60 paths.
    levels = 60
    data = bytearray([0x02])
    for i in range(levels):
        child = 10  # this level's header (4) + 2 entries (6): the child starts right after
        data += bytes([2, 0]) + (10 * (levels - i) + 4).to_bytes(2, "little")
        data += bytes([0x02]) + child.to_bytes(2, "little") + bytes([0x02]) + child.to_bytes(2, "little")
    data += bytes([0, 0, 4, 0])
    start = time.perf_counter()
    with pytest.raises(BinlogError):
        decode_jsonb(bytes(data))
    assert time.perf_counter() - start < 0.5


@pytest.mark.parametrize("data, message", [
    (bytes([0x0D]), "not defined"),
    (bytes([0x04, 0x03]), "literal"),
    (bytes([0x02, 1, 0, 200, 0]), "exceeds"),
    (bytes([0x02, 50, 0, 4, 0]), "header"),
    (bytes([0x02, 1, 0, 7, 0, 0x0C, 8, 0]), "offset"),
    (bytes([0x00, 1, 0, 11, 0, 99, 0, 1, 0, 0x04, 0, 0]), "key"),
    (bytes([0x0C, 0x85]), "variable-length"),
    (bytes([0x0C, 0xFF, 0xFF, 0xFF, 0xFF, 0x7F]), "variable-length"),
    (bytes([0x0C, 5, 65]), "needs"),
    (bytes([0x09, 1, 2]), "needs"),
    (bytes([0x0F, 12, 3, 1, 2, 3]), "8 bytes"),
    (bytes([0x0F, 246, 3, 10, 3, 0]), "DECIMAL"),
])
def test_bad_documents_raise_typed_errors_with_offsets(data, message):
    with pytest.raises(BinlogError, match=message) as e:
        decode_jsonb(data, offset=1000)
    assert 1000 <= e.value.offset <= 1000 + len(data)


def test_seventy_kilobyte_document_decodes_fast():
    doc = {f"k{i:05d}": [i, f"value {i}", {"n": i * 1.5, "t": True}] for i in range(800)}
    data = encode(doc, large=True)
    assert 70_000 < len(data) < 80_000
    start = time.perf_counter()
    rendered = text(data)
    assert time.perf_counter() - start < 1.0  # about 0.1 s on an idle machine
    assert json.loads(rendered) == json.loads(json.dumps(doc))


json_scalars = st.one_of(st.none(), st.booleans(), st.integers(-2**63, 2**64 - 1),
                         st.text(max_size=20))
json_docs = st.recursive(json_scalars, lambda kids: st.one_of(
    st.lists(kids, max_size=5), st.dictionaries(st.text(max_size=5), kids, max_size=5)), max_leaves=30)


@settings(max_examples=200, deadline=None)
@given(json_docs, st.booleans())
def test_round_trip_matches_json_dumps(doc, large):
    """For strings, integers and literals MySQL's text is json.dumps with ", "/": " separators."""
    expected = json.dumps(doc, ensure_ascii=False, separators=(", ", ": "))
    assert to_json_text(decode_jsonb(encode(doc, large)), quoted=True) == expected
    assert plain(to_canonical(decode_jsonb(encode(doc, large)))) == {"type": "json", "value": expected}


# -- partial JSON diffs -------------------------------------------------------------------------

def diff(op: int, path: str, value: bytes | None = None) -> bytes:
    out = bytes([op, len(path)]) + path.encode()
    if value is not None:
        out += bytes([len(value)]) + value
    return out


def test_diff_printing_groups_functions_like_mysqlbinlog():
    data = (diff(0, "$.a", encode(1.5)) + diff(0, "$.c[0]", encode("y")) + diff(1, "$.new", encode("x"))
            + diff(1, "$.c[1]", encode({"k": [1]})) + diff(2, "$.b"))
    diffs = decode_json_diffs(data)
    assert [d.operation for d in diffs] == ["REPLACE", "REPLACE", "INSERT", "INSERT", "REMOVE"]
    assert diffs_mysqlbinlog_text(diffs, "@2") == (
        "JSON_REMOVE(\n###      JSON_ARRAY_INSERT(\n###      JSON_INSERT(\n###      JSON_REPLACE("
        "@2, '$.a', 1.5,\n###      '$.c[0]', 'y'),\n###      '$.new', 'x'),\n###      "
        "'$.c[1]', CAST('{\"k\": [1]}' AS JSON)),\n###      '$.b')")
    assert diffs_to_canonical(diffs)["value"][4] == {"operation": "REMOVE", "path": "$.b", "value": None}


def test_empty_diff_list_prints_the_column():
    assert diffs_mysqlbinlog_text(decode_json_diffs(b""), "@3") == "@3"


@pytest.mark.parametrize("data", [bytes([3, 1, 36]), bytes([0, 5, 36]), bytes([0, 1, 36, 9, 4]),
                                  bytes([0, 0xFB]), bytes([0, 1, 36, 2, 0x04, 0x07]),
                                  bytes([1, 0xFC, 1])])
def test_bad_diffs_raise_typed_errors(data):
    with pytest.raises(BinlogError):
        decode_json_diffs(data, 500)


# -- robustness ---------------------------------------------------------------------------------

VALID = [encode({"a": [1, "two", 3.5, None, {"b": (12, _packed_datetime(2020, 1, 2, 3, 4, 5, 6))}],
                 "c": (246, bytes([5, 2]) + bytes.fromhex("800117"))},
                large)
         for large in (False, True)]


def _exercise(data: bytes) -> None:
    start = time.perf_counter()
    try:
        v = decode_jsonb(data, 7)
    except BinlogError:
        pass
    else:
        mysqlbinlog_text(v)
        to_canonical(v)
    try:
        d = decode_json_diffs(data, 7)
    except BinlogError:
        pass
    else:
        diffs_mysqlbinlog_text(d, "@1")
        diffs_to_canonical(d)
    assert time.perf_counter() - start < 1.0


@settings(max_examples=500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.binary(max_size=300))
def test_random_bytes_raise_only_binlog_errors(data):
    _exercise(data)


@settings(max_examples=500, deadline=None)
@given(st.sampled_from(VALID), st.lists(st.tuples(st.integers(0, 400), st.integers(0, 255)),
                                        min_size=1, max_size=6), st.integers(0, 400))
def test_mutated_documents_raise_only_binlog_errors(base, edits, cut):
    data = bytearray(base)
    for pos, byte in edits:
        data[pos % len(data)] = byte
    _exercise(bytes(data[:max(1, cut)]) if cut < len(data) else bytes(data))


def test_valid_robustness_seed_decodes():
    for data in VALID:
        assert text(data).startswith('{"a": [1, "two", 3.5, null, {"b": "2020-01-02 03:04:05.000006"}]')


# -- hand-built documents through the real mysqlbinlog --------------------------------------------
# A binlog is synthesized from the start of a real one (magic, Format_description, BEGIN and a
# Table_map) followed by a rows event carrying our documents; mysqlbinlog 9.7 prints them.

def _event(type_code: int, body: bytes, pos: int) -> bytes:
    size = 19 + len(body) + 4
    head = struct.pack("<IBIIIH", 1727774189, type_code, 1, size, pos + size, 0)
    return head + body + struct.pack("<I", zlib.crc32(head + body))


def synth_full(docs: list[bytes]) -> bytes:
    """json-opaque.binlog up to its first Table_map (`foo`.`test` (a JSON), id 90), then one
    Write_rows event with a row per document."""
    buf = bytearray((BLACKBEAM / "test-data__binlogs__json-opaque.binlog").read_bytes()[:736])
    body = bytearray((90).to_bytes(6, "little") + b"\x01\x00\x02\x00\x01\x01")
    for d in docs:
        body += b"\x00" + len(d).to_bytes(4, "little") + d
    return bytes(buf + _event(30, bytes(body), len(buf)))


def synth_partial(diff_lists: list[bytes]) -> bytes:
    """json.binlog.000001 up to its last Table_map (`mysql`.`t`: INT, JSON, VARCHAR, INT; id 119),
    then a Partial_update_rows event: before image @1, after image @2 as a diff list."""
    buf = bytearray((BLACKBEAM / "test-data__binlogs__json.binlog.000001").read_bytes()[:3750])
    body = bytearray((119).to_bytes(6, "little") + b"\x01\x00\x02\x00\x04\x01\x02")
    for i, d in enumerate(diff_lists):
        body += b"\x00" + (i + 1).to_bytes(4, "little")
        body += b"\x01\x01\x00" + len(d).to_bytes(4, "little") + d
    return bytes(buf + _event(39, bytes(body), len(buf)))


EDGE_DOCS = [
    {}, [], None, True, False, 0, -1, 2**63 - 1, -2**63, 2**64 - 1, "", "top level", "it's\n\\",
    [0.0, -0.0, 1.0, 0.1, 1e14, 1e15, 1e16, 1e-5, 1e-15, 1e-16, 2.5e-300, 1.7976931348623157e308,
     5e-324, -123456789.125, 1.2345678901234568e18, 123456789012345.6, 100.0, 33.333333333333336],
    {"q\"": 'q" b\\ t\t n\n r\r f\f b\b c\x01 u\x1f del\x7f é✓😀', "": "", "k" * 300: 1},
    {"a": {"b": {"c": [[[], {}], [None]]}}},
    [(10, _packed_datetime(2024, 2, 29, 0, 0, 0, 0)), (12, _packed_datetime(1, 1, 1, 0, 0, 0, 1)),
     (7, _packed_datetime(2038, 1, 19, 3, 14, 7, 999999)), (11, _packed_time(0, 0, 0, 0)),
     (11, _packed_time(838, 59, 59, 999999, neg=True)), (11, _packed_time(1023, 63, 63, 0)),
     (12, _packed_datetime(9999, 12, 31, 23, 59, 59, 0)), (12, _packed_datetime(10050, 12, 31, 0, 0, 0, 0)),
     (10, b"\0" * 8), (12, struct.pack("<q", -(1 << 63))), (11, struct.pack("<q", -(1 << 63))),
     (12, struct.pack("<q", -1)), (11, struct.pack("<q", (1 << 63) - 1)),
     (10, struct.pack("<q", -(1 << 63))), (7, struct.pack("<q", -(1 << 63))),
     (11, struct.pack("<q", -(1 << 46))), (11, struct.pack("<q", -(3 << 46))),
     (11, struct.pack("<q", -(1 << 46) - 12345)), (10, struct.pack("<q", -(1 << 62))),
     (12, struct.pack("<q", -(5 << 60) - 77)), (12, b"\x01" * 9)],
    [(246, bytes([10, 3]) + bytes.fromhex("7fffff84fe37")), (246, bytes([5, 2]) + bytes.fromhex("800117")),
     (246, bytes([1, 0]) + b"\x80"), (246, bytes([30, 30]) + bytes.fromhex("80" + "00" * 13))],
    [(15, b"\x00\xff"), (252, bytes(range(256))), (253, b"var string"), (16, b""), (255, b"x" * 57)],
    (12, _packed_datetime(2012, 3, 18, 11, 30, 45, 0)), (253, b"bare var string"), (252, b"bare blob"),
    (246, bytes([4, 2]) + bytes.fromhex("8c22")),
    ["x" * 70000],
]


def _check_with_real_tool(binlog: bytes, expected: list[str], tmp_path: Path) -> None:
    path = tmp_path / "synth.binlog"
    path.write_bytes(binlog)
    out = _real_mysqlbinlog(path)
    printed = printed_json(out)
    assert printed[len(printed) - len(expected):] == expected  # after the prefix file's own rows


@pytest.mark.parametrize("large", [False, True])
def test_handbuilt_documents_match_real_mysqlbinlog(large, tmp_path):
    docs = [encode(d, large) for d in EDGE_DOCS] + [b""]
    _check_with_real_tool(synth_full(docs), [mysqlbinlog_text(decode_jsonb(d)) for d in docs], tmp_path)


EDGE_DIFFS = [
    diff(0, "$.a", encode(1.5)) + diff(0, "$.c[0]", encode("y")) + diff(1, "$.new", encode("x"))
    + diff(1, "$.c[1]", encode({"k": [1, None]})) + diff(2, "$.b") + diff(2, "$.c[0]")
    + diff(0, "$", encode([1, 2])),
    diff(2, "$.only"),
    diff(0, "$.t", encode((11, _packed_time(1, 2, 3, 4)))) + diff(0, "$.d", encode((246, bytes([5, 2]) + bytes.fromhex("800117"))))
    + diff(0, "$.o", encode((252, b"blob"))) + diff(0, "$.s", encode("it's")) + diff(0, "$.n", encode(None))
    + diff(0, "$.u", encode(2**64 - 1)) + diff(0, "$.f", encode(False)) + diff(0, "$.e", b""),
    diff(1, "$[0]", encode(7)) + diff(1, '$."quoted key"', encode("v")),
    b"",
]


def test_handbuilt_diffs_match_real_mysqlbinlog(tmp_path):
    expected = [diffs_mysqlbinlog_text(decode_json_diffs(d), "@2") for d in EDGE_DIFFS]
    _check_with_real_tool(synth_partial(EDGE_DIFFS), expected, tmp_path)


# -- documents a real MySQL 9.7 server wrote ----------------------------------------------------

_BIG = json.dumps({f"key{i:05d}": ["v" * 20, i, i * 0.25, {"n": None, "t": True}] for i in range(1100)})
SERVER_SQL = f"""
CREATE DATABASE js; CREATE TABLE js.j (id INT PRIMARY KEY, j JSON);
INSERT INTO js.j VALUES (1, '{{}}'), (2, '[]'), (3, 'null'), (4, 'true'), (5, 'false'), (6, '0'),
  (7, '-1'), (8, '"str"'), (9, '{{"a": 1, "b": [1, 2.5, "x", null, true, false], "c": {{"d": [[]]}}}}');
INSERT INTO js.j VALUES (10, '[32767, 32768, -32768, -32769, 2147483647, 2147483648, -2147483649,
  9223372036854775807, 18446744073709551615, -9223372036854775808, 1e300, -0.5, 3.14159, 1e15, 1e-7]');
INSERT INTO js.j VALUES (11, JSON_OBJECT('date', CAST('2024-02-29' AS DATE),
  'time', CAST('-12:34:56.789' AS TIME(3)), 'datetime', CAST('2024-02-29 12:34:56.123456' AS DATETIME(6)),
  'decimal', CAST(-123.456 AS DECIMAL(10,3)), 'bin', CAST(x'00ff' AS BINARY), 'y', CAST(2024 AS YEAR)));
INSERT INTO js.j VALUES (12, '{{"unicode": "h\u00e9llo \u2713", "esc": "q\\\\" b\\\\\\\\ t\\\\t c\\\\u0001 u\\\\u001f"}}');
INSERT INTO js.j VALUES (13, '{_BIG}'), (14, '{"[" * 90 + "1" + "]" * 90}'), (15, NULL),
  (16, CAST(CAST('12:00:00' AS TIME) AS JSON)), (17, CAST(1.5 AS JSON)), (18, JSON_QUOTE('it''s'));
UPDATE js.j SET j = JSON_SET(j, '$.a', 2) WHERE id = 9;
SET SESSION binlog_row_value_options = PARTIAL_JSON; SET SESSION binlog_row_image = MINIMAL;
CREATE TABLE js.p (id INT PRIMARY KEY, j JSON, k JSON);
INSERT INTO js.p VALUES (1, '{{"a": 1, "b": "long string value here", "c": [1, 2, 3]}}', '[1, 2, 3]');
UPDATE js.p SET j = JSON_SET(j, '$.a', 100) WHERE id = 1;
UPDATE js.p SET j = JSON_REPLACE(j, '$.b', 'short') WHERE id = 1;
UPDATE js.p SET j = JSON_REMOVE(j, '$.c[1]') WHERE id = 1;
UPDATE js.p SET j = JSON_SET(j, '$.new', 'x'), k = JSON_REPLACE(k, '$[0]', 9) WHERE id = 1;
UPDATE js.p SET j = JSON_SET(j, '$.a', 1.5, '$.c[0]', 'y', '$.o', JSON_OBJECT('x', 1)) WHERE id = 1;
UPDATE js.p SET k = JSON_ARRAY_INSERT(k, '$[0]', 'ins') WHERE id = 1;
"""


@pytest.fixture(scope="module")
def server_binlog(tmp_path_factory) -> Path:
    """A binlog MySQL 9.7 wrote for SERVER_SQL (JSON columns only, partial updates included)."""
    from generators.server import running_server  # noqa: PLC0415 (the servers extra)
    from tests.server_fixtures import require_image  # noqa: PLC0415
    profile = get("mysql-9.7")
    require_image(profile)
    dest = tmp_path_factory.mktemp("jsonb-server")
    with running_server(profile, {"max_allowed_packet": "64M"}) as server:
        server.execute(SERVER_SQL)
        server.flush_logs()
        return server.copy_binlogs(dest, server.binlog_files()[:-1])[0]


def test_server_written_json_matches_mysqlbinlog(server_binlog: Path):
    out = _real_mysqlbinlog(server_binlog)
    values = json_values(server_binlog)
    assert sum(kind == "partial" for kind, *_ in values) >= 5
    assert max(len(data) for _, data, *_ in values) > 70_000
    assert [render(*v) for v in values] == printed_json(out)
