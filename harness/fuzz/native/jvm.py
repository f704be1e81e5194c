"""Java: Jazzer 0.30.0 (Maven Central `com.code-intelligence:jazzer`, the launcher with libFuzzer
inside, and `jazzer-api`) on the targets of each JVM parser's harness/parsers/<library>-fuzz/,
built with Maven into the cache like the adapters (another build of the same library shares the
targets through a `src` symlink, as the adapters do; another library's folder links
mysql-binlog-connector-java-fuzz's Findings.java and Replay.java and names its own entry points,
class prefix and documented errors in Targets.java). Coverage is libFuzzer's (`cov:` edges,
`ft:` features) over the library's classes only (--instrumentation_includes). The targets note
an unchecked exception or Error themselves and go on; a timeout or an out-of-memory stops
Jazzer with an artifact, which is replayed (conformance.fuzz.Replay, outside Jazzer) for its
signature and moved into the findings."""
from __future__ import annotations

import json
import os
import re
import subprocess
import tempfile
from pathlib import Path
from typing import Any

from harness.runtimes.base import PARSERS_DIR, run_logged
from harness.runtimes.jvm import JVM_OPTIONS, LIB_DIR, JvmRuntime, maven_repository

from . import NativeTarget
from .libfuzzer import LibFuzzerOutput
from .session import Launch, NativeRuntime, NativeSettings, Say

JAZZER_MAIN = "com.code_intelligence.jazzer.Jazzer"
REPLAY_MAIN = "conformance.fuzz.Replay"
# libFuzzer's per-unit limit also covers the first units, while the JVM loads and instruments the
# library's classes: seconds under a loaded machine. A loop that never ends is still caught.
JAZZER_MIN_TIMEOUT_S = 20
_ARTIFACT = re.compile(r"(?:Test unit written to|artifact_prefix='[^']*'; Test unit written to) (\S+)")


class JvmFuzzBuild(JvmRuntime):
    """Maven package + the dependencies (Jazzer included) into lib/; no shared adapter code."""

    def shared(self) -> list[Path]:
        return []

    def _build(self, work: Path, say: Say) -> None:
        maven = ["mvn", "-B", "--no-transfer-progress", f"-Dmaven.repo.local={maven_repository()}"]
        run_logged(maven + ["package", "dependency:copy-dependencies", f"-DoutputDirectory={work / LIB_DIR}",
                            "-DincludeScope=runtime"], work, say)


BUILD = JvmFuzzBuild()


def classpath(built: Path) -> str:
    jars = sorted((built / "target").glob("*.jar")) + sorted((built / LIB_DIR).glob("*.jar"))
    return os.pathsep.join(str(j) for j in jars)


class JvmNative(LibFuzzerOutput, NativeRuntime):
    name = "jvm"
    engine = "jazzer"
    coverage_unit = "edges (libFuzzer cov)"

    def build(self, target: NativeTarget, say: Say) -> Path:
        return BUILD.build(PARSERS_DIR / str(target.folder), say)

    def launch(self, built: Path, target: NativeTarget, entry: str, work: Path, seconds: int,
               s: NativeSettings) -> Launch:
        (work / "artifacts").mkdir(parents=True, exist_ok=True)
        heap = [o for o in JVM_OPTIONS if not o.startswith("-Xmx")]
        argv = ["java", f"-Xmx{max(256, s.memory_mb // 2)}m", *heap, "-cp", classpath(built), JAZZER_MAIN,
                f"--target_class=conformance.fuzz.{entry}Fuzz",
                f"--instrumentation_includes={target.library_frames}.**",
                f"-max_total_time={seconds}", f"-timeout={int(max(JAZZER_MIN_TIMEOUT_S, s.timeout))}",
                f"-rss_limit_mb={s.memory_mb + 1024}", f"-max_len={s.max_len}", f"-seed={s.seed or 1}",
                f"-artifact_prefix={work / 'artifacts'}/", "-print_final_stats=1", *s.runs_flags(), str(work / "corpus")]
        return Launch(argv, dict(os.environ), work)

    def replay(self, built: Path, target: NativeTarget, entry: str, data: bytes, s: NativeSettings) -> dict[str, Any] | None:
        with tempfile.NamedTemporaryFile(suffix=".bin") as f:
            f.write(data)
            f.flush()
            proc = subprocess.run(["java", *JVM_OPTIONS, "-cp", classpath(built), REPLAY_MAIN, entry, f.name],
                                  capture_output=True, text=True, timeout=s.timeout + 60,
                                  env={**os.environ, "NATIVE_FUZZ_TIMEOUT": str(s.timeout)})
        lines = proc.stdout.strip().splitlines()
        if not lines:
            return {"kind": "crash", "signature": "crash:replay-died", "detail": proc.stderr[-500:]}
        return json.loads(lines[-1]) or None


RUNTIME = JvmNative()
