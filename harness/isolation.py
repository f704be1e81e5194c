"""Run a parser process isolated: its own session (so the whole process group can be killed),
resource limits, a deadline on every read, stderr kept in a file for crash messages.

A crash, hang or memory blow-up of the parser ends that process, never the run."""
from __future__ import annotations

import os
import resource
import selectors
import signal
import subprocess
import tempfile
import time
from dataclasses import dataclass
from typing import Sequence

MAX_OUTPUT = 512 * 2**20  # bytes of stdout per reply before the testee counts as crashed
# stderr kept of a dead testee: a JVM's or Go's stack trace (~2-4 KB), whose first line says what
# happened, must survive whole (2,000 bytes cut the exception line off a 15-frame Java trace).
CRASH_LOG_BYTES = 8000
DEFAULT_MEMORY_MB = 1024  # RLIMIT_DATA of a parser process (Limits)


@dataclass(frozen=True)
class Limits:
    """timeout: seconds per file. memory_mb: RLIMIT_DATA, not RLIMIT_AS, because Go and V8
    runtimes reserve huge unused address ranges at start and would die under an AS limit.
    cpu_seconds: RLIMIT_CPU backstop for one-shot processes (0: none).

    1 GiB is 250 times the largest binlog of the corpus and the external set (under 4 MB); a
    parser that needs more to decode one is a memory finding. The runaway reproducers (rows of
    width 0 appended for ever) reach it in about 4 s where 4 GiB took 12-45 s each."""

    timeout: float = 60.0
    memory_mb: int = DEFAULT_MEMORY_MB
    cpu_seconds: int = 0


class OutputTooLarge(Exception):
    pass


def limit_child(limits: Limits):
    """A preexec_fn that puts `limits` on the child (and no core file): the limits every parser
    process of the harness runs under, for any other caller that starts one (a library-alone test)."""
    def apply() -> None:
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
        if limits.memory_mb > 0:
            n = limits.memory_mb * 2**20
            resource.setrlimit(resource.RLIMIT_DATA, (n, n))
        if limits.cpu_seconds > 0:
            resource.setrlimit(resource.RLIMIT_CPU, (limits.cpu_seconds, limits.cpu_seconds + 1))
    return apply


def describe_exit(returncode: int | None) -> str:
    if returncode is None:
        return "still running"
    if returncode < 0:
        try:
            return f"killed by signal {signal.Signals(-returncode).name}"
        except ValueError:
            return f"killed by signal {-returncode}"
    return f"exit status {returncode}"


class Process:
    """One child process with a stdout line reader that honours deadlines."""

    def __init__(self, argv: Sequence[str], limits: Limits, *, stdin: bool,
                 env: dict[str, str] | None = None, cwd: str | None = None) -> None:
        self._stderr = tempfile.TemporaryFile()
        self.proc = subprocess.Popen(
            list(argv), stdin=subprocess.PIPE if stdin else subprocess.DEVNULL,
            stdout=subprocess.PIPE, stderr=self._stderr, env=env, cwd=cwd,
            start_new_session=True, preexec_fn=limit_child(limits))
        self._buf = bytearray()
        self._eof = False
        self._sel = selectors.DefaultSelector()
        assert self.proc.stdout is not None
        os.set_blocking(self.proc.stdout.fileno(), False)
        self._sel.register(self.proc.stdout, selectors.EVENT_READ)

    def send(self, line: str) -> bool:
        """Write one line to stdin; False if the process is gone."""
        try:
            assert self.proc.stdin is not None
            self.proc.stdin.write(line.encode() + b"\n")
            self.proc.stdin.flush()
            return True
        except (BrokenPipeError, OSError):
            return False

    def _fill(self, deadline: float) -> bool:
        """Read what is available before the deadline. False on timeout."""
        remaining = deadline - time.monotonic()
        if remaining <= 0 or not self._sel.select(remaining):
            return False
        assert self.proc.stdout is not None
        chunk = os.read(self.proc.stdout.fileno(), 1 << 20)
        if not chunk:
            self._eof = True
        self._buf += chunk
        if len(self._buf) > MAX_OUTPUT:
            raise OutputTooLarge(f"more than {MAX_OUTPUT} bytes of output")
        return True

    def read_line(self, deadline: float) -> bytes | None:
        """The next line without its newline; b"" at end of output; None on timeout."""
        while True:
            nl = self._buf.find(b"\n")
            if nl >= 0:
                line = bytes(self._buf[:nl])
                del self._buf[:nl + 1]
                return line
            if self._eof:
                rest, self._buf = bytes(self._buf), bytearray()
                return rest
            if not self._fill(deadline):
                return None

    def read_all(self, deadline: float) -> bytes | None:
        """All of stdout up to end of file; None on timeout."""
        while not self._eof:
            if not self._fill(deadline):
                return None
        out, self._buf = bytes(self._buf), bytearray()
        return out

    def partial_output(self) -> bytes:
        """What stdout gave so far, after read_all timed out: the complete lines of it."""
        return bytes(self._buf[:self._buf.rfind(b"\n") + 1])

    def wait(self, deadline: float) -> int | None:
        try:
            return self.proc.wait(timeout=max(0.0, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            return None

    def kill(self) -> None:
        """Kill the whole process group (the parser may have children of its own)."""
        try:
            os.killpg(self.proc.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            pass

    def stderr_tail(self, limit: int = 2000) -> str:
        self._stderr.seek(0, os.SEEK_END)
        size = self._stderr.tell()
        self._stderr.seek(max(0, size - limit))
        return self._stderr.read().decode("utf-8", "replace").strip()

    def close(self) -> None:
        if self.proc.poll() is None:
            self.kill()
        for stream in (self.proc.stdin, self.proc.stdout):
            if stream is not None:
                try:
                    stream.close()
                except OSError:
                    pass
        self._sel.close()
        self._stderr.close()
