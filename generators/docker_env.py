"""Locate the Docker CLI and daemon this project uses.

The machine may carry a stray, newer client-only `docker` in /usr/local/bin;
we prefer Debian's /usr/bin/docker (same release as the daemon) and always
let docker-py negotiate the API version, because docker-py's default (1.44)
is newer than Debian bookworm's daemon (API 1.41).
"""
from __future__ import annotations

import functools
import subprocess
from typing import TYPE_CHECKING

from oracle.tool_image import find_docker

if TYPE_CHECKING:
    import docker

LABEL_PREFIX = "org.binlog-conformance"
# Containers we start carry the pid of the process that owns them, so a later
# run can remove those whose owner died (what testcontainers' Ryuk would do).
OWNER_LABEL = f"{LABEL_PREFIX}.owner-pid"


def docker_bin() -> str:
    """Path of the docker CLI ($BINLOG_DOCKER, else Debian's, else PATH's), or DockerUnavailable."""
    found = find_docker()
    if not found:
        raise DockerUnavailable("no docker CLI found (run .ci/install-docker.sh)")
    return found


class DockerUnavailable(RuntimeError):
    """Docker (CLI or daemon) cannot be used; the message says why."""


def docker_cli(*args: str, check: bool = True, input: bytes | None = None,
               timeout: float | None = None) -> subprocess.CompletedProcess[bytes]:
    """Run the docker CLI with captured output; raise with stderr on failure."""
    proc = subprocess.run([docker_bin(), *args], input=input, capture_output=True,
                          timeout=timeout, check=False)
    if check and proc.returncode != 0:
        raise subprocess.CalledProcessError(proc.returncode, proc.args, proc.stdout, proc.stderr)
    return proc


def docker_client_kwargs() -> dict[str, str]:
    """Keyword arguments for docker.from_env / testcontainers' docker_client_kw."""
    return {"version": "auto"}


@functools.cache
def client() -> docker.DockerClient:
    """A shared docker-py client with a negotiated API version. docker-py (the servers extra) is
    imported here, on first use: commands that never start a server, such as an installed
    `binlog-conformance run --parser-cmd ...`, work without it."""
    import docker
    return docker.from_env(**docker_client_kwargs())


def unavailable_reason() -> str | None:
    """None when the daemon answers, else a one-line reason (for pytest skips)."""
    try:
        docker_bin()
        client().ping()
    except Exception as exc:  # noqa: BLE001 - any failure means "no docker"; say why
        return f"docker daemon not reachable: {exc}"
    return None


def image_exists(tag: str) -> bool:
    import docker.errors
    try:
        client().images.get(tag)
    except docker.errors.ImageNotFound:
        return False
    return True
