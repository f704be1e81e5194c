"""Whose CPU a benchmark mode used: ours (every process the mode started, however it ended) and
the machine's, from /proc/stat, so what other processes took ("others") can be told apart.

Sampling the live process tree misses CPU: when Spark's JVM stops, its Python daemon and workers
are orphaned, reparented to init and reaped there, and their CPU time leaves the tree with them
(measured: 6 of 16 CPU seconds of a small local[2] job; it then read as "others"). So a mode runs
in a child process that is a child subreaper (prctl PR_SET_CHILD_SUBREAPER): every orphan of the
mode is reparented to it, it reaps every descendant before it exits, and the kernel adds all of
their CPU to its children's time, which this process reads with os.times() once it has reaped
the child. pyspark's workers are the exception: their daemon ignores SIGCHLD, so the kernel reaps
them and their time reaches nobody's children time; Account samples those every 0.25 s and keeps
their last-seen CPU (they end idle). Others = machine busy time - ours."""
from __future__ import annotations

import ctypes
import multiprocessing
import os
import signal
import threading
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Self

PR_SET_CHILD_SUBREAPER = 36  # linux/prctl.h
REAP_SECONDS = 60.0  # how long the mode's leftover processes get to end before they are killed


@dataclass(frozen=True)
class Usage:
    """A mode's wall time, our CPU seconds (all its processes), and the machine's busy CPU
    seconds over the same interval."""

    wall: float
    ours: float
    machine: float

    @property
    def others(self) -> float:
        return max(0.0, self.machine - self.ours)

    def cores(self, seconds: float) -> float | None:
        return round(seconds / self.wall, 2) if self.wall > 0 else None


def machine_busy_seconds() -> float:
    """CPU seconds every CPU of the machine spent busy (user, nice, system, irq, softirq) or
    stolen by the hypervisor, from /proc/stat."""
    with open("/proc/stat") as f:
        fields = f.readline().split()[1:]
    user, nice, system, _idle, _iowait, irq, softirq, steal = (int(x) for x in fields[:8])
    return (user + nice + system + irq + softirq + steal) / os.sysconf("SC_CLK_TCK")


def own_and_reaped_seconds() -> float:
    """This process's CPU time plus that of every descendant it (transitively) has reaped."""
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system


def _processes() -> dict[int, tuple[int, float, str]]:
    """pid -> (parent pid, CPU seconds incl. reaped children, command name) from /proc."""
    out, tick = {}, os.sysconf("SC_CLK_TCK")
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                text = f.read()
        except OSError:
            continue
        name, fields = text[text.index("(") + 1:text.rindex(")")], text.rsplit(")", 1)[1].split()
        out[int(entry)] = (int(fields[1]), sum(int(x) for x in fields[11:15]) / tick, name)
    return out


def _ignores_sigchld(pid: int) -> bool:
    """A process that ignores SIGCHLD has its children reaped by the kernel, and their CPU time
    is then added to nobody's: pyspark's daemon does this with its Python workers."""
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("SigIgn:"):
                    return bool(int(line.split()[1], 16) >> (signal.SIGCHLD - 1) & 1)
    except OSError:
        pass
    return False


def _descendants(procs: dict[int, tuple[int, float, str]], root: int) -> list[int]:
    out = []
    for pid in procs:
        if pid == root:
            continue
        p = pid
        while p not in (root, 0, 1) and p in procs:
            p = procs[p][0]
        if p == root:
            out.append(pid)
    return out


