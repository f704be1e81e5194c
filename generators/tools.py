"""The reference decoders: the real mysqlbinlog and mariadb-binlog.

Other code compares its parse against these. mysqlbinlog (Oracle MySQL 9.7)
runs from the local binlog-mysql:9.7 image with no network and the binlog's
directory mounted read-only; mariadb-binlog is the host's (Debian's MariaDB
client) unless an image is asked for.
"""
from __future__ import annotations

import shutil
import subprocess
from collections.abc import Sequence
from os import PathLike
from pathlib import Path

from . import docker_env

MYSQL_IMAGE = "binlog-mysql:9.7"
StrPath = str | PathLike[str]


def _mounts(paths: Sequence[StrPath]) -> tuple[list[str], list[str]]:
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


def run_in_image(image: str, tool: str, paths: StrPath | Sequence[StrPath],
                 args: Sequence[str], timeout: float | None = 600) -> subprocess.CompletedProcess[bytes]:
    """Run `tool args paths...` in a throwaway, network-less container of `image`."""
    plist = [paths] if isinstance(paths, (str, PathLike)) else list(paths)
    vols, inside = _mounts(plist)
    return subprocess.run(
        [docker_env.docker_bin(), "run", "--rm", "--network", "none", *vols, image,
         tool, *args, *inside], capture_output=True, timeout=timeout, check=False)


def run_mysqlbinlog(path: StrPath | Sequence[StrPath], args: Sequence[str] = ("-vvv",),
                    image: str = MYSQL_IMAGE, timeout: float | None = 600
                    ) -> subprocess.CompletedProcess[bytes]:
    """Decode binlog file(s) with Oracle's mysqlbinlog. Output is bytes (binlogs
    may hold any bytes); returncode is mysqlbinlog's."""
    return run_in_image(image, "mysqlbinlog", path, args, timeout)


def run_mariadb_binlog(path: StrPath | Sequence[StrPath], args: Sequence[str] = ("-vvv",),
                       image: str | None = None, timeout: float | None = 600
                       ) -> subprocess.CompletedProcess[bytes]:
    """Decode binlog file(s) with mariadb-binlog: the host's by default, or the
    one inside `image` (e.g. "binlog-mariadb:11.8") to pick a version."""
    if image is not None:
        return run_in_image(image, "mariadb-binlog", path, args, timeout)
    exe = shutil.which("mariadb-binlog") or shutil.which("mysqlbinlog")
    if exe is None:
        raise FileNotFoundError("mariadb-binlog not installed (run .ci/install-docker.sh)")
    plist = [path] if isinstance(path, (str, PathLike)) else list(path)
    return subprocess.run([exe, *args, *map(str, plist)], capture_output=True,
                          timeout=timeout, check=False)
