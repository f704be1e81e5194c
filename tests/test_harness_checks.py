"""Check-level verdicts (harness/checks.py, compare.py, classify.py), on real binlogs MySQL 9.7
wrote: what each test asserts passed (or was not made) under the old case-level verdicts."""
from __future__ import annotations

import copy
import json
import sys
from pathlib import Path

from harness.checks import Checks
from harness.classify import classify
from harness.compare import compare_events
from harness.expectations import Expectation
from harness.features import COLUMN_TYPES, case_features
from harness.outcomes import CaseResult, Outcome
from harness.plugins.base import ALL, HEADER_FIELDS, Capabilities
from harness.plugins.protocol import CRASH, ERROR, EVENTS, TIMEOUT, ErrorInfo, Reply
from harness.reports.summary import EVENT_TYPES, VERSIONS, summarize

CORPUS = Path(__file__).resolve().parents[1] / "corpus/mysql-9.7"
ROWS_TYPES = ("WRITE_ROWS_EVENT", "UPDATE_ROWS_EVENT", "DELETE_ROWS_EVENT", "PARTIAL_UPDATE_ROWS_EVENT")


def case_events(case: str) -> list[dict]:
    return [json.loads(line) for line in (CORPUS / case / "binlog.000001.expected.jsonl").read_text().splitlines()]


def expectation(events: list[dict], error: ErrorInfo | None = None) -> Expectation:
    return Expectation(events, error, event_types=sorted({e["type"] for e in events}), server_version="9.7.4")


def result_of(verdict, events: list[dict], case: str = "c") -> CaseResult:
    return CaseResult(case, "p", verdict.outcome, verdict.message, verdict.diffs_json(), len(verdict.diffs),
                      "9.7.4", sorted({e["type"] for e in events}), verdict.failed_types(expectation(events)),
                      features=case_features({}, events), diff_digest=verdict.diff_digest(),
                      checks=verdict.checks.to_json())


# A library that hands back an update's rows as nothing, and whose adapter claims no rows body
# for that type (the JVM reader on integers--row-minimal, issue 29).
NO_UPDATE_ROWS = Capabilities(bodies={**{t: frozenset({"table_id", "rows"}) for t in ROWS_TYPES[:3]},
                                      ALL: frozenset()})


def test_a_rows_event_whose_rows_the_adapter_drops_is_rows_lost_whatever_is_claimed():
    events = case_events("integers--row-minimal")
    k = next(i for i, e in enumerate(events) if e["type"] == "PARTIAL_UPDATE_ROWS_EVENT")
    actual = copy.deepcopy(events)
    actual[k]["body"] = None
    v = classify(expectation(events), Reply(EVENTS, actual), NO_UPDATE_ROWS)
    assert v.outcome is Outcome.MISMATCH
    (d,) = v.diffs
    assert (d.path, d.where, d.expected) == ("body.rows", "rows lost", len(events[k]["body"]["rows"]))
    assert str(d).startswith(f"event #{k} @{events[k]['position']} PARTIAL_UPDATE_ROWS_EVENT body.rows (rows lost)")
    rows = v.checks.to_json()["by_field"]["body.rows.length"]
    n_rows_events = sum(e["type"] in ROWS_TYPES for e in events)
    assert (rows["failed"], rows["passed"]) == (1, n_rows_events - 1)  # every rows event's count checked
    # rows delivered but an image missing: the image is a failed check too
    actual[k]["body"] = copy.deepcopy(events[k]["body"])
    del actual[k]["body"]["rows"][0]["after_image"]
    (d,) = compare_events(events, actual, NO_UPDATE_ROWS)
    assert (d.path, d.where) == ("body.rows[0].after_image", "rows lost")


def test_a_rows_event_type_the_parser_does_not_report_is_missing_even_without_every_event():
    events = case_events("integers--row-minimal")
    caps = Capabilities(bodies={"QUERY_EVENT": frozenset({"query"})}, every_event=False)
    actual = [e for e in events if e["type"] == "QUERY_EVENT"]
    diffs = compare_events(events, actual, caps)
    assert {str(d).rsplit(" ", 1)[-1] for d in diffs} == {"missing"}
    assert {d.event_type for d in diffs} == {"WRITE_ROWS_EVENT", "PARTIAL_UPDATE_ROWS_EVENT"} and len(diffs) == 8


def test_an_event_the_parser_cannot_name_is_a_failed_check_whatever_is_claimed():
    events = case_events("integers--row")
    caps = Capabilities(frozenset(h for h in HEADER_FIELDS if h not in ("type", "type_code")), {ALL: frozenset()})
    actual = copy.deepcopy(events)
    actual[5]["type"] = None
    del actual[6]["type"]  # and no type code it claims either
    v = classify(expectation(events), Reply(EVENTS, actual), caps)
    assert v.outcome is Outcome.MISMATCH and [d.index for d in v.diffs] == [5, 6]
    assert all(d.path == "type" and d.where == "unnamed event" for d in v.diffs)
    assert v.checks.to_json()["by_field"]["type"]["failed"] == 2
    # the text tools' ambiguous label: the parser says it cannot tell, so it is not compared
    actual[5]["_undetermined"] = ["type"]
    assert len(compare_events(events, actual, caps)) == 1
    # a header-only parser names events by the type code it claims (docs/plugin-contract.md) ...
    by_code = Capabilities(frozenset(h for h in HEADER_FIELDS if h != "type"), {ALL: frozenset()})
    assert compare_events(events, [{k: v for k, v in e.items() if k != "type"} for e in events], by_code) == []
    # ... but a null name is no name, whatever code comes with it
    (d,) = compare_events(events, [{**e, "type": None} if i == 3 else e for i, e in enumerate(events)], by_code)
    assert (d.index, d.where) == (3, "unnamed event")


