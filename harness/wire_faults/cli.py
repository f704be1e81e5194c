"""`python -m harness faults`: run stream clients under the catalogue of wire faults and print
a fault x client table of verdicts (progress on stderr as it goes)."""
from __future__ import annotations

import argparse
import functools
import json
import sys
import tempfile
from pathlib import Path

from oracle.tool_image import MYSQL_IMAGE

from .. import selection
from ..applicability import refusal_for
from ..corpus import Case
from ..expectations import Expectation, expectation_for
from ..isolation import Limits
from ..manifests import liveness_of
from ..parsers.registry import PARSERS, STREAM
from . import expected as pins
from .binlogs import MARIADB_BINLOG, SMALL_BINLOG
from .catalogue import BY_NAME, CATALOGUE
from .run import Client, FaultResult, RawCopier, StreamParser, run, table

EXIT_OK, EXIT_VIOLATION, EXIT_USAGE = 0, 1, 2
STREAM_KINDS = (selection.PLUGIN, selection.STREAM_COMMAND)
RAW_COPIERS = {"mysqlbinlog": (MYSQL_IMAGE, "mysqlbinlog")}
LIVENESS_MARGIN = 30.0  # seconds past a client's own liveness (its reconnect and start-up included)


def limits_for(client: str, timeout: float) -> Limits:
    """The time limit a client is judged at: --timeout, or, for a built-in testee whose manifest
    says how it notices a silent primary (its read timeout, its heartbeat check), that many
    seconds plus LIVENESS_MARGIN when that is longer: a client set to notice a dead primary in
    N seconds is not a hang at N - 1."""
    liveness = liveness_of(client)
    return Limits(max(timeout, liveness.seconds + LIVENESS_MARGIN) if liveness is not None else timeout)


def _clients(args: argparse.Namespace, work_dir: Path) -> list[Client]:
    limits = Limits(args.timeout)
    if args.builtin:  # every built-in stream parser and every raw copier, as `nox -s wire_faults` runs them
        args.parser = [*args.parser, *(p.name for p in PARSERS if p.transport == STREAM and p.name not in args.parser)]
        args.raw_client = [*args.raw_client, *(n for n in RAW_COPIERS if n not in args.raw_client)]
    clients: list[Client] = []
    for spec in selection.from_args(args, limits, STREAM_KINDS):
        source = served_binlog(spec.label, Path(args.binlog))
        if source is None:
            print(f"{spec.label}: not applicable (its manifest refuses the served binlog and the MariaDB one)",
                  file=sys.stderr)
            continue
        clients.append(StreamParser(spec.target(limits_for(spec.label, args.timeout)), spec.label in args.resumes,
                                    source=None if source == Path(args.binlog) else source))
    for name in args.raw_client:
        image, tool = RAW_COPIERS[name]
        clients.append(RawCopier(work_dir, args.timeout, image, tool))
    return clients


def served_binlog(client: str, default: Path) -> Path | None:
    """The binlog a client is served: the run's, or where its manifest documents that it refuses
    that one (Debezium's MariaDB connector refuses MySQL), the MariaDB one; None when it refuses both."""
    return next((path for path in (default, MARIADB_BINLOG) if refusal_for(client, {}, _expectation(path)) is None),
                None)


@functools.cache
def _expectation(path: Path) -> Expectation:
    """The oracle's decode of a candidate binlog, once per run rather than once per client."""
    return expectation_for(Case(f"wire-fault/{path.parent.name}", path))


def faults_command(args: argparse.Namespace) -> int:
    unknown = [f for f in args.fault if f not in BY_NAME]
    if unknown:
        print(f"error: no fault named {', '.join(unknown)} (known: {', '.join(BY_NAME)})", file=sys.stderr)
        return EXIT_USAGE
    faults = [BY_NAME[f] for f in args.fault] if args.fault else list(CATALOGUE)
    with tempfile.TemporaryDirectory(prefix="wire-faults-") as tmp:
        work_dir = Path(args.work_dir) if args.work_dir else Path(tmp)
        clients = _clients(args, work_dir)
        if not clients:
            print("error: name a client: --builtin, --parser, --parser-stream or --raw-client", file=sys.stderr)
            return EXIT_USAGE
        results = run(faults, clients, work_dir, Path(args.binlog), args.jobs)
    print(table(results))
    if args.json:
        Path(args.json).parent.mkdir(parents=True, exist_ok=True)
        Path(args.json).write_text(json.dumps([r.to_json() for r in results], indent=1) + "\n")
    violations = [r for r in results if not r.acceptable]
    print(f"{len(results)} runs, {len(violations)} outside their expectation", file=sys.stderr)
    if args.expected:
        return _gate_pins(results, Path(args.expected), args.fix)
    return EXIT_VIOLATION if violations and args.check else EXIT_OK


