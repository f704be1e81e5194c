"""The Node binlog parsers from npm, installed on demand.

package.json and package-lock.json in this directory pin them; `python -m harness peers install`
runs `npm ci` into a cache outside the repository, one directory per lock-file digest, so a
changed lock installs afresh and node_modules never lands in the working tree. The adapters
(adapters/*.js) load the packages from there."""
from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from generators.cache import cache_root as shared_cache_root

PEERS_DIR = Path(__file__).resolve().parent
ADAPTERS_DIR = PEERS_DIR / "adapters"
LOCK_FILE = PEERS_DIR / "package-lock.json"
INSTALL_COMMAND = "python -m harness peers install"
COMPLETE_MARK = ".complete"


class InstallError(RuntimeError):
    """npm is missing or `npm ci` failed; the message carries the tail of its output."""


@dataclass(frozen=True)
class Peer:
    """One Node parser: the plugin name, its npm package, and the adapter script."""

    name: str
    package: str
    script: Path


PEERS = {p.name: p for p in (
    Peer("zongji-vlasky", "@vlasky/zongji", ADAPTERS_DIR / "zongji-vlasky.js"),
    Peer("zongji-powersync", "@powersync/mysql-zongji", ADAPTERS_DIR / "zongji-powersync.js"),
    Peer("zongji", "zongji", ADAPTERS_DIR / "zongji.js"),
    Peer("go-mysql-js", "go-mysql-js", ADAPTERS_DIR / "go-mysql-js.js"),
    Peer("go-mysql-binlog-node", "@solashi/go-mysql-binlog-node", ADAPTERS_DIR / "go-mysql-binlog-node.js"),
)}


def lock_digest() -> str:
    return hashlib.sha256(LOCK_FILE.read_bytes()).hexdigest()[:16]


def cache_root() -> Path:
    return shared_cache_root() / "peers"


def install_dir() -> Path:
    return cache_root() / lock_digest()


def node_modules() -> Path:
    return install_dir() / "node_modules"


def is_installed() -> bool:
    return (install_dir() / COMPLETE_MARK).exists()


def node_binary() -> str | None:
    return shutil.which("node")


def installed_version(package: str) -> str | None:
    try:
        meta = json.loads((node_modules() / package / "package.json").read_text())
    except (OSError, ValueError):
        return None
    return str(meta.get("version", "unknown"))


def pinned_version(package: str) -> str | None:
    """The version the committed lock file pins (what `peers install` will put in the cache)."""
    lock = json.loads(LOCK_FILE.read_text())
    entry = lock.get("packages", {}).get(f"node_modules/{package}")
    return entry.get("version") if entry else None


def unavailable_reason(peer: Peer) -> str | None:
    if node_binary() is None:
        return f"node is not on PATH (install Node.js >= 20); provide it with: {INSTALL_COMMAND}"
    if not is_installed() or installed_version(peer.package) is None:
        return f"npm package {peer.package} is not installed; provide it with: {INSTALL_COMMAND}"
    return None


def install(say: Callable[[str], None], force: bool = False) -> Path:
    """`npm ci` from the committed lock into the cache; returns the install directory.
    Builds in a temporary sibling and renames it, so an interrupted install leaves nothing
    that looks complete."""
    final = install_dir()
    if is_installed() and not force:
        say(f"already installed in {final}")
        return final
    npm = shutil.which("npm")
    if npm is None:
        raise InstallError("npm is not on PATH (install Node.js >= 20 with npm)")
    final.parent.mkdir(parents=True, exist_ok=True)
    work = final.parent / f".tmp-{final.name}-{os.getpid()}"
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir()
    for name in ("package.json", "package-lock.json"):
        shutil.copy2(PEERS_DIR / name, work / name)
    say(f"npm ci into {work} ({len(PEERS)} packages pinned by {LOCK_FILE.name} {final.name})")
    start = time.monotonic()
    proc = subprocess.Popen([npm, "ci", "--no-audit", "--no-fund", "--loglevel=http"], cwd=work,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    tail: list[str] = []
    assert proc.stdout is not None
    for line in proc.stdout:
        line = line.rstrip()
        if line:
            tail = (tail + [line])[-20:]
            say(f"[{time.monotonic() - start:5.1f}s] {line[:160]}")
    if proc.wait() != 0:
        shutil.rmtree(work, ignore_errors=True)
        raise InstallError(f"npm ci failed (exit {proc.returncode}):\n" + "\n".join(tail))
    (work / COMPLETE_MARK).write_text(lock_digest() + "\n")
    shutil.rmtree(final, ignore_errors=True)
    work.rename(final)
    say(f"installed in {final} ({time.monotonic() - start:.1f}s)")
    return final


def status_rows() -> list[tuple[str, str, str, str]]:
    """(plugin, package, pinned version, state) for the status table."""
    rows = []
    for peer in PEERS.values():
        reason = unavailable_reason(peer)
        rows.append((peer.name, peer.package, pinned_version(peer.package) or "?",
                     "ready" if reason is None else reason))
    return rows
