"""The test ids CI collects, committed in tests/collected-ids.txt, so that no test disappears
unnoticed (issue 30: "nothing less tested").

Regenerate after adding, renaming or removing tests (one command, from the repository root):

    python -m tests.collected_ids --write

A test id that is in the committed list but no longer collected fails tests/test_collected_ids.py
unless tests/removed-ids.txt records it with a reason (`<test id>  # <why it went>`) or it was moved
to `nox -s outside_ci` (tests/tiers.py OUTSIDE_CI, with its reason). Ids that are
collected but not yet listed are fine: other branches add tests in parallel, and the list is
regenerated when they merge.
"""
from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

from tests import tiers

ROOT = Path(__file__).resolve().parents[1]
LISTED = ROOT / "tests" / "collected-ids.txt"
REMOVED = ROOT / "tests" / "removed-ids.txt"


def collect(markers: str = tiers.IN_CI_EXPR) -> list[str]:
    """Every test id pytest collects under CI=true with `-m markers`: by default as CI's `nox -s
    tests` does (sorted, one per test)."""
    env = {**os.environ, "CI": "true",
           "PYTHONPATH": os.pathsep.join(p for p in (str(ROOT), os.environ.get("PYTHONPATH", "")) if p)}
    out = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider",
                          "-p", "no:xdist", "-p", "no:randomly", "-m", markers],
                         cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
    ids = sorted({line.strip() for line in out.stdout.splitlines() if "::" in line})
    if out.returncode == 5 and "no tests collected" in out.stdout:
        return []
    if out.returncode != 0 or not ids:
        raise RuntimeError(f"pytest --collect-only failed (rc {out.returncode}):\n{out.stdout[-4000:]}{out.stderr[-2000:]}")
    return ids


def moved() -> list[str]:
    """The ids run outside CI (`nox -s outside_ci`, tests/tiers.py OUTSIDE_CI gives the reason)."""
    return collect(tiers.OUTSIDE_CI_EXPR)


def unexplained(gone: list[str], moved_ids: list[str]) -> list[str]:
    """Listed ids no longer collected in CI that were neither moved outside CI nor removed with a reason."""
    reasons, moved_set = removed(), set(moved_ids)
    return [i for i in gone if i not in moved_set and not reasons.get(i)]


def listed() -> list[str]:
    return [line for line in LISTED.read_text(encoding="utf-8").splitlines() if line.strip()]


def removed() -> dict[str, str]:
    """test id -> the recorded reason it was removed (lines `<id>  # <reason>`; a bare id has no reason)."""
    got: dict[str, str] = {}
    for line in REMOVED.read_text(encoding="utf-8").splitlines() if REMOVED.exists() else []:
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        test_id, _, reason = line.partition("#")
        got[test_id.strip()] = reason.strip()
    return got


def write(ids: list[str]) -> None:
    LISTED.write_text("".join(f"{i}\n" for i in ids), encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--write", action="store_true", help=f"rewrite {LISTED.relative_to(ROOT)} from this collection")
    args = ap.parse_args(argv)
    ids = collect()
    gone = sorted(set(listed()) - set(ids)) if LISTED.exists() else []
    if args.write:
        write(ids)
        print(f"{len(ids)} test ids written to {LISTED.relative_to(ROOT)}")
    lost = unexplained(gone, moved() if gone else [])
    for i in lost:
        print(f"gone without a reason in {REMOVED.relative_to(ROOT)}: {i}", file=sys.stderr)
    print(f"{len(ids)} collected, {len(gone)} listed ids gone ({len(lost)} without a recorded reason "
          f"or a move outside CI)")
    return 1 if lost else 0


if __name__ == "__main__":
    sys.exit(main())
