//! The conformance harness's adapter for mysql-binlog-connector-rust (docs/plugin-contract.md):
//! `mysql-binlog-connector-rust-adapter file` is the testee `mysql-binlog-connector-rust-file`
//! (BinlogParser over the file), `mysql-binlog-connector-rust-adapter stream` the testee
//! `mysql-binlog-connector-rust` (BinlogClient against the harness primary).

mod canon;
mod file;
mod stream;
mod shared;

use serde_json::json;
use shared::protocol::{serve, Testee};

fn capabilities() -> serde_json::Value {
    let mut caps = json!({
        "header": ["position", "event_size", "next_position", "type_code", "type", "server_id", "timestamp", "flags.value"],
        "bodies": {
            "FORMAT_DESCRIPTION_EVENT": ["binlog_version", "created", "common_header_len"],
            "QUERY_EVENT": ["thread_id", "query_exec_time", "error_code", "db", "query"],
            "ROTATE_EVENT": ["pos", "new_log_ident"],
            "XID_EVENT": ["xid"],
            "GTID_LOG_EVENT": ["gtid_flags", "gtid"],
            "ROWS_QUERY_LOG_EVENT": ["rows_query"],
            "TABLE_MAP_EVENT": ["table_id", "schema", "table", "column_count", "column_types"],
            "TRANSACTION_PAYLOAD_EVENT": ["uncompressed_size", "events"],
            "*": [],
        },
        "every_event": true,
        "partial_events": true,
        "row_values": shared::values::ROW_VALUE_TYPES,
    });
    for name in shared::values::ROWS_TYPES {
        caps["bodies"][name] = json!(["table_id", "rows"]);
    }
    caps
}

fn main() {
    let transport = std::env::args().nth(1).unwrap_or_else(|| "file".into());
    let (name, transport) = match transport.as_str() {
        "stream" => ("mysql-binlog-connector-rust", "stream"),
        _ => ("mysql-binlog-connector-rust-file", "file"),
    };
    let testee = Testee { name, version: "mysql-binlog-connector-rust 0.3.3", transport, capabilities: capabilities(),
                          modes: stream::MODES.to_vec(), modes_unsupported: json!({}) };
    serve(testee, &|path| file::parse(path), &|source| stream::parse(source));
}
