"""Rust: libFuzzer through libfuzzer-sys (crates.io, pinned in each fuzz crate's Cargo.lock:
harness/parsers/mysql-common-fuzz/, mysql-binlog-connector-rust-fuzz/) on stable Rust, without
cargo-fuzz: cargo-fuzz's `--sanitizer none` build is RUSTFLAGS for sancov coverage plus `--cfg
fuzzing`, which stable rustc accepts as they are (`-Cpasses=sancov-module` and LLVM's
-sanitizer-coverage-* options; no -Z flag), so this module passes them itself and spares CI the
cargo-fuzz install. Built with `--target <host>` so the flags reach neither build scripts nor
proc-macros (as cargo-fuzz does), in a target directory of its own in the cache. AddressSanitizer
would need nightly (-Zsanitizer) and is not used: overflow checks and debug assertions are on.
The target catches the library's panics; an abort (an allocation that fails under RLIMIT_AS), a
timeout or libFuzzer's RSS limit ends a job of the fork mode (FORK_FLAGS), whose artifact is
replayed by the same binary for its signature, named by the first frame of the target's library
crate (library_frames)."""
from __future__ import annotations

import json
import os
import platform
import re
import shutil
import subprocess
import tempfile
from pathlib import Path
from typing import Any

from harness.runtimes.base import PARSERS_DIR, cache_root, run_logged
from harness.runtimes.rust import BINARY, RustRuntime, _package_name

from . import NativeTarget
from .libfuzzer import LibFuzzerOutput
from .session import EntryRun, Launch, NativeRuntime, NativeSettings, Say, run_rounds, write_corpus

HOST = f"{platform.machine()}-unknown-linux-gnu"
# The targets abort (an allocation refused under RLIMIT_AS, a panic outside catch_unwind), and
# libFuzzer without a sanitizer cannot catch an abort: in one process each stop meant a restart
# that read every seed again, one crashing seed per round (under CI's load, a 12 s run never got
# past the seeds). -fork=1 runs the units in child processes, reads the seeds once in a
# crash-resistant merge, and goes on after every crash, timeout and out-of-memory, each left as
# an artifact that `stopped` replays. Not for `runs` (bench.py's seeds-only coverage).
FORK_FLAGS = ("-fork=1", "-ignore_crashes=1", "-ignore_timeouts=1", "-ignore_ooms=1")
SANCOV_RUSTFLAGS = " ".join((
    "--cfg fuzzing", "-Cpasses=sancov-module", "-Cllvm-args=-sanitizer-coverage-level=4",
    "-Cllvm-args=-sanitizer-coverage-inline-8bit-counters", "-Cllvm-args=-sanitizer-coverage-pc-table",
    "-Cllvm-args=-sanitizer-coverage-trace-compares", "-Cdebug-assertions", "-Coverflow-checks"))


def _library_frame(crate: str) -> re.Pattern[str]:
    """A backtrace frame of the crate (NativeTarget.library_frames) and the file:line under it."""
    return re.compile(rf"^\s+\d+: (?:<)?{re.escape(crate)}::.*\n\s+at (\S+?\.rs):(\d+):\d+", re.M)


FUZZ_SHARED_DIR = PARSERS_DIR / "rust-fuzz-shared"


class RustFuzzBuild(RustRuntime):
    """The fuzz crate with sancov RUSTFLAGS, in its own target directory (the flags change every
    crate's build), with rust-fuzz-shared's modules in its src/ (not the adapters' rust-shared)."""

    def shared(self) -> list[Path]:
        return sorted(FUZZ_SHARED_DIR.glob("*.rs"))

    def environment(self) -> dict[str, str]:
        env = super().environment()
        env["CARGO_TARGET_DIR"] = str(cache_root() / "cargo" / "fuzz-target")
        env["RUSTFLAGS"] = SANCOV_RUSTFLAGS
        return env

    def _build(self, work: Path, say: Say) -> None:
        for p in self.shared():
            shutil.copy2(p, work / "src" / p.name)
        env = self.environment()
        run_logged(["cargo", "build", "--release", "--locked", "--target", HOST], work, say, env)
        shutil.copy2(Path(env["CARGO_TARGET_DIR"]) / HOST / "release" / _package_name(work), work / BINARY)


