"""The differential batch (issue 31 item 3): every input a native engine kept because it raised
the coverage of the library under test is run, in one batch, through every built-in file parser
and the oracle. Coverage found by one parser's fuzzer is new ground for the others too.

    python -m harness.fuzz.native differential --runs DIR [--parser P ...] [--out DIR2] [--record DIR3]

DIR holds native runs as `python -m harness.fuzz.native all --out DIR` leaves them
(<parser>/<entry point>/). A finding, per parser and deduplicated by signature, is:
- differential: the oracle decodes the input cleanly and the parser gives other values, or the
  parser accepts what the oracle rejects with a reason (judged as conformance judges a case,
  within the parser's declared capabilities: outcome.disagreement);
- crash / hang: the testee died, or gave no reply within --timeout.
Both rejecting, with other events before the rejection, is not a finding (the issue's rule).
Byte-level engines break a CRC32 in most inputs they keep, and the oracle then stops at the
checksum: each input also runs as its twin with every CRC32 recomputed (with_fresh_checksums), so
the values behind the new coverage are compared too. A parser that declines an input
(Unsupported) is not compared. With --record each signature's
first input is minimised by events (the same signature as the judge) and written as a case
under DIR3/<parser>/ (record.write_case), unless that signature is recorded there already."""
from __future__ import annotations

import argparse
import hashlib
import json
import sys
import time
import zlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from harness.fuzz.outcome import Outcome, disagreement, oracle_parse

from . import TARGETS, runtime_of

PROGRESS_EVERY_S = 10.0
ORACLE = "oracle"


def is_reference(parser: object) -> bool:
    """The oracle, and the real tools it is held to (nox -s conformance); a process per input
    (mysqlbinlog in its server image) is also a thousand times slower than a testee."""
    return getattr(parser, "name", "") == ORACLE or "own tool" in str(getattr(parser, "library", ""))


@dataclass(frozen=True)
class Input:
    data: bytes
    runs: tuple[str, ...]  # the native runs (parser/entry point) whose engine kept it
    fresh_checksums: bool = False  # the twin of a kept input, its CRC32s recomputed
    kept: str = ""  # a twin's: the sha1 of the input it was made from

    @property
    def sha1(self) -> str:
        return hashlib.sha1(self.data).hexdigest()

    @property
    def origin(self) -> str:
        return self.kept or self.sha1


@dataclass
class ParserTally:
    """One parser over the batch: inputs compared, declined, and each finding's signature with its
    count and first input."""

    parser: str
    compared: int = 0
    declined: int = 0
    unavailable: str = ""
    signatures: dict[str, int] = field(default_factory=dict)
    first: dict[str, tuple[Input, str]] = field(default_factory=dict)
    finding_inputs: set[str] = field(default_factory=set)

    def add(self, signature: str, detail: str, item: Input) -> None:
        self.signatures[signature] = self.signatures.get(signature, 0) + 1
        self.first.setdefault(signature, (item, detail))
        self.finding_inputs.add(item.sha1)


def collect(runs_dir: Path) -> list[Input]:
    """Every input the native runs under runs_dir kept (deduplicated, each naming its runs)."""
    seen: dict[str, tuple[bytes, list[str]]] = {}
    for parser, target in sorted(TARGETS.items()):
        rt = runtime_of(target)
        for entry in target.entry_points:
            work = runs_dir / parser / entry
            if not work.is_dir():
                continue
            for data in rt.grown(work):
                digest = hashlib.sha1(data).hexdigest()
                seen.setdefault(digest, (data, []))[1].append(f"{parser}/{entry}")
    kept = [Input(data, tuple(runs)) for data, runs in seen.values()]
    twins = []
    for item in kept:
        fresh = with_fresh_checksums(item.data)
        if fresh != item.data and hashlib.sha1(fresh).hexdigest() not in seen:
            twins.append(Input(fresh, item.runs, True, item.sha1))
    return kept + twins


def with_fresh_checksums(data: bytes) -> bytes:
    """data with the CRC32 of every event that carries one recomputed over the event's bytes, as
    far as its events frame (the rest as it was)."""
    from oracle.errors import BinlogError
    from oracle.framing import walk
    out = bytearray(data)
    try:
        for raw in walk(data, verify_checksums=False):
            if raw.checksum_stored is not None:  # the last 4 bytes (a Format_description's body_end is its alg byte)
                end = raw.offset + raw.header.event_size
                out[end - 4:end] = zlib.crc32(data[raw.offset:end - 4]).to_bytes(4, "little")
    except BinlogError:
        pass
    return bytes(out)


