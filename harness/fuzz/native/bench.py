"""Each native engine beside byte mutation of the same parser, in the same run (issue 31 item 5):

    python -m harness.fuzz.native.bench [--seconds 300] [--parser P ...] [--out out/bench-fuzz-native.json]

Per parser, three steps on the same seeds (the corpus and the external binlogs, corpus/findings
left out, as the native engine takes them):
1. the native engine for --seconds: executions/s, its coverage after the seeds and at the end;
2. the mutate engine (harness/mutations, blind to the library's coverage) against the same parser
   for --seconds: inputs/s;
3. the coverage byte mutation reached, in the native engine's own unit: its inputs are made again
   from its seed (the engine is deterministic: input i is mutate_engine.build(i)), at most
   MAX_REPLAYED of them evenly spaced, and given to the native engine as seeds (run with no input
   beyond them); the coverage it reports after loading them is what the mutants covered (less
   what the few that stop the engine while it loads them, an abort or a hang, would add).
Printed as a table (and JSON): the coverage each engine added over the seeds alone in the same
time, and the ratio of their rates. `nox -s bench` runs it; docs/speed-fuzz.md has the figures."""
from __future__ import annotations

import argparse
import json
import sys
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from . import TARGETS

MUTATE_SEED = 31
MAX_REPLAYED = 20_000  # mutants given back to the native engine to measure their coverage


@dataclass
class Row:
    parser: str
    engine: str
    coverage_unit: str
    seconds: float
    native_executions: int
    native_per_s: float | None
    seeds_coverage: int | None       # the native engine's coverage of the seeds alone
    native_coverage: int | None      # ... at the end of its run
    mutate_inputs: int
    mutate_per_s: float | None
    mutants_replayed: int
    mutate_coverage: int | None      # the native engine's coverage of the seeds and the mutants

    @property
    def gained(self) -> tuple[int | None, int | None]:
        base = self.seeds_coverage
        return ((self.native_coverage - base) if None not in (base, self.native_coverage) else None,  # type: ignore[operator]
                (self.mutate_coverage - base) if None not in (base, self.mutate_coverage) else None)  # type: ignore[operator]


def seed_dirs() -> list[Path]:
    """The native engine's seeds as directories the mutate engine takes: the corpus without its
    findings (each would only replay a known crash), and the external binlogs."""
    from harness.fuzz.seeds import default_seed_dirs
    corpus, *rest = default_seed_dirs()
    return [d for d in sorted(corpus.iterdir()) if d.is_dir() and d.name != "findings"] + rest


def _fuzz(argv: list[str], json_path: Path) -> dict[str, Any]:
    from harness.fuzz.cli import main as fuzz_main
    fuzz_main(argv + ["--json", str(json_path)])
    return json.loads(json_path.read_text()) if json_path.is_file() else {}


def mutants(count: int, dirs: list[Path], out: Path) -> int:
    """Inputs 0..count-1 of the mutate run (MUTATE_SEED), at most MAX_REPLAYED evenly spaced,
    written into out/; returns how many."""
    from harness.fuzz.mutate_engine import Settings, build
    from harness.fuzz.seeds import load_seeds
    from harness.mutations import CATALOGUE, Binlog
    out.mkdir(parents=True, exist_ok=True)
    parsed = [Binlog.parse(s.data) for s in load_seeds(dirs)]
    settings, ops = Settings(seed=MUTATE_SEED), tuple(CATALOGUE)
    step = max(1, -(-count // MAX_REPLAYED))
    written = 0
    for i in range(0, count, step):
        plan = build(i, settings, ops, parsed)
        if plan is not None:
            (out / f"mutant-{i:08d}").write_bytes(plan.mutation.data)
            written += 1
    return written


def bench_parser(parser: str, seconds: float, work: Path) -> Row:
    from . import runtime_of
    from .run import say
    rt = runtime_of(TARGETS[parser])
    dirs = [str(d) for d in seed_dirs()]
    say(f"[{parser}] native, {seconds:g} s")
    native = _fuzz(["--engine", "native", "--parser", parser, "--seconds", str(seconds), "--out", str(work / "native"),
                    "--seeds", *dirs], work / "native.json")
    say(f"[{parser}] byte mutation (mutate engine), {seconds:g} s")
    mutate = _fuzz(["--engine", "mutate", "--parser", parser, "--seconds", str(seconds), "--seed", str(MUTATE_SEED),
                    "--out", str(work / "mutate"), "--seeds", *dirs], work / "mutate.json")
    inputs = int(mutate.get("inputs") or 0)
    replayed = mutants(inputs, seed_dirs(), work / "mutants")
    say(f"[{parser}] the native engine's coverage of {replayed} of byte mutation's {inputs} inputs")
    probe = _fuzz(["--engine", "native", "--parser", parser, "--count", "0", "--timeout", "5",
                   "--out", str(work / "probe"), "--seeds", *dirs, str(work / "mutants")], work / "probe.json")
    return Row(parser, rt.engine, rt.coverage_unit, seconds, int(native.get("executions") or 0),
               native.get("executions_per_s"), native.get("coverage_start"), native.get("coverage_end"),
               inputs, mutate.get("inputs_per_s"), replayed, probe.get("coverage_start"))


def table(rows: list[Row]) -> str:
    head = (f"{'parser':34} {'engine':26} {'native exec/s':>13} {'mutate in/s':>11} {'ratio':>6} "
            f"{'seeds cov':>9} {'+native':>8} {'+mutate':>8}")
    lines = [head]
    for r in rows:
        ratio = f"{r.native_per_s / r.mutate_per_s:.1f}" if r.native_per_s and r.mutate_per_s else "-"
        native_gain, mutate_gain = r.gained
        lines.append(f"{r.parser:34} {r.engine:26} {r.native_per_s!s:>13} {r.mutate_per_s!s:>11} {ratio:>6} "
                     f"{r.seeds_coverage!s:>9} {native_gain!s:>8} {mutate_gain!s:>8}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m harness.fuzz.native.bench", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--seconds", type=float, default=300)
    p.add_argument("--parser", action="append", choices=sorted(TARGETS))
    p.add_argument("--work", type=Path, default=Path("build/bench-fuzz-native"))
    p.add_argument("--out", type=Path, default=Path("out/bench-fuzz-native.json"))
    args = p.parse_args(argv)
    started = time.monotonic()
    rows = [bench_parser(parser, args.seconds, args.work / parser) for parser in args.parser or sorted(TARGETS)]
    print(table(rows))
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps({"seconds": args.seconds, "elapsed_s": round(time.monotonic() - started, 1),
                                    "rows": [asdict(r) for r in rows]}, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
