"""Write sample binlogs from real servers, each beside its reference decoding.

One server start per profile; each "part" (row, statement, compressed, ...)
lands in its own binlog file because we FLUSH BINARY LOGS around it. Files are
copied byte for byte, renamed `<part>.binlog`; manifest.json maps them back to
the server's file names and records the settings used.
"""
from __future__ import annotations

import hashlib
import json
import shutil
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from . import sample_sql as q
from .profiles import ServerProfile

if TYPE_CHECKING:  # the parts are listed without Docker's client installed (tests/sample_fixtures.py)
    from .server import Server

DEFAULT_OUT = Path("/tmp/sample-binlogs")
SAMPLE_PROFILES = ("mysql-9.7", "mariadb-10.11", "mariadb-10.5", "mariadb-11.8")


@dataclass(frozen=True)
class Part:
    """One binlog file's worth of SQL. `before`/`after` run outside the file
    (global settings that must be in force when it is opened)."""

    name: str
    description: str
    sql: Callable[[ServerProfile, Server], str]
    before: str = ""
    after: str = ""


def server_settings(profile: ServerProfile) -> dict[str, str]:
    # secure_file_priv set explicitly: NULL means "disabled" on MySQL but
    # "unrestricted" on MariaDB, and LOAD DATA needs a known readable dir.
    common = {"binlog_format": "ROW", "max_allowed_packet": "64M",
              "secure_file_priv": "/var/lib/mysql-files"}
    if profile.flavor == "mysql":
        return {**common, "gtid_mode": "ON", "enforce_gtid_consistency": "ON",
                "binlog_rows_query_log_events": "ON"}
    return {**common, "binlog_annotate_row_events": "ON"}


def _load_dir(server: Server) -> str | None:
    """Where LOAD DATA may read (secure_file_priv); None when LOAD DATA is impossible."""
    rows = server.query("SELECT @@secure_file_priv AS d")
    return (rows[0]["d"] or None) if rows else None


def parts(profile: ServerProfile) -> list[Part]:
    mysql = profile.flavor == "mysql"
    compressed = (
        Part("compressed", "binlog_transaction_compression=ON (Transaction_payload events)",
             lambda p, s: "SET SESSION binlog_transaction_compression = ON;\n" + q.compressed_dml())
        if mysql else
        Part("compressed", "log_bin_compress=ON (compressed Query/Rows events)",
             lambda p, s: q.compressed_dml(),
             before="SET GLOBAL log_bin_compress = ON; SET GLOBAL log_bin_compress_min_len = 10;",
             after="SET GLOBAL log_bin_compress = OFF;")
    )
    return [
        Part("row", "ROW format: DDL and DML over every column type, XA, routine, MyISAM"
             + (", Rows_query events" if mysql else ", Annotate_rows events"),
             lambda p, s: q.setup_sql() + q.row_dml(p)),
        Part("statement", "STATEMENT format: User_var, Intvar, Rand, LOAD DATA events",
             lambda p, s: "SET SESSION binlog_format = 'STATEMENT';\n" + q.statement_dml(_load_dir(s))),
        Part("mixed", "MIXED format: unsafe statements switch to rows",
             lambda p, s: "SET SESSION binlog_format = 'MIXED';\n" + q.mixed_dml()),
        Part("row-minimal-fullmeta", "binlog_row_image=MINIMAL, binlog_row_metadata=FULL"
             + (", PARTIAL_JSON updates" if mysql else ""),
             lambda p, s: q.minimal_image_dml(p),
             before="SET GLOBAL binlog_row_metadata = 'FULL';",
             after="SET GLOBAL binlog_row_metadata = 'MINIMAL';"),
        compressed,
        Part("row-nochecksum", "binlog_checksum=NONE",
             lambda p, s: q.nochecksum_dml(),
             before="SET GLOBAL binlog_checksum = 'NONE';",
             after="SET GLOBAL binlog_checksum = 'CRC32';"),
    ]


def _decode(profile: ServerProfile, path: Path) -> tuple[int, bytes, bytes]:
    from .tools import run_mariadb_binlog, run_mysqlbinlog  # noqa: PLC0415 (needs docker-py)
    if profile.flavor == "mysql":
        proc = run_mysqlbinlog(path, ["-vvv"])
    else:
        proc = run_mariadb_binlog(path, ["-vvv"], image=profile.image)
    return proc.returncode, proc.stdout, proc.stderr


def write_samples(profile: ServerProfile, out_root: Path = DEFAULT_OUT) -> Path:
    """Start `profile`, write every part, decode each file; returns the output dir."""
    from .server import running_server  # noqa: PLC0415 (needs docker-py and testcontainers)
    out = out_root / profile.name
    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)
    settings = server_settings(profile)
    entries = []
    t0 = time.monotonic()
    with running_server(profile, settings) as server:
        version = server.version()
        for part in parts(profile):
            if part.before:
                server.execute(part.before)
            server.flush_logs()
            source = server.binlog_files()[-1]
            server.execute(part.sql(profile, server))
            server.flush_logs()
            if part.after:
                server.execute(part.after)
            dest = server.copy_file(f"{server.binlog_dir()}/{source}", out / f"{part.name}.binlog")
            rc, stdout, stderr = _decode(profile, dest)
            Path(f"{dest}.vvv.txt").write_bytes(stdout)
            if stderr:
                Path(f"{dest}.vvv.stderr.txt").write_bytes(stderr)
            data = dest.read_bytes()
            entries.append({
                "file": dest.name, "source_name": source, "part": part.name,
                "description": part.description, "size": len(data),
                "sha256": hashlib.sha256(data).hexdigest(),
                "decoder": "mysqlbinlog -vvv (binlog-mysql:9.7)" if profile.flavor == "mysql"
                else f"mariadb-binlog -vvv ({profile.image})",
                "decoder_exit": rc,
            })
            print(f"[samples] {profile.name}: {dest.name} {len(data)} bytes, decoder exit {rc}",
                  flush=True)
    manifest = {"profile": profile.name, "image": profile.image, "server_version": version,
                "server_settings": settings, "seconds": round(time.monotonic() - t0, 1),
                "files": entries}
    (out / "manifest.json").write_text(json.dumps(manifest, indent=2) + "\n")
    return out
