"""`python -m harness serve --wire-fault F PATH...`: one fault of the catalogue on a primary of
its own, so that a library can be shown ALONE against it (no adapter, no harness run), beside a
control served without it. The fault is the one `python -m harness faults` injects, on the first
dump only: a client that reconnects is served as by a healthy server."""
from __future__ import annotations

import sys
from dataclasses import replace
from pathlib import Path

from ..primary.served import ServeError
from ..primary.state import ServeOptions, served_logs
from .binlogs import binlog_for, served_files
from .catalogue import BY_NAME
from .inject import WireInjector


def with_wire_fault(opts: ServeOptions, name: str, work_dir: Path) -> ServeOptions:
    """opts serving fault `name`. A fault of size (an event of 16 MB and so on) serves a copy of
    the one binlog given, with one big Query event added, made in work_dir; a fault that crosses
    files (flush-logs) serves its own corpus case of the given binlog's flavor. Raises ServeError."""
    fault = BY_NAME[name]
    paths = opts.paths
    if fault.crosses:  # its own real rotated files, of the flavor of the binlog given
        paths = [str(served_files(fault, work_dir, served_logs(opts).files[0].path)[0].parent)]
    elif fault.payload_size is not None:
        files = served_logs(opts).files
        if len(files) != 1:
            raise ServeError(f"--wire-fault {name} adds an event of {fault.payload_size} bytes to one binlog: "
                             f"give one binlog file, not {len(files)}")
        paths = [str(binlog_for(fault.payload_size, work_dir, files[0].path))]
    first = served_logs(replace(opts, paths=paths)).files[0].name
    injector = WireInjector(fault.action, first, _log, (opts.user, opts.password)) if fault.action is not None else None
    return replace(opts, paths=paths, wire_fault=injector)


def _log(line: str) -> None:
    print(line, file=sys.stderr, flush=True)  # beside the primary's own lines, even with --quiet


def describe(name: str) -> str:
    fault = BY_NAME[name]
    return f"wire fault {name} ({fault.kind}): {fault.sent}; the first dump only"
