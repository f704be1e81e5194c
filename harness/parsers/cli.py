"""`python -m harness peers install|status` (build the registry's runtime parsers into the
cache; say which can run) and `python -m harness list` (every parser --parser can name)."""
from __future__ import annotations

import argparse
import sys

from ..runtimes.base import INSTALL_COMMAND, cache_root
from .builds import READY, build_all, state_of
from .registry import PARSERS, BY_NAME


def _say(line: str) -> None:
    print(line, file=sys.stderr, flush=True)


def _table(rows: list[tuple[str, ...]]) -> None:
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]) - 1)]
    for r in rows:
        print("  ".join(c.ljust(w) for c, w in zip(r, widths)) + "  " + r[-1])


def run_install(args: argparse.Namespace) -> int:
    failures = build_all(_say, force=args.force, names=tuple(args.name))
    for line in failures:
        print(f"error: {line}", file=sys.stderr)
    status = run_status(args)
    return 1 if failures else status


def run_status(args: argparse.Namespace) -> int:
    """The runtime parsers (or those named) and whether each can run here."""
    entries = [p for p in PARSERS if not p.in_process and (not args.name or p.name in args.name)]
    states = [state_of(p) for p in entries]
    _table([("parser", "runtime", "library", "pinned", "state"),
            *((s.entry.name, s.entry.runtime, s.entry.library, s.version, s.state) for s in states)])
    print(f"cache: {cache_root() / 'parsers'}")
    return 0 if all(s.state == READY for s in states) else 1


def list_parsers(args: argparse.Namespace) -> int:
    """Every registered parser: language, library, version, transport, and whether it can run
    here; then the plugins other packages register by entry point."""
    from ..plugins.registry import known
    states = [state_of(p) for p in PARSERS]
    _table([("parser", "language", "library", "version", "transport", "state"),
            *((s.entry.name, s.entry.language, s.entry.library, s.version, s.entry.transport,
               s.state if s.state == READY else f"unavailable: {s.state}") for s in states)])
    others = {n: t for n, t in known().items() if n not in BY_NAME}
    for name, target in sorted(others.items()):
        print(f"{name}  (entry point {target})")
    return 0


def add_commands(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("peers", help=f"build the runtime parsers of the registry ({INSTALL_COMMAND})")
    psub = p.add_subparsers(dest="peers_command", required=True)
    i = psub.add_parser("install", help="build every runtime parser (node, jvm, go, rust) from its "
                                        "committed lock into the cache, with progress")
    i.add_argument("--force", action="store_true", help="rebuild even when the cache is complete")
    i.add_argument("name", nargs="*", help="only these parsers (default: all)")
    i.set_defaults(run=run_install)
    s = psub.add_parser("status", help="which runtime parsers can run here")
    s.add_argument("name", nargs="*", help="only these parsers (default: all)")
    s.set_defaults(run=run_status)
    ls = sub.add_parser("list", help="every parser --parser can name: language, library, version, state")
    ls.set_defaults(run=list_parsers)