def test_a_cosmetic_difference_fails_one_check_and_the_rows_still_show_right():
    """open-replicator's NUL-padded server_version: the case is a mismatch (the strict gate), yet
    every row value passed, and the row and version cells say so."""
    events = case_events("integers--row")
    actual = copy.deepcopy(events)
    actual[0]["body"]["server_version"] += "\x00" * 10
    v = classify(expectation(events), Reply(EVENTS, actual), Capabilities())
    assert v.outcome is Outcome.MISMATCH and len(v.diffs) == 1
    checks = v.checks.to_json()
    assert checks["failed"] == 1 and checks["passed"] > 500
    assert checks["by_area"]["event_metadata"]["failed"] == 1
    assert checks["by_area"]["row_values"]["failed"] == 0 and checks["by_area"]["row_values"]["passed"] > 50
    assert checks["by_field"]["body.server_version"] == {"passed": 0, "failed": 1, "not_compared": 0}
    s = summarize([result_of(v, events)], {})
    assert s.cell("p", EVENT_TYPES, "WRITE_ROWS_EVENT").ratio == 1.0
    assert s.cell("p", COLUMN_TYPES, "TINY").ratio == 1.0  # was a failed case in every column cell
    fde = s.cell("p", EVENT_TYPES, "FORMAT_DESCRIPTION_EVENT")
    assert fde.failed == 1 and fde.passed > 0 and "got '9.7.4-2\\x00" in fde.first["c"]
    assert 0.99 < s.cell("p", VERSIONS, "MySQL 9.7").ratio < 1.0


def test_capabilities_narrow_checks_into_not_compared_never_into_passed():
    events = case_events("integers--row")
    caps = Capabilities(frozenset({"position"}), {ALL: frozenset(), "WRITE_ROWS_EVENT": frozenset({"rows"})},
                        row_values=frozenset({"MYSQL_TYPE_LONG"}))
    checks = Checks()
    assert compare_events(events, copy.deepcopy(events), caps, checks) == []
    out = checks.to_json()
    assert out["by_field"]["server_id"] == {"passed": 0, "failed": 0, "not_compared": len(events)}
    assert out["by_column_type"]["TINY"]["passed"] == 0 and out["by_column_type"]["TINY"]["not_compared"] > 0
    assert out["by_column_type"]["LONG"]["passed"] > 0
    assert out["passed"] + out["failed"] + out["not_compared"] == sum(
        sum(c.values()) for c in out["by_area"].values())


def test_a_crashed_reply_compares_the_events_it_delivered_and_stays_a_crash():
    events = case_events("integers--row")
    delivered = copy.deepcopy(events[:10])
    delivered[3]["server_id"] = 7
    for status in (CRASH, TIMEOUT):
        v = classify(expectation(events), Reply(status, delivered, detail="died (signal 11)"), Capabilities())
        assert v.outcome is Outcome(status) and v.message == "died (signal 11)"
        (d,) = v.diffs
        assert (d.index, d.path, d.actual) == (3, "server_id", 7)
        checks = v.checks.to_json()
        assert checks["by_field"]["<event>"] == {"passed": 10, "failed": 0, "not_compared": len(events) - 10}
        assert checks["by_field"]["<stopped>"]["failed"] == 1
        assert checks["by_event_type"][events[10]["type"]]["failed"] >= 1  # where it stopped
    assert v.diff_digest() == ""  # what a timed-out parser got to deliver is not pinned
    crashed = classify(expectation(events), Reply(CRASH, delivered, detail="x"), Capabilities())
    assert crashed.diff_digest().startswith("sha256:")


def test_an_unexpected_rejection_compares_the_events_before_it():
    events = case_events("integers--row")
    delivered = copy.deepcopy(events[:6])
    delivered[2]["timestamp"] = 1
    v = classify(expectation(events), Reply(ERROR, delivered, ErrorInfo("BadEventBody", 900, "no")), Capabilities())
    assert v.outcome is Outcome.REJECTED and v.message == "BadEventBody at offset 900: no"
    assert [(d.index, d.path) for d in v.diffs] == [(2, "timestamp")]


