"""The summary matrix's counts (harness/reports/summary.py): pure functions over results."""
from __future__ import annotations

from harness import expected_failures as xf
from harness.features import COLUMN_TYPES, MODES, case_features
from harness.outcomes import CaseResult, Outcome
from harness.reports.summary import EVENT_TYPES, TRANSPORT, VERSIONS, WIRE_FAULTS, summarize

FEATURES = {COLUMN_TYPES: ["LONG", "JSON"], MODES: ["row metadata FULL", "checksum CRC32"]}


def _counts(passed: int, failed: int = 0, nc: int = 0) -> dict[str, int]:
    return {"passed": passed, "failed": failed, "not_compared": nc}


def _checks(query: tuple, rows: tuple, json: tuple = (3, 0, 0)) -> dict:
    """A result's checks: QUERY_EVENT's and WRITE_ROWS_EVENT's, the rows' JSON values among them."""
    total = [q + r for q, r in zip(query, rows)]
    return {**_counts(*total), "by_event_type": {"QUERY_EVENT": _counts(*query), "WRITE_ROWS_EVENT": _counts(*rows)},
            "by_column_type": {"JSON": _counts(*json), "LONG": _counts(2)},
            "by_area": {"framing": _counts(*query), "row_values": _counts(*rows)}}


CHECKS = {"a": _checks((10, 0, 0), (5, 0, 0)), "b": _checks((10, 0, 0), (4, 1, 0), (2, 1, 0)),
          "c": _checks((2, 1, 7), (0, 0, 5), (0, 0, 3)), "d": {}}


def _result(case: str, outcome: Outcome, failed: list[str] = ()) -> CaseResult:
    return CaseResult(case, "p", outcome, server_version="10.11.9-MariaDB",
                      event_types=["QUERY_EVENT", "WRITE_ROWS_EVENT"], failed_types=list(failed),
                      transport="stream", features=FEATURES, checks=CHECKS.get(case, {}))


def test_cells_count_checks_passed_failed_and_not_compared():
    """b has one wrong row value: its queries and its other values still count as passed; c
    crashed after two QUERY_EVENTs: its rows were never compared, so they are not a pass."""
    results = [_result("a", Outcome.PASS), _result("b", Outcome.MISMATCH, ["WRITE_ROWS_EVENT"]),
               _result("c", Outcome.CRASH, ["QUERY_EVENT", "WRITE_ROWS_EVENT"]),
               _result("d", Outcome.SKIPPED), _result("e", Outcome.NOT_APPLICABLE)]
    gate = xf.gate([r for r in results if r.parser == "p"], [xf.Entry("b", "mismatch", "", 1)])
    s = summarize(results, {"p": gate}, [{"client": "p", "fault": "cut", "acceptable": False, "verdict": "hang"},
                                         {"client": "p", "fault": "x", "acceptable": True, "verdict": "same"}])
    assert [a for a, _ in s.areas] == [EVENT_TYPES, COLUMN_TYPES, VERSIONS, MODES, TRANSPORT, WIRE_FAULTS]
    query, rows = s.cell("p", EVENT_TYPES, "QUERY_EVENT"), s.cell("p", EVENT_TYPES, "WRITE_ROWS_EVENT")
    assert (query.passed, query.failed, query.not_compared, query.cases, query.failing) == (22, 1, 7, 3, ["c"])
    assert (rows.passed, rows.failed, rows.not_compared, rows.expected, rows.failing) == (9, 1, 5, 1, ["b"])
    json = s.cell("p", COLUMN_TYPES, "JSON")
    assert (json.passed, json.failed, json.not_compared, json.cases) == (5, 1, 3, 3)  # d, e not counted
    assert s.cell("p", COLUMN_TYPES, "LONG").ratio == 1.0
    version = s.cell("p", VERSIONS, "MariaDB 10.11")
    assert (version.passed, version.failed, version.cases) == (31, 2, 3)  # not 1 of 3 cases
    assert s.cell("p", TRANSPORT, "stream").cases == 3
    cut = s.cell("p", WIRE_FAULTS, "cut")
    assert (cut.passed, cut.failed, cut.failing) == (0, 1, ["cut"])


def test_a_cell_with_nothing_compared_is_grey_never_green():
    from harness.reports.summary_html import _cell
    crashed = summarize([_result("c", Outcome.CRASH)], {}).cell("p", EVENT_TYPES, "WRITE_ROWS_EVENT")
    assert crashed.ratio is None and crashed.not_compared == 5
    html = _cell(crashed, "x", "")
    assert 'class="nc"' in html and "hsl(" not in html


def test_features_from_events_when_case_json_has_no_settings():
    events = [{"type": "FORMAT_DESCRIPTION_EVENT", "body": {"checksum_alg": "CRC32"}},
              {"type": "GTID_LOG_EVENT", "body": {}},
              {"type": "TABLE_MAP_EVENT", "body": {"column_type_names": ["MYSQL_TYPE_LONG", "MYSQL_TYPE_JSON"],
                                                   "optional_metadata": [{"name": "SIGNEDNESS"}]}}]
    assert case_features({}, events) == {COLUMN_TYPES: ["JSON", "LONG"],
                                         MODES: ["row metadata MINIMAL", "checksum CRC32", "GTID ON"]}
    meta = {"config": {"settings": {"binlog_row_image": "noblob", "binlog_row_metadata": "FULL"}}}
    assert case_features(meta, events)[MODES] == ["row metadata FULL", "row image NOBLOB", "checksum CRC32",
                                                  "GTID ON"]


def test_headline_counts_from_results_and_findings(tmp_path):
    from harness import results
    from harness.headline import load_run, markdown, numbered_findings
    findings = "## p (lib)\n### 1. a\n### 7b. b\n### Not numbered\n## q\ntext\n"
    assert numbered_findings(findings) == {"p": 2}
    w = results.ResultsWriter(tmp_path / "p-file" / "results.jsonl", resume=False)
    for r in [_result("a", Outcome.PASS), _result("b", Outcome.MISMATCH), _result("d", Outcome.SKIPPED),
              _result("e", Outcome.NOT_APPLICABLE)]:
        r.parser = "p-file"
        w.append(r)
    w.close()
    rs = load_run(tmp_path)
    gate = xf.gate(rs, [xf.Entry("b", "mismatch", "", 1)])
    text = markdown(rs, {"p-file": gate}, findings, "run X")
    assert text.startswith("1 parsers × 4 cases from 1 server versions (MariaDB 10.11); from run X.")
    # applicable: a and b; checks: rows 9 of 10, metadata none compared, framing 20 of 20;
    # unexpected: d only (a skip without an entry); e is not applicable and needs none
    assert "| p-file | stream | 2 | 1/2 | 90.0% | - | 100% | 1 | 1 | 1 | 1 | 2 |" in text
