"""Expected failures: surprises in either direction fail the run; --fix rewrites the file."""
from __future__ import annotations

from harness import expected_failures as xf
from harness.outcomes import CaseResult, Outcome
from tests.harness_helpers import GOOD, TRUNCATED, corpus_args, needs_external, node_cmd, run_cli


def result(case, outcome, message=""):
    return CaseResult(case, "p", Outcome(outcome), message)


def test_gate_unit_cases():
    entries = xf.parse("# header\n"
                       "a mismatch 1 difference\n"
                       "b crash died\n"
                       "c rejected TruncatedEvent\n"
                       "gone timeout\n")
    g = xf.gate([result("a", "mismatch", "1 difference; first: ..."),   # as expected
                 result("b", "pass"),                                   # unexpected pass
                 result("c", "rejected", "BadHeader at offset 4"),      # other message
                 result("d", "crash", "died")], entries)                # not listed
    assert [r.case for r, _ in g.expected] == ["a"]
    assert sorted(r.case for r, _ in g.unexpected) == ["b", "c", "d"]
    assert "unexpected pass" in dict((r.case, w) for r, w in g.unexpected)["b"]
    assert [e.case for e in g.stale] == ["gone"]
    assert not g.ok


def test_an_entry_pins_every_difference_not_only_the_first():
    """Same first difference and count, another difference behind it: no longer the listed failure."""
    from harness.classify import Verdict
    from harness.compare import FieldDiff

    def run(second_actual):
        diffs = [FieldDiff(0, 4, "QUERY_EVENT", "body.query", "a", "b"),
                 FieldDiff(3, 90, "XID_EVENT", "body.xid", 7, second_actual)]
        v = Verdict(Outcome.MISMATCH, f"2 differences; first: {diffs[0]}", diffs)
        return CaseResult("a", "p", v.outcome, v.message, diff_digest=v.diff_digest())

    before, after = run(8), run(9)
    assert before.message == after.message and before.diff_digest != after.diff_digest
    entry = xf._entry_for(before)
    text = entry.render()
    assert f"diffs={before.diff_digest} 2 differences; first:" in text
    assert xf.gate([before], xf.parse(text)).ok
    g = xf.gate([after], xf.parse(text))
    assert not g.ok and f"with differences {after.diff_digest}" in g.unexpected[0][1]
    assert xf.gate([after], xf.parse("a mismatch 2 differences")).ok  # an entry without a digest: the prefix only


def test_fix_keeps_a_prefix_that_still_matches(tmp_path):
    """A prefix shortened by hand (the parser gives either of two messages) survives --fix."""
    path = tmp_path / "p.txt"
    path.write_text("# p\na rejected Error: received unexpected\nb rejected Old message\n")
    xf.fix(path, [result("a", "rejected", "Error: received unexpected message"),
                  result("b", "rejected", "New message")])
    assert [(e.case, e.prefix) for e in xf.load(path)] == [("a", "Error: received unexpected"), ("b", "New message")]


def test_wildcard_accepts_unavailable_and_goes_stale_when_unused():
    entries = xf.parse("* unavailable\n")
    assert xf.gate([result("a", "unavailable", "not installed")], entries).ok
    g = xf.gate([result("a", "pass")], entries)
    assert not g.ok and g.stale[0].case == "*"


def test_bad_expected_file_is_reported():
    import pytest
    with pytest.raises(xf.ExpectedFileError):
        xf.parse("a passed-ish\n")