BUILD = RustFuzzBuild()


class RustNative(LibFuzzerOutput, NativeRuntime):
    name = "rust"
    engine = "libfuzzer (libfuzzer-sys)"
    coverage_unit = "edges (libFuzzer cov)"

    def build(self, target: NativeTarget, say: Say) -> Path:
        return BUILD.build(PARSERS_DIR / str(target.folder), say)

    def run(self, target, seeds, s, say) -> list[EntryRun]:
        """As every runtime, under RLIMIT_AS: an allocation the library asks for on an untrusted
        length fails (and aborts) instead of taking the machine's memory."""
        built = self.build(target, say)
        runs = []
        for entry in target.entry_points:
            work = s.out / entry
            write_corpus(work / "corpus", seeds, s.max_len)
            (work / "findings").mkdir(parents=True, exist_ok=True)
            runs.append(run_rounds(self, built, target, entry, work, s.seconds / len(target.entry_points), s, say,
                                   address_space_mb=s.memory_mb))
        return runs

    def launch(self, built: Path, target: NativeTarget, entry: str, work: Path, seconds: int,
               s: NativeSettings) -> Launch:
        (work / "artifacts").mkdir(parents=True, exist_ok=True)
        argv = [str(built / BINARY), f"-max_total_time={seconds}", f"-timeout={int(max(1, s.timeout))}",
                f"-rss_limit_mb={s.memory_mb}", f"-max_len={s.max_len}", f"-seed={s.seed or 1}",
                f"-artifact_prefix={work / 'artifacts'}/", "-print_final_stats=1",
                *(s.runs_flags() if s.runs is not None else FORK_FLAGS), str(work / "corpus")]
        # fork mode's scratch directory (libFuzzerTemp.*) in the run's folder, not the machine's /tmp
        return Launch(argv, {**os.environ, "RUST_BACKTRACE": "1", "TMPDIR": str(work)}, work)

    def replay(self, built: Path, target: NativeTarget, entry: str, data: bytes, s: NativeSettings) -> dict[str, Any] | None:
        from harness.fuzz.crash_site import stderr_site
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / "input"
            path.write_bytes(data)
            (Path(tmp) / "notes").mkdir()
            limit = s.memory_mb * 2**20

            def limits() -> None:
                import resource
                resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
            proc = subprocess.run([str(built / BINARY), f"-timeout={int(max(1, s.timeout))}",
                                   f"-rss_limit_mb={s.memory_mb}", str(path)], capture_output=True, text=True,
                                  errors="replace", timeout=s.timeout + 60, preexec_fn=limits,
                                  env={**os.environ, "RUST_BACKTRACE": "1", "NATIVE_FUZZ_FINDINGS": str(Path(tmp) / "notes")})
            notes = sorted((Path(tmp) / "notes").glob("*.json"))
            if notes:
                return json.loads(notes[0].read_text())
        if proc.returncode == 0:
            return None
        err = proc.stderr
        if "libFuzzer: timeout" in err:
            return {"kind": "hang", "signature": f"hang@{entry}", "detail": "libFuzzer timeout", "stack": err[-4000:]}
        memory = "memory allocation of" in err or "out-of-memory" in err
        kind = "memory" if memory else "crash"
        frame = _library_frame(target.library_frames).search(err)  # the allocation's caller in the library, from the backtrace
        site = (f"{'allocation' if memory else 'abort'}@{Path(frame.group(1)).name}:{frame.group(2)}" if frame
                else stderr_site(err) or "abort")
        said = [ln for ln in err.splitlines() if re.search(r"memory allocation of|panicked|ERROR: libFuzzer", ln)]
        return {"kind": kind, "signature": f"{kind}:{site}", "detail": (said or [""])[0][:300],
                "stack": err[-4000:]}


RUNTIME = RustNative()
