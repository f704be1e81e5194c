//! The conformance harness's adapter for mysql_common and mysql_async (docs/plugin-contract.md):
//! `mysql-common-adapter file` is the testee `mysql-common-file` (mysql_common::binlog::BinlogFile),
//! `mysql-common-adapter stream` the testee `mysql-async` (Conn::get_binlog_stream).

mod file;
mod stream;
mod shared;

mod canon38 {
    use mysql_common as mc;
    include!("canon.rs");
}

mod canon037 {
    use mysql_common_037 as mc;
    include!("canon.rs");
}

use shared::protocol::{serve, Testee};
use serde_json::{json, Value};

/// What both testees report: the header fields the library exposes, the bodies it decodes, and
/// the row values of the column types it decodes (JSON as MySQL prints the document).
fn capabilities() -> Value {
    let mut bodies = json!({
        "FORMAT_DESCRIPTION_EVENT": ["binlog_version", "created", "common_header_len"],
        "QUERY_EVENT": ["thread_id", "query_exec_time", "error_code", "db", "query"],
        "ROTATE_EVENT": ["pos", "new_log_ident"],
        "XID_EVENT": ["xid"],
        "INTVAR_EVENT": ["type", "val"],
        "RAND_EVENT": ["seed1", "seed2"],
        "ROWS_QUERY_LOG_EVENT": ["rows_query"],
        "GTID_LOG_EVENT": ["gtid_flags", "sid", "gno", "last_committed", "sequence_number",
                           "immediate_commit_timestamp", "original_commit_timestamp", "transaction_length",
                           "immediate_server_version", "original_server_version"],
        "ANONYMOUS_GTID_LOG_EVENT": ["gtid_flags", "sid", "gno", "last_committed", "sequence_number",
                                     "immediate_commit_timestamp", "original_commit_timestamp",
                                     "transaction_length", "immediate_server_version", "original_server_version"],
        "TABLE_MAP_EVENT": ["table_id", "schema", "table", "column_count", "column_types"],
        "TRANSACTION_PAYLOAD_EVENT": ["payload_size", "compression_type", "uncompressed_size", "events"],
        "*": [],
    });
    for name in shared::values::ROWS_TYPES {
        bodies[name] = json!(["table_id", "width", "rows"]);
    }
    json!({
        "header": ["position", "event_size", "next_position", "type_code", "type", "server_id", "timestamp", "flags.value"],
        "bodies": bodies,
        "every_event": true,
        "partial_events": true,
        "row_values": shared::values::ROW_VALUE_TYPES.iter().chain(["MYSQL_TYPE_VECTOR"].iter()).collect::<Vec<_>>(),
    })
}

fn main() {
    let transport = std::env::args().nth(1).unwrap_or_else(|| "file".into());
    let runtime = tokio::runtime::Builder::new_current_thread().enable_all().build().expect("tokio runtime");
    let (name, version) = match transport.as_str() {
        "stream" => ("mysql-async", "mysql_async 0.37.1 (mysql_common 0.37.3)"),
        _ => ("mysql-common-file", "mysql_common 0.38.2"),
    };
    let testee = Testee { name, version, transport: if transport == "stream" { "stream" } else { "file" },
                          capabilities: capabilities(), modes: stream::MODES.to_vec(),
                          modes_unsupported: json!({}) };
    serve(testee, &|path| file::parse(path), &|source| stream::parse(&runtime, source));
}
