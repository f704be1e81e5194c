"""Run clients under each fault: a stream parser through the runner's own path (runner.reply_for,
served by stream_serving with the fault's injector), or a raw copier (mysqlbinlog
--read-from-remote-server --raw in its image), and judge each (verdict.py)."""
from __future__ import annotations

import shutil
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Protocol

from generators import docker_env
from generators.tools import run_against_server
from oracle.tool_image import MYSQL_IMAGE

from ..compare import FieldDiff
from ..corpus import Case
from ..expectations import expectation_for
from ..plugins.protocol import STREAM
from ..runner import Target, reply_for
from ..stream_serving import PASSWORD, USER, served, stream_expectation
from .binlogs import SMALL_BINLOG, across, served_files
from .catalogue import HEALTHY, Fault
from .inject import WireInjector
from .verdict import Judged, Verdict, acceptable, baseline_diffs, judge_copy, judge_reply

HUNG_EXITS = (124, 137)  # coreutils timeout (run_against_server's time_limit): TERM, or KILL
DOCKER_FAILED = 125


@dataclass
class FaultResult:
    fault: str
    client: str
    verdict: Verdict
    acceptable: bool
    detail: str
    injected: list[str] = field(default_factory=list)
    dumps: int = 0  # COM_BINLOG_DUMPs the client sent (2 or more: it reconnected)
    seconds: float = 0.0
    never_injected: bool = False  # the client stopped before the fault: it was not tested
    served: str = ""  # the corpus binlog it was served from ("mysql-9.7/ddl_dml_basic--row")

    def to_json(self) -> dict[str, object]:
        return {**asdict(self), "verdict": str(self.verdict)}


class Client(Protocol):
    label: str
    source: Path | None  # the binlog this client is served (None: the run's)

    def judge(self, fault: Fault, files: list[Path], injector: WireInjector | None) -> Judged:
        """Served `files` (binlogs.served_files: the dump starts in the first, ends in the last)."""
    def close(self) -> None: ...


@dataclass
class StreamParser:
    """A stream testee (--parser / --parser-stream). `resumes`: it claims to resume after a cut."""

    target: Target
    resumes: bool = False
    baseline: list[FieldDiff] = field(default_factory=list)  # its differences on the healthy stream
    source: Path | None = None

    @property
    def label(self) -> str:
        return self.target.label

    def judge(self, fault: Fault, files: list[Path], injector: WireInjector | None) -> Judged:
        hello = self.target.testee.hello()
        if hello is not None and hello.transport != STREAM:
            return Judged(Verdict.UNAVAILABLE, "not a stream parser (it reads files)")
        case = _case(fault, files[0])
        expectation = across([expectation_for(_case(fault, f)) for f in files])
        reply = reply_for(self.target, case, expectation, injector, end_file=files[-1].name)
        caps = hello.capabilities if hello is not None else None
        if caps is None:
            return Judged(Verdict.UNAVAILABLE, reply.detail)
        exp = stream_expectation(expectation)
        if fault.name == HEALTHY.name:
            self.baseline = baseline_diffs(exp, reply, caps)
            return judge_reply(fault, exp, reply, caps, self.resumes)
        added = injector.added if injector is not None else []
        return judge_reply(fault, exp, reply, caps, self.resumes, added, self.baseline)

    def close(self) -> None:
        self.target.testee.close()


@dataclass
class RawCopier:
    """`TOOL --read-from-remote-server --raw` in a container of `image` (run_against_server: host
    network, loopback only), killed by coreutils `timeout` inside the container when it hangs."""

    work_dir: Path
    timeout: float
    image: str = MYSQL_IMAGE
    tool: str = "mysqlbinlog"
    source: Path | None = None

    @property
    def label(self) -> str:
        return f"{self.tool}-raw"

    def judge(self, fault: Fault, files: list[Path], injector: WireInjector | None) -> Judged:
        """Its copies of `files` against them, as one run of bytes (a copy that stops in the
        first file has no later ones: the run of the copies is then a prefix)."""
        if not docker_env.image_exists(self.image):
            return Judged(Verdict.UNAVAILABLE, f"image {self.image} not present (python -m generators images build)")
        out = self.work_dir / f"copy-{fault.name}"
        shutil.rmtree(out, ignore_errors=True)
        out.mkdir(parents=True)
        with served(_case(fault, files[0]), 0, injector) as src:
            remote = [self.tool, "--read-from-remote-server", "--raw", "--to-last-log", f"-h{src.host}",
                      f"-P{src.port}", f"-u{src.user}", f"-p{src.password}", src.file]
            proc = run_against_server(self.image, remote, out, self.timeout + 60, self.timeout)
        copied = b"".join((out / f.name).read_bytes() for f in files if (out / f.name).is_file())
        lines = [ln for ln in proc.stderr.decode(errors="replace").splitlines() if ln.strip() and "Warning" not in ln]
        message = lines[-1].strip() if lines else "(no message)"
        if proc.returncode == DOCKER_FAILED:
            return Judged(Verdict.UNAVAILABLE, f"docker run failed: {message}")
        hung = proc.returncode in HUNG_EXITS
        return judge_copy(fault, b"".join(f.read_bytes() for f in files), copied, proc.returncode, message, hung)

    def close(self) -> None:
        pass


