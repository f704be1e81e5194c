"""The Rust runtime: a parser folder holds Cargo.toml (exact `=` versions), Cargo.lock and the
adapter's source; the Rust every adapter shares (the persistent protocol, the canonical value
tags) is in harness/parsers/rust-shared/, reached from each folder through the symlink
src/shared. `cargo build --release --locked` builds the adapter with CARGO_HOME (the crates.io
index and the downloaded crates) and CARGO_TARGET_DIR (compiled dependencies) in the cache,
shared by every Rust parser and every build, so a fresh machine fetches and compiles each
crate once and a changed adapter recompiles only itself. The binary is copied into the build
directory; nothing is ever built inside the repository.

The folders' release profile (opt-level 1, 16 codegen units, no LTO, no debug info) keeps the
one-time build short: mysql-common's whole dependency tree (mysql_async, tokio, two
mysql_common versions, zstd) took 175 s user + 15 s system CPU from an empty cache on this 2-core
machine (13m48s wall while other builds kept the load near 30); a changed adapter alone
rebuilds in about 27 s wall."""
from __future__ import annotations

import hashlib
import os
import re
import shutil
import tomllib
from pathlib import Path

from .base import PARSERS_DIR, Runtime, Say, cache_root, run_logged

SHARED_DIR = PARSERS_DIR / "rust-shared"
BINARY = "adapter"


def _cargo_toml(folder: Path) -> dict:
    with open(folder / "Cargo.toml", "rb") as f:
        return tomllib.load(f)


def _extra_binaries(folder: Path) -> list[str]:
    """The [[bin]] targets of Cargo.toml other than the adapter (e.g. a library-alone probe)."""
    adapter = _package_name(folder)
    return [b["name"] for b in _cargo_toml(folder).get("bin", []) if b.get("name") and b["name"] != adapter]


def _package_name(folder: Path) -> str:
    name = _cargo_toml(folder).get("package", {}).get("name")
    if not name:
        raise ValueError(f"{folder / 'Cargo.toml'} names no package")
    return name


class RustRuntime(Runtime):
    name = "rust"
    tools = ("cargo",)
    # rustup's toolchain (1.95 on these machines): Debian bookworm's cargo/rustc 1.63 is too old
    # for the locks (tokio 1.54 needs rustc 1.85)
    provide_tools = "rustup (Debian's cargo 1.63 is too old: tokio 1.54 needs rustc 1.85)"
    required_files = ("Cargo.toml", "Cargo.lock", "src/main.rs")

    def shared(self) -> list[Path]:
        return sorted(p for p in SHARED_DIR.rglob("*.rs") if p.is_file())

    def inputs(self, folder: Path) -> list[Path]:
        return sorted(p for p in folder.rglob("*") if p.is_file() and "target" not in p.relative_to(folder).parts)

    def digest(self, folder: Path) -> str:
        """The folder's files and the shared Rust its src/shared link reaches."""
        h = hashlib.sha256(super().digest(folder).encode())
        for p in self.shared():
            h.update(p.name.encode() + b"\0" + p.read_bytes() + b"\0")
        return h.hexdigest()[:16]

    def environment(self) -> dict[str, str]:
        env = dict(os.environ)
        env["CARGO_HOME"] = str(cache_root() / "cargo" / "home")
        env["CARGO_TARGET_DIR"] = str(cache_root() / "cargo" / "target")
        env.setdefault("CARGO_TERM_COLOR", "never")
        env["CARGO_TERM_PROGRESS_WHEN"] = "never"
        return env

    def _build(self, work: Path, say: Say) -> None:
        env = self.environment()
        # The build copy keeps the sources' file times, and every build shares one target
        # directory: a source older than another folder's last build would look fresh to cargo,
        # which would then link that build's adapter. Sources dated now are always rebuilt.
        for source in work.rglob("*.rs"):
            os.utime(source)
        run_logged(["cargo", "build", "--release", "--locked"], work, say, env)
        release = Path(env["CARGO_TARGET_DIR"]) / "release"
        shutil.copy2(release / _package_name(work), work / BINARY)
        # The package's other binaries, built by the same command, kept beside the adapter: the
        # tests take a probe from here instead of building it again (a second `cargo build` in
        # the suite recompiled the whole dependency tree, 301 s of CPU, in the rehearsal).
        for name in _extra_binaries(work):
            shutil.copy2(release / name, work / name)

    def command(self, built: Path) -> list[str]:
        return [str(built / BINARY)]

    def pinned_version(self, folder: Path, library: str) -> str | None:
        """The version Cargo.lock pins for the crate (the newest, where two are locked)."""
        try:
            lock = (folder / "Cargo.lock").read_text()
        except OSError:
            return None
        found = re.findall(r'name = "' + re.escape(library) + r'"\nversion = "([^"]+)"', lock)
        return max(found, key=lambda v: tuple(int(x) for x in re.findall(r"\d+", v))) if found else None


RUNTIME = RustRuntime()
