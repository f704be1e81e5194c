"""The triage table of the recorded native findings (docs/findings/native-fuzzing.md): one
row per case, from its case.json and the oracle's reason to reject the input.

    python -m harness.fuzz.native.report [corpus/findings]
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

from . import TARGETS

REPLAY = {  # the library alone, outside the fuzzing engine, on the case's binlog
    "go": "<build>/replay-bin {entry} corpus/findings/{parser}/{case}/binlog  # harness/parsers/go-fuzz-shared/replay, the library alone",
    "jvm": "java -cp <build>/target/*:<build>/lib/* conformance.fuzz.Replay {entry} corpus/findings/{parser}/{case}/binlog",
    "rust": "<build>/adapter corpus/findings/{parser}/{case}/binlog  # libFuzzer binary, one run",
    "python": "python -m harness.fuzz.native.python replay corpus/findings/{parser}/{case}/binlog {parser}",
}


def rows(findings: Path) -> list[str]:
    out = []
    for case_json in sorted(findings.glob("*/*/case.json")):
        case = json.loads(case_json.read_text())
        f = case.get("finding", {})
        if not str(f.get("engine", "")).startswith("native"):
            continue
        last = (case_json.parent / "binlog.expected.jsonl").read_text().strip().splitlines()[-1]
        error = json.loads(last).get("error")
        oracle = f"rejects: {error['kind']} at {error['offset']}" if error else "decodes it"
        out.append(f"| {f['parser']}/{case_json.parent.name} | `{f['signature']}` | {f['entry_point']} | "
                   f"{f['size']} | {f['detail'][:90].replace('|', '/')} | {oracle} |")
    return out


def main(argv: list[str]) -> int:
    findings = Path(argv[0]) if argv else Path(__file__).resolve().parents[3] / "corpus" / "findings"
    print("| case | signature | entry point | bytes | what the library does | oracle |")
    print("|---|---|---|---|---|---|")
    print("\n".join(rows(findings)))
    print()
    for target in TARGETS.values():
        print(f"- {target.parser}: `{REPLAY[target.runtime].format(entry='<entry point>', parser=target.parser, case='<case>')}`")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