PIN_HEADER = """The wire-fault verdicts of this client that are not what the fault asks (harness/wire_faults/expected.py):
`<fault> <verdict> [note] cause=<finding id>`; written by `python -m harness faults --expected DIR --fix`."""


def _gate_pins(results: list[FaultResult], directory: Path, fix: bool) -> int:
    """Each client's verdicts against its pins (--fix: rewrite them from this run instead)."""
    failed = 0
    for client in dict.fromkeys(r.client for r in results):
        mine = [pins.Verdicted.of(r.fault, str(r.verdict), r.detail, injected=not r.never_injected)
                for r in results if r.client == client]
        path = pins.pin_path(directory, client)
        if fix:
            print(f"{path}: {pins.fix(path, mine, PIN_HEADER)} pins", file=sys.stderr)
            continue
        g = pins.gate(client, mine, pins.load(path))
        failed += not g.ok
        print(f"{client}: {g.expected} pinned verdicts as pinned, {len(g.unexpected)} unexpected, "
              f"{len(g.stale)} stale", file=sys.stderr)
        for line in g.unexpected:
            print(f"  UNEXPECTED {line[:300]}", file=sys.stderr)
        for p in g.stale:
            print(f"  STALE {path}:{p.line}: {p.fault} is pinned as {'|'.join(p.verdicts)}, and the client now "
                  f"does what the fault asks: remove the pin", file=sys.stderr)
    return EXIT_VIOLATION if failed else EXIT_OK


def add_commands(sub: argparse._SubParsersAction) -> None:
    f = sub.add_parser("faults", help="run stream clients under the catalogue of wire faults (docs/wire-faults.md)")
    selection.add_flags(f, STREAM_KINDS, extra_help={selection.PLUGIN: " (a stream parser)"})
    f.add_argument("--builtin", action="store_true", help="every built-in stream parser and raw copier")
    f.add_argument("--raw-client", action="append", default=[], choices=sorted(RAW_COPIERS),
                   help="a raw copier: TOOL --read-from-remote-server --raw, judged by its copy of the binlog")
    f.add_argument("--fault", action="append", default=[], metavar="F", help="only this fault (repeatable)")
    f.add_argument("--resumes", action="append", default=[], metavar="NAME",
                   help="this client claims to resume after a cut: it must then lose and repeat nothing")
    f.add_argument("--timeout", type=float, default=30.0,
                   help="seconds per fault before it counts as a hang; a built-in testee whose manifest declares "
                        f"its liveness is judged at that plus {LIVENESS_MARGIN:g} s when longer (docs/wire-faults.md)")
    f.add_argument("--jobs", type=int, default=1, metavar="N", help="clients run side by side (default 1)")
    f.add_argument("--json", metavar="OUT", help="write the results as JSON")
    f.add_argument("--binlog", default=str(SMALL_BINLOG), metavar="PATH",
                   help="the binlog to serve (CRC32, with rows events; default: a MySQL 9.7 corpus case)")
    f.add_argument("--work-dir", metavar="DIR", help="where the big binlogs are made (default: a temp dir)")
    f.add_argument("--check", action="store_true", help="exit 1 when a verdict is outside its expectation")
    f.add_argument("--expected", metavar="DIR", help="gate each client's verdicts against DIR/<client>.txt "
                   "(harness/expected/wire-faults: the pinned verdicts, each with its cause); exit 1 on a surprise")
    f.add_argument("--fix", action="store_true", help="with --expected: rewrite the pins from this run")
    f.set_defaults(run=faults_command)
