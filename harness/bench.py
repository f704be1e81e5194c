"""Throughput of the oracle beside the real mysqlbinlog, on the same real-server file, in one run.

`python -m harness.bench [--file F] [--repeat N]` (and `nox -s bench`). Without --file it makes
(once, then cached) a >= 100 MiB ROW binlog of mixed column types from a real MySQL 9.7 server.
Each measurement is the best of N runs, the cases taking turns (round-robin) so a change in the
machine's load falls on all of them; mysqlbinlog is timed inside its container so container
start-up is not counted against it. Besides wall time, each case reports its CPU seconds (user +
system of the process that decodes): on a machine shared with other work that is the steadier
figure, and the ratios are given for both. `python -m oracle decode` and `python -m oracle rows` run as
the commands users run (a process each, output to /dev/null, interpreter start-up included).
Results are a table and a JSON file; the last column is the time over mysqlbinlog -vvv's (issue
14's ratio: 2.0 = takes twice as long as mysqlbinlog -vvv).
"""
from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Callable

from oracle.decoder import decode_file
from oracle.framing import walk
from oracle.speedups import environment

ROOT = Path(__file__).resolve().parents[1]  # the checkout whose oracle is measured
CACHE = Path.home() / ".cache" / "binlog-conformance" / "bench"
DEFAULT_FILE = CACHE / "mysql-9.7-100mb.binlog"


@dataclass
class Measurement:
    name: str
    seconds: float  # wall
    cpu_seconds: float
    mb_per_s: float
    times_mysqlbinlog_vvv: float | None = None  # seconds / mysqlbinlog -vvv's seconds
    cpu_times_mysqlbinlog_vvv: float | None = None  # the same for CPU seconds

# A case runs once and returns (wall seconds, CPU seconds), or None to be timed from outside.
Case = Callable[[], "tuple[float, float] | None"]


def _timed(run: Case) -> tuple[float, float]:
    t0, c0, k0 = time.perf_counter(), time.process_time(), _children_cpu()
    inner = run()
    if inner is not None:
        return inner
    return time.perf_counter() - t0, time.process_time() - c0 + _children_cpu() - k0


def _children_cpu() -> float:
    import resource
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _framing(path: Path) -> None:
    import mmap
    with open(path, "rb") as f, mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ) as buf:
        for _ in walk(buf):  # type: ignore[arg-type]
            pass


def _decode(path: Path) -> None:
    for _ in decode_file(path):
        pass


def _oracle_command(path: Path, command: str, pure: bool = False) -> None:
    """`python -m oracle <command> FILE > /dev/null`, this checkout's oracle; `pure` turns the
    compiled accelerators off (BINLOG_ORACLE_PURE=1, oracle/speedups.py) to show what they add."""
    subprocess.run([sys.executable, "-m", "oracle", command, str(path)], cwd=ROOT, check=True,
                   stdout=subprocess.DEVNULL, env=environment(pure))


def _mysqlbinlog(path: Path, args: str) -> tuple[float, float]:
    """Wall and CPU seconds mysqlbinlog itself took, measured inside the container (CPU: the
    shell's cutime + cstime, fields 16-17 of /proc/<shell>/stat, once it has waited for it)."""
    from generators.tools import run_in_image, MYSQL_IMAGE
    script = (f"a=$(date +%s%N); mysqlbinlog {args} \"$0\" > /dev/null || exit 3; "
              "b=$(date +%s%N); echo $((b-a)) $(cut -d' ' -f16,17 /proc/$$/stat) $(getconf CLK_TCK)")
    proc = run_in_image(MYSQL_IMAGE, "sh", path, ["-c", script], timeout=3600)
    if proc.returncode != 0:
        raise RuntimeError(f"mysqlbinlog {args} failed: {proc.stderr.decode(errors='replace')[-500:]}")
    wall_ns, cutime, cstime, ticks = (int(x) for x in proc.stdout.split()[-4:])
    return wall_ns / 1e9, (cutime + cstime) / ticks


def _ensure_file(path: Path | None) -> Path:
    if path is not None:
        return path
    if not DEFAULT_FILE.exists():
        from generators import profiles
        from generators.bigbinlog import make_big_binlog
        make_big_binlog(profiles.get("mysql-9.7"), DEFAULT_FILE, 100)
    return DEFAULT_FILE


def run(path: Path, repeat: int) -> list[Measurement]:
    size_mb = path.stat().st_size / 2**20
    cases: list[tuple[str, Case]] = [
        ("mysqlbinlog (no -v)", lambda: _mysqlbinlog(path, "")),
        ("mysqlbinlog -vvv", lambda: _mysqlbinlog(path, "-vvv")),
        ("oracle framing only", lambda: _framing(path)),
        ("oracle full decode (in process)", lambda: _decode(path)),
        ("python -m oracle decode", lambda: _oracle_command(path, "decode")),
        ("python -m oracle rows", lambda: _oracle_command(path, "rows")),
        ("python -m oracle decode (pure Python)", lambda: _oracle_command(path, "decode", pure=True)),
        ("python -m oracle rows (pure Python)", lambda: _oracle_command(path, "rows", pure=True)),
    ]
    best = {name: (float("inf"), float("inf")) for name, _ in cases}
    for turn in range(1, repeat + 1):
        for name, fn in cases:
            print(f"[bench] {turn}/{repeat} {name} ...", flush=True)
            wall, cpu = _timed(fn)
            best[name] = (min(best[name][0], wall), min(best[name][1], cpu))
    results = [Measurement(name, wall, cpu, size_mb / wall) for name, (wall, cpu) in best.items()]
    vvv = next(m for m in results if m.name == "mysqlbinlog -vvv")
    for m in results:
        m.times_mysqlbinlog_vvv = m.seconds / vvv.seconds
        m.cpu_times_mysqlbinlog_vvv = m.cpu_seconds / vvv.cpu_seconds
    return results


def table(results: list[Measurement], path: Path) -> str:
    head = ("decoder", "wall s", "CPU s", "MiB/s (wall)", "wall / mysqlbinlog -vvv", "CPU / mysqlbinlog -vvv")
    from oracle.speedups import accelerators
    built = ", ".join(f"{a.name} ({'built' if a.built else 'NOT built'}{', stale' if a.stale else ''})"
                      for a in accelerators()) or "none in the tree"
    lines = [f"file: {path} ({path.stat().st_size / 2**20:.1f} MiB)", f"accelerators: {built}", "",
             "| " + " | ".join(head) + " |", "|" + "|".join("-" * (len(h) + 1) + ":" for h in head) + "|"]
    for m in results:
        cells = (m.name, f"{m.seconds:.2f}", f"{m.cpu_seconds:.2f}", f"{m.mb_per_s:.1f}",
                 f"{m.times_mysqlbinlog_vvv:.2f}", f"{m.cpu_times_mysqlbinlog_vvv:.2f}")
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m harness.bench", description=__doc__.splitlines()[0])
    p.add_argument("--file", type=Path, help="a binlog made by a real server (default: made once, cached)")
    p.add_argument("--repeat", type=int, default=3)
    p.add_argument("--json", type=Path, default=Path("out/bench.json"))
    args = p.parse_args(argv)
    path = _ensure_file(args.file)
    results = run(path, args.repeat)
    print(table(results, path))
    args.json.parent.mkdir(parents=True, exist_ok=True)
    args.json.write_text(json.dumps({"file": str(path), "bytes": path.stat().st_size,
                                     "results": [asdict(m) for m in results]}, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
