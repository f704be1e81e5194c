"""The Go runtime: `go build` of a parser folder (go.mod + go.sum with exact versions, the
adapter's sources) into the cache. Modules come through the Go module proxy once per machine:
GOPATH, GOMODCACHE and GOCACHE live under the cache, so a fresh machine fetches and compiles
once and every later build of any Go parser reuses both. GOFLAGS=-mod=readonly makes a build
fail, rather than edit go.mod/go.sum, when the lock does not cover what the sources import.
The binary stays in the cache (never in the repository); the adapter's argv is just it."""
from __future__ import annotations

import os
import re
from pathlib import Path

from .base import Runtime, Say, cache_root, run_logged

BINARY = "adapter"
ADAPTER = "main.go"


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

    def _build(self, work: Path, say: Say) -> None:
        env = go_environment()
        run_logged(["go", "mod", "download", "-x"], work, say, env)
        run_logged(["go", "build", "-trimpath", "-o", BINARY, "."], work, say, env)

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
