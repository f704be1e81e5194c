"""`python -m harness peers install|status`: the Node parsers from npm, on demand."""
from __future__ import annotations

import argparse
import sys

from . import INSTALL_COMMAND, InstallError, install, install_dir, status_rows


def _say(line: str) -> None:
    print(line, file=sys.stderr, flush=True)


def run_install(args: argparse.Namespace) -> int:
    try:
        install(_say, force=args.force)
    except InstallError as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    return run_status(args)


def run_status(args: argparse.Namespace) -> int:
    rows = [("plugin", "npm package", "pinned", "state"), *status_rows()]
    widths = [max(len(r[i]) for r in rows) for i in range(3)]
    for r in rows:
        print("  ".join(c.ljust(w) for c, w in zip(r, widths)) + "  " + r[3])
    print(f"cache: {install_dir()}")
    return 0 if all(r[3] == "ready" for r in rows[1:]) else 1


def add_commands(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("peers", help=f"the Node parsers from npm ({INSTALL_COMMAND})")
    psub = p.add_subparsers(dest="peers_command", required=True)
    i = psub.add_parser("install", help="npm ci from harness/peers/package-lock.json into the cache")
    i.add_argument("--force", action="store_true", help="reinstall even when the cache is complete")
    i.set_defaults(run=run_install)
    s = psub.add_parser("status", help="which Node parsers can run here")
    s.set_defaults(run=run_status)
