"""Item 4 of issue 29: a documented refusal (a parser's manifest) makes a case not applicable:
never a pass or a failure, still run, and a parser that passes such a case is reported by the gate."""
from __future__ import annotations

from pathlib import Path

from harness import expected_failures as xf
from harness.applicability import CaseTraits, applied, covers, refusal_for, traits
from harness.corpus import discover
from harness.expectations import Expectation, expectation_for
from harness.manifests import Refusal
from harness.outcomes import CaseResult, Outcome

ROOT = Path(__file__).resolve().parents[1]


def _traits(**kw) -> CaseTraits:
    base = dict(flavor="mysql", version=(9, 7, 0), binlog_format="ROW", binlog_row_image="FULL",
                event_types=frozenset({"WRITE_ROWS_EVENT"}))
    return CaseTraits(**{**base, **kw})


def test_each_predicate_key() -> None:
    assert covers(Refusal("x", flavor="mariadb"), "p", _traits(flavor="mariadb"))
    assert not covers(Refusal("x", flavor="mariadb"), "p", _traits())
    old = Refusal("x", flavor="mysql", version_below="8.0.14")
    assert covers(old, "p", _traits(version=(5, 7, 29))) and not covers(old, "p", _traits(version=(8, 0, 14)))
    assert not covers(old, "p", _traits(version=None))
    assert covers(Refusal("x", version_from="8.4"), "p", _traits()) and not covers(Refusal("x", version_from="9.8"), "p", _traits())
    row = Refusal("x", binlog_format_not=("ROW",))
    assert covers(row, "p", _traits(binlog_format="MIXED")) and not covers(row, "p", _traits())
    assert not covers(row, "p", _traits(binlog_format=""))  # unknown: never refused on a guess
    assert covers(Refusal("x", binlog_row_image_not=("FULL",)), "p", _traits(binlog_row_image="NOBLOB"))
    payload = Refusal("x", event_types_any=("TRANSACTION_PAYLOAD_EVENT",))
    assert covers(payload, "p", _traits(event_types=frozenset({"TRANSACTION_PAYLOAD_EVENT"})))
    assert not covers(payload, "p", _traits())
    assert not covers(Refusal("x", parsers=("other",)), "p", _traits())


def _case(case_id: str):
    root = ROOT / case_id.split("/")[0]
    return next(c for c in discover(root) if c.id == case_id)


def test_traits_of_corpus_cases_and_the_refusals_they_meet() -> None:
    maria = _case("corpus/mariadb-10.11/integers--row")
    t = traits(maria.meta, expectation_for(maria))
    assert (t.flavor, t.version[:2], t.binlog_format, t.binlog_row_image) == ("mariadb", (10, 11), "ROW", "FULL")
    assert refusal_for("debezium-mysql", maria.meta, expectation_for(maria)).cause == "D5"
    assert refusal_for("mysqlbinlog", maria.meta, expectation_for(maria)).cause == "mysqlbinlog-mariadb-binlogs"
    assert refusal_for("mysql-binlog-connector-rust", maria.meta, expectation_for(maria)).cause == "mbcr-9"
    assert refusal_for("mysql-binlog-connector-rust-file", maria.meta, expectation_for(maria)) is None
    minimal = _case("corpus/mysql-9.7/integers--row-minimal")
    assert refusal_for("debezium-mysql", minimal.meta, expectation_for(minimal)).cause == "D6"
    stmt = _case("corpus/mysql-9.7/ddl_dml_basic--statement")
    assert refusal_for("go-mysql-js", stmt.meta, expectation_for(stmt)).cause == "canal-requires-row-format"
    full = _case("corpus/mysql-9.7/integers--row")
    assert all(refusal_for(p, full.meta, expectation_for(full)) is None
               for p in ("debezium-mysql", "mysqlbinlog", "go-mysql-js", "python-mysql-replication"))
    old = _case("corpus/mysql-5.7/integers--row")
    assert refusal_for("python-mysql-replication", old.meta, expectation_for(old)).cause == "pmr-supported-versions"
    assert refusal_for("a-parser-given-by-command", old.meta, expectation_for(old)) is None


