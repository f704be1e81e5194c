"""Go: `go test -fuzz` on a target's fuzz module (harness/parsers/go-mysql-fuzz/, vitess-fuzz/: our
package, requiring the library at the adapter's pinned version; go.sum locks it), with what they
share from harness/parsers/go-fuzz-shared/ (running a target, recording, the replay command).
Every such module has a FuzzFile (built first). The Go toolchain instruments every
package of the test binary, the library's included, and reports coverage as bits of its edge
counters under GODEBUG=fuzzdebug=1 ("initial coverage bits", then "total bits" at each new
input). The target (target.go) recovers the library's panics and notes them itself; a hang makes
the worker panic after noting it, so the engine stops and saves the input under
testdata/fuzz/<Fuzz...>/, which is moved out here (else the next round would fail on it as a
seed). A worker that dies (out of memory) leaves the same kind of file; its signature comes from
the panic or fatal error it printed."""
from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

from harness.fuzz.seeds import grown_inputs
from harness.runtimes.base import PARSERS_DIR, run_logged
from harness.runtimes.go import GoRuntime, go_binary, go_environment

from . import NativeTarget
from .session import Found, Launch, NativeRuntime, NativeSettings, Progress, Say, write_finding

REPLAY = "replay-bin"
FUZZ_SHARED_DIR = PARSERS_DIR / "go-fuzz-shared"
_EXECS = re.compile(r"^fuzz: elapsed: \S+, execs: (\d+)")
_INITIAL = re.compile(r"initial coverage bits: (\d+)")
_TOTAL = re.compile(r"total bits: (\d+)")
_FAILING = re.compile(r"Failing input written to (\S+)")
_SEED_FAILED = re.compile(r"failure while testing seed corpus entry: Fuzz\w+/seed#(\d+)")


class GoFuzzBuild(GoRuntime):
    """The fuzz folder built like an adapter: go-fuzz-shared's files copied in (every fuzz module
    is named binlog-conformance/gofuzz, so its run.go and replay command serve each), modules
    fetched, the replay command built, and the instrumented test binary compiled once (one
    execution, no seeds) so that a session's start costs no compilation."""

    def shared(self) -> list[Path]:
        return sorted(p for p in FUZZ_SHARED_DIR.rglob("*.go") if p.is_file())

    def _build(self, work: Path, say: Say) -> None:
        for p in self.shared():
            (work / p.relative_to(FUZZ_SHARED_DIR)).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(p, work / p.relative_to(FUZZ_SHARED_DIR))
        go, env = go_binary() or "go", go_environment()
        run_logged([go, "mod", "download"], work, say, env)
        run_logged([go, "build", "-trimpath", "-o", REPLAY, "./replay"], work, say, env)
        run_logged([go, "test", "-run=^$", "-fuzz=^FuzzFile$", "-fuzztime=1x", "-parallel=1", "."], work, say, env)


BUILD = GoFuzzBuild()


def decode_corpus_file(text: str) -> bytes:
    """The bytes of a `go test fuzz v1` file holding one []byte("...") value (Go's %q quoting)."""
    lit = re.search(r'\[\]byte\("((?:[^"\\]|\\.)*)"\)', text, re.S)
    if lit is None:
        raise ValueError("not a go test fuzz v1 []byte value")
    out = bytearray()
    simple = {"a": 7, "b": 8, "f": 12, "n": 10, "r": 13, "t": 9, "v": 11, "\\": 92, '"': 34, "'": 39}
    for m in re.finditer(r'\\x([0-9a-fA-F]{2})|\\u([0-9a-fA-F]{4})|\\U([0-9a-fA-F]{8})|\\([0-7]{3})|\\(.)|(.)',
                         lit.group(1), re.S):
        hx, u4, u8, octal, esc, ch = m.groups()
        if hx:
            out.append(int(hx, 16))
        elif u4 or u8:
            out += chr(int(u4 or u8, 16)).encode()
        elif octal:
            out.append(int(octal, 8))
        elif esc:
            out.append(simple[esc])
        else:
            out += ch.encode()
    return bytes(out)


def _fuzztime(work: Path, seconds: int, s: NativeSettings) -> str:
    """-fuzztime: the seconds, or with `runs` a count, which Go spends on the corpus's baseline
    too (its seeds and its cache): every one of those, then `runs` more (at least 1)."""
    if s.runs is None:
        return f"-fuzztime={seconds}s"
    kept = sum(1 for d in ("corpus", "go-corpus") if (work / d).is_dir() for p in (work / d).rglob("*") if p.is_file())
    return f"-fuzztime={kept + max(1, s.runs)}x"


