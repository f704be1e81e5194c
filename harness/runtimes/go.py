"""The Go runtime: `go build` of a parser folder (go.mod + go.sum with exact versions, the
adapter's sources) into the cache. Modules come through the Go module proxy once per machine:
GOPATH, GOMODCACHE and GOCACHE live under the cache, so a fresh machine fetches and compiles
once and every later build of any Go parser reuses both. GOFLAGS=-mod=readonly makes a build
fail, rather than edit go.mod/go.sum, when the lock does not cover what the sources import.
The Go every adapter shares (harness/parsers/go-shared/) is copied beside the folder's sources
at build and keys the digest, as node-shared does. The binary stays in the cache (never in the
repository); the adapter's argv is just it."""
from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

from .base import PARSERS_DIR, Runtime, Say, cache_root, run_logged

SHARED_DIR = PARSERS_DIR / "go-shared"
BINARY = "adapter"
ADAPTER = "main.go"
MINIMUM = (1, 25)  # go-mysql v1.16.0's go.mod says go 1.25.0
# Where the Go of these machines lives when PATH leaves it out (Debian's golang-go is older).
USUAL_GO = Path("/usr/local/go/bin/go")


def go_binary() -> str | None:
    """The first Go new enough: `go` on PATH, else the usual install location (a Debian
    golang-go earlier on PATH is too old); if none is, the first found, for the message."""
    found = [g for g in (shutil.which("go"), str(USUAL_GO) if USUAL_GO.is_file() else None) if g]
    return next((g for g in found if go_version(g) >= MINIMUM), found[0] if found else None)


def go_version(go: str, patch: bool = False) -> tuple[int, ...]:
    """(major, minor), or with patch=True (major, minor, patch)."""
    out = subprocess.run([go, "env", "GOVERSION"], capture_output=True, text=True, timeout=60).stdout
    found = re.match(r"go(\d+)\.(\d+)(?:\.(\d+))?", out.strip())
    if not found:
        return ()
    parts = tuple(int(n or 0) for n in found.groups())
    return parts if patch else parts[:2]


def go_mod_version(folder: Path) -> tuple[int, ...]:
    """The `go` directive of the folder's go.mod as (major, minor, patch); () when absent."""
    try:
        found = re.search(r"^go (\d+)\.(\d+)(?:\.(\d+))?\s*$", (folder / "go.mod").read_text(), re.MULTILINE)
    except OSError:
        return ()
    return tuple(int(n or 0) for n in found.groups()) if found else ()


def go_environment() -> dict[str, str]:
    """The environment of every go command: module and build caches under the cache root, the
    lock obeyed, no toolchain download (the installed `go` builds; go.mod asks for no newer)."""
    home = cache_root() / "go"
    return {**os.environ,
            "GOPATH": str(home / "path"), "GOMODCACHE": str(home / "path" / "pkg" / "mod"),
            "GOCACHE": str(home / "build-cache"), "GOFLAGS": "-mod=readonly",
            "GOTOOLCHAIN": "local", "CGO_ENABLED": "0"}


class GoRuntime(Runtime):
    name = "go"
    tools = ("go",)
    provide_tools = "export PATH=$PATH:/usr/local/go/bin (Go 1.25 or newer; Debian's golang-go is older)"
    required_files = ("go.mod", "go.sum", ADAPTER)

    def missing_tool(self) -> str | None:
        go = go_binary()
        if go is None:
            return f"go not on PATH; provide it with: {self.provide_tools}"
        if go_version(go) < MINIMUM:
            return f"{go} is older than Go {MINIMUM[0]}.{MINIMUM[1]}; provide it with: {self.provide_tools}"
        return None

    def unavailable_reason(self, folder: Path) -> str | None:
        """Also: the folder's go.mod asks for a newer Go than the one here (vitess.io/vitess
        v0.24.4 says go 1.26.8; GOTOOLCHAIN=local never downloads another)."""
        wanted, go = go_mod_version(folder), go_binary()
        if go and wanted and go_version(go, patch=True) < wanted:
            version = ".".join(map(str, wanted))
            return f"{folder.name} needs Go {version} or newer (its go.mod); provide it with: {self.provide_tools}"
        return super().unavailable_reason(folder)

    def shared(self) -> list[Path]:
        """The Go every adapter shares (harness/parsers/go-shared/: the protocol, value tagging),
        copied beside the adapter's sources in package main."""
        return sorted(p for p in SHARED_DIR.glob("*.go") if p.is_file())

    def _build(self, work: Path, say: Say) -> None:
        for p in self.shared():
            shutil.copy2(p, work / p.name)
        go, env = go_binary() or "go", go_environment()
        run_logged([go, "mod", "download", "-x"], work, say, env)
        run_logged([go, "build", "-trimpath", "-o", BINARY, "."], work, say, env)

    def command(self, built: Path) -> list[str]:
        return [str(built / BINARY)]

    def pinned_version(self, folder: Path, library: str) -> str | None:
        """The version go.mod requires of the library's module (go.sum pins its hash)."""
        try:
            text = (folder / "go.mod").read_text()
        except OSError:
            return None
        found = re.search(rf"^\s*(?:require\s+)?{re.escape(library)}\s+v(\S+)", text, re.MULTILINE)
        return found.group(1) if found else None


RUNTIME = GoRuntime()
