"""`python -m harness serve` started as a user starts it, for the library-alone tests of the
wire-fault findings: the small binlog of `python -m harness faults`, with a fault or without."""
from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from harness.wire_faults.binlogs import SMALL_BINLOG

BINLOG = SMALL_BINLOG
USER, PASSWORD = "alone", "alone-pw"


def injected(tmp_path: Path, fault: str) -> list[str]:
    """What the primary of `serving(tmp_path, fault)` did to the stream, from its log (empty: the
    client stopped before the fault's event, so it never met it)."""
    log = tmp_path / f"serve-{fault}.log"
    return [ln for ln in log.read_text().splitlines() if ln.startswith("wire fault: ")]


@contextmanager
def serving(tmp_path: Path, fault: str | None = None, schema_pacing: float = 0.0) -> Iterator[int]:
    """The primary's port, on loopback; its log in tmp_path. schema_pacing: for a library that
    looks a table up when it first meets it (canal), the dump waits for that lookup at a table's
    next definition, as the conformance runs serve it (docs/primary.md)."""
    log = tmp_path / f"serve-{fault or 'control'}.log"
    with log.open("w") as err:
        proc = subprocess.Popen([sys.executable, "-m", "harness", "serve", "--port", "0", "--user", USER,
                                 "--password", PASSWORD, "--schema-pacing", str(schema_pacing),
                                 *(["--wire-fault", fault] if fault else []), str(BINLOG)],
                                stdout=subprocess.PIPE, stderr=err, text=True)
        try:
            line = proc.stdout.readline() if proc.stdout else ""
            assert line.startswith("listening on "), f"harness serve did not start: {log.read_text()}"
            yield int(line.rsplit(":", 1)[1])
        finally:
            proc.terminate()
            proc.wait(30)
