"""Table_map and rows events: framing, every column codec, errors.

Expected values from real binlogs were read off `mariadb-binlog -vvv` (and, for MySQL-only
types, off the SQL in the same files' Query/Rows_query events); hand-built bytes cover edges.
"""
from __future__ import annotations

import struct

import pytest
from hypothesis import given, settings, strategies as st

from oracle.codecs.decimal import decimal_bin_size, decode_decimal
from oracle.codecs.plan import RowPlan, read_image
from oracle.context import DecodeContext
from oracle.decoder import decode_file
from oracle.errors import BadEventBody, BinlogError, LengthPastEnd, TruncatedEvent
from oracle.event_types import EventType as E
from oracle.events import rows as rows_mod, table_map
from oracle.fde import FormatDescription
from oracle.header import Header
from oracle.reader import Reader
from tests.external import ROOT

BB = ROOT / "blackbeam__rust_mysql_common"


def _events(path, types=None):
    if not path.exists():
        pytest.skip(f"{path} is not here")
    return [e for e in decode_file(path) if types is None or e.type_code in types]


ROWS = set(rows_mod.KIND)


def _rows(path):
    return [e for e in _events(path, ROWS)]


# -- real binlogs ----------------------------------------------------------------------------------

def test_enum_set_char_varchar_blob():
    tm = _events(BB / "test-data__binlogs__mysql-enum-string-set.000001", {E.TABLE_MAP_EVENT})[0].body
    assert tm["column_metadata"] == [56832, 1200, 63233, 63489, 2]  # mysqlbinlog's meta= values
    assert tm["optional_metadata"][3] == {"type": 5, "name": "SET_STR_VALUE",
                                          "value": [["one", "two", "three", "four"]]}
    w, u, d = _rows(BB / "test-data__binlogs__mysql-enum-string-set.000001")
    digits = "0123456789"
    assert w.body["rows"][0]["values"][0] == digits * 10  # CHAR(128) with meta 0xDE00: 2-byte-free long CHAR
    assert w.body["rows"][0]["values"][2:] == [1, 5, digits]  # ENUM index, SET bits b'101'
    assert u.body["rows"][0]["after_image"]["values"][:4] == ["field1", "field_2", 2, 10]
    assert d.body["columns_before_image"] == "11111" and "columns_after_image" not in d.body


def test_time2_negative():
    (w,) = _rows(BB / "test-data__binlogs__time_issue.000001")
    assert w.body["rows"][0]["values"] == [{"type": "time", "value": "-507:48:27"}]


def test_bit():
    (w,) = _rows(BB / "test-data__binlogs__mysql_type_bit.000001")
    assert w.body["rows"][0]["values"] == [0b100, "foo", 0b00100000]


def test_minimal_image_and_signedness():
    (w,) = _rows(BB / "test-data__binlogs__minimal_row_metadata.000001")
    assert w.body["columns_after_image"] == "10101"
    # SIGNEDNESS marks the third numeric column unsigned: mysqlbinlog's -1064764973 (3230202323)
    assert w.body["rows"][0] == {"null_bitmap": "000", "values": [1, "a", 3230202323]}


def test_invisible_columns_update_nulls():
    evs = _rows(BB / "test-data__binlogs__binlog-invisible-columns.000001")
    assert evs[0].body["rows"][0]["values"] == [1, 2, -3, "4", "\x05", 6000000000]
    upd = evs[2].body["rows"][0]
    assert upd["before_image"] == {"null_bitmap": "110001", "values": [None, None, -33, "44", "U", None]}
    assert upd["after_image"]["values"] == [111, 222, -333, "444", "U", None]
    tm = _events(BB / "test-data__binlogs__binlog-invisible-columns.000001", {E.TABLE_MAP_EVENT})[0].body
    vis = [f for f in tm["optional_metadata"] if f["name"] == "COLUMN_VISIBILITY"][0]
    assert vis["value"] == [False, False, True, True, True, False]  # trimmed to the 6 columns


def test_v1_rows_from_51():
    w = _rows(BB / "test-data__binlogs__write-full-row.binlog")
    assert w[0].type_code == E.WRITE_ROWS_EVENT_V1 and w[0].body["extra_data"] is None


