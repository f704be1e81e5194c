"""What every runtime shares: the cache directory keyed by the digest of a parser folder's
inputs, an atomic build (a temporary sibling renamed when complete), progress lines while the
toolchain works, and the reason a parser cannot run (a tool missing, or not built yet), ending
with the one command that provides it."""
from __future__ import annotations

import abc
import contextlib
import fcntl
import hashlib
import os
import shutil
import subprocess
import time
from pathlib import Path
from typing import Callable, ClassVar, Iterator, Sequence

from generators.cache import cache_root

PARSERS_DIR = Path(__file__).resolve().parent.parent / "parsers"
INSTALL_COMMAND = "python -m harness peers install"
COMPLETE_MARK = ".complete"
Say = Callable[[str], None]


class BuildError(RuntimeError):
    """A toolchain is missing or its build failed; the message carries the tail of its output."""


def run_logged(argv: Sequence[str], cwd: Path, say: Say, env: dict[str, str] | None = None) -> None:
    """Run a build step, echoing each line with the elapsed time; BuildError with the last 20
    lines when it fails."""
    start = time.monotonic()
    say(f"$ {' '.join(argv)}")
    try:
        proc = subprocess.Popen(list(argv), cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                text=True, errors="replace", env=env)
    except OSError as e:
        raise BuildError(f"cannot run {argv[0]}: {e.strerror}") from e
    tail: list[str] = []
    assert proc.stdout is not None
    for line in proc.stdout:
        line = line.rstrip()
        if line:
            tail = (tail + [line])[-20:]
            say(f"[{time.monotonic() - start:6.1f}s] {line[:160]}")
    if proc.wait() != 0:
        raise BuildError(f"{argv[0]} failed (exit {proc.returncode}):\n" + "\n".join(tail))


NOT_A_BUILD_INPUT = "manifest.toml"  # harness/manifests.py MANIFEST


class Runtime(abc.ABC):
    """Builds one kind of parser folder. Subclasses name their tools and the files that key a
    build, and implement _build (in a fresh copy of the folder) and command (the adapter's argv,
    to which the launcher appends the testee's transport, "stream" or "file")."""

    name: ClassVar[str]                  # "node", "jvm", "go", "rust"
    tools: ClassVar[tuple[str, ...]]     # executables that must be on PATH
    provide_tools: ClassVar[str]         # the command that installs them on Debian
    required_files: ClassVar[tuple[str, ...]] = ()  # manifest, lock, adapter (checked by a test)

    def inputs(self, folder: Path) -> list[Path]:
        """The files whose bytes decide the build (manifest, lock, adapter sources); by default
        every file in the folder."""
        return sorted(p for p in folder.rglob("*") if p.is_file())

    def shared(self) -> list[Path]:
        """Code every adapter of this runtime uses (harness/parsers/<runtime>-shared/), copied
        into the build by _build; none by default."""
        return []

    def digest(self, folder: Path) -> str:
        """The folder's inputs, then the shared files copied into its build (when there are any).
        The parser's manifest.toml (its findings and refusals: data the harness reads, never the
        adapter) is no input: editing it rebuilds nothing."""
        h = hashlib.sha256()
        for p in self.inputs(folder):
            if p.parent == folder and p.name == NOT_A_BUILD_INPUT:
                continue
            h.update(str(p.relative_to(folder)).encode() + b"\0" + p.read_bytes() + b"\0")
        shared = self.shared()
        if not shared:
            return h.hexdigest()[:16]
        keyed = hashlib.sha256(h.hexdigest()[:16].encode())
        for p in shared:
            keyed.update(p.name.encode() + b"\0" + p.read_bytes() + b"\0")
        return keyed.hexdigest()[:16]

    def build_dir(self, folder: Path) -> Path:
        return cache_root() / "parsers" / self.name / f"{folder.name}-{self.digest(folder)}"

    def is_built(self, folder: Path) -> bool:
        return (self.build_dir(folder) / COMPLETE_MARK).exists()

    def missing_tool(self) -> str | None:
        missing = [t for t in self.tools if shutil.which(t) is None]
        if missing:
            return f"{', '.join(missing)} not on PATH; provide it with: {self.provide_tools}"
        return None

    def unavailable_reason(self, folder: Path) -> str | None:
        tool = self.missing_tool()
        if tool:
            return tool
        if not self.is_built(folder):
            return f"{folder.name} is not built; provide it with: {INSTALL_COMMAND}"
        return None

    def pinned_version(self, folder: Path, library: str) -> str | None:
        """The library's version as the folder's lock pins it (None: not known here)."""
        return None

    def build(self, folder: Path, say: Say, force: bool = False) -> Path:
        """Build the folder into the cache unless a complete build of the same inputs is there.
        Works in a temporary sibling renamed at the end, so an interrupted build leaves nothing
        that looks complete."""
        final = self.build_dir(folder)
        if self.is_built(folder) and not force:
            say(f"{folder.name}: already built in {final}")
            return final
        tool = self.missing_tool()
        if tool:
            raise BuildError(tool)
        final.parent.mkdir(parents=True, exist_ok=True)
        with _exclusive(final.parent / f".lock-{final.name}"):
            if self.is_built(folder) and not force:  # another process built it while we waited
                say(f"{folder.name}: built by another process in {final}")
                return final
            return self._build_into(folder, final, say)

    def _build_into(self, folder: Path, final: Path, say: Say) -> Path:
        work = final.parent / f".tmp-{final.name}-{os.getpid()}"
        shutil.rmtree(work, ignore_errors=True)
        shutil.copytree(folder, work)
        start = time.monotonic()
        try:
            self._build(work, say)
        except BaseException:
            shutil.rmtree(work, ignore_errors=True)
            raise
        (work / COMPLETE_MARK).write_text(self.digest(folder) + "\n")
        shutil.rmtree(final, ignore_errors=True)
        work.rename(final)
        say(f"{folder.name}: built in {final} ({time.monotonic() - start:.1f}s)")
        return final

    @abc.abstractmethod
    def _build(self, work: Path, say: Say) -> None:
        """Build in `work`, a fresh copy of the parser folder (run_logged for each step)."""

    @abc.abstractmethod
    def command(self, built: Path) -> list[str]:
        """The argv that starts the adapter from a complete build directory."""


@contextlib.contextmanager
def _exclusive(lock_path: Path) -> Iterator[None]:
    """One build of a folder at a time across processes (pytest-xdist workers, a conformance run
    beside a fuzz run): the second waits and then finds the first's build complete, instead of
    replacing the directory a running adapter was started from."""
    with open(lock_path, "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)
