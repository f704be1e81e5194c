"""The JVM runtime: builds a parser folder holding a pom.xml (every version exact: it is manifest
and lock) with Maven, in the cache copy that Runtime.build makes, and starts its adapter with
`java`. The Maven local repository is in the cache too, so a fresh machine downloads once and
nothing of the build (target/, jars) is ever in the repository.

A folder's `src` may be a symlink to a sibling's (two lines of one library, one adapter source):
the digest and the copy follow it. The Java every adapter shares (harness/parsers/jvm-shared/: the
persistent protocol, JSON, the value tagging) is copied into the adapter's package at build time
and keys the digest too, as node-shared does for the Node adapters."""
from __future__ import annotations

import os
import shutil
import tempfile
import xml.etree.ElementTree as ET
from pathlib import Path

from .base import PARSERS_DIR, Runtime, Say, cache_root, run_logged

MAIN_CLASS = "conformance.Main"
ADAPTER = "src/main/java/conformance/Main.java"
PACKAGE_DIR = "src/main/java/conformance"
SHARED_DIR = PARSERS_DIR / "jvm-shared"
POM_NS = {"m": "http://maven.apache.org/POM/4.0.0"}
LIB_DIR = "lib"
# Small reservations, so that the JVM starts under the fuzz engine's RLIMIT_AS of 2 GiB (the default
# class space and code cache alone reserve over 1 GiB of address space); UTF-8 for the library's
# new String(bytes), UTC for nothing the adapter relies on but a reproducible environment.
# -XX:-OmitStackTraceInFastThrow: HotSpot otherwise replaces an exception thrown often from
# compiled code by a preallocated one without message, so a library's error text would depend on
# how warm the JIT is (seen: open-replicator's ArrayIndexOutOfBoundsException turning "null").
# -Xmx256m: inputs are under 4 MB; a runaway reproducer (rows of width 0 appended for ever) ends in
# OutOfMemoryError after 2-17 s of serial GC where 512m took 28-60 s (mysql-binlog-connector-java-file,
# five cases: 168 s CPU -> 50 s).
JVM_OPTIONS = ("-Xmx256m", "-XX:+UseSerialGC", "-XX:-OmitStackTraceInFastThrow", "-Xss4m",
               "-XX:CompressedClassSpaceSize=64m", "-XX:ReservedCodeCacheSize=64m", "-XX:MaxMetaspaceSize=128m",
               "-Dfile.encoding=UTF-8", "-Duser.timezone=UTC")


def maven_repository() -> Path:
    return cache_root() / "maven-repository"


class JvmRuntime(Runtime):
    name = "jvm"
    tools = ("java", "mvn")
    provide_tools = "apt-get install -y default-jdk-headless maven"
    required_files = ("pom.xml", ADAPTER)  # pom.xml is manifest and lock: every version exact

    def inputs(self, folder: Path) -> list[Path]:
        """Every file under the folder, through symlinked directories (a shared `src`)."""
        found: list[Path] = []
        for root, _dirs, files in os.walk(folder, followlinks=True):
            found.extend(Path(root) / f for f in files)
        return sorted(found)

    def shared(self) -> list[Path]:
        return sorted(p for p in SHARED_DIR.glob("*.java") if p.is_file())

    def pinned_version(self, folder: Path, library: str) -> str | None:
        """The version pom.xml pins for `library` ("groupId:artifactId"), ${properties} resolved."""
        try:
            pom = ET.parse(folder / "pom.xml").getroot()
        except (OSError, ET.ParseError):
            return None
        properties = {p.tag.split("}")[1]: (p.text or "") for p in pom.findall("m:properties/*", POM_NS)}

        def resolved(text: str | None) -> str:
            text = text or ""
            return properties.get(text[2:-1], text) if text.startswith("${") else text

        for dep in pom.findall("m:dependencies/m:dependency", POM_NS):
            coordinates = f"{resolved(dep.findtext('m:groupId', None, POM_NS))}:{dep.findtext('m:artifactId', None, POM_NS)}"
            if coordinates == library:
                return resolved(dep.findtext("m:version", None, POM_NS))
        return None

    def _build(self, work: Path, say: Say) -> None:
        for p in self.shared():
            shutil.copy2(p, work / PACKAGE_DIR / p.name)
        maven = ["mvn", "-B", "--no-transfer-progress", f"-Dmaven.repo.local={maven_repository()}"]
        run_logged(maven + ["package", "dependency:copy-dependencies",
                            f"-DoutputDirectory={work / LIB_DIR}", "-DincludeScope=runtime"], work, say)

    def command(self, built: Path) -> list[str]:
        jars = sorted((built / "target").glob("*.jar")) + sorted((built / LIB_DIR).glob("*.jar"))
        crash_log = f"-XX:ErrorFile={Path(tempfile.gettempdir()) / 'hs_err_pid%p.log'}"  # not in the cwd
        return ["java", *JVM_OPTIONS, crash_log, "-cp", os.pathsep.join(str(j) for j in jars), MAIN_CLASS]


RUNTIME = JvmRuntime()
