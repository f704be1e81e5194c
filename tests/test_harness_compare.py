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


# --- alignment on a real binlog (MySQL 9.7 wrote it): one diff per missing/extra event ---------
import json  # noqa: E402
from pathlib import Path  # noqa: E402

from harness.plugins.base import HEADER_ONLY as _HEADER_ONLY  # noqa: E402

REAL = Path(__file__).resolve().parents[1] / "corpus/mysql-9.7/ddl_dml_basic--row-compressed/binlog.000001.expected.jsonl"
TYPES_ONLY = Capabilities(frozenset(["type", "server_id"]), {})


def real_events() -> list[dict]:
    events = [json.loads(line) for line in REAL.read_text().splitlines()][:20]
    assert len(events) == 20 and events[3]["type"] == "QUERY_EVENT"
    return events


def test_dropping_the_4th_of_20_events_is_one_diff():
    expected = real_events()
    actual = expected[:3] + expected[4:]
    for caps in (FULL, _HEADER_ONLY, TYPES_ONLY):  # by position; and by type where no position
        (d,) = compare_events(expected, actual, caps)
        assert str(d) == "event @235 QUERY_EVENT: missing"


def test_an_extra_event_is_one_diff():
    expected = real_events()
    extra = {**expected[5], "position": 99999}
    (d,) = compare_events(expected, expected[:10] + [extra] + expected[10:], FULL)
    assert (str(d), d.index) == ("event @99999 QUERY_EVENT: extra", 10)
    assert "extra" in str(compare_events(expected, expected[:10] + [expected[5]] + expected[10:], TYPES_ONLY)[0])


def test_a_reordered_pair_is_two_diffs_and_the_rest_compare_in_place():
    expected = real_events()
    i = next(k for k in range(4, 19) if expected[k]["type"] != expected[k + 1]["type"])
    actual = expected[:i] + [expected[i + 1], expected[i]] + expected[i + 2:]
    diffs = compare_events(expected, actual, FULL)
    assert len(diffs) == 2 and all(d.path == "<event>" for d in diffs)
    assert {str(d).rsplit(": ", 1)[1] for d in diffs} == {"missing", "extra"}


def test_a_wrong_field_after_a_missing_event_is_reported_where_it_belongs():
    expected = real_events()
    actual = expected[:3] + expected[4:]
    actual[10] = {**actual[10], "server_id": 7}
    diffs = compare_events(expected, actual, FULL)
    assert [str(d) for d in diffs][0] == "event @235 QUERY_EVENT: missing"
    assert [(d.index, d.path, d.expected, d.actual) for d in diffs[1:]] == [(11, "server_id", 1, 7)]


def test_wrong_positions_fall_back_to_type_alignment():
    expected = real_events()
    actual = [{**e, "position": e["position"] + 1} for e in expected[:3] + expected[4:]]
    diffs = compare_events(expected, actual, FULL)
    assert [str(d) for d in diffs if d.path == "<event>"] == ["event @235 QUERY_EVENT: missing"]
    assert {d.path for d in diffs} == {"<event>", "position"} and len(diffs) == 20


# --- row values, column by column, on real binlogs (MySQL 9.7) ---------------------------------
CORPUS = Path(__file__).resolve().parents[1] / "corpus/mysql-9.7"


def case_events(case: str) -> list[dict]:
    return [json.loads(line) for line in (CORPUS / case / "binlog.000001.expected.jsonl").read_text().splitlines()]


def unsigned_write(events: list[dict]) -> int:
    return next(i for i, e in enumerate(events) if e["type"] == "WRITE_ROWS_EVENT"
                and e["body"]["rows"][0]["values"][1] == 255)


def with_value(event: dict, column: int, value) -> dict:
    row = event["body"]["rows"][0]
    values = [*row["values"]]
    values[column] = value
    return {**event, "body": {**event["body"], "rows": [{**row, "values": values}]}}


def test_a_wrong_row_value_names_table_row_column_expected_and_actual():
    for case, label in (("integers--row", " `ti`"), ("integers--row-minimal", "")):
        events = case_events(case)
        k = unsigned_write(events)
        actual = [*events[:k], with_value(events[k], 1, -1), *events[k + 1:]]
        (d,) = compare_events(events, actual, FULL)
        assert str(d) == (f"event #{k} @{events[k]['position']} WRITE_ROWS_EVENT body.rows[0].values[1] TINY "
                          f"(ints.unsigned column 1{label}): expected 255, got -1")


def test_row_values_by_name_where_the_parser_reports_names():
    events = case_events("integers--row")
    k = unsigned_write(events)
    names = ["id", "ti", "si", "mi", "i", "bi"]
    row = events[k]["body"]["rows"][0]
    swapped = {**row, "names": names[::-1], "values": row["values"][::-1]}
    good = [*events[:k], {**events[k], "body": {**events[k]["body"], "rows": [swapped]}}, *events[k + 1:]]
    assert compare_events(events, good, FULL) == []
    wrong = {**swapped, "names": names}  # names that do not go with the values
    bad = [*events[:k], {**events[k], "body": {**events[k]["body"], "rows": [wrong]}}, *events[k + 1:]]
    assert len(compare_events(events, bad, FULL)) == 6


