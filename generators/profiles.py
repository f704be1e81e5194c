"""Server profiles: which image, which binaries, which command line.

Official registry images and our local images go through the same code path; the only
difference is that a local image has no entrypoint, so its start command initialises the datadir
itself (mysqld --initialize-insecure, mariadb-install-db, or a copy of a shipped datadir) before
exec'ing the server. The local profiles are derived from generators/server_registry.py.
"""
from __future__ import annotations

import shlex
from dataclasses import dataclass, field

from oracle.tool_image import MYSQL_IMAGE

from .server_registry import ENTRIES, Flavor, ServerEntry

DATADIR = "/var/lib/mysql"
SOCKET = "/run/mysqld/mysqld.sock"

# Options every profile gets unless a caller overrides them. performance_schema
# is off only to make servers start faster and use less memory on small CI boxes.
# sync_binlog and innodb_flush_log_at_trx_commit say when a commit is fsynced, never what the
# binlog holds: a server of ours is never crashed, only stopped cleanly, and with MySQL's
# defaults (fsync both per commit) 2,000 autocommit inserts took 8.4 s against 0.6 s
# (mysql-9.7, 2-core CI machine, 2026-12-07), the suite's tests waiting on the disk.
_COMMON = {"server_id": "1", "log_bin": "binlog", "performance_schema": "OFF",
           "sync_binlog": "0", "innodb_flush_log_at_trx_commit": "2"}
# X Plugin listens on 33060 on all addresses; with host networking two servers
# would collide, and we never want a non-loopback listener.
_MYSQL8 = {**_COMMON, "mysqlx": "OFF"}

# Settings that must also be given to the datadir initialisation, because the
# server refuses to start if they differ from the values used at init time.
_INIT_TIME_PREFIXES = ("innodb_", "innodb-", "lower_case_table_names", "lower-case-table-names")


@dataclass(frozen=True)
class ServerProfile:
    """Everything needed to start one server version with binary logging."""

    name: str                       # e.g. "mysql-9.7"
    image: str                      # docker image tag
    flavor: Flavor
    version: str                    # major.minor
    server_bin: str                 # mysqld / mariadbd
    client_bin: str                 # mysql / mariadb (run inside the container)
    binlog_tool: str                # mysqlbinlog / mariadb-binlog (inside tool_image)
    local: bool                     # built by generators.images; no entrypoint
    defaults: dict[str, str] = field(default_factory=dict)
    env: dict[str, str] = field(default_factory=dict)
    tool_image: str = ""            # the image holding binlog_tool; "" means `image`
    paths: dict[str, str] = field(default_factory=dict)  # basedir etc.: init and run alike
    init_template: str | None = None  # a shipped datadir copied in at first start
    expected_version: str = ""      # VERSION() starts with this (checked when images are built)

    @property
    def decoder_image(self) -> str:
        return self.tool_image or self.image

    def server_options(self, port: int, settings: dict[str, str]) -> list[str]:
        """mysqld options: loopback-only networking, our socket, defaults, then settings."""
        opts = {**self.paths, **self.defaults, **settings}
        fixed = [f"--port={port}", "--bind-address=127.0.0.1", f"--socket={SOCKET}",
                 f"--datadir={DATADIR}"]
        return fixed + [f"--{k}={v}" for k, v in opts.items()]

    def command(self, port: int, settings: dict[str, str]) -> list[str]:
        """The container command. Local images get an init-then-exec shell wrapper."""
        opts = self.server_options(port, settings)
        if not self.local:
            # Official entrypoints initialise the datadir when the first arg is the server.
            return [self.server_bin, *opts]
        init_opts = [*(f"--{k}={v}" for k, v in self.paths.items()),
                     *(f"--{k}={v}" for k, v in settings.items() if k.startswith(_INIT_TIME_PREFIXES))]
        if self.init_template:
            init = ["sh", "-c", f"cp -a {self.init_template}/. {DATADIR}/ && rm -f {DATADIR}/auto.cnf"
                                f" && chown -R mysql:mysql {DATADIR}"]
        elif self.flavor == "mysql":
            init = [self.server_bin, "--no-defaults", "--initialize-insecure", "--user=mysql",
                    f"--datadir={DATADIR}", *init_opts]
        else:
            init = ["mariadb-install-db", "--no-defaults", "--user=mysql", f"--datadir={DATADIR}",
                    "--auth-root-authentication-method=normal", *init_opts]
        run = [self.server_bin, "--no-defaults", "--user=mysql", *opts]
        script = (
            "set -e\n"
            f"if [ ! -d {DATADIR}/mysql ]; then\n"
            f"  echo '[start] initialising datadir' >&2\n"
            f"  {shlex.join(init)} >/tmp/init.log 2>&1 || {{ cat /tmp/init.log >&2; exit 1; }}\n"
            "fi\n"
            f"exec {shlex.join(run)}\n"
        )
        return ["sh", "-c", script]