class Account:
    """Our CPU seconds, read at any time: this process's own and reaped time, every live
    descendant's (with what it reaped), and the last-seen time of descendants that ended under a
    parent ignoring SIGCHLD (sampled every `interval` s by a thread, so at most the CPU of one
    interval before such a process ends is missed; pyspark's workers end idle). Runs in the
    process that adopts the mode's orphans (run_apart); `reaped` names the pids reap_all() took,
    whose time is in our children's time already."""

    def __init__(self, interval: float = 0.25, by: Callable[[int, str], str] | None = None):
        self.interval, self.by = interval, by or (lambda _pid, _name: "")
        self.lost: dict[str, float] = {}
        self.reaped: set[int] = set()
        self._seen: dict[int, tuple[float, bool, str]] = {}  # pid -> total, parent ignores SIGCHLD, group
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._loop, daemon=True)

    def __enter__(self) -> Self:
        self.sample()
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()
        self.sample()

    def _loop(self) -> None:
        while not self._stop.wait(self.interval):
            self.sample()

    def sample(self) -> None:
        with self._lock:
            procs, me = _processes(), os.getpid()
            mine = _descendants(procs, me)
            ignoring = {ppid: _ignores_sigchld(ppid) for ppid in {procs[p][0] for p in mine}}
            for pid, (total, parent_ignores, group) in self._seen.items():
                if pid not in procs and parent_ignores and pid not in self.reaped:
                    self.lost[group] = self.lost.get(group, 0.0) + total
            self._seen = {p: (procs[p][1], ignoring[procs[p][0]], self.by(p, procs[p][2])) for p in mine}

    def by_group(self) -> dict[str, float]:
        """CPU seconds per group of `by` (this process's own and reaped time under "")."""
        self.sample()
        with self._lock:
            out = dict(self.lost)
            out[""] = out.get("", 0.0) + own_and_reaped_seconds()
            for total, _ignores, group in self._seen.values():
                out[group] = out.get(group, 0.0) + total
        return out

    def seconds(self) -> float:
        return sum(self.by_group().values())


def tree_cpu_seconds() -> float:
    """This process's CPU time and every live descendant's, with what each has reaped; misses
    processes that ended unreaped or auto-reaped (use Account for those)."""
    procs = _processes()
    return own_and_reaped_seconds() + sum(procs[p][1] for p in _descendants(procs, os.getpid()))


def _become_subreaper() -> None:
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) != 0:
        raise OSError(ctypes.get_errno(), "prctl(PR_SET_CHILD_SUBREAPER)")


def _stop_jvm() -> None:
    """pyspark keeps its JVM after SparkSession.stop(); end it (it exits when its stdin closes)."""
    import sys
    if "pyspark" not in sys.modules:
        return
    from pyspark import SparkContext
    gateway = SparkContext._gateway
    if gateway is None:
        return
    proc = getattr(gateway, "proc", None)
    gateway.shutdown()
    if proc is not None:
        proc.stdin.close()
        proc.wait(timeout=REAP_SECONDS)
    SparkContext._gateway = SparkContext._jvm = None


def reap_all(reaped: set[int], seconds: float = REAP_SECONDS) -> None:
    """Wait for every child (our own and adopted orphans) to end and reap it, adding its pid to
    `reaped`; whatever is still running after `seconds` is killed."""
    deadline = time.monotonic() + seconds
    while True:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid:
            reaped.add(pid)
            continue
        if time.monotonic() > deadline:
            me = os.getpid()
            for child, (ppid, _cpu, _name) in _processes().items():
                if ppid == me:
                    os.kill(child, signal.SIGKILL)
            deadline = float("inf")
        time.sleep(0.05)


_ACCOUNT: Account | None = None


def ours() -> float:
    """Our CPU seconds so far: the mode's account inside run_apart, the live tree outside."""
    return _ACCOUNT.seconds() if _ACCOUNT is not None else tree_cpu_seconds()


def _child(conn, fn: Callable[..., Any], args: tuple) -> None:
    global _ACCOUNT
    _become_subreaper()
    with Account() as account:
        _ACCOUNT = account
        try:
            result: Any = ("ok", fn(*args))
        except Exception:  # noqa: BLE001 - the traceback goes to the parent, which raises it
            result = ("error", traceback.format_exc())
        _ACCOUNT = None
        _stop_jvm()
        reap_all(account.reaped)
    conn.send((*result, sum(account.lost.values())))
    conn.close()


def run_apart(fn: Callable[..., Any], *args: Any) -> tuple[Any, Usage]:
    """fn(*args) in a fresh child process (spawned: no state shared with this one) that adopts
    and reaps every process it leads to, with the CPU all of them used and the machine's.
    Inside, ours() reads the CPU used so far."""
    ctx = multiprocessing.get_context("spawn")
    receive, send = ctx.Pipe(duplex=False)
    busy, mine, started = machine_busy_seconds(), own_and_reaped_seconds(), time.monotonic()
    child = ctx.Process(target=_child, args=(send, fn, args))
    child.start()
    send.close()
    try:
        status, value, lost = receive.recv()
    except EOFError:
        status, value, lost = "error", "the measured process ended without a result", 0.0
    child.join()
    usage = Usage(time.monotonic() - started, own_and_reaped_seconds() - mine + lost, machine_busy_seconds() - busy)
    if status == "error":
        raise RuntimeError(f"measured in a child process:\n{value}")
    return value, usage
