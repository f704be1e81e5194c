"""`python -m harness headline DIR`: the headline numbers of a `conformance --jobs` run as
Markdown (for README.md and docs/conformance-matrix.md), from the per-parser results in
DIR/<parser>/results.jsonl, so no number is typed by hand. `python -m harness report DIR` rebuilds
the combined HTML report from the same results (and can screenshot it in chromium)."""
from __future__ import annotations

import argparse
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path

from . import expected_failures as xf
from . import results
from .checks import AREAS, add_counts, share
from .jobs import RESULTS
from .outcomes import CaseResult, Outcome
from .parsers.registry import BY_NAME
from .reports import browser, html
from .findings_doc import combined_text
from .reports.matrix import NOT_KNOWN, _group_key, version_group

_SECTION = re.compile(r"^## (\S+)")
_NUMBERED = re.compile(r"^### \d+[a-z]?\. ")


def load_run(out: Path) -> list[CaseResult]:
    found = sorted(out.glob(f"*/{RESULTS}"))
    if not found:
        raise SystemExit(f"error: no {RESULTS} under {out}/<parser>/ (a `conformance --jobs` run's --out)")
    return sorted((r for p in found for r in results.load(p)), key=lambda r: (r.parser, r.case))


def numbered_findings(text: str) -> dict[str, int]:
    """Numbered findings (`### 1.`, `### 7b.`) per `## <parser>` section of docs/findings.md; a
    section named after a library covers its file and stream parsers alike."""
    counts: dict[str, int] = {}
    section = None
    for line in text.splitlines():
        if m := _SECTION.match(line):
            section = m[1]
            counts.setdefault(section, 0)
        elif section and _NUMBERED.match(line):
            counts[section] += 1
    return {k: v for k, v in counts.items() if v}


def _findings_of(parser: str, counts: dict[str, int], text: str) -> str:
    """Numbered findings of its section; "table" where its defects are a row of a table (the
    Node parsers'); "-" where docs/findings.md has none (the reference tools, the oracle)."""
    base = parser.removesuffix("-file")
    if base in counts:
        return str(counts[base])
    return "table" if re.search(rf"^\| {re.escape(parser)}[ |(]", text, re.M) else "-"


@dataclass
class Row:
    parser: str
    transport: str
    cases: int
    passed: int
    expected: int
    unexpected: int
    not_run: int  # skipped or unavailable
    not_applicable: int = 0  # refusals its manifest documents: outside every denominator
    areas: dict[str, dict[str, int]] = field(default_factory=dict)  # checks by area (harness/checks.py)

    @property
    def applicable(self) -> int:
        """The cases with a verdict: neither a documented refusal nor left unrun."""
        return self.cases - self.not_applicable - self.not_run


def rows(rs: list[CaseResult], gates: dict[str, xf.Gate]) -> list[Row]:
    out = []
    for parser in sorted({r.parser for r in rs}):
        # one row per case: a stream parser's position mode (its other modes: the report's mode table)
        mine = [r for r in rs if r.parser == parser and r.mode in (None, "position")]
        gate = gates[parser]
        not_run = sum(r.outcome in (Outcome.SKIPPED, Outcome.UNAVAILABLE) for r in mine)
        entry = BY_NAME.get(parser)
        transport = entry.transport if entry is not None else mine[0].transport
        areas: dict[str, dict[str, int]] = {a: {} for a in AREAS}
        for r in mine:
            if r.outcome not in NOT_KNOWN:
                for a in AREAS:
                    add_counts(areas[a], ((r.checks or {}).get("by_area") or {}).get(a))
        out.append(Row(parser, transport, len(mine), sum(r.outcome is Outcome.PASS for r in mine),
                       sum(r.mode in (None, "position") for r, _ in gate.expected), len(gate.unexpected), not_run,
                       sum(r.outcome is Outcome.NOT_APPLICABLE for r in mine), areas))
    return out


