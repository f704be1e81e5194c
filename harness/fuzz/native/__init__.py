"""The `native` engine (issue 31): coverage-guided fuzzing inside each parser's own runtime, steered
by the coverage of the library under test rather than of our oracle.

    python -m harness fuzz --engine native --parser NAME --seconds N --out DIR [--json FILE]

One module per runtime (go.py: `go test -fuzz`; jvm.py: Jazzer; rust.py: libFuzzer through
libfuzzer-sys; python.py: atheris over the library's own package), each exposing RUNTIME, a
`NativeRuntime`, found by the runtime's name as harness/runtimes does: adding a runtime is one
module and its rows in TARGETS. The fuzz targets' sources are folders beside the adapters
(harness/parsers/<name>-fuzz/), built into the cache like them.
"""
from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class NativeTarget:
    """A parser's fuzz targets: the runtime that runs them, the folder of their sources (under
    harness/parsers/, None for Python), the entry points (one per library entry point that
    decodes a file or an event), and the prefix that marks the library's own stack frames."""

    parser: str
    runtime: str
    folder: str | None
    entry_points: tuple[str, ...]
    library_frames: str


TARGETS: dict[str, NativeTarget] = {t.parser: t for t in (
    NativeTarget("go-mysql-file", "go", "go-mysql-fuzz", ("File", "Event"), "github.com/go-mysql-org/go-mysql/"),
    NativeTarget("mysql-binlog-connector-java-file", "jvm", "mysql-binlog-connector-java-fuzz",
                 ("FileReader", "EventDeserializer"), "com.github.shyiko.mysql.binlog"),
    NativeTarget("canal-file", "jvm", "canal-fuzz", ("FileLogFetcher", "LogDecoder"), "com.taobao.tddl.dbsync.binlog"),
    NativeTarget("open-replicator-file", "jvm", "open-replicator-fuzz", ("FileBasedBinlogParser",), "com.google.code.or"),
    NativeTarget("mysql-binlog-connector-java-zendesk-file", "jvm", "mysql-binlog-connector-java-zendesk-fuzz",
                 ("FileReader", "EventDeserializer"), "com.github.shyiko.mysql.binlog"),
    NativeTarget("flink-cdc-file", "jvm", "flink-cdc-fuzz", ("FileReader", "EventDeserializer"),
                 "com.github.shyiko.mysql.binlog"),
    NativeTarget("vitess-file", "go", "vitess-fuzz", ("File",), "vitess.io/vitess/"),
    NativeTarget("mysql-common-file", "rust", "mysql-common-fuzz", ("binlog_file",), "mysql_common"),
    NativeTarget("mysql-binlog-connector-rust-file", "rust", "mysql-binlog-connector-rust-fuzz", ("binlog_parser",),
                 "mysql_binlog_connector_rust"),
    NativeTarget("python-mysql-replication-file", "python", None, ("file",), "pymysqlreplication"),
)}


def runtime_of(target: NativeTarget) -> Any:
    """RUNTIME of harness/fuzz/native/<runtime>.py (a session.NativeRuntime; not imported here,
    since session imports this package): no list of runtimes to edit."""
    return importlib.import_module(f"{__name__}.{target.runtime}").RUNTIME
