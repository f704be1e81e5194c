"""Run a stream testee against both sides of the control experiment: for each case of a server
plan, the real server right after it replayed the case, then `harness serve` serving the files
that server wrote, with the same request (same files, same start, same end, same account); the
two replies are compared (compare.py). One server start per plan; progress goes to stderr."""
from __future__ import annotations

import contextlib
import os
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from generators.cases import parse_version
from generators.profiles import LOCAL_PROFILES
from generators.server import running_server

from ..plugins.launch import Testee
from ..plugins.protocol import Reply
from ..primary.server import BackgroundPrimary
from ..primary.state import ServeOptions
from .compare import differences
from .live import Account, Replayed, create_account, replay
from .sample import SampleCase, ServerPlan

HOST = "127.0.0.1"
# The testee's environment for the control: Debezium's default table.ignore.builtin=true (the
# conformance adapter captures the system schemas too). harness serve has no system schemas
# (docs/primary.md), a real server does, and a real MariaDB 11.8's `mysql` schema holds Aria
# tables whose DDL the MySQL connector cannot parse (`PAGE_CHECKSUM=1 TRANSACTIONAL=0`): that
# difference is not the primary's answers to the corpus cases, which write no system table.
CONTROL_ENV = {"DEBEZIUM_CONFORMANCE_OVERRIDES": "table.ignore.builtin=true"}


@contextlib.contextmanager
def control_environment() -> Iterator[None]:
    """CONTROL_ENV in os.environ while a testee is launched (it copies the environment)."""
    saved = {k: os.environ.get(k) for k in CONTROL_ENV}
    os.environ.update(CONTROL_ENV)
    try:
        yield
    finally:
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v


@dataclass
class CaseOutcome:
    """Both replies of one case and what differs between them."""

    case: str
    real: Reply
    served: Reply
    differences: list[str] = field(default_factory=list)
    seconds: float = 0.0

    def summary(self) -> str:
        def side(r: Reply) -> str:
            err = f", then {r.error}" if r.error else (f" ({r.detail})" if r.detail else "")
            return f"{r.status} {len(r.events)} events{err}"
        return (f"{self.case}: real server {side(self.real)}; harness serve {side(self.served)}; "
                f"{len(self.differences)} difference(s), {self.seconds:.1f}s")


def log(msg: str) -> None:
    print(f"[cdc-control {time.strftime('%H:%M:%S')}] {msg}", file=sys.stderr, flush=True)


def serve_replayed(testee: Testee, replayed: Replayed, account: Account) -> Reply:
    """The testee against `harness serve` serving the replay's directory, as `python -m harness
    serve DIR --user U --password P --port 0` would, in a thread of this process."""
    opts = ServeOptions([str(replayed.served_dir)], host=HOST, port=0, user=account.user,
                        password=account.password, quiet=True)
    with BackgroundPrimary(opts) as primary:
        return testee.parse(str(replayed.served_dir / replayed.files[0]),
                            replayed.stream(primary.host, primary.port, account))


def run_plan(plan: ServerPlan, testee: Testee, workdir: Path,
             report: Callable[[str], None] = log) -> list[CaseOutcome]:
    """Start the plan's server, then for each case: replay, testee against the real server,
    testee against harness serve, compare."""
    profile = LOCAL_PROFILES[plan.profile]
    outcomes = []
    t0 = time.monotonic()
    with running_server(profile, plan.server_options) as server:
        version = parse_version(server.version())
        account = create_account(server)
        report(f"{plan.profile} [{plan.config}] up in {time.monotonic() - t0:.1f}s: "
               f"{len(plan.cases)} case(s)")
        for case in plan.cases:
            outcomes.append(_one_case(server, version, account, case, testee, workdir))
            report(outcomes[-1].summary())
    return outcomes


def _one_case(server, version, account: Account, case: SampleCase, testee: Testee,  # type: ignore[no-untyped-def]
              workdir: Path) -> CaseOutcome:
    started = time.monotonic()
    replayed = replay(server, version, case, workdir / case.profile / case.case_dir.name)
    real = testee.parse(str(replayed.served_dir / replayed.files[0]),
                        replayed.stream(HOST, server.port, account))
    served = serve_replayed(testee, replayed, account)
    return CaseOutcome(case.name, real, served, differences(real, served),
                       round(time.monotonic() - started, 1))
