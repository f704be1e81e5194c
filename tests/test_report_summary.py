"""The summary matrix's counts (harness/reports/summary.py): pure functions over results."""
from __future__ import annotations

from harness import expected_failures as xf
from harness.features import COLUMN_TYPES, MODES, case_features
from harness.outcomes import CaseResult, Outcome
from harness.reports.summary import EVENT_TYPES, TRANSPORT, VERSIONS, WIRE_FAULTS, summarize

FEATURES = {COLUMN_TYPES: ["LONG", "JSON"], MODES: ["row metadata FULL", "checksum CRC32"]}


def _result(case: str, outcome: Outcome, failed: list[str] = ()) -> CaseResult:
    return CaseResult(case, "p", outcome, server_version="10.11.9-MariaDB",
                      event_types=["QUERY_EVENT", "WRITE_ROWS_EVENT"], failed_types=list(failed),
                      transport="stream", features=FEATURES)


def test_cells_count_passes_failures_and_expected_failures():
    results = [_result("a", Outcome.PASS), _result("b", Outcome.MISMATCH, ["WRITE_ROWS_EVENT"]),
               _result("c", Outcome.CRASH, ["QUERY_EVENT", "WRITE_ROWS_EVENT"]),
               _result("d", Outcome.SKIPPED)]
    gate = xf.gate([r for r in results if r.parser == "p"], [xf.Entry("b", "mismatch", "", 1)])
    s = summarize(results, {"p": gate}, [{"client": "p", "fault": "cut", "acceptable": False, "verdict": "hang"},
                                         {"client": "p", "fault": "x", "acceptable": True, "verdict": "same"}])
    assert [a for a, _ in s.areas] == [EVENT_TYPES, COLUMN_TYPES, VERSIONS, MODES, TRANSPORT, WIRE_FAULTS]
    query, rows = s.cell("p", EVENT_TYPES, "QUERY_EVENT"), s.cell("p", EVENT_TYPES, "WRITE_ROWS_EVENT")
    assert (query.passed, query.total, query.failing) == (2, 3, ["c"])  # b's queries decoded right
    assert (rows.passed, rows.total, rows.expected, rows.failing) == (1, 3, 1, ["b", "c"])
    json = s.cell("p", COLUMN_TYPES, "JSON")
    assert (json.passed, json.total, json.expected) == (1, 3, 1)  # the skipped case is not counted
    assert s.cell("p", VERSIONS, "MariaDB 10.11").total == 3 and s.cell("p", TRANSPORT, "stream").total == 3
    cut = s.cell("p", WIRE_FAULTS, "cut")
    assert (cut.passed, cut.total, cut.failing) == (0, 1, ["cut"])


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
    for r in [_result("a", Outcome.PASS), _result("b", Outcome.MISMATCH), _result("c", Outcome.SKIPPED)]:
        r.parser = "p-file"
        w.append(r)
    w.close()
    rs = load_run(tmp_path)
    gate = xf.gate(rs, [xf.Entry("b", "mismatch", "", 1)])
    text = markdown(rs, {"p-file": gate}, findings, "run X")
    assert text.startswith("1 parsers × 3 cases from 1 server versions (MariaDB 10.11); from run X.")
    assert "| p-file | stream | 1/3 | 1 | 1 | 1 | 2 |" in text  # the skip has no entry: unexpected
