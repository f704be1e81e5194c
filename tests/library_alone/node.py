"""The Node peers alone: their package names and what their scripts (zongji.js, go_mysql.js)
print, read back. Shared by tests/test_findings_node_alone.py and the wire-fault findings."""
from __future__ import annotations

from typing import Any

VLASKY, POWERSYNC, ZONGJI = "@vlasky/zongji", "@powersync/mysql-zongji", "zongji"
GO_JS, GO_NODE = "go-mysql-js", "@solashi/go-mysql-binlog-node"
Lines = list[dict[str, Any]]


def rows(lines: Lines) -> list[dict[str, Any]]:
    """Every row the library reported (ZongJi: rows of row events; go-mysql: inserted rows)."""
    out: list[dict[str, Any]] = []
    for ln in lines:
        if "rows" in ln and ln["name"] in ("writerows", "updaterows", "deleterows"):
            out += ln["rows"]
        elif "event" in ln and "insert" in ln["event"]:
            ins = ln["event"]["insert"]
            out += ins if isinstance(ins, list) else [ins]
    return out
