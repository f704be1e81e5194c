"""The check every image build ends with: the server binary and the running server must both
report the version the registry entry names (a wrong package, a changed pin or a mislaid tree
fails the build here, with both versions in the message)."""
from __future__ import annotations

from typing import Callable

from . import docker_env
from .profiles import LOCAL_PROFILES
from .server import running_server
from .server_registry import ServerEntry


class ImageVersionError(RuntimeError):
    """The image's server is not the version its registry entry names."""


def check_versions(entry: ServerEntry, say: Callable[[str], None]) -> None:
    """`<server> --version` in a network-less container, then SELECT VERSION() of a started
    server, each against entry.expected_version; ImageVersionError when either differs."""
    want = entry.expected_version
    proc = docker_env.docker_cli("run", "--rm", "--network", "none", entry.tag, entry.server_bin,
                                 "--version", check=False)
    said = (proc.stdout + proc.stderr).decode(errors="replace").strip()
    if proc.returncode != 0 or f"Ver {want}" not in said:
        raise ImageVersionError(f"{entry.tag}: `{entry.server_bin} --version` says {said[-500:]!r};"
                                f" the registry entry wants {want}")
    with running_server(LOCAL_PROFILES[entry.profile_name]) as server:
        running = server.version()
    if not running.startswith(want):
        raise ImageVersionError(f"{entry.tag}: SELECT VERSION() = {running!r}; the registry entry "
                                f"wants {want}")
    say(f"{entry.tag}: {entry.server_bin} --version and SELECT VERSION() = {running} (want {want})")
