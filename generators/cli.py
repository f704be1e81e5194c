"""Command line: build images, write sample binlogs, make a big binlog, run a server."""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from . import images, profiles, server_registry


def _entry(name: str) -> server_registry.ServerEntry:
    """Accept an image tag ("binlog-mysql:5.7") or a local profile name ("mysql-5.7")."""
    entry = server_registry.BY_TAG.get(name) or server_registry.BY_PROFILE.get(name)
    if entry is None:
        raise SystemExit(f"unknown image {name!r}; known: {', '.join(server_registry.BY_TAG)}")
    return entry


def cmd_images(args: argparse.Namespace) -> int:
    if args.action == "list":
        for tag, state in images.status():
            print(f"{tag:24} {state:8} {images.describe(server_registry.BY_TAG[tag])}")
        return 0
    entries = [_entry(n) for n in args.names] or list(server_registry.ENTRIES)
    t0 = time.monotonic()
    timings = images.build_many(entries, force=args.force, jobs=args.jobs)
    for name, secs in timings.items():
        print(f"{name:24} {secs:6.1f}s")
    print(f"{'total':24} {time.monotonic() - t0:6.1f}s")
    return 0


def cmd_samples(args: argparse.Namespace) -> int:
    from .samples import SAMPLE_PROFILES, write_samples
    for name in args.profile or SAMPLE_PROFILES:
        out = write_samples(profiles.get(name), Path(args.out))
        print(f"{name}: {out}")
    return 0


def cmd_bigbinlog(args: argparse.Namespace) -> int:
    from .bigbinlog import make_big_binlog
    t0 = time.monotonic()
    path = make_big_binlog(profiles.get(args.profile), Path(args.out), args.mb)
    print(f"{path}: {path.stat().st_size / 2**20:.1f} MiB in {time.monotonic() - t0:.0f}s")
    return 0


def cmd_serve(args: argparse.Namespace) -> int:
    """Start a server and keep it until Ctrl-C; handy for poking at a real binlog."""
    from .server import running_server
    settings = dict(kv.split("=", 1) for kv in args.set)
    with running_server(profiles.get(args.profile), settings) as srv:
        print(f"{srv.profile.name} {srv.version()} on 127.0.0.1:{srv.port} "
              f"(container {srv.container_id[:12]}); Ctrl-C to stop", flush=True)
        try:
            while True:
                time.sleep(3600)
        except KeyboardInterrupt:
            pass
    return 0


def cmd_profiles(_: argparse.Namespace) -> int:
    for p in profiles.PROFILES.values():
        print(f"{p.name:24} {p.image:22} {'local' if p.local else 'registry'}")
    return 0


def cmd_cleanup(_: argparse.Namespace) -> int:
    from .server import reap_orphans
    for name in reap_orphans():
        print(f"removed {name}")
    return 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m generators", description=__doc__)
    sub = ap.add_subparsers(dest="cmd", required=True)

    p = sub.add_parser("images", help="build or list the local server images")
    isub = p.add_subparsers(dest="action", required=True)
    b = isub.add_parser("build", help="build images (all by default); no-op when up to date")
    b.add_argument("names", nargs="*", help="image tag or profile name")
    b.add_argument("--force", action="store_true", help="debootstrap again even if cached")
    b.add_argument("--jobs", type=int, default=2, help="images built at once (default 2)")
    isub.add_parser("list", help="show each recipe and whether its image is current")
    p.set_defaults(func=cmd_images)

    p = sub.add_parser("samples", help="write sample binlogs + mysqlbinlog -vvv output")
    p.add_argument("--out", default="/tmp/sample-binlogs")
    p.add_argument("--profile", action="append", help="repeatable; default: the local profiles")
    p.set_defaults(func=cmd_samples)

    p = sub.add_parser("bigbinlog", help="one large ROW binlog of mixed types (benchmarks)")
    p.add_argument("--out", required=True)
    p.add_argument("--mb", type=int, default=100)
    p.add_argument("--profile", default="mysql-9.7")
    p.set_defaults(func=cmd_bigbinlog)

    p = sub.add_parser("serve", help="run a server until Ctrl-C")
    p.add_argument("--profile", default="mysql-9.7")
    p.add_argument("--set", action="append", default=[], metavar="OPTION=VALUE")
    p.set_defaults(func=cmd_serve)

    sub.add_parser("profiles", help="list server profiles").set_defaults(func=cmd_profiles)
    sub.add_parser("cleanup", help="remove containers left by dead processes"
                   ).set_defaults(func=cmd_cleanup)

    # generate, refresh-expected, coverage (the corpus)
    from .generate import add_commands
    from .capture_case import add_command as add_capture_stream
    from .record_clients import add_command as add_record_clients
    from .annotate_tables import add_command as add_annotate_tables

    add_commands(sub)
    add_record_clients(sub)
    add_capture_stream(sub)
    add_annotate_tables(sub)

    args = ap.parse_args(argv)
    return int(args.func(args) or 0)


if __name__ == "__main__":
    sys.exit(main())