def file_parsers(asked: list[str] | None) -> list[str]:
    from harness.parsers.registry import FILE, PARSERS
    names = [p.name for p in PARSERS if p.transport == FILE and not is_reference(p)]
    return [n for n in names if not asked or n in asked]


DECLINED = ("declined", "")  # the parser said Unsupported: nothing compared


def judge(parse: Callable[[bytes], Outcome], caps: Any, data: bytes, reference: Outcome) -> tuple[str, str] | None:
    """(signature, detail) of what the parser does with `data` against the oracle's `reference`,
    DECLINED, or None: it agrees."""
    from harness.fuzz.testee_target import TesteeCrash, TesteeHang
    try:
        got = parse(data)
    except TesteeHang as e:
        return "hang:Timeout", str(e)[:300]
    except TesteeCrash as e:
        return f"crash:{e.site or 'died'}", str(e)[:300]
    if got.error_kind == "Unsupported":
        return DECLINED
    if not reference.accepted and not got.accepted:
        return None
    why, key = disagreement(reference, got, caps)
    return (f"differential:{key}", why or "") if key else None


def run_parser(name: str, inputs: list[Input], references: list[Outcome], timeout: float,
               say: Callable[[str], None]) -> tuple[ParserTally, Callable[[bytes], Outcome] | None, Any]:
    from harness.fuzz.testee_target import ParserUnavailable, isolated_parse
    tally = ParserTally(name)
    try:
        parse, hello = isolated_parse(name, timeout)
        caps = hello.capabilities
    except ParserUnavailable as e:
        tally.unavailable = str(e)
        say(f"  {name}: unavailable: {e}")
        return tally, None, None
    last = time.monotonic()
    for i, (item, reference) in enumerate(zip(inputs, references)):
        if time.monotonic() - last >= PROGRESS_EVERY_S:
            last = time.monotonic()
            say(f"  {name}: {i}/{len(inputs)} inputs, {len(tally.finding_inputs)} with a finding, "
                f"{len(tally.signatures)} signatures")
        verdict = judge(parse, caps, item.data, reference)
        if verdict == DECLINED:
            tally.declined += 1
        elif verdict is not None:
            tally.add(*verdict, item)
        tally.compared += verdict != DECLINED
    say(f"  {name}: {len(inputs)} inputs, {len(tally.finding_inputs)} with a finding, {len(tally.signatures)} signatures")
    return tally, parse, caps


def record_first(tally: ParserTally, parse: Callable[[bytes], Outcome], caps: Any, findings_dir: Path,
                 found_with: str) -> list[str]:
    """Each new signature's first input, minimised with that signature as the judge, as a case."""
    from harness.fuzz.record import minimize, write_case

    from .record import recorded_signatures
    known = recorded_signatures(findings_dir, tally.parser)
    written = []
    for signature, (item, detail) in sorted(tally.first.items()):
        if signature in known:
            continue

        def same(d: bytes, want: str = signature) -> bool:
            verdict = judge(parse, caps, d, oracle_parse(d))
            return verdict is not None and verdict[0] == want
        try:
            smaller = minimize(item.data, same)
        except ValueError:
            smaller = item.data
        kind = signature.split(":", 1)[0]
        finding = {"kind": kind, "signature": signature, "detail": detail[:500], "engine": "native (differential batch)",
                   "found_by": list(item.runs), "checksums_recomputed": item.fresh_checksums, "minimized": True,
                   "found_with": found_with, "transport": "file"}
        must = ("decode it as the oracle does (or reject it with the library's own error where the oracle rejects it)"
                if kind == "differential" else "reject it cleanly with the library's own error type, or decode it")
        written.append(str(write_case(findings_dir, tally.parser, smaller, finding, must)))
    return written


