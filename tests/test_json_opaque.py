"""JSON documents with opaque values (dates, times, decimals, base64:typeNN) survive decode ->
encode byte for byte: the canonical value lists each opaque scalar's path, field type and bytes
("opaque"), which the JSON text does not keep, and the encoder writes them back.

Real documents come from the oracle's own decode of real binlogs: every JSON value and diff list
the rows decoder hands to the canonical form is recorded with its bytes and encoded back.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from oracle.codecs import jsonvalue
from oracle.codecs.jsonb import canonical_at, decode_jsonb, to_canonical
from oracle.decoder import decode_file
from oracle.encode.jsonb import document_bytes, json_diff_bytes, json_value_bytes
from oracle.encode.writer import EncodeError
from oracle.events import table_map
from oracle.memo import BodyMemo
from tests.test_jsonb import BLACKBEAM, _packed_datetime, encode

REPO = Path(__file__).resolve().parents[1]
OPAQUE_BINLOG = BLACKBEAM / "test-data__binlogs__json-opaque.binlog"
FILES = [OPAQUE_BINLOG] + sorted(REPO.glob("corpus/mysql-9.7/json*/binlog.000001"))
ENCODERS = {"json": json_value_bytes, "json_diff": json_diff_bytes}


def decoded_json_values(path: Path, monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, bytes, Any]]:
    """(canonical type, stored bytes, canonical value) of every JSON column value and diff list
    the oracle decodes from the file (compressed transactions included)."""
    seen: list[tuple[str, bytes, Any]] = []

    def recording(convert):
        def wrapped(buf: bytes, start: int, end: int) -> Any:
            value = convert(buf, start, end)
            seen.append((value["type"], bytes(buf[start:end]), value))
            return value
        return wrapped

    # a fresh Table_map memo: the row plans kept there hold the converters of earlier decodes
    monkeypatch.setattr(table_map, "_PARSED", BodyMemo())
    monkeypatch.setattr(jsonvalue, "json_value", recording(jsonvalue.json_value))
    monkeypatch.setattr(jsonvalue, "json_diffs", recording(jsonvalue.json_diffs))
    for _ in decode_file(path):
        pass
    return seen


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.parent.name if p.name.startswith("binlog") else p.name)
def test_every_json_value_encodes_back_to_its_bytes(path: Path, monkeypatch: pytest.MonkeyPatch):
    if not path.exists():
        pytest.skip("external binlogs not present")
    values = decoded_json_values(path, monkeypatch)
    assert values and all(kind in ENCODERS for kind, _, _ in values)
    assert [ENCODERS[kind](v).hex() for kind, _, v in values] == [raw.hex() for _, raw, _ in values]
    # every file holds documents the text alone does not pin down
    assert any(f"'{key}'" in repr(v) for _, _, v in values for key in ("opaque", "unsigned", "binary"))


def test_opaque_lists_of_the_external_file(monkeypatch: pytest.MonkeyPatch):
    if not OPAQUE_BINLOG.exists():
        pytest.skip("external binlogs not present")
    got = [v.get("opaque") for _, _, v in decoded_json_values(OPAQUE_BINLOG, monkeypatch)]
    # VARCHAR 15 (base64), DATE 10, DATETIME 12, TIME 11, NEWDECIMAL 246 (precision 6 scale 3;
    # "9.00" is DECIMAL(11,2), a precision its text does not show); the last two have none.
    assert got == [
        [{"path": ["a"], "field_type": 15, "data": "55"}],
        [{"path": ["b"], "field_type": 10, "data": "0000000000e48b19"}],
        [{"path": ["c"], "field_type": 12, "data": "000000adb7e48b19"}],
        [{"path": ["c"], "field_type": 11, "data": "f1fb09ee77050000"}],
        [{"path": ["d"], "field_type": 246, "data": "0603807b01c8"}],
        [{"path": ["e"], "field_type": 246, "data": "0b028000000900"}],
        None, None]


DATETIME = _packed_datetime(2020, 1, 2, 3, 4, 5, 6)
NESTED = encode({"a": [1, "two", 3.5, None, {"b": (12, DATETIME)}], "c": (246, bytes.fromhex("0502800117"))})


def test_paths_name_keys_and_indexes_in_document_order():
    c = canonical_at(NESTED, 0, len(NESTED))
    assert c["opaque"] == [{"path": ["a", 4, "b"], "field_type": 12, "data": DATETIME.hex()},
                           {"path": ["c"], "field_type": 246, "data": "0502800117"}]
    assert c == to_canonical(decode_jsonb(NESTED))
    assert json_value_bytes(c) == NESTED


def test_a_document_that_is_itself_opaque():
    doc = encode((10, DATETIME))
    c = canonical_at(doc, 0, len(doc))
    assert c == {"type": "json", "value": '"2020-01-02"',
                 "opaque": [{"path": [], "field_type": 10, "data": DATETIME.hex()}]}
    assert json_value_bytes(c) == doc


def test_documents_without_opaque_values_have_no_list():
    doc = encode({"a": [1, "2020-01-02"]})
    assert canonical_at(doc, 0, len(doc)) == {"type": "json", "value": '{"a": [1, "2020-01-02"]}'}


def test_without_the_list_opaque_text_is_written_as_strings_and_decimals():
    c = canonical_at(NESTED, 0, len(NESTED))
    plain = document_bytes(c["value"])
    assert plain != NESTED and to_canonical(decode_jsonb(plain)) == {"type": "json", "value": c["value"]}


@pytest.mark.parametrize("opaque", [
    [{"path": ["x"], "field_type": 10, "data": "00"}],  # no such key
    [{"path": ["a", 9], "field_type": 10, "data": "00"}],  # no such index
    [{"path": ["a", "0"], "field_type": 10, "data": "00"}],  # a key into an array
    [{"path": ["c", 0], "field_type": 10, "data": "00"}],  # into a scalar
    [{"path": ["c"], "field_type": 256, "data": "00"}],
    [{"path": ["c"], "field_type": 10, "data": "0g"}],
    [{"path": ["c"], "field_type": 10}],
    [{"path": ["c"], "field_type": 10, "data": "00"}] * 2,
    [{"path": ["a"], "field_type": 10, "data": "00"}, {"path": ["a", 0], "field_type": 10, "data": "00"}],
    [{"path": [], "field_type": 10, "data": "00"}, {"path": ["c"], "field_type": 10, "data": "00"}],
])
def test_opaque_lists_that_do_not_fit_the_text_are_encode_errors(opaque):
    with pytest.raises(EncodeError):
        document_bytes('{"a": [1, 2], "c": 1.5}', opaque)


_TEMPORAL = st.tuples(st.sampled_from([7, 10, 11, 12]), st.binary(min_size=8, max_size=8))
_DECIMAL = st.tuples(st.just(246), st.sampled_from([bytes.fromhex(h) for h in (
    "0603807b01c8", "0b028000000900", "02018105", "0c037fffff84fe37", "0502800117")]))
_OTHER = st.tuples(st.sampled_from([1, 3, 15, 245, 249, 252, 255]), st.binary(max_size=80))
_LEAVES = st.none() | st.booleans() | st.integers(-2**31, 2**31 - 1) | st.text(max_size=8) | _TEMPORAL | _DECIMAL | _OTHER


def _mysql_order(d: dict) -> dict:
    """Keys as MySQL stores them: by length, then bytes."""
    return dict(sorted(d.items(), key=lambda kv: (len(kv[0].encode()), kv[0].encode())))


_DOCS = st.recursive(_LEAVES, lambda kids: st.lists(kids, max_size=4)
                     | st.dictionaries(st.text(max_size=4), kids, max_size=4).map(_mysql_order),
                     max_leaves=12)


@settings(max_examples=200, deadline=None)
@given(_DOCS)
def test_documents_laid_out_as_mysql_does_encode_back_to_their_bytes(doc):
    data = encode(doc)
    assert json_value_bytes(canonical_at(data, 0, len(data))).hex() == data.hex()


# {"a": 100, "b": "short", "c": [1, 2, 3]} as MySQL 9.7 stored it after
# JSON_REPLACE(j, '$.b', 'short') on "long string value here": updated in place, the old
# string's tail left as free space (from a binlog a real server wrote; tests/test_rows_live.py).
IN_PLACE = bytes.fromhex("0003004000190001001a0001001b0001000564000c1c000233006162630573686f7274737472"
                         "696e672076616c7565206865726503000d00050100050200050300")


def test_a_document_updated_in_place_keeps_its_bytes():
    got = canonical_at(IN_PLACE, 0, len(IN_PLACE))
    assert got["value"] == '{"a": 100, "b": "short", "c": [1, 2, 3]}'
    assert got["binary"] == IN_PLACE.hex() and json_value_bytes(got) == IN_PLACE
    fresh = document_bytes(got["value"])
    assert len(fresh) < len(IN_PLACE) and "binary" not in canonical_at(fresh, 0, len(fresh))


@settings(max_examples=200, deadline=None)
@given(st.recursive(st.none() | st.booleans() | st.integers(-2**63, 2**63 - 1) | st.text(max_size=20),
                    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=5), inner, max_size=4),
                    max_leaves=12))
def test_documents_laid_out_fresh_carry_no_binary(doc):
    import json
    data = document_bytes(json.dumps(doc))
    assert "binary" not in canonical_at(data, 0, len(data))
