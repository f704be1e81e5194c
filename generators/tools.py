"""The reference decoders: the real mysqlbinlog and mariadb-binlog.

Other code compares its parse against these. mysqlbinlog (Oracle MySQL 9.7)
runs from the local binlog-mysql:9.7 image with no network and the binlog's
directory mounted read-only; mariadb-binlog is the host's (Debian's MariaDB
client) unless an image is asked for. The same tools as clients of a server on
127.0.0.1 (`--read-from-remote-server`, against our primary or a real server)
run through run_against_server.
"""
from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import tempfile
import uuid
from collections.abc import Sequence
from os import PathLike
from pathlib import Path
from types import TracebackType
from typing import Self

from oracle.tool_image import MYSQL_IMAGE, container_argv, docker_run_argv

from . import docker_env

StrPath = str | PathLike[str]


def run_in_image(image: str, tool: str, paths: StrPath | Sequence[StrPath],
                 args: Sequence[str], timeout: float | None = 600) -> subprocess.CompletedProcess[bytes]:
    """Run `tool args paths...` in a throwaway, network-less container of `image`."""
    plist = [paths] if isinstance(paths, (str, PathLike)) else list(paths)
    return subprocess.run(docker_run_argv(docker_env.docker_bin(), image, tool, plist, args),
                          capture_output=True, timeout=timeout, check=False)


def run_against_server(image: str | None, argv: Sequence[str], out_dir: StrPath,
                       timeout: float | None = 600, time_limit: float | None = None
                       ) -> subprocess.CompletedProcess[bytes]:
    """Run `argv`, a client of a server on 127.0.0.1, with `out_dir` as its working directory:
    in a throwaway container of `image` on the host network (the only way to reach the host's
    loopback; the tool talks to the address argv gives it), as the calling user, `out_dir`
    mounted at /out; or, with image None, the host's own tool. `time_limit`: coreutils
    `timeout` ends the tool after that many seconds (TERM, KILL 5 s later: exit 124 or 137),
    inside the container, so that a hung client does not outlive the docker CLI."""
    command = (["sh", "-c", f'timeout -k 5 {int(time_limit)} "$@"', "sh", *argv] if time_limit is not None
               else list(argv))
    if image is None:
        return subprocess.run(command, cwd=out_dir, capture_output=True, timeout=timeout, check=False)
    options = ["--user", f"{os.getuid()}:{os.getgid()}", "-v", f"{Path(out_dir).resolve()}:/out", "-w", "/out"]
    return subprocess.run(container_argv(docker_env.docker_bin(), image, command, "host", options),
                          capture_output=True, timeout=timeout, check=False)


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
    # LOAD DATA files go to a fresh directory, not the host's /tmp (where they pile up and the
    # next free name, part of the text, depends on earlier runs).
    with tempfile.TemporaryDirectory(prefix="mariadb-binlog-load-") as load_dir:
        return subprocess.run([exe, f"--local-load={load_dir}", *args, *map(str, plist)],
                              capture_output=True, timeout=timeout, check=False)


class DecoderSession:
    """A long-lived, network-less container for many decodes of files under `dirs`.

    `docker exec` into it costs about a quarter of a fresh `docker run`
    (measured 0.74 s vs 2.7 s per call on the loaded 2-core CI box), which
    matters when a harness decodes thousands of files. Use as a context manager;
    the container is also reaped by reap_orphans() if this process dies.
    """

    def __init__(self, dirs: Sequence[StrPath], image: str = MYSQL_IMAGE,
                 tool: str = "mysqlbinlog") -> None:
        self.image, self.tool = image, tool
        self._dirs = {Path(d).resolve(): f"/data/{i}" for i, d in enumerate(dirs)}
        self._id: str | None = None

    def __enter__(self) -> Self:
        vols = [a for d, m in self._dirs.items() for a in ("-v", f"{d}:{m}:ro")]
        proc = docker_env.docker_cli(
            "run", "-d", "--rm", "--network", "none",
            "--label", f"{docker_env.OWNER_LABEL}={os.getpid()}", *vols,
            self.image, "sleep", "infinity")
        self._id = proc.stdout.decode().strip()
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        if self._id:
            docker_env.docker_cli("rm", "-f", self._id, check=False)
            self._id = None

    def _inside(self, path: StrPath) -> str:
        p = Path(path).resolve()
        if not p.is_file():
            raise FileNotFoundError(p)
        for d, mount in self._dirs.items():
            if p.is_relative_to(d):
                return f"{mount}/{p.relative_to(d).as_posix()}"
        raise ValueError(f"{p} is not under any of the session's directories")

    def run(self, path: StrPath | Sequence[StrPath], args: Sequence[str] = ("-vvv",),
            timeout: float | None = 600) -> subprocess.CompletedProcess[bytes]:
        """Same result as run_mysqlbinlog (or run_in_image for another tool)."""
        if self._id is None:
            raise RuntimeError("DecoderSession used outside its `with` block")
        plist = [path] if isinstance(path, (str, PathLike)) else list(path)
        return subprocess.run(
            [docker_env.docker_bin(), "exec", self._id, self.tool, *args,
             *(self._inside(p) for p in plist)], capture_output=True, timeout=timeout, check=False)

    def run_each(self, paths: Sequence[StrPath], args: Sequence[str] = ("-vvv",),
                 timeout: float | None = 600) -> list[subprocess.CompletedProcess[bytes]]:
        """One tool process per file, as run() would give, from a single `docker exec`: a shell
        inside the container runs them in turn and marks where each file's output ends (a
        docker exec costs far more than a tool run on a small file)."""
        if self._id is None:
            raise RuntimeError("DecoderSession used outside its `with` block")
        mark = f"--{uuid.uuid4().hex}--"
        # mysqlbinlog writes each LOAD DATA's file to /tmp/SQL_LOAD_MB-<file id>-<n>, taking the
        # next free <n>; removing them after each run makes every output what a fresh
        # container prints (the name is part of the text).
        script = (f'for f; do {shlex.quote(self.tool)} {" ".join(map(shlex.quote, args))} "$f"; '
                  f'rc=$?; rm -f /tmp/SQL_LOAD_MB-*; '
                  f'printf "\\n{mark}%s\\n" $rc; printf "\\n{mark}\\n" >&2; done')
        inside = [self._inside(p) for p in paths]
        proc = subprocess.run([docker_env.docker_bin(), "exec", self._id, "sh", "-c", script, "sh", *inside],
                              capture_output=True, timeout=timeout, check=False)
        outs = proc.stdout.split(f"\n{mark}".encode())
        errs = proc.stderr.split(f"\n{mark}\n".encode())
        if proc.returncode != 0 or len(outs) != len(paths) + 1:
            raise RuntimeError(f"docker exec failed (exit {proc.returncode}): {proc.stderr[-500:]!r}")
        results = []
        for i, p in enumerate(paths):
            out = outs[i]
            if i:  # the part after the previous mark: its exit status line, then this output
                out = out.split(b"\n", 1)[1]
            rc = int(outs[i + 1].split(b"\n", 1)[0])
            results.append(subprocess.CompletedProcess([self.tool, *args, str(p)], rc, out, errs[i]))
        return results