def test_a_bare_binlog_gets_its_settings_from_its_events() -> None:
    """No case.json: binlog_format from DML logged as Query events (primary/written_settings.py)."""
    events = [{"type": "FORMAT_DESCRIPTION_EVENT", "body": {"server_version": "5.7.22-log"}},
              {"type": "QUERY_EVENT", "body": {"query": "INSERT INTO t VALUES (1)"}}]
    t = traits({}, Expectation(events, server_version="5.7.22-log", event_types=["QUERY_EVENT"]))
    assert (t.flavor, t.version, t.binlog_format) == ("mysql", (5, 7, 22), "STATEMENT")


def test_gate_not_applicable_is_neither_pass_nor_failure_and_a_pass_is_noted() -> None:
    refusal = Refusal("D5", flavor="mariadb")
    refused = applied(CaseResult("m", "p", Outcome.REJECTED, "version check"), refusal)
    accepted = applied(CaseResult("n", "p", Outcome.PASS), refusal)
    listed = applied(CaseResult("o", "p", Outcome.MISMATCH, "1 difference"), refusal)
    not_run = applied(CaseResult("q", "p", Outcome.UNAVAILABLE), refusal)
    assert (refused.outcome, refused.cause, refused.run_outcome) == (Outcome.NOT_APPLICABLE, "D5", "rejected")
    assert not_run.outcome is Outcome.UNAVAILABLE
    g = xf.gate([refused, accepted, listed], xf.parse("o mismatch 1 difference cause=D1\n"))
    assert g.not_applicable == [refused, accepted] and g.expected == []
    assert g.passed_not_applicable == [accepted] and accepted.run_outcome == "pass"
    why = dict((r.case, w) for r, w in g.unexpected)
    assert list(why) == ["o"] and "remove the entry" in why["o"]
    assert not g.ok
    assert xf.gate([refused, accepted], []).ok
    assert refused.to_json()["outcome"] == "not_applicable" and refused.to_json()["cause"] == "D5"


def test_the_runner_runs_a_covered_case_and_records_its_cause() -> None:
    """Through the runner: the oracle's own testee, named as a parser whose manifest refuses
    MariaDB (Debezium's D5), reads a MariaDB case; the case is run (the oracle passes it) and the
    result is not_applicable with the cause and what the testee did."""
    from harness.isolation import Limits
    from harness.plugins import launch
    from harness.runner import Target, run_case
    case = _case("corpus/mariadb-10.11/integers--row")
    target = Target("debezium-mysql", launch.named("oracle", Limits()))
    try:
        result = run_case(case, target, expectation_for(case))
        control = run_case(case, Target("oracle", target.testee), expectation_for(case))
    finally:
        target.testee.close()
    assert (result.outcome, result.cause, result.run_outcome) == (Outcome.NOT_APPLICABLE, "D5", "pass")
    assert (control.outcome, control.cause) == (Outcome.PASS, "")
    assert xf.gate([result], []).passed_not_applicable == [result]


def test_the_reports_carry_the_outcome_and_its_cause() -> None:
    from harness.reports import html, json_report, junit
    refused = CaseResult("m", "p", Outcome.NOT_APPLICABLE, "version check", cause="D5", run_outcome="rejected")
    gates = {"p": xf.gate([refused], [])}
    doc = json_report.document([refused], gates)
    assert doc["summary"]["p"] == {"not_applicable": 1}
    assert doc["gate"]["p"]["not_applicable"] == [{"case": "m", "cause": "D5", "run_outcome": "rejected"}]
    assert doc["results"][0]["cause"] == "D5" and doc["gate"]["p"]["ok"]
    skipped = junit.build([refused], gates).getroot().find("testsuite/testcase/skipped")
    assert skipped.get("message") == "not applicable (cause D5): rejected: version check"
    assert "not applicable (cause D5); the parser&#x27;s outcome: rejected" in html.render([refused], gates)


def test_a_bare_external_binlog_with_v1_rows_events_is_not_applicable_to_mysqlbinlog() -> None:
    from tests.harness_helpers import BB
    path = BB / "test-data__binlogs__write-full-row.binlog"
    if not path.exists():
        import pytest
        pytest.skip(f"external binlogs not found: {path}")
    case = next(c for c in discover(BB.parent) if c.path.name == path.name)
    exp = expectation_for(case)
    assert traits(case.meta, exp).version == (5, 1, 37)
    assert refusal_for("mysqlbinlog", case.meta, exp).cause == "mysqlbinlog-v1-rows-events"
    assert refusal_for("mariadb-binlog", case.meta, exp) is None
