"""The canonical event schema: every event the oracle decodes from real binlogs conforms to it,
and shapes the model forbids are rejected."""
from __future__ import annotations

import copy
import json
from functools import cache
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator

from oracle.decoder import decode_file
from oracle.errors import BinlogError
from tests.external import manifest
from tests.sample_fixtures import sample_params

SCHEMA_PATH = Path(__file__).resolve().parents[1] / "oracle" / "schema" / "canonical-event.schema.json"
EXTERNAL = [b for b in manifest() if b.path.exists()]
# jsonschema checks about 60 events a second here: past this many events a file is checked on
# every event whose type and body keys are new, plus every 10th event (tools/CI time budget).
FULL_CHECK_LIMIT = 500


@cache
def validator() -> Draft202012Validator:
    schema = json.loads(SCHEMA_PATH.read_text())
    Draft202012Validator.check_schema(schema)
    return Draft202012Validator(schema)


def _errors(event: dict) -> list[str]:
    return [f"{list(e.absolute_path)}: {e.message[:200]}" for e in validator().iter_errors(event)]


def _events(path: Path) -> list[dict]:
    out = []
    try:
        for ev in decode_file(path):
            out.append(ev.to_json())
    except BinlogError:
        pass  # events before the error were emitted and are checked
    return out


def _selection(events: list[dict]) -> list[dict]:
    if len(events) <= FULL_CHECK_LIMIT:
        return events
    seen, picked = set(), []
    for i, e in enumerate(events):
        shape = (e["type_code"], tuple(sorted(e["body"])))
        if shape not in seen or i % 10 == 0:
            seen.add(shape)
            picked.append(e)
    return picked


@pytest.mark.parametrize("binlog", EXTERNAL, ids=lambda b: b.name)
def test_every_decoded_event_conforms(binlog):
    events = _events(binlog.path)
    bad = [(e["position"], e["type"], err) for e in _selection(events) for err in _errors(e)]
    assert bad == []


@pytest.mark.parametrize(("profile", "part"), sample_params())
def test_sample_events_conform(profile, part, sample_binlog):
    """The samples real servers write during the run (tests/sample_fixtures.py)."""
    path = sample_binlog(profile, part).path
    events = _events(path)
    assert events
    for e in _selection(events):
        assert _errors(e) == [], (part, e["position"])


def _an_event() -> dict:
    for b in EXTERNAL:
        if b.file.endswith("mariadb-bin.000001"):
            return _events(b.path)[3]  # a MariaDB GTID event
    pytest.skip("external binlogs not found")


INVALID = {
    "missing header key": lambda e: e.pop("server_id"),
    "extra header key": lambda e: e.update(extra=1),
    "negative position": lambda e: e.update(position=-1),
    "type code above 255": lambda e: e.update(type_code=256),
    "type name in lower case": lambda e: e.update(type="gtid_event"),
    "server id above 32 bits": lambda e: e.update(server_id=2**32),
    "unsafe integer not tagged": lambda e: e.update(position=2**60),
    "flags not an object": lambda e: e.update(flags=8),
    "undefined flag name": lambda e: e["flags"].update(names=["SOME_FLAG"]),
    "unknown checksum algorithm": lambda e: e["checksum"].update(algorithm="MD5"),
    "verified as a string": lambda e: e["checksum"].update(verified="yes"),
    "body not an object": lambda e: e.update(body=[1]),
    "unknown tag": lambda e: e["body"].update(x={"type": "uuid", "value": "abc"}),
    "int tag not a number": lambda e: e["body"].update(x={"type": "int", "value": "12a"}),
    "bytes tag not hex": lambda e: e["body"].update(x={"type": "bytes", "value": "xyz"}),
    "bytes tag in upper case": lambda e: e["body"].update(x={"type": "bytes", "value": "AB"}),
    "decimal tag with exponent": lambda e: e["body"].update(x={"type": "decimal", "value": "1e5"}),
    "nested bad tag": lambda e: e["body"].update(x=[{"y": {"type": "int", "value": 5}}]),
    "float tag with a number": lambda e: e["body"].update(x={"type": "double", "value": "1.5"}),
    "json opaque entry without data": lambda e: e["body"].update(
        x={"type": "json", "value": "[1.5]", "opaque": [{"path": [0], "field_type": 246}]}),
    "json opaque field type past a byte": lambda e: e["body"].update(
        x={"type": "json", "value": "[1.5]", "opaque": [{"path": [0], "field_type": 256, "data": "0201"}]}),
    "json binary that is not hex": lambda e: e["body"].update(
        x={"type": "json", "value": "[1]", "binary": "zz"}),
    "json unsigned path with a negative index": lambda e: e["body"].update(
        x={"type": "json", "value": "[1]", "unsigned": [[-1]]}),
}


def test_a_real_event_is_valid_before_it_is_broken():
    assert _errors(_an_event()) == []


@pytest.mark.parametrize("name", INVALID)
def test_invalid_shapes_are_rejected(name):
    event = copy.deepcopy(_an_event())
    INVALID[name](event)
    assert _errors(event), f"{name} was accepted"


def test_tagged_values_of_every_kind_are_accepted():
    event = copy.deepcopy(_an_event())
    event["body"]["values"] = [
        {"type": "int", "value": "-18446744073709551615"}, {"type": "bytes", "value": "00ff"},
        {"type": "decimal", "value": "-1234.5678"}, {"type": "double", "value": "nan"},
        {"type": "date", "value": "0000-00-00"}, {"type": "time", "value": "-838:59:59.000000"},
        {"type": "datetime", "value": "2024-02-29 12:34:56.000001"},
        {"type": "timestamp", "value": "1709210096.789"}, {"type": "json", "value": "[1, 2]"},
        {"type": "json", "value": '{"d": "2012-03-18"}',
         "opaque": [{"path": ["d"], "field_type": 10, "data": "0000000000e48b19"}]},
        {"type": "json", "value": "[4294967296]", "unsigned": [[0]]},
        {"type": "json", "value": "[1]", "binary": "0201000700050100"},
        {"type": "json_diff", "value": [{"op": "JSON_REPLACE", "path": "$.a", "value": 1}]},
        None, True, 1.5, "text", {"plain": {"type": 2, "name": "x"}},
    ]
    assert _errors(event) == []