class GoNative(NativeRuntime):
    name = "go"
    engine = "go test -fuzz"
    coverage_unit = "coverage bits"

    def build(self, target: NativeTarget, say: Say) -> Path:
        return BUILD.build(PARSERS_DIR / str(target.folder), say)

    def launch(self, built: Path, target: NativeTarget, entry: str, work: Path, seconds: int,
               s: NativeSettings) -> Launch:
        argv = [go_binary() or "go", "test", "-run=^$", f"-fuzz=^Fuzz{entry}$", _fuzztime(work, seconds, s),
                "-parallel=1", "-fuzzminimizetime=20s", ".", "-args", f"-test.fuzzcachedir={work / 'go-corpus'}"]
        env = {**go_environment(), "GODEBUG": "fuzzdebug=1", "NATIVE_FUZZ_SEEDS": str(work / "corpus"),
               "GOMEMLIMIT": f"{s.memory_mb}MiB"}
        return Launch(argv, env, built)

    def grown(self, work: Path) -> list[bytes]:
        """Go keeps what raised coverage in its fuzz cache (-test.fuzzcachedir), not the seeds' folder."""
        cache = work / "go-corpus"
        kept = [decode_corpus_file(p.read_text(errors="replace")) for p in sorted(cache.rglob("*")) if p.is_file()]
        return grown_inputs(work / "corpus", kept)

    def progress(self, line: str) -> Progress | None:
        if m := _EXECS.search(line):
            return Progress(executions=int(m.group(1)))
        if m := _INITIAL.search(line):
            return Progress(coverage=int(m.group(1)), initial=True)
        if m := _TOTAL.search(line):
            return Progress(coverage=int(m.group(1)))
        return None

    def stopped(self, built: Path, target: NativeTarget, entry: str, work: Path, log: str) -> list[Found]:
        """The engine's saved input (minimised by it), moved into work/findings. A hang the target
        already noted keeps its note; anything else is named from the log's panic."""
        from harness.fuzz.crash_site import stderr_site
        found = []
        seeds = sorted((work / "corpus").iterdir())  # fuzz_test.go adds them in this order
        for index in _SEED_FAILED.findall(log):  # a seed that hangs: out of the corpus, else every round stops on it
            if int(index) < len(seeds):
                data = seeds[int(index)].read_bytes()
                seeds[int(index)].unlink()
                note = self.replay(built, target, entry, data, NativeSettings(0, work)) or {}
                if note:
                    rep = write_finding(work / "findings", data, note)
                    found.append(Found(note["kind"], note["signature"], note.get("detail", ""), rep, entry))
        for rel in _FAILING.findall(log):
            path = built / rel
            if not path.is_file():
                continue
            data = decode_corpus_file(path.read_text(errors="replace"))
            path.unlink()
            note = self.replay(built, target, entry, data, NativeSettings(0, work)) or {}
            if not note:  # the replay gives nothing: a worker death (out of memory, a fatal error)
                site = stderr_site(log) or "worker-died"
                kind = "memory" if "out of memory" in log else "crash"
                note = {"kind": kind, "signature": f"{kind}:{site}", "detail": "the fuzzing worker died",
                        "stack": log[-6000:]}
            note["engine_minimised"] = True
            rep = write_finding(work / "findings", data, note)
            found.append(Found(note["kind"], note["signature"], note.get("detail", ""), rep, entry))
        return found

    def replay(self, built: Path, target: NativeTarget, entry: str, data: bytes, s: NativeSettings) -> dict[str, Any] | None:
        import json
        import tempfile
        with tempfile.NamedTemporaryFile(suffix=".bin") as f:
            f.write(data)
            f.flush()
            env = {**go_environment(), "NATIVE_FUZZ_TIMEOUT": str(s.timeout)}
            proc = subprocess.run([str(built / REPLAY), entry, f.name], capture_output=True, text=True,
                                  env=env, timeout=s.timeout + 60)
        line = proc.stdout.strip().splitlines()[-1] if proc.stdout.strip() else ""
        if proc.returncode != 0 or not line:
            from harness.fuzz.crash_site import stderr_site
            return {"kind": "crash", "signature": f"crash:{stderr_site(proc.stderr) or 'replay-died'}",
                    "detail": proc.stderr[-500:]}
        note = json.loads(line)
        return {k.lower(): v for k, v in note.items()} or None


RUNTIME = GoNative()