EXTERNAL_ROW_FILES = [
    "blackbeam__rust_mysql_common/test-data__binlogs__" + n for n in (
        "json.binlog.000001", "json-opaque.binlog", "vector.binlog", "ver_trunk_row_v2.001",
        "ver_5_1_23.001", "update-full-row.binlog", "update-partial-row.binlog",
        "write-partial-row.binlog", "rpl_unfiltered_hidden_gcol.000001", "mariadb-bin.000001")
] + [
    "shyiko__mysql-binlog-connector-java/src__test__resources__mysql-bin.checksum-crc32",
    "shyiko__mysql-binlog-connector-java/src__test__resources__mysql-bin.checksum-none",
    "shyiko__mysql-binlog-connector-java/src__test__resources__mysql-bin.sakila",
    "github__gh-ost/go__binlog__testdata__mysql-bin.000066",
    "github__gh-ost/go__binlog__testdata__mysql-bin.000070",
    "go-mysql-org__go-mysql/replication__t__tcb-eval002c-bin.003320",
]


@pytest.mark.parametrize("name", EXTERNAL_ROW_FILES)
def test_external_rows_decode_fully(name):
    """Every row of every rows event decodes, each image holding one value per present column."""
    evs = _rows(ROOT / name)
    assert evs
    for e in evs:
        b = e.body
        for row in b["rows"]:
            images = [(row["before_image"], b["columns_before_image"]), (row["after_image"], b["columns_after_image"])] \
                if "before_image" in row else [(row, b.get("columns_after_image", b.get("columns_before_image")))]
            for image, present in images:
                assert len(image["values"]) == present.count("1") == len(image["null_bitmap"])
                assert [v is None for v in image["values"]] == [c == "1" for c in image["null_bitmap"]]


# -- hand-built events -----------------------------------------------------------------------------

_POST = [0] * 42
for _code in (19, 20, 21, 22, 23, 24, 25):
    _POST[_code - 1] = 8
for _code in (30, 31, 32, 39):
    _POST[_code - 1] = 10
FORMAT_80 = FormatDescription(4, "8.0.40", 0, 19, tuple(_POST), None)


def _ctx() -> DecodeContext:
    return DecodeContext(format=FORMAT_80)


def _packed(n: int) -> bytes:
    return bytes([n]) if n < 251 else b"\xfc" + struct.pack("<H", n)


