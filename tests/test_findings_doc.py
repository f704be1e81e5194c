"""Item 5 of issue 29: docs/findings' counts and case lists are generated from the gate files;
this is the CI check (`python -m harness findings --check`, well under a second)."""
from __future__ import annotations

import shutil
from pathlib import Path

from harness import findings_doc

ROOT = Path(__file__).resolve().parents[1]


def test_the_findings_pages_agree_with_the_gate_files() -> None:
    problems = findings_doc.check()
    assert problems == [], "\n".join(problems) + "\nrun `python -m harness findings --write`"


def test_a_changed_gate_file_is_seen_and_write_repairs_it(tmp_path: Path) -> None:
    shutil.copytree(ROOT / "docs", tmp_path / "docs")
    shutil.copytree(ROOT / "harness" / "expected", tmp_path / "harness" / "expected")
    canal = tmp_path / "harness" / "expected" / "canal.txt"
    lines = canal.read_text().splitlines()
    canal.write_text("\n".join(line for line in lines if "mariadb-11.8/integers--row " not in line) + "\n")
    problems = findings_doc.check(tmp_path)
    assert len(problems) == 2 and "canal" in problems[1]  # the index's table and the Canal page
    assert findings_doc.write(tmp_path) == [Path("docs/findings.md"), Path("docs/findings/canal.md")]
    assert findings_doc.check(tmp_path) == []
    entries = sum(1 for line in canal.read_text().splitlines() if line.strip() and not line.startswith("#"))
    assert f"| canal | [canal](findings/canal.md) | {entries} |" in (tmp_path / "docs/findings.md").read_text()


def test_every_page_is_linked_from_the_index_and_links_back() -> None:
    index = (ROOT / "docs" / "findings.md").read_text()
    for page in sorted((ROOT / "docs" / "findings").glob("*.md")):
        assert f"](findings/{page.name})" in index, page.name
        assert "](../findings.md)" in page.read_text(), page.name


def test_the_headline_still_counts_each_librarys_numbered_findings_after_the_split() -> None:
    from harness.headline import numbered_findings
    counts = numbered_findings(findings_doc.combined_text())
    assert counts["python-mysql-replication"] == 15 and counts["go-mysql"] == 7
    assert counts["mysql-binlog-connector-java"] == 11 and counts["mysql-binlog-connector-rust"] == 16
