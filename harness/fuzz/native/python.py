"""Python: atheris over the library's own package (atheris.instrument_imports(include=
["pymysqlreplication"])), not our oracle: the atheris engine's session (harness/fuzz/atheris_engine.py,
its structure-aware mutator and per-input CPU limit) with the instrumentation narrowed to the
library, so libFuzzer keeps the inputs that reach new code of the parser. Coverage is libFuzzer's
`cov:` (edges of the instrumented bytecode). Findings are that engine's: an exception that is not
the plugin's clean rejection, named `crash:Type@file.py:line` by the innermost frame.

    python -m harness.fuzz.native.python replay FILE   # one input, its finding as a JSON line
"""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any, Sequence

from . import NativeTarget
from .session import EntryRun, NativeRuntime, NativeSettings, Progress, Say

PROJECT = Path(__file__).resolve().parents[3]


class PythonNative(NativeRuntime):
    name = "python"
    engine = "atheris"
    coverage_unit = "edges (libFuzzer cov)"

    def build(self, target: NativeTarget, say: Say) -> Path:
        return PROJECT  # nothing to build: the library is installed, atheris instruments at import

    def launch(self, *args: Any, **kwargs: Any):  # the atheris session starts its own child
        raise NotImplementedError

    def progress(self, line: str) -> Progress | None:
        return None

    def run(self, target: NativeTarget, seeds: Sequence[bytes], s: NativeSettings, say: Say) -> list[EntryRun]:
        from harness.fuzz.atheris_engine import AtherisSettings, run_session
        from harness.fuzz.seeds import Seed
        work = s.out / target.entry_points[0]
        settings = AtherisSettings(parser=target.parser, instrument=(target.library_frames,), max_time=int(s.seconds),
                                   runs=0 if s.runs is None else max(1, s.runs),
                                   timeout=s.timeout, memory_mb=max(s.memory_mb, 4096), out_dir=work, seed=s.seed)
        say(f"  {target.parser}: atheris session, instrumented: {target.library_frames} ({work / 'libfuzzer.log'})")
        r = run_session([Seed("seed", d) for d in seeds], settings)
        start, end = r.get("coverage_initial") or {}, r.get("coverage_final") or {}
        return [EntryRun(target.entry_points[0], r.get("executions") or 0, start.get("cov"), end.get("cov"), 1,
                         r.get("elapsed_s", 0.0))]

    def replay(self, built: Path, target: NativeTarget, entry: str, data: bytes, s: NativeSettings) -> dict[str, Any] | None:
        import tempfile
        with tempfile.NamedTemporaryFile(suffix=".bin") as f:
            f.write(data)
            f.flush()
            try:
                proc = subprocess.run([sys.executable, "-m", __name__, "replay", f.name, target.parser],
                                      capture_output=True, text=True, timeout=s.timeout + 30, cwd=PROJECT)
            except subprocess.TimeoutExpired:
                return {"kind": "hang", "signature": "hang:replay", "detail": f"over {s.timeout + 30}s"}
        lines = proc.stdout.strip().splitlines()
        return (json.loads(lines[-1]) if lines else None) or None


def replay_main(path: str, parser: str) -> None:
    from harness.fuzz.crash_site import crash_note, site_of
    from harness.fuzz.targets import plugin_parse
    parse = plugin_parse(parser)
    try:
        parse(Path(path).read_bytes())
        print("{}")
    except MemoryError:
        print(json.dumps({"kind": "memory", "signature": "memory:MemoryError", "detail": "MemoryError"}))
    except Exception as e:  # noqa: BLE001 - the crash is what is replayed
        site = site_of(e)
        print(json.dumps({"kind": "crash", "signature": f"crash:{site}", "detail": f"{site}: {e}"[:500],
                          "stack": crash_note(e)["traceback"]}))


RUNTIME = PythonNative()

if __name__ == "__main__" and sys.argv[1:2] == ["replay"]:
    replay_main(sys.argv[2], sys.argv[3])
