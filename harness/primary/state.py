"""What every connection of one primary shares: options, served logs, keys, the variables, the
caching_sha2_password cache, the stop flag and the stderr log. The served logs, the server_id and
the variables are all derived from the options' PATHs in one place (`served_logs`,
`ServerState.use`), whether at start-up or on a reload of files rewritten in place."""
from __future__ import annotations

import sys
import threading
from dataclasses import dataclass, field
from typing import Any

from oracle.wire import packets as wp

from . import auth
from .auth import Keys
from .client_groups import ClientGroups
from .running_dumps import RunningDumps
from .resultset import Value
from .served import ServedLogs, load
from .variables import system_variables

LOOPBACK_HOSTS = ("127.0.0.1", "localhost", "::1")
SERVER_CAPABILITIES = (wp.CLIENT_LONG_PASSWORD | wp.CLIENT_FOUND_ROWS | wp.CLIENT_LONG_FLAG
                       | wp.CLIENT_CONNECT_WITH_DB | wp.CLIENT_NO_SCHEMA | wp.CLIENT_PROTOCOL_41
                       | wp.CLIENT_INTERACTIVE | wp.CLIENT_SSL | wp.CLIENT_TRANSACTIONS
                       | wp.CLIENT_SECURE_CONNECTION | wp.CLIENT_MULTI_STATEMENTS | wp.CLIENT_MULTI_RESULTS
                       | wp.CLIENT_PS_MULTI_RESULTS | wp.CLIENT_PLUGIN_AUTH | wp.CLIENT_CONNECT_ATTRS
                       | wp.CLIENT_PLUGIN_AUTH_LENENC_CLIENT_DATA)


@dataclass
class ServeOptions:
    paths: list[str]
    host: str = "127.0.0.1"
    port: int = 3306
    user: str = "root"
    password: str = ""
    server_id: int | None = None  # None: the served Format_description's
    flavor: str = "auto"
    tls_cert: str | None = None
    tls_key: str | None = None
    quiet: bool = False
    idle_timeout: float = 300.0  # wait_timeout, shortened: a harness tool, not a database
    connect_timeout: float = 10.0  # connect_timeout
    write_timeout: float = 60.0  # net_write_timeout: a client that stops reading
    max_connections: int = 151
    max_payload: int = 64 << 20  # max_allowed_packet for what clients send
    wire_fault: Any = None  # a harness.wire_faults injector: wrap(io) gives the dump's packet writer
    # seconds a dump waits, at a table's next definition, for its client's lookup of the one it leaves
    # (client_groups.py); 0: no waiting (for clients that do not look tables up)
    schema_pacing: float = 0.0
    # Stream modes (harness/stream_modes.py, docs/primary.md "Stream modes"):
    # what the binlog status statements report as the binlog's end, (file, position): the place
    # the served events are presented as arriving after (a client starting at the current
    # position streams them); None: the last served file's end, as a quiet server reports it
    status_position: tuple[str, int] | None = None
    # (file, position) of event ends after which the primary is idle for a heartbeat period: a
    # client that asked for heartbeats (@master/source_heartbeat_period > 0) gets one there
    heartbeats_after: frozenset[tuple[str, int]] = frozenset()


def served_logs(opts: ServeOptions) -> ServedLogs:
    """The logs `opts` serves, as the primary presents them (--flavor applied). Raises ServeError."""
    logs = load(opts.paths)
    if opts.flavor != "auto":
        logs.flavor_override = opts.flavor
    return logs


@dataclass
class ServerState:
    options: ServeOptions
    logs: ServedLogs
    keys: Keys
    port: int  # the one listened on (a "port" variable)
    server_id: int = field(init=False)  # --server-id, else the served Format_description's
    variables: dict[str, Value] = field(init=False)
    groups: ClientGroups = field(init=False)  # where each client group reads (the lookups' position)
    stop: threading.Event = field(default_factory=threading.Event)
    # where each dump started, (file, position): a GTID dump starts where the server finds it
    # (MariaDB 11.4+ at its GTID index), which the runner compares from (stream_modes.py)
    dump_starts: list[tuple[str, int]] = field(default_factory=list)
    dumps: RunningDumps = field(default_factory=RunningDumps)  # one per replica (running_dumps.py)
    _cache: set[str] = field(default_factory=set)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def __post_init__(self) -> None:
        self.use(self.logs)

    def use(self, logs: ServedLogs) -> None:
        """Serve `logs` from now on, with the server_id and variables they imply. Sessions read
        these without the lock, so the logs are swapped in last."""
        server_id = self.options.server_id if self.options.server_id is not None else logs.server_id
        self.server_id, self.variables = server_id, system_variables(logs, server_id, self.port)
        self.groups = ClientGroups(self.options.schema_pacing)
        self.logs = logs

    def reload(self) -> None:
        """Re-read the served PATHs (rewritten in place, as the stream fuzz does per input), with
        every option (--flavor, --server-id) applied as at start-up. Raises ServeError."""
        self.use(served_logs(self.options))

    def log(self, text: str) -> None:
        if not self.options.quiet:
            with self._lock:
                print(text, file=sys.stderr, flush=True)

    def sha2_cached(self, user: str) -> bool:
        with self._lock:
            return user in self._cache

    def sha2_cache(self, user: str) -> None:
        with self._lock:
            self._cache.add(user)

    @property
    def handshake_timeout(self) -> float:
        """connect_timeout, or the idle timeout when that is shorter."""
        return min(self.options.connect_timeout, self.options.idle_timeout)

    @property
    def _mysql(self) -> bool:
        return self.logs.flavor == "mysql"

    @property
    def handshake_version(self) -> str:
        """MariaDB 10.x prefixes "5.5.5-" (RPL_VERSION_HACK) so that old replicas accept it."""
        version = self.logs.format.server_version
        return version if self._mysql or self.logs.version >= (11, 0, 0) else "5.5.5-" + version

    @property
    def capabilities(self) -> int:
        v = self.logs.version
        deprecate_eof = v >= (5, 7, 5) if self._mysql else v >= (10, 2, 0)
        return SERVER_CAPABILITIES | (wp.CLIENT_DEPRECATE_EOF if deprecate_eof else 0)

    @property
    def charset(self) -> int:
        """utf8mb4_0900_ai_ci on MySQL 8+, utf8mb4_general_ci (MariaDB), utf8_general_ci (older)."""
        if self._mysql:
            return 255 if self.logs.version >= (8, 0, 0) else 33
        return 45

    @property
    def account_plugin(self) -> str:
        """The default authentication plugin of the served version."""
        return auth.CACHING_SHA2 if self._mysql and self.logs.version >= (8, 0, 4) else auth.NATIVE

    @property
    def timeout_error(self) -> bool:
        """MySQL 8.0.24+ tells an idle client why it is disconnected (ER_CLIENT_INTERACTION_TIMEOUT)."""
        return self._mysql and self.logs.version >= (8, 0, 24)