def _case(fault: Fault, path: Path) -> Case:
    return Case(f"wire-fault/{fault.name}", path)


def run_fault(fault: Fault, client: Client, work_dir: Path, source: Path = SMALL_BINLOG) -> FaultResult:
    """One client under one fault, served from `source` (or a copy of it with the fault's big event,
    or the real rotated files of its flavor, binlogs.served_files); a client with a source of its
    own is served that."""
    started = time.monotonic()
    source = client.source or source
    files = served_files(fault, work_dir, source)
    injector = WireInjector(fault.action, files[0].name, login=(USER, PASSWORD)) if fault.action is not None else None
    judged = client.judge(fault, files, injector)
    ok, detail = acceptable(judged.verdict, fault), judged.detail
    never = injector is not None and not injector.done and judged.verdict is not Verdict.UNAVAILABLE
    if never:
        ok, detail = False, f"the fault was never injected (the client stopped before it): {detail}"
    return FaultResult(fault.name, client.label, judged.verdict, ok, detail,
                       injector.done if injector is not None else [], injector.dumps if injector is not None else 0,
                       round(time.monotonic() - started, 2), never, f"{files[0].parent.parent.name}/{files[0].parent.name}")


def run(faults: list[Fault], clients: list[Client], work_dir: Path, source: Path = SMALL_BINLOG,
        jobs: int = 1) -> list[FaultResult]:
    """Every fault under every client, with a progress line each; the healthy stream first, so
    that each client's own differences on it are known before any fault is judged. With jobs > 1
    that many clients run side by side (each its own faults in turn, each on its own primary):
    most of a run is waiting for a client's time limit."""
    faults = [HEALTHY, *(f for f in faults if f is not HEALTHY)]
    for src in {c.source or source for c in clients}:  # the big binlogs are made once, before clients share them
        for fault in faults:
            served_files(fault, work_dir, src)
    done: list[FaultResult] = []
    total = len(faults) * len(clients)
    lock = threading.Lock()

    def one_client(client: Client) -> None:
        try:
            for fault in faults:
                r = run_fault(fault, client, work_dir, source)
                with lock:
                    done.append(r)
                    mark = "ok" if r.acceptable else "VIOLATION"
                    print(f"[{len(done)}/{total}] {r.client} {r.fault}: {r.verdict} ({mark}, {r.seconds:.1f} s) "
                          f"{r.detail[:160]}", file=sys.stderr, flush=True)
        finally:
            client.close()

    with ThreadPoolExecutor(max(1, jobs)) as pool:
        for f in [pool.submit(one_client, c) for c in clients]:
            f.result()
    order = {(f.name, c.label): i for i, (f, c) in enumerate((f, c) for f in faults for c in clients)}
    return sorted(done, key=lambda r: order[(r.fault, r.client)])


def table(results: list[FaultResult]) -> str:
    """fault x client, the verdict in each cell (violations marked with !)."""
    clients = list(dict.fromkeys(r.client for r in results))
    faults = list(dict.fromkeys(r.fault for r in results))
    cell = {(r.fault, r.client): f"{r.verdict}{'' if r.acceptable else ' !'}" for r in results}
    rows = [["fault", *clients]] + [[f, *(cell.get((f, c), "-") for c in clients)] for f in faults]
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    lines = ["  ".join(v.ljust(w) for v, w in zip(row, widths)).rstrip() for row in rows]
    return "\n".join([lines[0], "  ".join("-" * w for w in widths), *lines[1:]])
