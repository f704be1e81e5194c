"""The system variables the primary reports: what the served binlogs say (version, server_id,
checksum, GTID state) plus the settings a replication client checks before a dump. A variable the
real server would not have (semi-sync without its plugin on MySQL) is absent, so a lookup of it
fails or comes back empty exactly as on that server."""
from __future__ import annotations

from oracle.checksum import ChecksumAlg

from .resultset import Value
from .served import ServedLogs


def _checksum_name(logs: ServedLogs) -> str:
    return "CRC32" if logs.format.checksum_alg == ChecksumAlg.CRC32 else "NONE"


def _common(logs: ServedLogs, server_id: int, port: int) -> dict[str, Value]:
    return {
        "version": logs.format.server_version,
        "server_id": server_id,
        "port": port,
        "hostname": "localhost",
        "log_bin": 1,
        "binlog_format": logs.recorded_settings.get("binlog_format", "ROW"),
        "binlog_row_image": logs.recorded_settings.get("binlog_row_image", "FULL"),
        "binlog_checksum": _checksum_name(logs),
        "master_verify_checksum": 0,
        "max_allowed_packet": 67108864,
        "net_write_timeout": 60,
        "net_read_timeout": 30,
        "wait_timeout": 28800,
        "interactive_timeout": 28800,
        "character_set_server": "utf8mb4",
        "character_set_client": "utf8mb4",
        "character_set_connection": "utf8mb4",
        "character_set_results": "utf8mb4",
        "collation_server": "utf8mb4_general_ci",
        "collation_connection": "utf8mb4_general_ci",
        "collation_database": "utf8mb4_general_ci",
        "character_set_database": "utf8mb4",
        "init_connect": "",
        "license": "GPL",
        "lock_wait_timeout": 31536000,
        "innodb_lock_wait_timeout": 50,
        "net_buffer_length": 16384,
        "lower_case_table_names": 0,
        "sql_mode": "STRICT_TRANS_TABLES,ERROR_FOR_DIVISION_BY_ZERO,NO_ENGINE_SUBSTITUTION",
        "time_zone": "SYSTEM",
        "system_time_zone": "UTC",
        "autocommit": 1,
        "read_only": 0,
        "auto_increment_increment": 1,
        "auto_increment_offset": 1,
    }


def _row_metadata(logs: ServedLogs) -> str:
    """FULL when the served Table_maps carry column names (binlog_row_metadata=FULL wrote them),
    else MINIMAL: clients (python-mysql-replication) decide from this variable whether to trust
    the Table_map's optional metadata, so it must say how the served files were written."""
    return "FULL" if logs.named_table_maps else "MINIMAL"


def _mysql(logs: ServedLogs) -> dict[str, Value]:
    gtids = logs.gtid_executed()
    on = bool(logs.mysql_gtids)
    return {
        "version_comment": "binlog-conformance harness serve (MySQL protocol)",
        "server_uuid": logs.server_uuid,
        "gtid_mode": "ON" if on else "OFF",
        "enforce_gtid_consistency": "ON" if on else "OFF",
        "gtid_executed": gtids,
        "gtid_purged": "",
        "binlog_row_metadata": _row_metadata(logs),
        "binlog_transaction_compression": "OFF",
        "default_authentication_plugin": "caching_sha2_password",
        "performance_schema": "ON",
        **_mysql_by_version(logs.version),
    }


def _mysql_by_version(version: tuple[int, int, int]) -> dict[str, Value]:
    """Variables MySQL added or removed: transaction_isolation arrived in 5.7.20; tx_isolation and
    the query cache went in 8.0.3. Connector/J (Debezium's driver) asks @@query_cache_size and
    @@query_cache_type at connect below 8.0.3, and refuses a server that lacks them: the control
    experiment (docs/cdc.md) found it against the 5.6 and 5.7 binlogs."""
    out: dict[str, Value] = {}
    if version >= (5, 7, 20):
        out["transaction_isolation"] = "REPEATABLE-READ"
    if version < (8, 0, 3):
        out.update(tx_isolation="REPEATABLE-READ", **_QUERY_CACHE)
    if version < (5, 5, 0):  # its error-message directory, which Connector/J reads from 5.1 servers
        out["language"] = "/usr/share/mysql/english/"
    return out


# The query cache as MySQL 5.6.8+ and MariaDB start by default: 1 MiB, off.
_QUERY_CACHE: dict[str, Value] = {"query_cache_size": 1048576, "query_cache_type": "OFF"}


def _mariadb(logs: ServedLogs) -> dict[str, Value]:
    pos = logs.gtid_binlog_pos()
    return {
        "version_comment": "binlog-conformance harness serve (MariaDB protocol)",
        "gtid_domain_id": 0,
        "gtid_binlog_pos": pos,
        "gtid_binlog_state": pos,
        "gtid_current_pos": pos,
        "gtid_slave_pos": "",
        "gtid_strict_mode": 0,
        "binlog_annotate_row_events": 1,
        # MariaDB's default (10.3.1+); MariaDB Connector/J appends tx_isolation to it at connect
        "session_track_system_variables": "autocommit,character_set_client,character_set_connection,"
                                          "character_set_results,time_zone",
        "rpl_semi_sync_master_enabled": 0,  # built into MariaDB >= 10.3, off by default
        "rpl_semi_sync_slave_enabled": 0,
        "tx_isolation": "REPEATABLE-READ",
        "performance_schema": "OFF",  # MariaDB's default
        **_QUERY_CACHE,
        "transaction_isolation": "REPEATABLE-READ",
        # MariaDB 10.5 added binlog_row_metadata; before it, the variable does not exist.
        **({"binlog_row_metadata": _row_metadata(logs)} if logs.version >= (10, 5, 0) else {}),
    }


FLAVOR_VARIABLES = {"mysql": _mysql, "mariadb": _mariadb}


def system_variables(logs: ServedLogs, server_id: int, port: int) -> dict[str, Value]:
    return {**_common(logs, server_id, port), **FLAVOR_VARIABLES[logs.flavor](logs)}


def at_status_position(variables: dict[str, Value], logs: ServedLogs, position: tuple[str, int]) -> dict[str, Value]:
    """The GTID variables of a server that has just opened `position`'s file (stream mode
    `current`, ServeOptions.status_position): a client that finds its start from them (Vitess's
    Conn.PrimaryPosition reads @@global.gtid_executed or @@GLOBAL.gtid_binlog_pos) starts where
    SHOW ... STATUS says, before the file's first transaction."""
    from .gtid_pos import binlog_gtid_pos
    name, offset = position
    out = dict(variables)
    if logs.flavor != "mariadb":
        out["gtid_executed"] = logs.previous_gtid_text(name)
        return out
    served = next((f for f in logs.files if f.name == name), None)
    pos = binlog_gtid_pos(served.path, offset) if served is not None else None
    if pos is not None:
        out.update(gtid_binlog_pos=pos, gtid_current_pos=pos, gtid_binlog_state=pos)
    return out
