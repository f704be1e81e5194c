"""JUnit XML: one testsuite per parser, one testcase per case. Unexpected outcomes are
failures; expected failures, skips and unavailable tools are skipped (with the reason), so CI
dashboards show them without failing on them."""
from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

from ..expected_failures import Gate
from ..outcomes import CaseResult, Outcome


def build(results: list[CaseResult], gates: dict[str, Gate]) -> ET.ElementTree:
    root = ET.Element("testsuites", name="binlog-conformance")
    by_parser: dict[str, list[CaseResult]] = {}
    for r in results:
        by_parser.setdefault(r.parser, []).append(r)
    for parser, rs in sorted(by_parser.items()):
        gate = gates.get(parser, Gate())
        unexpected = {id(r): why for r, why in gate.unexpected}
        suite = ET.SubElement(root, "testsuite", name=parser, tests=str(len(rs) + len(gate.stale)))
        failures = skipped = 0
        for r in rs:
            tc = ET.SubElement(suite, "testcase", classname=f"conformance.{parser}", name=r.key,
                               time=f"{r.duration:.3f}")
            if id(r) in unexpected:
                failures += 1
                el = ET.SubElement(tc, "failure", message=unexpected[id(r)][:500], type=r.outcome.value)
                el.text = "\n".join([r.message, *(str(d) for d in r.diffs), r.log]).strip()
            elif r.outcome is not Outcome.PASS:
                skipped += 1
                why = "expected failure" if gate.is_expected(r) else r.outcome.value
                if r.outcome is Outcome.NOT_APPLICABLE:  # what the parser did, and the refusal that covers it
                    why, shown = f"not applicable (cause {r.cause})", r.run_outcome
                else:
                    shown = r.outcome.value
                ET.SubElement(tc, "skipped", message=f"{why}: {shown}: {r.message}"[:500])
        for e in gate.stale:
            failures += 1
            tc = ET.SubElement(suite, "testcase", classname=f"conformance.{parser}", name=e.case)
            ET.SubElement(tc, "failure", message="stale expected-failure entry: case was not run",
                          type="stale")
        suite.set("failures", str(failures))
        suite.set("skipped", str(skipped))
        suite.set("errors", "0")
    ET.indent(root)
    return ET.ElementTree(root)


def write(path: Path, results: list[CaseResult], gates: dict[str, Gate]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    build(results, gates).write(path, encoding="utf-8", xml_declaration=True)