def test_a_checksum_error_is_not_excused_by_an_unclaimed_body():
    events = case_events("integers--row")
    error = ErrorInfo("ChecksumMismatch", events[5]["position"], "stored CRC32 0x1, computed 0x2")
    header_only = Capabilities(bodies={})
    v = classify(expectation(events[:5], error), Reply(EVENTS, events), header_only)
    assert v.outcome is Outcome.MISMATCH and v.message.startswith("accepted a file that must be rejected")
    assert v.checks.to_json()["by_field"]["<rejection>"]["failed"] == 1
    # a bad body the parser does not decode is still excused
    body_error = ErrorInfo("BadEventBody", events[5]["position"], "bad")
    assert classify(expectation(events[:5], body_error), Reply(EVENTS, events), header_only).outcome is Outcome.PASS


def test_every_difference_is_counted_and_in_the_digest_past_a_thousand():
    events = case_events("many_rows--row")  # 800 row values
    actual = copy.deepcopy(events)
    for e in actual:
        e["server_id"], e["timestamp"] = 2, 0
        for row in (e["body"] or {}).get("rows") or []:
            for image in (row, row.get("before_image"), row.get("after_image")):
                if image and "values" in image:
                    image["values"] = ["x"] * len(image["values"])
    v = classify(expectation(events), Reply(EVENTS, actual), Capabilities())
    n = len(v.diffs)
    assert n > 1000 and v.message.startswith(f"{n} differences; first:")
    assert v.checks.to_json()["failed"] == n
    fewer = classify(expectation(events), Reply(EVENTS, actual[:-3] + events[-3:]), Capabilities())
    assert fewer.diff_digest() != v.diff_digest() or len(fewer.diffs) == n


def test_checks_in_results_jsonl_have_the_documented_shape(tmp_path):
    events = case_events("integers--row")
    r = result_of(classify(expectation(events), Reply(EVENTS, copy.deepcopy(events)), Capabilities()), events)
    back = CaseResult.from_json(json.loads(json.dumps(r.to_json())))
    c = back.checks
    assert set(c) == {"passed", "failed", "not_compared", "by_event_type", "by_column_type", "by_field", "by_area"}
    assert c["failed"] == 0 and c["passed"] > 0 and set(c["by_area"]) == {"row_values", "event_metadata", "framing"}
    assert "body.rows[].values[] TINY" in c["by_field"] and "TINY" in c["by_column_type"]


def test_a_one_shot_parser_that_dies_hands_back_the_lines_it_printed(tmp_path):
    from harness.isolation import Limits
    from harness.plugins.oneshot import OneShotTestee
    events = case_events("integers--row")[:3]
    (tmp_path / "events.json").write_text(json.dumps(events))
    script = tmp_path / "dies.py"
    script.write_text("import json, os, sys\n"
                      f"for e in json.load(open({str(tmp_path / 'events.json')!r})):\n"
                      "    print(json.dumps(e), flush=True)\n"
                      "sys.stdout.write('{\"position\": 4')\nsys.stdout.flush()\nos.abort()\n")
    reply = OneShotTestee([sys.executable, str(script)], Limits(30, 0, 0)).parse("unused")
    assert reply.status == CRASH and reply.events == events


def test_rows_inside_a_compressed_transaction_are_never_excused():
    events = case_events("ddl_dml_basic--row-compressed")
    k = next(i for i, e in enumerate(events) if e["type"] == "TRANSACTION_PAYLOAD_EVENT"
             and any(n["type"] in ROWS_TYPES for n in e["body"]["events"]))
    caps = Capabilities(bodies={"TRANSACTION_PAYLOAD_EVENT": frozenset({"payload_size"}), ALL: ALL})
    lost = copy.deepcopy(events)
    lost[k]["body"].pop("events")
    diffs = compare_events(events, lost, caps)
    nested = [n for n in events[k]["body"]["events"] if n["type"] in ROWS_TYPES]
    assert len(diffs) == len(nested) and all(d.where == "rows lost" for d in diffs)
    assert "TRANSACTION_PAYLOAD_EVENT body.events[" in str(diffs[0]) and " body.rows (rows lost)" in str(diffs[0])
    assert compare_events(events, copy.deepcopy(events), caps) == []  # delivered: compared, and right


def test_the_librarys_own_name_is_shown_with_a_difference_and_never_compared():
    events = case_events("integers--row")
    actual = copy.deepcopy(events)
    for e in actual:
        e["library_type"] = "SomeEventData"
    actual[4]["type"] = None
    (d,) = compare_events(events, actual, Capabilities())
    assert d.to_json()["library_type"] == "SomeEventData" and "SomeEventData" not in str(d)


def test_nested_events_a_parser_cannot_place_are_not_compared():
    """A text tool prints a compressed transaction's events after it, and says it cannot tell
    which belong inside (`_undetermined`): not compared, neither passed nor lost."""
    events = case_events("ddl_dml_basic--row-compressed")
    caps = Capabilities(bodies={ALL: frozenset({"query"})})
    actual = copy.deepcopy(events)
    for e in actual:
        if e["type"] == "TRANSACTION_PAYLOAD_EVENT":
            e["body"].pop("events")
            e["_undetermined"] = ["body.events"]
    checks = Checks()
    assert compare_events(events, actual, caps, checks) == []
    assert checks.to_json()["by_field"]["body.events"]["not_compared"] > 0
