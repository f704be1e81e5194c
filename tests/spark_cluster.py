"""A standalone Spark cluster on 127.0.0.1, started from the installed pyspark as docs/spark.md
says: one master and one worker (`spark-class org.apache.spark.deploy.master.Master --host
127.0.0.1 ...`, `... Worker ...`), each in its own process group, stopped whatever happens.

The worker runs with `python_bin` first on its PATH and no PYTHONPATH, so an executor that is
not given a Python runs that directory's python3 (tests use a bare virtual environment)."""
from __future__ import annotations

import os
import signal
import socket
import subprocess
import time
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator

LOOPBACK = "127.0.0.1"
START_TIMEOUT = 180.0


@dataclass(frozen=True)
class Cluster:
    master_url: str
    work_dir: Path  # SPARK_WORKER_DIR: one directory per application and executor
    logs: Path
    daemons: tuple[int, ...]  # the master's and the worker's JVM (spark-class execs java)

    def listening(self) -> list[tuple[int, str]]:
        """(pid, local address) of every TCP socket the daemons and the processes below them
        listen on."""
        pids = [*self.daemons, *(p for d in self.daemons for p in _descendants(d))]
        return [(pid, address) for pid in pids for address in listening_addresses(pid)]


def spark_home() -> Path:
    from pyspark.find_spark_home import _find_spark_home
    return Path(_find_spark_home())


def _free_ports(n: int) -> list[int]:
    socks = [socket.socket() for _ in range(n)]
    try:
        for s in socks:
            s.bind((LOOPBACK, 0))
        return [s.getsockname()[1] for s in socks]
    finally:
        for s in socks:
            s.close()


def _daemon_env(python_bin: Path, work_dir: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYSPARK_", "PYTHON"))}
    env.update(SPARK_LOCAL_IP=LOOPBACK, SPARK_WORKER_DIR=str(work_dir), SPARK_HOME=str(spark_home()),
               PATH=os.pathsep.join([str(python_bin), env.get("PATH", "")]))
    return env


def listening_addresses(pid: int) -> list[str]:
    """The local IPv4/IPv6 addresses (hex, as /proc/net/tcp* has them) of the TCP sockets `pid`
    listens on."""
    inodes = set()
    try:
        fds = list(Path(f"/proc/{pid}/fd").iterdir())
    except OSError:
        return []
    for fd in fds:
        try:
            link = os.readlink(fd)
        except OSError:
            continue
        if link.startswith("socket:["):
            inodes.add(link[8:-1])
    found = []
    for table in ("tcp", "tcp6"):
        for line in Path(f"/proc/net/{table}").read_text().splitlines()[1:]:
            fields = line.split()
            if fields[3] == "0A" and fields[9] in inodes:  # 0A: LISTEN
                found.append(fields[1].split(":")[0])
    return found


LOOPBACK_HEX = ("0100007F", "0000000000000000FFFF00000100007F", "00000000000000000000000001000000")


def _wait_for(log: Path, proc: subprocess.Popen, needle: str) -> None:
    deadline = time.monotonic() + START_TIMEOUT
    while time.monotonic() < deadline:
        text = log.read_text(errors="replace") if log.exists() else ""
        if needle in text:
            return
        if proc.poll() is not None:
            raise RuntimeError(f"{log.name}: the daemon exited ({proc.returncode}):\n{text[-3000:]}")
        time.sleep(0.5)
    raise RuntimeError(f"{log.name}: no {needle!r} within {START_TIMEOUT:.0f} s:\n{log.read_text()[-3000:]}")


def _descendants(pid: int) -> list[int]:
    """Every live process below pid (executors and their Python daemons, in groups of their own)."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                ppid = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            children.setdefault(ppid, []).append(int(entry.name))
    found, todo = [], [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            found.append(child)
            todo.append(child)
    return found


def _signal(proc: subprocess.Popen, pids: list[int], sig: int) -> None:
    for kill, target in ((os.killpg, proc.pid), *((os.kill, p) for p in pids)):
        try:
            kill(target, sig)
        except (ProcessLookupError, PermissionError):
            pass


def _stop(proc: subprocess.Popen) -> None:
    """SIGTERM to the daemon's process group and every process below it; SIGKILL to what is
    left after 20 s."""
    below = _descendants(proc.pid)
    _signal(proc, below, signal.SIGTERM)
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline and (proc.poll() is None or any(Path(f"/proc/{p}").exists() for p in below)):
        time.sleep(0.2)
    _signal(proc, below, signal.SIGKILL)
    proc.wait()


@contextmanager
def standalone(tmp: Path, python_bin: Path, cores: int = 1, memory: str = "1g") -> Iterator[Cluster]:
    """A master and a worker with `cores`; both stopped on exit, whatever happened."""
    spark_class = str(spark_home() / "bin" / "spark-class")
    work_dir, logs = tmp / "work", tmp / "logs"
    work_dir.mkdir(parents=True)
    logs.mkdir()
    env = _daemon_env(python_bin, work_dir)
    port, master_ui, worker_port, worker_ui = _free_ports(4)
    master_url = f"spark://{LOOPBACK}:{port}"
    started: list[subprocess.Popen] = []
    try:
        for name, args, ready in (
                ("master", ["org.apache.spark.deploy.master.Master", "--host", LOOPBACK, "--port", str(port),
                            "--webui-port", str(master_ui)], "I have been elected leader"),
                ("worker", ["org.apache.spark.deploy.worker.Worker", "--host", LOOPBACK, "--port",
                            str(worker_port), "--webui-port", str(worker_ui), "--cores", str(cores),
                            "--memory", memory, "--work-dir", str(work_dir), master_url],
                 "Successfully registered with master")):
            log = logs / f"{name}.log"
            with open(log, "wb") as out:
                started.append(subprocess.Popen([spark_class, *args], env=env, cwd=tmp, stdout=out,
                                                stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                                start_new_session=True))
            _wait_for(log, started[-1], ready)
        yield Cluster(master_url, work_dir, logs, tuple(p.pid for p in started))
    finally:
        for proc in reversed(started):
            _stop(proc)
