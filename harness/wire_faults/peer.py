"""The client's process at the other end of one of the primary's connections, found in the
kernel's socket table (psutil), so that the slow-reader fault can stop it and let it go on
whatever it runs in: a JVM, Node, a Go or Rust binary, a container's mysqlbinlog (host network).
Only ever the process that owns the client's end of that loopback connection, never the
primary's own."""
from __future__ import annotations

import contextlib
import os
import signal
import socket
from typing import Iterator

import psutil


def client_pid(sock: socket.socket) -> int | None:
    """The pid owning the client's end of `sock` (a connection the primary accepted), or None when
    it is not found (gone already, or in another network namespace)."""
    try:
        ours, theirs = sock.getsockname()[:2], sock.getpeername()[:2]
    except OSError:
        return None
    for c in psutil.net_connections(kind="tcp"):
        if c.pid and c.laddr and c.raddr and _v4(c.laddr) == theirs and _v4(c.raddr) == ours:
            return int(c.pid)
    return None


def _v4(addr: tuple[str, int]) -> tuple[str, int]:
    """A JVM's sockets are IPv6 ones: its end of a connection to 127.0.0.1 is ::ffff:127.0.0.1."""
    return addr[0].removeprefix("::ffff:"), addr[1]


def process_name(pid: int) -> str:
    try:
        return psutil.Process(pid).name()
    except psutil.Error:
        return "the client"


@contextlib.contextmanager
def stopped(pid: int) -> Iterator[None]:
    """The process stopped (SIGSTOP: every thread, as a long GC pause or a blocked consumer
    holds it) for the block, then continued (SIGCONT), whatever the block raised."""
    if pid == os.getpid():
        raise ValueError("the client runs in the primary's own process: it cannot be stopped")
    os.kill(pid, signal.SIGSTOP)
    try:
        yield
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGCONT)
