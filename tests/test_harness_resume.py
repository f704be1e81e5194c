"""An interrupted run keeps every finished result; --resume runs only what is missing."""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time

from tests.external import ROOT
from tests.harness_helpers import PROJECT, corpus_args, needs_external, node_cmd

pytestmark = needs_external


def _records(path):
    return [json.loads(line) for line in path.read_text().splitlines()] if path.exists() else []


def test_resume_after_interrupt(tmp_path):
    files = sorted(p for p in (ROOT / "blackbeam__rust_mysql_common").iterdir() if p.is_file())[:8]
    results = tmp_path / "results.jsonl"
    args = [sys.executable, "-m", "harness", "conformance", "--parser-cmd", node_cmd(),
            "--results", str(results), *corpus_args(files)]
    # 4 s per file: time enough, on a loaded machine, to see two results and interrupt before the
    # eighth (400 ms was not, nor was 1.5 s in the 2026-12-08 rehearsal: all 8 finished first).
    # It costs nothing when all goes well: the run is interrupted after the second.
    env = {**os.environ, "NODE_PARSER_DELAY_MS": "4000"}
    # SIGINT at its default in the child: an earlier test of the session may leave it ignored in
    # this process, and an ignored SIGINT is inherited across exec (the interrupt then never lands)
    proc = subprocess.Popen(args, cwd=PROJECT, env=env, stderr=subprocess.PIPE, text=True,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    deadline = time.monotonic() + 60
    while len(_records(results)) < 2 and time.monotonic() < deadline:
        time.sleep(0.05)
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    assert "--resume" in err
    kept = _records(results)
    assert 2 <= len(kept) < len(files)

    # Tear the last line, as a kill in mid-write would: resume must drop it and carry on.
    with open(results, "a") as f:
        f.write('{"case": "torn')
    proc = subprocess.run([*args, "--resume"], cwd=PROJECT, env={**os.environ}, capture_output=True,
                          text=True, timeout=300)
    final = _records(results)
    assert final[:len(kept)] == kept  # earlier results untouched, not recomputed
    assert sorted(r["case"] for r in final) == sorted(f.name for f in files)  # each exactly once
    assert f"{len(kept)} from an earlier run" in proc.stderr
