"""Turn a fuzz finding into a corpus case: minimise the reproducer (drop whole events, with the
operators' repairs, while the same finding still shows), then write

    corpus/findings/<parser>/<kind>-<sha12>/
        binlog                   the minimised input
        binlog.expected.jsonl    the oracle's decode; a last {"error": ...} line when it must be rejected
        case.json                files, server, and the finding: parser, kind, signature, detail,
                                 how it was found, what a correct parser must do

harness/corpus.py reads such a directory like any annotated case (files + <file>.expected.jsonl),
so `python -m harness conformance` replays every finding against every parser.

    python -m harness.fuzz.record REPRODUCER.bin --parser NAME [--out corpus/findings] [--no-minimize]

re-checks the reproducer (its .json note beside it says which finding it is) and writes the case.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import sys
from pathlib import Path
from typing import Any, Callable

from harness.mutations import Binlog

from . import findings as F
from .crash_site import site_of
from .outcome import Parse, oracle_parse
from .targets import differential_parse
from .testee_target import TesteeHang, transport_of

BINLOG = "binlog"
DEFAULT_OUT = Path(__file__).resolve().parents[2] / "corpus" / "findings"


def minimize(data: bytes, still_fails: Callable[[bytes], bool], keep_first: int = 1) -> bytes:
    """Greedy event-level delta debugging: drop each event (last first, never the first
    `keep_first`, the Format_description) while the finding survives; lengths, positions and
    CRCs are repaired by Binlog.assemble, so what is left is a well-framed smaller file."""
    best = data
    b = Binlog.parse(best)
    i = len(b.events) - 1
    while i >= keep_first:
        trial = b.copy()
        del trial.events[i]
        candidate = trial.assemble()
        if candidate != best and still_fails(candidate):
            best, b = candidate, Binlog.parse(candidate)
        i = min(i - 1, len(b.events) - 1)
    return best


def signature_of(parse: Parse, data: bytes, note: dict[str, Any]) -> str | None:
    """The signature this input gives now under `parse` (None: no finding), judged as the
    engines judge it: an exception, a MUST_REJECT operator's damage accepted, a disagreement with
the oracle. (A MUST_ACCEPT_WITH_CHANGE break needs its seed to judge and is not re-checked.)"""
    try:
        got = parse(data)
    except TesteeHang:
        return note["signature"] if note.get("kind") == F.HANG else f"{F.HANG}:{note.get('operator')}"
    except Exception as e:  # noqa: BLE001 - the crash is what we look for
        return f"{F.CRASH}:{site_of(e)}"
    if note.get("expect") == "MUST_REJECT" and got.accepted and not oracle_parse(data).accepted:
        return note["signature"]  # still damaged (the oracle rejects it), still accepted
    if got.disagreement_key:
        return f"{F.DIFFERENTIAL}:{got.disagreement_key}"
    return None


def expected_lines(data: bytes) -> list[str]:
    out = oracle_parse(data)
    lines = [json.dumps(e, sort_keys=False) for e in out.events]
    if not out.accepted:
        from oracle import BinlogError, decode_bytes
        message = ""
        try:
            for _ in decode_bytes(data):
                pass
        except BinlogError as e:
            message = e.message
        lines.append(json.dumps({"error": {"kind": out.error_kind, "offset": out.error_offset, "message": message}}))
    return lines


def _server(data: bytes) -> dict[str, str]:
    fde = next((e for e in oracle_parse(data).events if e.get("type") == "FORMAT_DESCRIPTION_EVENT"), None)
    version = (fde or {}).get("body", {}).get("server_version", "unknown")
    flavor = "mariadb" if "mariadb" in str(version).lower() else "mysql"
    return {"flavor": flavor, "version": str(version).split("-")[0]}


def write_case(out: Path, parser: str, data: bytes, finding: dict[str, Any], must: str) -> Path:
    """Write the case directory; returns it. `must` says what a correct parser does with the file."""
    digest = hashlib.sha1(data).hexdigest()[:12]
    case_dir = out / parser / f"{finding['kind']}-{digest}"
    case_dir.mkdir(parents=True, exist_ok=True)
    (case_dir / BINLOG).write_bytes(data)
    lines = expected_lines(data)
    (case_dir / f"{BINLOG}.expected.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    case = {"name": case_dir.name, "files": [BINLOG], "server": _server(data),
            "expected_outcome": "reject" if json.loads(lines[-1]).get("error") else "decode",
            "finding": {"parser": parser, **finding, "correct_behaviour": must,
                        "sha256": hashlib.sha256(data).hexdigest(), "size": len(data)}}
    (case_dir / "case.json").write_text(json.dumps(case, indent=2) + "\n", encoding="utf-8")
    return case_dir


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m harness.fuzz.record", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("reproducer", type=Path, help="a .bin a fuzz engine saved (its .json note beside it)")
    p.add_argument("--parser", required=True)
    p.add_argument("--out", type=Path, default=DEFAULT_OUT)
    p.add_argument("--no-minimize", action="store_true")
    p.add_argument("--must", default=None, help="what a correct parser does (default: from the finding kind)")
    p.add_argument("--found-with", default="", help="the command that found it")
    p.add_argument("--timeout", type=float, default=30.0,
                   help="seconds per trial before a parser in a process of its own counts as hung")
    args = p.parse_args(argv)
    note = json.loads(args.reproducer.with_suffix(".json").read_text())
    data = args.reproducer.read_bytes()
    parse = differential_parse(args.parser, args.timeout)
    want = note["signature"].replace("crash:parser:", "crash:")  # the hypothesis engine names the side
    now = signature_of(parse, data, note)
    if now != want:
        print(f"error: the reproducer gives {now!r} now, not {want!r}", file=sys.stderr)
        return 1
    if not args.no_minimize:
        data = minimize(data, lambda d: signature_of(parse, d, note) == want)
    kind = F.WRONG_VALUE if ":mismatch:" in want else note["kind"]  # both decode, values differ
    finding = {"kind": kind, "signature": want, "detail": note["detail"],
               "engine_note": {k: note[k] for k in ("operator", "description", "seed", "rng_seed", "run_seed",
                                                     "profile") if k in note},
               "found_with": args.found_with, "minimized": not args.no_minimize,
               "transport": transport_of(args.parser)}  # stream: each trial was served by the primary
    must = args.must or ("reject it cleanly" if not oracle_parse(data).accepted
                         else "decode it as the oracle does (or reject it cleanly), without crashing")
    print(write_case(args.out, args.parser, data, finding, must))
    return 0


if __name__ == "__main__":
    sys.exit(main())
