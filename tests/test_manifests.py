"""Item 5 of issue 29: every expected-failure entry of every built-in parser carries a cause, and
every cause is a finding of that parser's manifest (harness/manifests.py); --fix keeps causes.
No server, no parser run: reads the committed files."""
from __future__ import annotations

from pathlib import Path

import pytest

from harness import expected_failures as xf
from harness import manifests
from harness.outcomes import CaseResult, Outcome
from harness.parsers.registry import PARSERS

ROOT = Path(__file__).resolve().parents[1]
EXPECTED = ROOT / "harness" / "expected"


@pytest.mark.parametrize("parser", [p.name for p in PARSERS])
def test_every_entry_has_a_cause_that_is_a_finding(parser: str) -> None:
    manifest = manifests.for_parser(parser)
    entries = xf.load(EXPECTED / f"{parser}.txt")
    without = [e.case for e in entries if not e.cause]
    unknown = sorted({e.cause for e in entries if e.cause and e.cause not in manifest.findings})
    assert without == [], f"{parser}: {len(without)} entries without cause=<finding id>: {without[:5]}"
    assert unknown == [], f"{parser}: causes that are no finding of {manifest.folder}/manifest.toml: {unknown}"


def test_every_parser_has_a_manifest_and_every_finding_a_test_or_a_reason() -> None:
    for p in PARSERS:
        m = manifests.for_parser(p.name)
        assert (manifests.PARSERS_DIR / manifests.folder_of(p) / manifests.MANIFEST).is_file()
        assert (ROOT / m.page).is_file() or m.page.endswith("README.md"), f"{p.name}: page {m.page}"
        for f in m.own_findings():
            assert f.status in manifests.STATUSES and f.title and f.test
            assert f.test.startswith(("tests/", "no live test: ", "corpus/findings/")), f"{f.id}: {f.test}"


def test_a_cause_is_parsed_rendered_and_does_not_touch_the_prefix() -> None:
    text = "a mismatch diffs=sha256:00ff 1 difference; first: x cause=pmr-3\nb crash died cause=D5\nc rejected no cause\n"
    a, b, c = xf.parse(text)
    assert (a.prefix, a.digest, a.cause) == ("1 difference; first: x", "sha256:00ff", "pmr-3")
    assert (b.prefix, b.cause) == ("died", "D5")
    assert (c.prefix, c.cause) == ("no cause", "")
    assert xf.parse(a.render() + "\n")[0] == xf.Entry(a.case, a.outcome, a.prefix, 1, a.digest, a.cause)
    assert a.matches(CaseResult("a", "p", Outcome.MISMATCH, "1 difference; first: x y", diff_digest="sha256:00ff"))


def test_not_applicable_is_no_entry_outcome() -> None:
    with pytest.raises(xf.ExpectedFileError):
        xf.parse("a not_applicable whatever\n")


def test_fix_keeps_the_cause_of_a_case_it_rewrites(tmp_path: Path) -> None:
    path = tmp_path / "p.txt"
    path.write_text("# header\na rejected Old message cause=C1\nb crash died cause=C6\n")
    results = [CaseResult("a", "p", Outcome.REJECTED, "New message"),   # other message: cause kept
               CaseResult("b", "p", Outcome.CRASH, "died again"),       # same prefix: kept
               CaseResult("c", "p", Outcome.MISMATCH, "1 difference"),  # new: no cause yet
               CaseResult("d", "p", Outcome.NOT_APPLICABLE, "refused", cause="D5", run_outcome="rejected")]
    assert xf.fix(path, results) == 3
    by_case = {e.case: e for e in xf.load(path)}
    assert (by_case["a"].prefix, by_case["a"].cause) == ("New message", "C1")
    assert (by_case["b"].prefix, by_case["b"].cause) == ("died", "C6")
    assert by_case["c"].cause == ""
    assert "d" not in by_case


def _refused(text: str, tmp_path: Path, monkeypatch) -> str:
    """The ManifestError of a lone manifest `lib` holding text (harness-shared beside it, empty)."""
    for folder, body in (("harness-shared", 'page = "x"\n'), ("lib", text)):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "manifest.toml").write_text(body)
    monkeypatch.setattr(manifests, "PARSERS_DIR", tmp_path)
    manifests.load.cache_clear()
    try:
        with pytest.raises(manifests.ManifestError) as refused:
            manifests.load("lib")
        return str(refused.value)
    finally:
        manifests.load.cache_clear()


def test_a_manifest_rejects_a_refusal_whose_cause_is_no_finding(tmp_path: Path, monkeypatch) -> None:
    text = 'page = "x"\n[[not_applicable]]\ncause = "nope"\nflavor = "mariadb"\n'
    assert "nope" in _refused(text, tmp_path, monkeypatch)


def test_a_manifest_is_no_build_input(tmp_path: Path) -> None:
    """Editing a parser's findings or refusals must not rebuild its adapter (harness/runtimes)."""
    from harness.runtimes.node import RUNTIME
    folder = tmp_path / "lib"
    folder.mkdir()
    (folder / "adapter.js").write_text("// adapter\n")
    before = RUNTIME.digest(folder)
    (folder / manifests.MANIFEST).write_text('page = "docs/findings/x.md"\n')
    assert RUNTIME.digest(folder) == before
    (folder / "adapter.js").write_text("// changed\n")
    assert RUNTIME.digest(folder) != before


def test_liveness_is_declared_for_stream_testees_only() -> None:
    """issue 33, item 2: a liveness entry names a built-in stream testee and says how its adapter
    sets it; the wire faults judge that client at its seconds plus a margin."""
    from harness.parsers.registry import BY_NAME, STREAM
    declared = {name: lv for p in PARSERS for name, lv in manifests.load(manifests.folder_of(p)).liveness.items()}
    assert {"debezium-mysql", "debezium-mariadb", "mysql-binlog-connector-rust"} <= set(declared)
    for name, lv in declared.items():
        assert BY_NAME[name].transport == STREAM, name
        assert lv.seconds > 0 and lv.configured, name


def test_a_manifest_rejects_a_liveness_without_seconds(tmp_path: Path, monkeypatch) -> None:
    text = 'page = "x"\n[liveness.go-mysql]\nconfigured = "ReadTimeout"\n'
    assert "liveness.go-mysql" in _refused(text, tmp_path, monkeypatch)
