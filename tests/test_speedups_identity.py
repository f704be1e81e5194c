"""The compiled accelerators (setup.py, oracle/speedups.py) against the pure Python they twin.

Issue 14's constraint: compiled code may speed the oracle up only if the pure-Python fallback is
tested to give identical output on the whole corpus and the external binlogs. Here both commands
users run (`oracle decode`'s JSON lines and `oracle rows`' -vvv text, error line included) are
digested per file with BINLOG_ORACLE_PURE=1 and without, and must be equal byte for byte. CI
must run the compiled code (a missing build fails there), and a build older than its C source is
refused everywhere, since the module in use would not be the code in the tree.
"""
from __future__ import annotations

import difflib
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from oracle.speedups import accelerator, accelerators, environment
from tests.external import manifest

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT / "corpus"


def _corpus_binlogs() -> list[Path]:
    out = []
    for case_json in sorted(CORPUS.glob("*/*/case.json")):
        out += [case_json.parent / b["name"] for b in json.loads(case_json.read_text())["binlogs"]]
    return out


FILES = _corpus_binlogs() + [b.path for b in manifest() if b.path.exists()]


def _digests(pure: bool) -> dict[str, dict[str, str]]:
    proc = subprocess.run([sys.executable, "-m", "tests.speedups_digest", *map(str, FILES)],
                          cwd=ROOT, env=environment(pure), capture_output=True, check=True)
    rows = [json.loads(line) for line in proc.stdout.splitlines()]
    return {r["file"]: r for r in rows}


def _first_difference(path: str, command: str) -> str:
    """The first lines where the two runs of `python -m oracle <command> FILE` part."""
    outs = [subprocess.run([sys.executable, "-m", "oracle", command, path], cwd=ROOT, env=environment(pure),
                           capture_output=True) for pure in (True, False)]
    texts = [(o.stdout + o.stderr).decode("utf-8", "replace").splitlines() for o in outs]
    diff = difflib.unified_diff(*texts, "pure Python", "compiled", n=0, lineterm="")
    return "\n".join(line[:300] for line in list(diff)[:8])


def test_every_accelerator_is_built_and_fresh():
    found = accelerators()
    assert found, "no oracle/**/_*.c in the tree"
    for acc in found:
        assert not acc.stale, (f"{acc.built} is older than {acc.source}: rebuild with "
                               "`pip install -e .` or `python setup.py build_ext --inplace`")
        if acc.built is None:
            pytest.skip(f"{acc.name} is not built (pip install -e . builds it; a C compiler is needed)")
        assert accelerator(acc.name) is not None or os.environ.get("BINLOG_ORACLE_PURE")


def test_the_comparison_covers_the_corpus_and_the_external_binlogs():
    assert len(_corpus_binlogs()) >= 200
    assert len(FILES) - len(_corpus_binlogs()) >= 50, "../shared/external-binlogs is missing"


def test_pure_python_and_compiled_print_the_same_bytes_for_every_file():
    if not any(acc.built for acc in accelerators()):
        pytest.skip("no accelerator is built: there is nothing to compare the pure Python with")
    pure, compiled = _digests(pure=True), _digests(pure=False)
    assert set(pure) == set(compiled) == set(map(str, FILES))
    differing = [(f, cmd) for f in pure for cmd in ("decode", "rows") if pure[f][cmd] != compiled[f][cmd]]
    report = "\n\n".join(f"{cmd} {f}:\n{_first_difference(f, cmd)}" for f, cmd in differing[:3])
    assert not differing, f"{len(differing)} outputs differ between pure Python and compiled:\n{report}"
