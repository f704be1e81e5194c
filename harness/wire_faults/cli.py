"""`python -m harness faults`: run stream clients under the catalogue of wire faults and print
a fault x client table of verdicts (progress on stderr as it goes)."""
from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path

from oracle.tool_image import MYSQL_IMAGE

from ..isolation import Limits
from .. import selection
from .binlogs import SMALL_BINLOG
from .catalogue import BY_NAME, CATALOGUE
from .run import Client, RawCopier, StreamParser, run, table

EXIT_OK, EXIT_VIOLATION, EXIT_USAGE = 0, 1, 2
STREAM_KINDS = (selection.PLUGIN, selection.STREAM_COMMAND)
RAW_COPIERS = {"mysqlbinlog": (MYSQL_IMAGE, "mysqlbinlog")}


def _clients(args: argparse.Namespace, work_dir: Path) -> list[Client]:
    limits = Limits(args.timeout)
    clients: list[Client] = [StreamParser(spec.target(limits), spec.label in args.resumes)
                             for spec in selection.from_args(args, limits, STREAM_KINDS)]
    for name in args.raw_client:
        image, tool = RAW_COPIERS[name]
        clients.append(RawCopier(work_dir, args.timeout, image, tool))
    return clients


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
            print("error: name a client: --parser, --parser-stream or --raw-client", file=sys.stderr)
            return EXIT_USAGE
        results = run(faults, clients, work_dir, Path(args.binlog))
    print(table(results))
    if args.json:
        Path(args.json).parent.mkdir(parents=True, exist_ok=True)
        Path(args.json).write_text(json.dumps([r.to_json() for r in results], indent=1) + "\n")
    violations = [r for r in results if not r.acceptable]
    print(f"{len(results)} runs, {len(violations)} outside their expectation", file=sys.stderr)
    return EXIT_VIOLATION if violations and args.check else EXIT_OK


def add_commands(sub: argparse._SubParsersAction) -> None:
    f = sub.add_parser("faults", help="run stream clients under the catalogue of wire faults (docs/wire-faults.md)")
    selection.add_flags(f, STREAM_KINDS, extra_help={selection.PLUGIN: " (a stream parser)"})
    f.add_argument("--raw-client", action="append", default=[], choices=sorted(RAW_COPIERS),
                   help="a raw copier: TOOL --read-from-remote-server --raw, judged by its copy of the binlog")
    f.add_argument("--fault", action="append", default=[], metavar="F", help="only this fault (repeatable)")
    f.add_argument("--resumes", action="append", default=[], metavar="NAME",
                   help="this client claims to resume after a cut: it must then lose and repeat nothing")
    f.add_argument("--timeout", type=float, default=30.0, help="seconds per fault before it counts as a hang")
    f.add_argument("--json", metavar="OUT", help="write the results as JSON")
    f.add_argument("--binlog", default=str(SMALL_BINLOG), metavar="PATH",
                   help="the binlog to serve (CRC32, with rows events; default: a MySQL 9.7 corpus case)")
    f.add_argument("--work-dir", metavar="DIR", help="where the big binlogs are made (default: a temp dir)")
    f.add_argument("--check", action="store_true", help="exit 1 when a verdict is outside its expectation")
    f.set_defaults(run=faults_command)