def test_row_values_limited_to_declared_column_types():
    events = case_events("integers--row")
    k = unsigned_write(events)
    actual = [*events[:k], with_value(events[k], 1, -1), *events[k + 1:]]
    assert compare_events(events, actual, Capabilities(row_values=frozenset({"MYSQL_TYPE_LONG"}))) == []
    caps = Capabilities(bodies={"WRITE_ROWS_EVENT": frozenset({"table_id"})})
    assert compare_events(events, actual, caps) == []  # rows not claimed: not compared


def test_events_inside_a_compressed_transaction_are_compared():
    events = case_events("ddl_dml_basic--row-compressed")
    k = next(i for i, e in enumerate(events) if e["type"] == "TRANSACTION_PAYLOAD_EVENT")
    lost = {**events[k], "body": {**events[k]["body"], "events": []}}
    diffs = compare_events(events, [*events[:k], lost, *events[k + 1:]], FULL)
    nested = events[k]["body"]["events"]
    assert [str(d) for d in diffs] == [f"event @{events[k]['position']} TRANSACTION_PAYLOAD_EVENT "
                                       f"body.events[{i}] {e['type']}: missing" for i, e in enumerate(nested)]


def test_an_integer_is_read_either_way_only_where_the_binlog_does_not_say_its_signedness():
    """MySQL 5.7 writes no SIGNEDNESS metadata: the oracle reads TINYINT UNSIGNED 255 as -1, as
    mysqlbinlog does, and a parser that looked the table up reads 255. Both are accepted there;
    any other number is not, and on 9.7 (SIGNEDNESS present) only the column's own reading is."""
    path = Path(__file__).resolve().parents[1] / "corpus/mysql-5.7/integers--row/binlog.000001.expected.jsonl"
    events = [json.loads(line) for line in path.read_text().splitlines()]
    k = next(i for i, e in enumerate(events) if e["type"] == "WRITE_ROWS_EVENT"
             and e["body"]["rows"][0]["values"][1] == -1)
    assert compare_events(events, [*events[:k], with_value(events[k], 1, 255), *events[k + 1:]], FULL) == []
    (d,) = compare_events(events, [*events[:k], with_value(events[k], 1, 254), *events[k + 1:]], FULL)
    assert "expected -1, got 254" in str(d)
    known = case_events("integers--row")  # MySQL 9.7, FULL metadata: SIGNEDNESS says UNSIGNED
    j = unsigned_write(known)
    (d,) = compare_events(known, [*known[:j], with_value(known[j], 1, -1), *known[j + 1:]], FULL)
    assert "expected 255, got -1" in str(d)


def test_a_57_binary_string_in_json_is_accepted_as_mysqlbinlog_or_as_its_writer_prints_it():
    """MySQL 5.7 stores CAST(x'00ff' AS BINARY) inside JSON as an opaque VAR_STRING: mysqlbinlog
    9.7 prints its raw bytes (the oracle's json_bytes), the 5.7 server base64:type253:AP8=
    (mysql_common's and go-mysql's reading). Both are accepted; another value is not."""
    path = Path(__file__).resolve().parents[1] / "corpus/mysql-5.7/json--row/binlog.000001.expected.jsonl"
    events = [json.loads(line) for line in path.read_text().splitlines()]
    k = next(i for i, e in enumerate(events) if e["type"] == "WRITE_ROWS_EVENT"
             and e["body"]["rows"][0]["values"][1]["type"] == "json_bytes")
    text = ('{"bin": "base64:type253:AP8=", "date": "2024-02-29", "time": "-12:34:56.789000", '
            '"decimal": -123.456, "datetime": "2024-02-29 12:34:56.123456"}')
    spelled = [*events[:k], with_value(events[k], 1, {"type": "json", "value": text}), *events[k + 1:]]
    assert compare_events(events, spelled, FULL) == []
    wrong = text.replace("AP8=", "AP4=")
    (d,) = compare_events(events, [*events[:k], with_value(events[k], 1, {"type": "json", "value": wrong}),
                                   *events[k + 1:]], FULL)
    assert "JSON" in str(d)
    (d,) = compare_events(events, [*events[:k], with_value(events[k], 1, None), *events[k + 1:]], FULL)
    assert "got None" in str(d)


def test_events_pair_by_the_kind_of_their_type_when_a_library_names_only_the_kind():
    """canal-in-Go and Debezium say "insert", not which rows event version: reported as
    WRITE_ROWS_EVENT beside a binlog's v1 events, without positions, each still pairs with its
    event (harness/align.py type_kind), so a missing one is one difference, not a cascade."""
    from harness.align import align
    rows = {"table_id": 1, "rows": []}
    expected = [{"type": t, "body": rows} for t in ("WRITE_ROWS_EVENT_V1", "UPDATE_ROWS_EVENT_V1",
                                                    "DELETE_ROWS_EVENT_V1", "WRITE_ROWS_COMPRESSED_EVENT_V1")]
    actual = [{"type": t, "body": rows} for t in ("WRITE_ROWS_EVENT", "DELETE_ROWS_EVENT", "WRITE_ROWS_EVENT")]
    caps = Capabilities(frozenset(), {"*": frozenset({"rows"})}, every_event=False)
    assert align(expected, actual, caps) == [(0, 0), (1, None), (2, 1), (3, 2)]
    assert [d.path for d in compare_events(expected, actual, caps)] == ["<event>"]
