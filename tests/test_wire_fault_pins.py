"""The pinned wire-fault verdicts (harness/wire_faults/expected.py): what needs a pin, how a run is
gated against the pins, what --fix writes; and every committed pin file parses and names a cause
that is a finding of its client's manifest."""
from __future__ import annotations

from pathlib import Path

import pytest

from harness import manifests
from harness.wire_faults import doc
from harness.wire_faults import expected as pins
from harness.wire_faults.catalogue import BY_NAME

PIN_DIR = doc.PIN_DIR


def test_a_legal_fault_asks_the_same_events_and_an_error_fault_allows_a_clean_failure() -> None:
    assert {str(v) for v in pins.ideal(BY_NAME["trickle"])} == {"same"}
    assert {str(v) for v in pins.ideal(BY_NAME["seq-id-skip"])} == {"same", "clean-failure"}


def test_a_line_keeps_its_alternatives_note_and_cause_through_a_render() -> None:
    text = "# header\nstall-mid-packet hang|clean-failure no reply in 30 s cause=mbcj-4\nseq-id-skip unnoticed\n"
    stall, skip = pins.parse(text)
    assert (stall.verdicts, stall.note, stall.cause, stall.line) == (("hang", "clean-failure"), "no reply in 30 s",
                                                                     "mbcj-4", 2)
    assert (skip.verdicts, skip.note, skip.cause) == (("unnoticed",), "", "")
    assert pins.parse(stall.render())[0] == pins.Pin(stall.fault, stall.verdicts, stall.cause, stall.note, 1)


@pytest.mark.parametrize("line", ["no-such-fault hang", "trickle slow", "trickle"])
def test_a_line_with_an_unknown_fault_or_verdict_is_refused_with_its_place(line: str) -> None:
    with pytest.raises(pins.PinFileError, match=r"x\.txt:1:"):
        pins.parse(line, "x.txt")


def _v(fault: str, verdict: str, detail: str = "", injected: bool = True) -> pins.Verdicted:
    return pins.Verdicted.of(fault, verdict, detail, injected)


def test_a_fault_never_injected_needs_a_pin_whatever_the_verdict() -> None:
    assert not _v("err-mid-stream", "clean-failure").needs_pin
    never = _v("err-mid-stream", "clean-failure", injected=False)
    assert never.needs_pin and never.verdict == pins.NOT_INJECTED
    assert _v("seq-id-skip", "unnoticed").needs_pin and _v("trickle", "hang").needs_pin


def test_the_gate_fails_on_an_unpinned_verdict_a_changed_one_and_a_pin_the_client_outgrew() -> None:
    listed = pins.parse("seq-id-skip unnoticed cause=a\ntrickle hang cause=b\nstall-mid-packet hang cause=c\n"
                        "cut-mid-packet hang cause=d\nerr-mid-stream not-injected cause=e\n"
                        "rotate-missing clean-failure|lost-or-duplicated varies cause=f\n")
    results = [_v("seq-id-skip", "unnoticed", "all 48"),         # as pinned
               _v("trickle", "same", "all 48"),                  # fixed: the pin is stale
               _v("stall-mid-packet", "crash", "died"),          # changed
               _v("flipped-checksum", "unnoticed", "all 48"),    # not pinned
               _v("rotate-missing", "clean-failure", "ERR"),     # one of the pinned alternatives
               _v("err-mid-stream", "clean-failure", "ERR", injected=False),  # as pinned
               _v("seq-id-repeat", "clean-failure", "ERR")]      # ideal, no pin needed
    g = pins.gate("client", results, listed)                     # cut-mid-packet not run: neither used nor stale
    assert g.expected == 3
    assert [p.fault for p in g.stale] == ["trickle"]
    assert [u.split(":")[0] for u in g.unexpected] == ["stall-mid-packet", "flipped-checksum"]
    assert not g.ok
    assert pins.gate("client", [results[0], *results[4:]], listed).ok


