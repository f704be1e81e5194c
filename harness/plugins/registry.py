"""Find parser plugins by name: the built-ins, the entry-point group `binlog_conformance.parsers`
(how third-party Python parsers plug in), or an explicit `module:attribute`."""
from __future__ import annotations

import importlib
from importlib.metadata import entry_points
from typing import Any

from .base import Parser

ENTRY_POINT_GROUP = "binlog_conformance.parsers"

BUILTINS = {
    "oracle": "harness.plugins.oracle_plugin:OracleParser",
    "mysqlbinlog": "harness.plugins.mysqlbinlog:MysqlbinlogParser",
    "mariadb-binlog": "harness.plugins.mariadb_binlog:MariadbBinlogParser",
    "python-mysql-replication": "harness.plugins.pymysqlreplication_stream:PyMysqlReplicationStreamParser",
    "python-mysql-replication-file": "harness.plugins.pymysqlreplication_plugin:PyMysqlReplicationFileParser",
    "zongji-vlasky": "harness.plugins.node_peers:ZongjiVlaskyParser",
    "zongji-powersync": "harness.plugins.node_peers:ZongjiPowersyncParser",
    "zongji": "harness.plugins.node_peers:ZongjiParser",
    "go-mysql-js": "harness.plugins.node_peers:GoMysqlJsParser",
    "go-mysql-binlog-node": "harness.plugins.node_peers:GoMysqlBinlogNodeParser",
}


class PluginNotFound(LookupError):
    pass


def known() -> dict[str, str]:
    """name -> "module:attribute" for every plugin that can be named with --parser."""
    names = dict(BUILTINS)
    for ep in entry_points(group=ENTRY_POINT_GROUP):
        names.setdefault(ep.name, ep.value)
    return names


def _resolve(target: str) -> Any:
    module_name, _, attr = target.partition(":")
    obj: Any = importlib.import_module(module_name)
    for part in filter(None, attr.split(".")):
        obj = getattr(obj, part)
    return obj


def load(spec: str) -> Parser:
    """A plugin instance. The registered object is a class or factory called with no arguments."""
    target = known().get(spec) or (spec if ":" in spec else None)
    if target is None:
        raise PluginNotFound(f"no parser plugin named {spec!r} (known: {', '.join(sorted(known()))})")
    factory = _resolve(target)
    plugin = factory() if callable(factory) else factory
    if not isinstance(plugin, Parser):
        raise TypeError(f"{target} does not implement the Parser protocol")
    return plugin
