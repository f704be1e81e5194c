"""Start a real server in a container and talk to it.

Containers run with host networking and the server bound to 127.0.0.1 on a
free port, so nothing ever leaves loopback (there is no Docker bridge here).
SQL goes through the server's own command-line client inside the container
(`docker exec -i ... mysql`), not a Python driver: that works unchanged for
every profile whatever root's auth plugin is (caching_sha2_password on MySQL
9.7, unix_socket on MariaDB >= 10.4), the client matches the server version,
and scripts may use client features such as DELIMITER, so a corpus script's
statements reach the binlog exactly as written (comments included).
"""
from __future__ import annotations

import contextlib
import io
import os
import signal
import socket
import tarfile
import threading
import time
import uuid
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

# Ryuk (testcontainers' reaper) is an image we cannot pull here; we clean up
# ourselves (context manager + reap_orphans). An explicit env setting wins.
os.environ.setdefault("TESTCONTAINERS_RYUK_DISABLED", "true")

import docker.errors
from testcontainers.core.container import DockerContainer

from . import docker_env
from .profiles import SOCKET, ServerProfile

OWNER_LABEL = docker_env.OWNER_LABEL
PROFILE_LABEL = f"{docker_env.LABEL_PREFIX}.profile"
_XSI_NIL = "{http://www.w3.org/2001/XMLSchema-instance}nil"


class ServerStartError(RuntimeError):
    """The server did not come up; the message ends with the tail of its log."""


class SQLError(RuntimeError):
    """The client exited non-zero; the message carries its stderr."""


Row = dict[str, str | None]


@dataclass
class Server:
    """A running server. Only valid inside `running_server`."""

    profile: ServerProfile
    port: int
    settings: dict[str, str]
    container_id: str
    _binlog_dir: str | None = field(default=None, repr=False)

    # -- SQL ---------------------------------------------------------------
    def _client(self, *extra: str, database: str | None = None) -> list[str]:
        args = [self.profile.client_bin, f"--socket={SOCKET}", "--user=root", "--comments",
                "--default-character-set=utf8mb4", *extra]
        return [*args, database] if database else args

    def _run_client(self, sql: str, extra: tuple[str, ...], database: str | None,
                    timeout: float) -> bytes:
        proc = docker_env.docker_cli("exec", "-i", self.container_id,
                                     *self._client(*extra, database=database),
                                     input=sql.encode(), check=False, timeout=timeout)
        if proc.returncode != 0:
            raise SQLError(f"{self.profile.client_bin} exited {proc.returncode}: "
                           f"{proc.stderr.decode(errors='replace').strip()}")
        return proc.stdout

    def execute(self, sql: str, database: str | None = None, timeout: float = 600) -> str:
        """Run a SQL script (any number of statements) in one session; returns client stdout."""
        return self._run_client(sql, ("--batch",), database, timeout).decode(errors="replace")

    def query(self, sql: str, database: str | None = None, timeout: float = 120) -> list[Row]:
        """Rows of the last result set, NULL as None. Meant for admin queries, not BLOBs."""
        out = self._run_client(sql, ("--xml",), database, timeout).decode(errors="replace")
        docs = [d for d in out.split("<?xml") if d.strip()]
        if not docs:
            return []
        root = ET.fromstring("<?xml" + docs[-1])
        return [{f.get("name", ""): (None if f.get(_XSI_NIL) == "true" else (f.text or ""))
                 for f in row} for row in root.iter("row")]

    def scalar(self, sql: str) -> str | None:
        rows = self.query(sql)
        return next(iter(rows[0].values())) if rows else None

    def version(self) -> str:
        """VERSION() as the server reports it, e.g. '9.7.4-2' or '10.11.14-MariaDB-0+deb12u2-log'."""
        return self.scalar("SELECT VERSION()") or ""

    # -- binlogs -----------------------------------------------------------
    def flush_logs(self) -> None:
        """Close the current binlog and open the next, so the closed one is complete."""
        self.execute("FLUSH BINARY LOGS")

    def binlog_files(self) -> list[str]:
        return [r["Log_name"] or "" for r in self.query("SHOW BINARY LOGS")]

    def binlog_sizes(self) -> dict[str, int]:
        return {r["Log_name"] or "": int(r["File_size"] or 0) for r in self.query("SHOW BINARY LOGS")}

    def binlog_dir(self) -> str:
        if self._binlog_dir is None:
            base = self.scalar("SELECT @@log_bin_basename")
            if not base:
                raise SQLError("binary logging is off (log_bin_basename is NULL)")
            self._binlog_dir = str(PurePosixPath(base).parent)
        return self._binlog_dir

    def show_binlog_events(self, file: str) -> list[Row]:
        return self.query(f"SHOW BINLOG EVENTS IN '{file}'")

    def copy_file(self, container_path: str, dest: Path) -> Path:
        """Copy one file out of the container byte for byte (docker's archive API)."""
        stream, _ = docker_env.client().containers.get(self.container_id).get_archive(container_path)
        buf = io.BytesIO(b"".join(stream))
        with tarfile.open(fileobj=buf) as tar:
            member = tar.next()
            if member is None or not member.isfile():
                raise FileNotFoundError(container_path)
            src = tar.extractfile(member)
            assert src is not None
            dest.write_bytes(src.read())
        return dest

    def copy_binlogs(self, dest_dir: str | Path, files: list[str] | None = None) -> list[Path]:
        """Copy binlogs (all listed by SHOW BINARY LOGS by default) into dest_dir.

        The newest file is still open for writing; call flush_logs() first if
        you need it complete.
        """
        dest = Path(dest_dir)
        dest.mkdir(parents=True, exist_ok=True)
        names = files if files is not None else self.binlog_files()
        return [self.copy_file(f"{self.binlog_dir()}/{n}", dest / n) for n in names]

    def logs(self) -> str:
        return _container_logs(self.container_id)