@needs_external
def test_unexpected_pass_stale_entry_and_fix(tmp_path, monkeypatch):
    files = corpus_args([*GOOD[:2], TRUNCATED])
    expected = tmp_path / "node.txt"
    stale_id = "no-such-corpus/gone.000001"
    # Both good cases listed as failing (they pass: unexpected passes), plus a stale entry.
    expected.write_text(f"# node expectations\n{GOOD[0].name} mismatch 1 difference\n{stale_id} crash died\n")
    rc, _ = run_cli(tmp_path, "--parser-cmd", node_cmd(), "--expected-failures", str(expected), *files)
    assert rc == 1

    # Stale alone fails too.
    expected.write_text(f"{stale_id} crash died\n")
    rc, _ = run_cli(tmp_path, "--parser-cmd", node_cmd(), "--expected-failures", str(expected), *files)
    assert rc == 1

    # A real failure, then --fix: the file lists exactly it, keeps the comment, and the run passes.
    monkeypatch.setenv("NODE_PARSER_ALTER", "timestamp")
    expected.write_text(f"# node expectations\n{stale_id} crash died\n")
    rc, _ = run_cli(tmp_path, "--parser-cmd", node_cmd(), "--expected-failures", str(expected), *files)
    assert rc == 1
    rc, records = run_cli(tmp_path, "--parser-cmd", node_cmd(), "--expected-failures", str(expected),
                          "--fix", *files)
    assert rc == 0
    text = expected.read_text()
    assert text.startswith("# node expectations\n")
    entries = xf.parse(text)
    failing = sorted(r["case"] for r in records if r["outcome"] != "pass")
    assert sorted(e.case for e in entries) == failing and stale_id not in text
    assert all(e.outcome == "mismatch" and "timestamp" in e.prefix and e.digest.startswith("sha256:")
               for e in entries)
    rc, _ = run_cli(tmp_path, "--parser-cmd", node_cmd(), "--expected-failures", str(expected), *files)
    assert rc == 0

    # Fixed parser: the listed failures now pass, which fails the run until the list is fixed.
    monkeypatch.delenv("NODE_PARSER_ALTER")
    rc, _ = run_cli(tmp_path, "--parser-cmd", node_cmd(), "--expected-failures", str(expected), *files)
    assert rc == 1


def test_a_resource_exhaustion_entry_accepts_either_kill_and_fix_keeps_it(tmp_path):
    """A parser that hangs or allocates without end is killed by its memory limit (a crash whose
    last stderr line varies) or by the harness's timer, whichever comes first on that machine:
    `crash|timeout` accepts both with any message, and nothing else."""
    entries = xf.parse("h crash|timeout cause=X1\n")
    assert entries[0].outcomes == ("crash", "timeout") and entries[0].cause == "X1"
    for outcome, message in (("crash", "died (exit status 2): gs     0x0"), ("crash", "died: runtime/mgc.go:1695"),
                             ("timeout", "no reply within 60s")):
        assert xf.gate([result("h", outcome, message)], entries).ok, (outcome, message)
    for outcome in ("rejected", "mismatch", "pass"):
        assert not xf.gate([result("h", outcome, "x")], entries).ok, outcome
    path = tmp_path / "p.txt"
    path.write_text("h crash|timeout cause=X1\n")
    xf.fix(path, [result("h", "timeout", "no reply within 60s")])
    assert path.read_text().splitlines() == ["h crash|timeout cause=X1"]
    try:
        xf.parse("h crash|sometimes\n")
    except xf.ExpectedFileError:
        pass
    else:
        raise AssertionError("an unknown alternative outcome must be refused")


def test_a_flaky_entry_names_pass_among_its_outcomes_and_pass_alone_is_refused():
    """`mismatch|pass`: a case whose outcome varies from run to run is listed with every outcome
    it takes, its cause saying why; an outcome outside them is still unexpected, and `pass` alone
    (an expected failure that is a pass) is refused."""
    entries = xf.parse("f mismatch|pass cause=F1\n")
    assert entries[0].allows_pass
    for outcome, message in (("pass", ""), ("mismatch", "rejected as expected, but 2 differences")):
        assert xf.gate([result("f", outcome, message)], entries).ok, outcome
    assert not xf.gate([result("f", "crash", "died")], entries).ok
    assert not xf.gate([result("g", "pass")], xf.parse("g mismatch cause=F1\n")).ok
    try:
        xf.parse("h pass cause=F1\n")
    except xf.ExpectedFileError:
        pass
    else:
        raise AssertionError("`pass` alone is not an expected failure")