def test_fix_writes_what_the_run_needs_and_keeps_causes_and_pins_of_faults_not_run(tmp_path: Path) -> None:
    path = tmp_path / "client.txt"
    path.write_text("# mine\nseq-id-skip unnoticed cause=a\ntrickle hang cause=b\ncut-mid-packet hang cause=d\n")
    written = pins.fix(path, [_v("seq-id-skip", "unnoticed", "all"), _v("trickle", "same", "all"),
                              _v("stall-mid-packet", "hang", "no reply in 30 s; cause=x")], "unused header")
    text = path.read_text()
    assert written == 3 and text.startswith("# mine\n")
    assert [(p.fault, p.verdicts, p.cause) for p in pins.parse(text)] == [
        ("seq-id-skip", ("unnoticed",), "a"), ("cut-mid-packet", ("hang",), "d"), ("stall-mid-packet", ("hang",), "")]
    assert "cause:x" in text  # a detail's words never read as a cause


@pytest.mark.parametrize("path", sorted(PIN_DIR.glob("*.txt")), ids=lambda p: p.stem)
def test_every_committed_pin_names_a_finding_of_its_client(path: Path) -> None:
    listed = pins.parse(path.read_text(encoding="utf-8"), str(path))
    manifest = manifests.for_parser(path.stem.removesuffix("-raw"))  # mysqlbinlog-raw: mysqlbinlog's
    assert manifest is not None, f"{path}: no built-in parser of that name"
    assert [p.fault for p in listed if not p.cause] == [], f"{path}: pins without cause=<finding id>"
    assert sorted({p.cause for p in listed} - set(manifest.findings)) == [], \
        f"{path}: causes that are no finding of {manifest.folder}/manifest.toml"


def test_the_generated_table_of_docs_wire_faults_bolds_exactly_the_pins() -> None:
    text = doc.DOC.read_text(encoding="utf-8")
    pinned = {(path.stem, p.fault) for path in PIN_DIR.glob("*.txt") for p in pins.load(path)}
    assert doc.BEGIN in text, "docs/wire-faults.md has no generated table: python -m harness.wire_faults.doc RESULTS"
    bold = doc.bold_cells(text)
    assert sorted(bold - pinned) == [], "bold in the table, not pinned: regenerate the table from a run"
    assert sorted(pinned - bold) == [], "pinned, not bold in the table: regenerate the table from a run"


def test_the_generated_part_of_docs_wire_faults_is_current_with_the_pins_and_their_findings() -> None:
    """Rendering the doc's own run again (python -m harness.wire_faults.doc, no JSON) changes
    nothing: every pin's cause and its finding's title below the table are the committed ones."""
    text = doc.DOC.read_text(encoding="utf-8")
    assert doc.replace_between(text, doc.BEGIN, doc.END, doc.render(doc.results_in(text))) == text, \
        "regenerate: python -m harness.wire_faults.doc"


def test_a_client_is_judged_at_its_own_liveness_plus_a_margin_when_that_is_longer() -> None:
    """issue 33, item 2: Debezium notices a silent primary within two 60 s keep-alive intervals,
    the Rust connector at its 60 s read timeout; a client with no liveness setting is judged at
    --timeout."""
    from harness.wire_faults.cli import LIVENESS_MARGIN, limits_for
    assert limits_for("debezium-mysql", 30).timeout == 120 + LIVENESS_MARGIN
    assert limits_for("mysql-binlog-connector-rust", 30).timeout == 60 + LIVENESS_MARGIN
    assert limits_for("mysql-binlog-connector-rust", 300).timeout == 300
    assert limits_for("go-mysql", 30).timeout == 30
    assert limits_for("./my-parser --stream", 30).timeout == 30


def test_a_merged_run_replaces_only_its_own_cells() -> None:
    shown = [{"client": "a", "fault": "healthy", "verdict": "same"}, {"client": "a", "fault": "trickle", "verdict": "hang"},
             {"client": "b", "fault": "healthy", "verdict": "same"}]
    newer = [{"client": "a", "fault": "trickle", "verdict": "same"}, {"client": "c", "fault": "healthy", "verdict": "crash"}]
    assert [(r["client"], r["fault"], r["verdict"]) for r in doc.merged(shown, newer)] == [
        ("a", "healthy", "same"), ("a", "trickle", "same"), ("b", "healthy", "same"), ("c", "healthy", "crash")]