def _table_map_body(types: bytes, meta: bytes, table_id: int = 7, nullable: int = 0xFF,
                    optional: bytes = b"") -> bytes:
    n = len(types)
    return (table_id.to_bytes(6, "little") + b"\x01\x00" + b"\x02db\x00" + b"\x01t\x00" + _packed(n) + types
            + _packed(len(meta)) + meta + nullable.to_bytes((n + 7) // 8, "little") + optional)


def _hdr(code: int) -> Header:
    return Header(0, code, 1, 0, 0, 0)


def _decode(body: bytes, code: int, ctx: DecodeContext):
    mod = table_map if code == E.TABLE_MAP_EVENT else rows_mod
    return mod.decode(Reader(body), ctx, _hdr(code))


def _write_rows(table_id: int, width: int, rows: bytes, code=E.WRITE_ROWS_EVENT, extra=b"\x02\x00") -> bytes:
    nb = (width + 7) // 8
    return (table_id.to_bytes(6, "little") + b"\x01\x00" + (extra if code == E.WRITE_ROWS_EVENT else b"")
            + _packed(width) + b"\xff" * nb + rows)


def _one(types: bytes, meta: bytes, value: bytes, optional: bytes = b""):
    ctx = _ctx()
    _decode(_table_map_body(types, meta, optional=optional), E.TABLE_MAP_EVENT, ctx)
    nb = (len(types) + 7) // 8
    body = _decode(_write_rows(7, len(types), b"\x00" * nb + value), E.WRITE_ROWS_EVENT, ctx)
    return body["rows"][0]["values"]


@pytest.mark.parametrize("fsp,stored,expect", [
    (0, bytes.fromhex("800000"), "00:00:00"),
    (0, bytes.fromhex("7ff000"), "-01:00:00"),
    (1, bytes.fromhex("7fffff") + bytes([256 - 50]), "-00:00:00.5"),  # -0.5 s: complement fraction
    (3, bytes.fromhex("7fffff") + (0x10000 - 500).to_bytes(2, "big"), "-00:00:00.050"),
    (6, (0x800000000000 - 1).to_bytes(6, "big"), "-00:00:00.000001"),
    (6, (0x800000000000 + (838 << 36 | 59 << 30 | 59 << 24) + 999999).to_bytes(6, "big"), "838:59:59.999999"),
])
def test_time2(fsp, stored, expect):
    assert _one(bytes([19]), bytes([fsp]), stored) == [{"type": "time", "value": expect}]


def _dt2(y, mo, d, h, mi, s):
    ym = y * 13 + mo
    return (((ym << 5 | d) << 17 | h << 12 | mi << 6 | s) + 0x8000000000).to_bytes(5, "big")


@pytest.mark.parametrize("fsp,frac,expect", [
    (0, b"", "2024-01-02 03:04:05"), (1, bytes([50]), "2024-01-02 03:04:05.5"),
    (2, bytes([7]), "2024-01-02 03:04:05.07"), (4, (1234).to_bytes(2, "big"), "2024-01-02 03:04:05.1234"),
    (6, (123456).to_bytes(3, "big"), "2024-01-02 03:04:05.123456"),
])
def test_datetime2(fsp, frac, expect):
    assert _one(bytes([18]), bytes([fsp]), _dt2(2024, 1, 2, 3, 4, 5) + frac) == [{"type": "datetime", "value": expect}]


def test_zero_dates_and_timestamps():
    v = _one(bytes([18, 10, 17, 7, 13, 12]), bytes([0, 3]),
             _dt2(0, 0, 0, 0, 0, 0) + (2024 << 9 | 0 << 5 | 15).to_bytes(3, "little")
             + (1700000000).to_bytes(4, "big") + (1230).to_bytes(2, "big") + (5).to_bytes(4, "little")
             + b"\x00" + (20240102030405).to_bytes(8, "little"))
    assert v == [{"type": "datetime", "value": "0000-00-00 00:00:00"}, {"type": "date", "value": "2024-00-15"},
                 {"type": "timestamp", "value": "1700000000.123"}, {"type": "timestamp", "value": "5"}, 0,
                 {"type": "datetime", "value": "2024-01-02 03:04:05"}]


@pytest.mark.parametrize("precision,scale,text", [
    (10, 2, "-1.50"), (10, 2, "0.00"), (5, 0, "12345"), (65, 30, "9" * 35 + "." + "9" * 30),
    (65, 30, "-" + "1" * 35 + "." + "0" * 29 + "1"), (18, 9, "123456789.000000001"), (4, 4, "0.0001"),
])
def test_decimal_round_trip(precision, scale, text):
    data = _encode_decimal(text, precision, scale)
    assert len(data) == decimal_bin_size(precision, scale)
    assert decode_decimal(data, precision, scale) == text
    assert _one(bytes([246]), bytes([precision, scale]), data) == [{"type": "decimal", "value": text}]


def _encode_decimal(text: str, precision: int, scale: int) -> bytes:
    """An independent encoder: digits in groups of nine from the point, sign bit, inversion."""
    neg = text.startswith("-")
    whole, _, frac = text.lstrip("-").partition(".")
    intg = precision - scale
    whole = whole.zfill(intg)
    frac = frac.ljust(scale, "0")
    sizes = (0, 1, 1, 2, 2, 3, 3, 4, 4, 4)
    out = b""
    lead = intg % 9
    if lead:
        out += int(whole[:lead]).to_bytes(sizes[lead], "big")
    for i in range(lead, intg, 9):
        out += int(whole[i:i + 9]).to_bytes(4, "big")
    for i in range(0, scale - scale % 9, 9):
        out += int(frac[i:i + 9]).to_bytes(4, "big")
    if scale % 9:
        out += int(frac[scale - scale % 9:]).to_bytes(sizes[scale % 9], "big")
    b = bytearray(out)
    b[0] |= 0x80
    if neg:
        b = bytearray(x ^ 0xFF for x in b)
    return bytes(b)


def test_integers_signedness_and_floats():
    types = bytes([1, 2, 9, 3, 8, 8, 4, 5])
    signedness = b"\x01\x01" + bytes([0b00110000])  # INT24 and LONG unsigned
    value = (b"\xff" + b"\xfe\xff" + b"\xff\xff\xff" + b"\xff\xff\xff\xff" + b"\xff" * 8
             + (2**63).to_bytes(8, "little") + struct.pack("<f", 1.5) + struct.pack("<d", float("inf")))
    v = _one(types, b"\x04\x08", value, optional=signedness)
    assert v == [-1, -2, 2**24 - 1, 2**32 - 1, -1, {"type": "int", "value": str(-2**63)}, 1.5,
                 {"type": "double", "value": "inf"}]


def test_strings_enum_set_prefixes():
    types = bytes([15, 15, 254, 254, 254, 252, 252])
    meta = (struct.pack("<H", 10) + struct.pack("<H", 300) + bytes([0xFE, 20]) + bytes([0xF7, 2])
            + bytes([0xF8, 8]) + b"\x01\x03")
    value = (b"\x02hi" + b"\x03\x00\xe9\x00\x00" + b"\x03abc" + b"\x01\x01" + b"\xff" * 8
             + b"\x00" + b"\x02\x00\x00xy")
    v = _one(types, meta, value)
    assert v == ["hi", {"type": "bytes", "value": "e90000"}, "abc", 257, {"type": "int", "value": str(2**64 - 1)},
                 "", "xy"]


def test_partial_update_json_diff():
    ctx = _ctx()
    _decode(_table_map_body(bytes([3, 245]), b"\x04"), E.TABLE_MAP_EVENT, ctx)
    before = b"\x00" + b"\x01\x00\x00\x00" + b"\x02\x00\x00\x00\x04\x00"  # id=1, JSON null
    diff = b"\x00" + b"\x03$.a" + b"\x03" + b"\x05\x07\x00"  # REPLACE $.a with int16 7
    diff += b"\x02" + b"\x03$.b"  # REMOVE $.b
    after = b"\x01" + b"\x01" + b"\x00" + b"\x02\x00\x00\x00" + len(diff).to_bytes(4, "little") + diff
    body = (b"\x07\x00\x00\x00\x00\x00\x01\x00\x02\x00" + b"\x02" + b"\x03\x03" + before + after)
    out = _decode(body, E.PARTIAL_UPDATE_ROWS_EVENT, ctx)
    row = out["rows"][0]
    assert row["after_image"]["value_options"] == 1 and row["after_image"]["partial_bits"] == "1"
    diffs = row["after_image"]["values"][1]
    assert diffs["type"] == "json_diff"
    assert [(d["operation"], d["path"]) for d in diffs["value"]] == [("REPLACE", "$.a"), ("REMOVE", "$.b")]
    assert diffs["value"][0]["value"] == {"type": "json", "value": "7"}
    assert row["before_image"]["values"] == [1, {"type": "json", "value": "null"}]


def test_extra_row_info_partition():
    ctx = _ctx()
    _decode(_table_map_body(bytes([1]), b""), E.TABLE_MAP_EVENT, ctx)
    body = b"\x07\x00\x00\x00\x00\x00\x00\x00" + b"\x07\x00\x01\x05\x00\x06\x00" + b"\x01\x01\x01" \
        + b"\x00\x05" + b"\x00\x06"
    out = _decode(body, E.UPDATE_ROWS_EVENT, ctx)
    assert out["extra_data"] == {"length": 7, "partition_id": 5, "source_partition_id": 6}
    assert out["rows"][0]["after_image"]["values"] == [6]


@pytest.mark.parametrize("rows_body,err", [
    (_write_rows(9, 1, b"\x00\x01"), BadEventBody),  # no Table_map for 9
    (_write_rows(7, 2, b"\x00\x01\x02"), BadEventBody),  # width disagrees
    (_write_rows(7, 1, b"\x00"), TruncatedEvent),  # value runs past the image
    (_write_rows(7, 1, b"\x00\x01", extra=b"\x01\x00"), BadEventBody),  # var header below 2
])
def test_row_errors(rows_body, err):
    ctx = _ctx()
    _decode(_table_map_body(bytes([1]), b""), E.TABLE_MAP_EVENT, ctx)
    with pytest.raises(err) as info:
        _decode(rows_body, E.WRITE_ROWS_EVENT, ctx)
    assert info.value.offset > 0


def test_blob_length_past_end_offset():
    ctx = _ctx()
    _decode(_table_map_body(bytes([252]), b"\x02"), E.TABLE_MAP_EVENT, ctx)
    body = _write_rows(7, 1, b"\x00\x10\x00ab")
    with pytest.raises(LengthPastEnd) as info:
        _decode(body, E.WRITE_ROWS_EVENT, ctx)
    assert info.value.offset == len(body) - 4  # at the length prefix


def test_plan_is_built_once_per_table():
    ctx = _ctx()
    _decode(_table_map_body(bytes([1]), b""), E.TABLE_MAP_EVENT, ctx)
    _decode(_write_rows(7, 1, b"\x00\x01"), E.WRITE_ROWS_EVENT, ctx)
    plan = ctx.tables[7].plan
    _decode(_write_rows(7, 1, b"\x00\x02\x00\x03"), E.WRITE_ROWS_EVENT, ctx)
    assert ctx.tables[7].plan is plan and isinstance(plan, RowPlan)


# -- robustness ------------------------------------------------------------------------------------

_TYPES = [1, 2, 3, 4, 5, 7, 8, 9, 10, 11, 12, 13, 15, 16, 17, 18, 19, 245, 246, 247, 248, 252, 253, 254, 255, 242, 0, 20]


@settings(max_examples=400, deadline=None)
@given(types=st.lists(st.sampled_from(_TYPES), min_size=1, max_size=6), meta=st.binary(max_size=12),
       rows=st.binary(max_size=64), optional=st.binary(max_size=16),
       code=st.sampled_from(sorted(ROWS - {166, 167, 168, 169, 170, 171})))
def test_random_bytes_raise_only_binlog_errors(types, meta, rows, optional, code):
    ctx = _ctx()
    try:
        _decode(_table_map_body(bytes(types), meta, optional=optional), E.TABLE_MAP_EVENT, ctx)
    except BinlogError:
        return
    body = b"\x07\x00\x00\x00\x00\x00\x00\x00" + (b"\x02\x00" if ctx.format.post_header_len(code) == 10 else b"") \
        + _packed(len(types)) + b"\xff" * (2 * ((len(types) + 7) // 8)) + rows
    try:
        _decode(body, code, ctx)
    except BinlogError:
        pass


@settings(max_examples=300, deadline=None)
@given(data=st.binary(max_size=80))
def test_random_table_map_raises_only_binlog_errors(data):
    try:
        _decode(data, E.TABLE_MAP_EVENT, _ctx())
    except BinlogError:
        pass


def test_read_image_all_null():
    plan = RowPlan([table_map.Column(0, 3, 0, True, 3, 0)])
    image, pos = read_image(b"\x01", 0, 1, plan.select(1))
    assert image == {"null_bitmap": "1", "values": [None], "null_padding": 0} and pos == 1
    image, _ = read_image(b"\xff", 0, 1, plan.select(1))
    assert image["null_padding"] == 0x7F  # the seven padding bits, kept for the rows decoder


def test_rows_body_reports_bitmap_padding():
    """Padding bits past the last column: the columns bitmap's as read, the null bitmaps' as one
    word when every image agrees, else per image (the encoder needs them to write the bytes)."""
    ctx = _ctx()
    _decode(_table_map_body(bytes([3]), b""), E.TABLE_MAP_EVENT, ctx)  # one INT column
    agree = _decode(_write_rows(7, 1, b"\xfe\x05\x00\x00\x00" * 2), E.WRITE_ROWS_EVENT, ctx)
    assert agree["bitmap_padding"] == {"columns": 0x7F, "null": "set"}
    assert agree["rows"] == [{"null_bitmap": "0", "values": [5]}] * 2
    mixed = _decode(_write_rows(7, 1, b"\xfe\x05\x00\x00\x00\x00\x06\x00\x00\x00"), E.WRITE_ROWS_EVENT, ctx)
    assert "null" not in mixed["bitmap_padding"]
    assert [r["null_padding"] for r in mixed["rows"]] == [0x7F, 0]