def _container_logs(container_id: str, tail: int | str = "all") -> str:
    try:
        raw = docker_env.client().containers.get(container_id).logs(tail=tail)
    except docker.errors.NotFound:
        return "(container gone)"
    return raw.decode(errors="replace")


def free_port() -> int:
    """A currently free TCP port on 127.0.0.1."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _port_open(port: int) -> bool:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.settimeout(0.5)
        return s.connect_ex(("127.0.0.1", port)) == 0


def reap_orphans() -> list[str]:
    """Remove our containers whose owning process is gone (what Ryuk would do)."""
    removed = []
    for c in docker_env.client().containers.list(all=True, filters={"label": OWNER_LABEL}):
        pid = int(c.labels.get(OWNER_LABEL, "0") or 0)
        if pid > 0 and _pid_alive(pid):
            continue
        with contextlib.suppress(docker.errors.APIError):
            c.remove(force=True, v=True)
            removed.append(c.name)
    return removed


def _pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _wait_ready(server: Server, deadline: float) -> None:
    """Wait for the final server: TCP on our port (entrypoint temp servers skip
    networking) and then a query through the socket."""
    container = docker_env.client().containers.get(server.container_id)
    last_err = "never accepted a TCP connection"
    while time.monotonic() < deadline:
        container.reload()
        if container.status in ("exited", "dead"):
            raise ServerStartError(
                f"{server.profile.name}: server exited (code {container.attrs['State']['ExitCode']})"
                f" during start; log tail:\n{_container_logs(server.container_id, 60)}")
        if _port_open(server.port):
            try:
                server.execute("SELECT 1", timeout=30)
                return
            except (SQLError, TimeoutError) as exc:
                last_err = str(exc)
        time.sleep(0.25)
    raise ServerStartError(f"{server.profile.name}: not ready on 127.0.0.1:{server.port} "
                           f"({last_err}); log tail:\n{_container_logs(server.container_id, 60)}")


@contextlib.contextmanager
def _sigterm_as_exit() -> Iterator[None]:
    """Turn SIGTERM into SystemExit so `finally` blocks remove the container."""
    if threading.current_thread() is not threading.main_thread() or \
            signal.getsignal(signal.SIGTERM) is not signal.SIG_DFL:
        yield
        return

    def _raise(signum: int, _frame: object) -> None:
        raise SystemExit(128 + signum)

    signal.signal(signal.SIGTERM, _raise)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, signal.SIG_DFL)


@contextlib.contextmanager
def running_server(profile: ServerProfile, settings: dict[str, str] | None = None,
                   start_timeout: float = 180) -> Iterator[Server]:
    """Start `profile` with extra server `settings` (mysqld option -> value) and
    yield a ready Server; the container is removed on success, error and Ctrl-C."""
    settings = dict(settings or {})
    with contextlib.suppress(Exception):
        reap_orphans()
    if not docker_env.image_exists(profile.image) and profile.local:
        raise ServerStartError(f"image {profile.image} missing: run "
                               f"`python -m generators images build {profile.image}`")
    port = free_port()
    name = f"binlog-{profile.name}-{uuid.uuid4().hex[:8]}".replace(".", "_")
    container = (
        DockerContainer(profile.image, docker_client_kw=docker_env.docker_client_kwargs())
        .with_name(name)
        .with_command(profile.command(port, settings))
        .with_envs(**profile.env)
        .with_kwargs(network_mode="host", network="host",
                     labels={OWNER_LABEL: str(os.getpid()), PROFILE_LABEL: profile.name})
    )
    with _sigterm_as_exit():
        try:
            try:
                container.start()
            except docker.errors.APIError as exc:
                raise ServerStartError(f"{profile.name}: cannot start {profile.image}: {exc}") from exc
            server = Server(profile, port, settings, container.get_wrapped_container().id or name)
            _wait_ready(server, time.monotonic() + start_timeout)
            yield server
        finally:
            # Remove by name as well: an interrupt can land between create and
            # testcontainers recording the container.
            with contextlib.suppress(Exception):
                container.stop()
            with contextlib.suppress(docker.errors.NotFound, docker.errors.APIError):
                docker_env.client().containers.get(name).remove(force=True, v=True)
