"""The one list of built-in parsers. Everything that names them derives from it: the plugin
registry (--parser NAME), `python -m harness list`, `peers install`, the conformance job and
the check that each has its folder, lock, adapter and harness/expected/<name>.txt.

A parser with a stream client and a file reader is two entries, NAME (stream, against
`harness serve`) and NAME-file, sharing one folder. Adding a parser is one folder under
harness/parsers/ and one entry here (harness/parsers/README.md)."""
from __future__ import annotations

from dataclasses import dataclass

FILE, STREAM = "file", "stream"


@dataclass(frozen=True)
class BuiltinParser:
    """One testee. `runtime` is "python" (an in-process plugin, `target` = "module:Class") or a
    runtime module of harness/runtimes ("node", "jvm", "go", "rust"), which builds
    harness/parsers/<target>/ and starts its adapter with the transport as its last argument;
    the adapter speaks the persistent protocol (docs/plugin-contract.md) and its hello names
    this entry's `name`."""

    name: str
    language: str
    library: str        # as its users install it: PyPI/npm name, Maven group:artifact, Go module, crate
    transport: str      # FILE or STREAM
    runtime: str        # "python", "node", "jvm", "go", "rust"
    target: str         # python: "module:Class"; otherwise the folder name under harness/parsers/

    @property
    def in_process(self) -> bool:
        return self.runtime == "python"


PARSERS: tuple[BuiltinParser, ...] = (
    BuiltinParser("oracle", "Python", "binlog-conformance (this project)", FILE, "python",
                  "harness.plugins.oracle_plugin:OracleParser"),
    BuiltinParser("mysqlbinlog", "C++", "mysqlbinlog 9.7 (MySQL's own tool)", FILE, "python",
                  "harness.plugins.mysqlbinlog:MysqlbinlogParser"),
    BuiltinParser("mariadb-binlog", "C++", "mariadb-binlog (MariaDB's own tool)", FILE, "python",
                  "harness.plugins.mariadb_binlog:MariadbBinlogParser"),
    BuiltinParser("python-mysql-replication", "Python", "mysql-replication", STREAM, "python",
                  "harness.plugins.pymysqlreplication_stream:PyMysqlReplicationStreamParser"),
    BuiltinParser("python-mysql-replication-file", "Python", "mysql-replication", FILE, "python",
                  "harness.plugins.pymysqlreplication_plugin:PyMysqlReplicationFileParser"),
    BuiltinParser("zongji-vlasky", "JavaScript", "@vlasky/zongji", STREAM, "node", "zongji-vlasky"),
    BuiltinParser("zongji-powersync", "JavaScript", "@powersync/mysql-zongji", STREAM, "node", "zongji-powersync"),
    BuiltinParser("zongji", "JavaScript", "zongji", STREAM, "node", "zongji"),
    BuiltinParser("go-mysql-js", "JavaScript", "go-mysql-js", STREAM, "node", "go-mysql-js"),
    BuiltinParser("go-mysql-binlog-node", "JavaScript", "@solashi/go-mysql-binlog-node", STREAM, "node",
                  "go-mysql-binlog-node"),
    BuiltinParser("go-mysql", "Go", "github.com/go-mysql-org/go-mysql", STREAM, "go", "go-mysql"),
    BuiltinParser("go-mysql-file", "Go", "github.com/go-mysql-org/go-mysql", FILE, "go", "go-mysql"),
    BuiltinParser("mysql-binlog-connector-java", "Java", "io.debezium:mysql-binlog-connector-java", STREAM,
                  "jvm", "mysql-binlog-connector-java"),
    BuiltinParser("mysql-binlog-connector-java-file", "Java", "io.debezium:mysql-binlog-connector-java", FILE,
                  "jvm", "mysql-binlog-connector-java"),
    BuiltinParser("mysql-binlog-connector-java-zendesk", "Java", "com.zendesk:mysql-binlog-connector-java",
                  STREAM, "jvm", "mysql-binlog-connector-java-zendesk"),
    BuiltinParser("mysql-binlog-connector-java-zendesk-file", "Java", "com.zendesk:mysql-binlog-connector-java",
                  FILE, "jvm", "mysql-binlog-connector-java-zendesk"),
    BuiltinParser("mysql-async", "Rust", "mysql_async", STREAM, "rust", "mysql-common"),
    BuiltinParser("mysql-common-file", "Rust", "mysql_common", FILE, "rust", "mysql-common"),
    BuiltinParser("mysql-binlog-connector-rust-file", "Rust", "mysql-binlog-connector-rust", FILE, "rust",
                  "mysql-binlog-connector-rust"),
    BuiltinParser("open-replicator", "Java", "com.zendesk:open-replicator", STREAM, "jvm", "open-replicator"),
    BuiltinParser("open-replicator-file", "Java", "com.zendesk:open-replicator", FILE, "jvm", "open-replicator"),
    BuiltinParser("canal", "Java", "com.alibaba.otter:canal.parse", STREAM, "jvm", "canal"),
    BuiltinParser("canal-file", "Java", "com.alibaba.otter:canal.parse", FILE, "jvm", "canal"),
    BuiltinParser("mysql-binlog-connector-rust", "Rust", "mysql-binlog-connector-rust", STREAM, "rust",
                  "mysql-binlog-connector-rust"),
    BuiltinParser("debezium-mysql", "Java", "io.debezium:debezium-connector-mysql", STREAM, "jvm", "debezium-mysql"),
    BuiltinParser("vitess", "Go", "vitess.io/vitess", STREAM, "go", "vitess"),
    BuiltinParser("vitess-file", "Go", "vitess.io/vitess", FILE, "go", "vitess"),
    BuiltinParser("flink-cdc", "Java", "org.apache.flink:flink-sql-connector-mysql-cdc", STREAM, "jvm", "flink-cdc"),
    BuiltinParser("debezium-mariadb", "Java", "io.debezium:debezium-connector-mariadb", STREAM, "jvm",
                  "debezium-mariadb"),
    BuiltinParser("flink-cdc-file", "Java", "org.apache.flink:flink-sql-connector-mysql-cdc", FILE, "jvm", "flink-cdc"),
)

BY_NAME: dict[str, BuiltinParser] = {p.name: p for p in PARSERS}
