"""The JVM runtime: builds a parser folder holding a pom.xml (every version exact: it is manifest
and lock) with Maven, in the cache copy that Runtime.build makes, and starts its adapter with
`java`. The Maven local repository is in the cache too, so a fresh machine downloads once and
nothing of the build (target/, jars) is ever in the repository.

A folder's `src` may be a symlink to a sibling's (two lines of one library, one adapter source):
the digest and the copy follow it."""
from __future__ import annotations

import os
from pathlib import Path

from .base import Runtime, Say, cache_root, run_logged

MAIN_CLASS = "conformance.Main"
LIB_DIR = "lib"
JVM_OPTIONS = ("-Xmx512m", "-XX:+UseSerialGC", "-Xss4m", "-Dfile.encoding=UTF-8", "-Duser.timezone=UTC")


def maven_repository() -> Path:
    return cache_root() / "maven-repository"


class JvmRuntime(Runtime):
    name = "jvm"
    tools = ("java", "mvn")
    provide_tools = "apt-get install -y openjdk-17-jdk-headless maven"

    def inputs(self, folder: Path) -> list[Path]:
        """Every file under the folder, through symlinked directories (a shared `src`)."""
        found: list[Path] = []
        for root, _dirs, files in os.walk(folder, followlinks=True):
            found.extend(Path(root) / f for f in files)
        return sorted(found)

    def _build(self, work: Path, say: Say) -> None:
        maven = ["mvn", "-B", "--no-transfer-progress", f"-Dmaven.repo.local={maven_repository()}"]
        run_logged(maven + ["package", "dependency:copy-dependencies",
                            f"-DoutputDirectory={work / LIB_DIR}", "-DincludeScope=runtime"], work, say)

    def command(self, built: Path) -> list[str]:
        jars = sorted((built / "target").glob("*.jar")) + sorted((built / LIB_DIR).glob("*.jar"))
        return ["java", *JVM_OPTIONS, "-cp", os.pathsep.join(str(j) for j in jars), MAIN_CLASS]


RUNTIME = JvmRuntime()