def per_run(inputs: list[Input], tallies: list[ParserTally]) -> dict[str, dict[str, int]]:
    """For each native run: the inputs it kept, and how many of them (or their twins) gave some
    parser a finding."""
    flagged_sha = set().union(*(t.finding_inputs for t in tallies)) if tallies else set()
    flagged = {i.origin for i in inputs if i.sha1 in flagged_sha}
    out: dict[str, dict[str, int]] = {}
    for item in inputs:
        if item.fresh_checksums:
            continue
        for run in item.runs:
            row = out.setdefault(run, {"inputs": 0, "with_finding": 0})
            row["inputs"] += 1
            row["with_finding"] += item.sha1 in flagged
    return out


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m harness.fuzz.native differential", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--runs", type=Path, required=True, help="the --out of `python -m harness.fuzz.native all`")
    p.add_argument("--parser", action="append", help="only these file parsers (default: every built-in one)")
    p.add_argument("--timeout", type=float, default=10.0, help="seconds per input before a testee is hung")
    p.add_argument("--out", type=Path, default=None, help="write summary.json here")
    p.add_argument("--record", type=Path, default=None, help="record each new signature as a case under DIR")
    p.add_argument("--known", type=Path, default=None,
                   help="the recorded findings a signature is known from (default: the corpus's findings)")
    args = p.parse_args(argv)
    from .run import say
    inputs = collect(args.runs)
    if not inputs:
        say(f"error: no input kept by a native run under {args.runs}")
        return 2
    twins = sum(i.fresh_checksums for i in inputs)
    say(f"differential batch: {len(inputs) - twins} inputs kept by the native runs under {args.runs}, "
        f"and {twins} twins with their CRC32s recomputed")
    references = [oracle_parse(item.data) for item in inputs]
    say(f"  oracle: {sum(r.accepted for r in references)} decoded cleanly, "
        f"{sum(not r.accepted for r in references)} rejected with a reason")
    tallies, recorded = [], []
    for name in file_parsers(args.parser):
        tally, parse, caps = run_parser(name, inputs, references, args.timeout, say)
        tallies.append(tally)
        if args.record and parse is not None:
            recorded += record_first(tally, parse, caps, args.record, f"python -m harness.fuzz.native differential "
                                                                      f"--runs {args.runs}")
    from harness.fuzz.record import DEFAULT_OUT
    result = summary(inputs, references, tallies, recorded, args.known or DEFAULT_OUT)
    print(table(result))
    if args.out:
        args.out.mkdir(parents=True, exist_ok=True)
        (args.out / "summary.json").write_text(json.dumps(result, indent=2) + "\n")
    return 1 if any(t.signatures for t in tallies) else 0


def summary(inputs: list[Input], references: list[Outcome], tallies: list[ParserTally],
            recorded: list[str], known_dir: Path) -> dict[str, Any]:
    from .record import recorded_signatures
    known = {t.parser: recorded_signatures(known_dir, t.parser) for t in tallies}
    return {
        "inputs": len(inputs), "twins_with_fresh_checksums": sum(i.fresh_checksums for i in inputs),
        "oracle_accepted": sum(r.accepted for r in references),
        "per_run": per_run(inputs, tallies),
        "parsers": [{"parser": t.parser, "unavailable": t.unavailable or None, "compared": t.compared,
                     "declined": t.declined,
                     "inputs_with_finding": len(t.finding_inputs),
                     "signatures": [{"signature": s, "count": n, "known": s in known[t.parser],
                                     "first_input": t.first[s][0].sha1,
                                     "checksums_recomputed": t.first[s][0].fresh_checksums,
                                     "found_by": list(t.first[s][0].runs), "detail": t.first[s][1][:300]}
                                    for s, n in sorted(t.signatures.items(), key=lambda kv: -kv[1])]}
                    for t in tallies],
        "recorded": recorded,
    }


def table(result: dict[str, Any]) -> str:
    lines = [f"\n{'native run':40} {'inputs kept':>11} {'with a finding':>14}"]
    for run, row in sorted(result["per_run"].items()):
        lines.append(f"{run:40} {row['inputs']:>11} {row['with_finding']:>14}")
    lines.append(f"\n{'parser':42} {'compared':>8} {'declined':>8} {'with a finding':>14} {'signatures':>10} {'new':>4}")
    for row in result["parsers"]:
        if row["unavailable"]:
            lines.append(f"{row['parser']:42} {'unavailable':>8}")
            continue
        new = sum(not sig["known"] for sig in row["signatures"])
        lines.append(f"{row['parser']:42} {row['compared']:>8} {row['declined']:>8} {row['inputs_with_finding']:>14} "
                     f"{len(row['signatures']):>10} {new:>4}")
    return "\n".join(lines)


if __name__ == "__main__":
    sys.exit(main())
