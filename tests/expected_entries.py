"""The committed expected-failure entries of some corpus cases, rewritten for a run over those
case directories alone (the ids such a run gives them: `<case>/.` for a one-file case), and a
conformance run of a built adapter gated by them."""
from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def entries_for(cases: list[str], name: str, tmp_path: Path) -> tuple[Path, int]:
    """A file of the parser's entries for these one-file cases, and how many there are."""
    wanted = {case: f"{Path(case).name}/." for case in cases}
    lines = (ROOT / "harness" / "expected" / f"{name}.txt").read_text().splitlines()
    kept = [wanted[line.split(" ", 1)[0]] + " " + line.split(" ", 1)[1]
            for line in lines if line.split(" ", 1)[0] in wanted]
    out = tmp_path / f"{name}.txt"
    out.write_text("\n".join(kept) + "\n")
    return out, len(kept)


@dataclass(frozen=True)
class Gate:
    summary: str        # the run's stdout and stderr
    returncode: int
    outcomes: list[str]
    entries: int        # the committed entries of these cases


def gate(command: list[str], transport: str, name: str, cases: list[str], tmp_path: Path) -> Gate:
    """`harness conformance` over the cases with a persistent adapter command, gated by the
    parser's committed entries for them."""
    entries, count = entries_for(cases, name, tmp_path)
    argv = [sys.executable, "-m", "harness", "conformance", "--parser-persistent",
            " ".join([*command, transport]), "--expected-failures", str(entries),
            "--results", str(tmp_path / "results.jsonl"), "--quiet", "--modes", "position"]
    for case in cases:
        argv += ["--corpus", case]
    proc = subprocess.run(argv, cwd=ROOT, capture_output=True, text=True, timeout=600)
    outcomes = [json.loads(line)["outcome"] for line in (tmp_path / "results.jsonl").read_text().splitlines()]
    return Gate(proc.stdout + proc.stderr, proc.returncode, outcomes, count)
