"""The committed expected-failure entries of some corpus cases, rewritten for a run over those
case directories alone (the ids such a run gives them: `<case>/.` for a one-file case)."""
from __future__ import annotations

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
