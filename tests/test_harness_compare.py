"""Field-level comparison rules."""
from __future__ import annotations

from harness.compare import compare_events
from harness.plugins.base import FULL, HEADER_ONLY, Capabilities

EV = {"position": 4, "event_size": 100, "next_position": 104, "type_code": 2, "type": "QUERY_EVENT",
      "server_id": 1, "timestamp": 5, "flags": {"value": 0, "names": []},
      "checksum": {"algorithm": "NONE", "stored": None, "verified": None},
      "body": {"thread_id": 9, "query": "BEGIN", "xid": {"type": "int", "value": "18446744073709551615"}}}


def with_body(**changes):
    return {**EV, "body": {**EV["body"], **changes}}


def test_identical_and_tagged_int_equal_plain_number():
    assert compare_events([EV], [EV], FULL) == []
    assert compare_events([with_body(thread_id={"type": "int", "value": "9"})], [EV], FULL) == []


def test_bool_is_not_a_number():
    (d,) = compare_events([with_body(thread_id=1)], [with_body(thread_id=True)], FULL)
    assert d.path == "body.thread_id"


def test_nested_paths_and_lengths():
    diffs = compare_events([with_body(list=[1, 2, {"a": 1}])], [with_body(list=[1, 3])], FULL)
    assert [d.path for d in diffs] == ["body.list[1]", "body.list.length"]


def test_capabilities_limit_the_comparison():
    other = with_body(query="COMMIT")
    assert compare_events([EV], [{**other, "server_id": 1}], HEADER_ONLY) == []
    caps = Capabilities(frozenset(["server_id"]), {"QUERY_EVENT": frozenset(["query"])})
    (d,) = compare_events([EV], [other], caps)
    assert (d.path, d.expected, d.actual) == ("body.query", "BEGIN", "COMMIT")


def test_extra_body_field_counts_only_when_claiming_all_fields():
    extra = with_body(status="x")
    assert [d.path for d in compare_events([EV], [extra], FULL)] == ["body.status"]
    assert compare_events([EV], [extra], Capabilities(bodies={"*": frozenset(["status", "query"])})) == []


def test_missing_and_extra_events():
    second = {**EV, "position": 104}
    (d,) = compare_events([EV, second], [EV], FULL)
    assert (d.path, d.position, d.expected) == ("<event>", 104, "present")
    (d,) = compare_events([EV], [EV, second], FULL)
    assert d.actual == "present"


def test_undetermined_fields_are_skipped():
    act = {**with_body(thread_id=None), "type_code": None, "_undetermined": ["type_code", "body.thread_id"]}
    assert compare_events([EV], [act], FULL) == []


def test_not_every_event_drops_unclaimed_types():
    xid = {**EV, "type": "XID_EVENT", "type_code": 16, "position": 104}
    caps = Capabilities(bodies={"QUERY_EVENT": "*"}, every_event=False)
    assert compare_events([EV, xid], [EV], caps) == []