def _official_mysql(version: str) -> ServerProfile:
    major = int(version.split(".")[0])
    return ServerProfile(
        name=f"mysql-{version}", image=f"mysql:{version}", flavor="mysql", version=version,
        server_bin="mysqld", client_bin="mysql", binlog_tool="mysqlbinlog", local=False,
        defaults=dict(_MYSQL8 if major >= 8 else _COMMON),
        env={"MYSQL_ALLOW_EMPTY_PASSWORD": "yes"},
    )


def _official_mariadb(version: str) -> ServerProfile:
    return ServerProfile(
        name=f"mariadb-{version}", image=f"mariadb:{version}", flavor="mariadb", version=version,
        server_bin="mariadbd", client_bin="mariadb", binlog_tool="mariadb-binlog", local=False,
        defaults=dict(_COMMON),
        env={"MARIADB_ALLOW_EMPTY_ROOT_PASSWORD": "1", "MYSQL_ALLOW_EMPTY_PASSWORD": "yes"},
    )


def local_profile(entry: ServerEntry) -> ServerProfile:
    """The profile of a registry entry. A package without its own mysqlbinlog is decoded by the
    reference tool's image (MySQL 9.7's mysqlbinlog reads every older binlog)."""
    return ServerProfile(
        name=entry.profile_name, image=entry.tag, flavor=entry.flavor, version=entry.version,
        server_bin=entry.server_bin, client_bin=entry.client_bin,
        binlog_tool=entry.binlog_tool or "mysqlbinlog", local=True,
        defaults=dict(_MYSQL8 if entry.mysqlx else _COMMON),
        tool_image="" if entry.binlog_tool else MYSQL_IMAGE, paths=dict(entry.paths),
        init_template=entry.init_template, expected_version=entry.expected_version,
    )


LOCAL_PROFILES: dict[str, ServerProfile] = {e.profile_name: local_profile(e) for e in ENTRIES}

# Used wherever a registry is reachable; named "<flavor>-<version>-official"
# because the local images claim the plain names.
OFFICIAL_PROFILES: dict[str, ServerProfile] = {}
for _p in [*(_official_mysql(v) for v in ("5.6", "5.7", "8.0", "8.4")),
           *(_official_mariadb(v) for v in ("10.5", "10.11", "11.4"))]:
    _name = _p.name if _p.name not in LOCAL_PROFILES else f"{_p.name}-official"
    OFFICIAL_PROFILES[_name] = ServerProfile(**{**_p.__dict__, "name": _name})

PROFILES: dict[str, ServerProfile] = {**LOCAL_PROFILES, **OFFICIAL_PROFILES}


def get(name: str) -> ServerProfile:
    try:
        return PROFILES[name]
    except KeyError:
        raise KeyError(f"unknown profile {name!r}; known: {', '.join(PROFILES)}") from None
