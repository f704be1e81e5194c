"""How the reference tools run: in a throwaway, network-less container of a local image, with each
binlog's directory mounted read-only.

It lives in oracle/ because `oracle verify` runs the tools and oracle/ imports nothing above it;
generators/tools.py builds its runners on these two functions.
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


def docker_run_argv(docker: str, image: str, tool: str, paths: Sequence[StrPath],
                    args: Sequence[str]) -> list[str]:
    """`tool args paths...` in a throwaway, network-less container of `image`."""
    vols, inside = mounts(paths)
    return [docker, "run", "--rm", "--network", "none", *vols, image, tool, *args, *inside]