def share_text(counts: dict[str, int]) -> str:
    """`99.1%` of the checks compared, `-` when none was (never shown as a pass)."""
    ratio = share(counts)
    return "-" if ratio is None else f"{ratio:.1%}".replace("100.0%", "100%")


def gates_for(rs: list[CaseResult], expected_dir: Path | None) -> dict[str, xf.Gate]:
    gates = {}
    for parser in sorted({r.parser for r in rs}):
        path = expected_dir / f"{parser}.txt" if expected_dir else None
        gates[parser] = xf.gate([r for r in rs if r.parser == parser], xf.load(path) if path else [])
    return gates


def markdown(rs: list[CaseResult], gates: dict[str, xf.Gate], findings: str, source: str) -> str:
    cases = {r.case for r in rs}
    versions = sorted({version_group(r.server_version) for r in rs} - {"unknown"}, key=_group_key)
    counts = numbered_findings(findings)
    lines = [f"{len(gates)} parsers × {len(cases)} cases from {len(versions)} server versions "
             f"({', '.join(versions)}); from {source}.", "",
             "Strict passes: cases whose every check passed, of the applicable cases (a refusal the "
             "parser documents is not applicable; skipped cases are not run). Checks passed: of the "
             "checks compared (harness/checks.py), in row values, event metadata and event framing.", "",
             "| parser | transport | applicable | strict passes | row values | event metadata | event framing "
             "| expected failures | unexpected | not applicable | skipped | findings (docs/findings.md) |",
             "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for row in rows(rs, gates):
        shares = " | ".join(share_text(row.areas[a]) for a in AREAS)
        lines.append(f"| {row.parser} | {row.transport} | {row.applicable} | {row.passed}/{row.applicable} | "
                     f"{shares} | {row.expected} | {row.unexpected} | {row.not_applicable} | {row.not_run} | "
                     f"{_findings_of(row.parser, counts, findings)} |")
    return "\n".join(lines) + "\n"


def headline_command(args: argparse.Namespace) -> int:
    rs = load_run(Path(args.dir))
    gates = gates_for(rs, Path(args.expected_failures) if args.expected_failures else None)
    findings = combined_text()  # docs/findings.md and its pages, docs/findings/*.md
    sys.stdout.write(markdown(rs, gates, findings, args.source or f"the run in {args.dir}"))
    return 0


def report_command(args: argparse.Namespace) -> int:
    rs = load_run(Path(args.dir))
    gates = gates_for(rs, Path(args.expected_failures) if args.expected_failures else None)
    wire = None
    if args.wire_faults:
        from .gating import load_wire_faults
        wire = load_wire_faults(args.wire_faults)
    page = Path(args.html)
    html.write(page, rs, gates, wire)
    print(f"{page}: {len(rs)} results of {len(gates)} parsers", file=sys.stderr)
    if args.screenshot:
        png = browser.screenshot(page, Path(args.screenshot), args.width, args.height)
        print(f"{png}: screenshot", file=sys.stderr)
    return 0


def add_commands(sub: argparse._SubParsersAction) -> None:
    h = sub.add_parser("headline", help="the headline numbers of a `conformance --jobs` run, as Markdown")
    h.add_argument("dir", help="the run's --out directory")
    h.add_argument("--expected-failures", metavar="DIR", default="harness/expected",
                   help="the <parser>.txt files the run was gated on (default harness/expected)")
    h.add_argument("--source", help="how to name the run in the text (default: its directory)")
    h.set_defaults(run=headline_command)
    r = sub.add_parser("report", help="rebuild the combined HTML report of a `conformance --jobs` run")
    r.add_argument("dir", help="the run's --out directory")
    r.add_argument("--expected-failures", metavar="DIR", default="harness/expected")
    r.add_argument("--html", default="report.html", metavar="FILE")
    r.add_argument("--wire-faults", metavar="FILE", help="`python -m harness faults --json` results")
    r.add_argument("--screenshot", metavar="PNG", help="also render it in headless chromium to PNG")
    r.add_argument("--width", type=int, default=2400)
    r.add_argument("--height", type=int, default=900)
    r.set_defaults(run=report_command)
