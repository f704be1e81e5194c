"""How the reference tools run: in a throwaway container of a local image. A decode has no network
and each binlog's directory mounted read-only (docker_run_argv); a client of a server on
127.0.0.1 shares the host's network (generators/tools.py run_against_server). Both are
`container_argv` lines.

It lives in oracle/ because `oracle verify` runs the tools and oracle/ imports nothing above it;
generators/tools.py builds its runners on these functions.
"""
from __future__ import annotations

import os
import shutil
from collections.abc import Sequence
from os import PathLike
from pathlib import Path

MYSQL_IMAGE = "binlog-mysql:9.7"
StrPath = str | PathLike[str]


def find_docker() -> str | None:
    """Path of the docker CLI: $BINLOG_DOCKER, else Debian's, else whatever is on PATH."""
    explicit = os.environ.get("BINLOG_DOCKER")
    if explicit:
        return explicit
    if Path("/usr/bin/docker").exists():
        return "/usr/bin/docker"
    return shutil.which("docker")


def mounts(paths: Sequence[StrPath]) -> tuple[list[str], list[str]]:
    """-v options (one read-only mount per distinct directory) and in-container paths."""
    dirs: dict[Path, str] = {}
    inside = []
    for p in (Path(x).resolve() for x in paths):
        if not p.is_file():
            raise FileNotFoundError(p)
        mount = dirs.setdefault(p.parent, f"/data/{len(dirs)}")
        inside.append(f"{mount}/{p.name}")
    vols = [a for d, m in dirs.items() for a in ("-v", f"{d}:{m}:ro")]
    return vols, inside


def container_argv(docker: str, image: str, command: Sequence[str], network: str = "none",
                   options: Sequence[str] = ()) -> list[str]:
    """`command` in a throwaway container of `image` on `network` ("none", or "host" to reach a
    server on the host's loopback: dockerd here has no bridge), with further `docker run` options."""
    return [docker, "run", "--rm", "--network", network, *options, image, *command]


def docker_run_argv(docker: str, image: str, tool: str, paths: Sequence[StrPath],
                    args: Sequence[str]) -> list[str]:
    """`tool args paths...` in a throwaway, network-less container of `image`."""
    vols, inside = mounts(paths)
    return container_argv(docker, image, [tool, *args, *inside], options=vols)
