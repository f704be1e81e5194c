//! libFuzzer target: mysql-binlog-connector-rust 0.3.3's BinlogParser over the input as a
//! binlog file, as the adapter (harness/parsers/mysql-binlog-connector-rust/src/file.rs) and
//! ape-dts drive it: `check_magic`, then `next` until the input ends (the parser keeps the
//! checksum length of each Format_description and the Table_maps by id, decodes every rows
//! event's cells and a Transaction_payload's inner events itself), and every JSON cell read
//! with `JsonBinary::parse_as_string` as the adapter reads it. BinlogError is the library's
//! documented failure: a clean outcome. A panic is caught, named `crash:panic@file.rs:line`
//! by its location in the library (or the first library frame of its backtrace when std
//! panicked for the library), written with its input to $NATIVE_FUZZ_FINDINGS (the first few
//! per signature), and fuzzing goes on. An allocation failure aborts; libFuzzer saves the input.
#![no_main]

mod findings; // rust-fuzz-shared/findings.rs, copied here at build

use std::collections::HashMap;
use std::io::Cursor;

use libfuzzer_sys::fuzz_target;
use mysql_binlog_connector_rust::binlog_error::BinlogError;
use mysql_binlog_connector_rust::binlog_parser::BinlogParser;
use mysql_binlog_connector_rust::column::column_value::ColumnValue;
use mysql_binlog_connector_rust::column::json::json_binary::JsonBinary;
use mysql_binlog_connector_rust::event::event_data::EventData;
use mysql_binlog_connector_rust::event::row_event::RowEvent;

const LIBRARY: &str = "mysql_binlog_connector_rust"; // its frames' path in a backtrace
const SOURCE_DIR: &str = "/mysql-binlog-connector-rust-"; // its source in cargo's registry

fn parse(data: &[u8]) -> Result<(), BinlogError> {
    let mut input = Cursor::new(data);
    let mut parser = BinlogParser { checksum_length: 0, table_map_event_by_table_id: HashMap::new() };
    parser.check_magic(&mut input)?;
    while (input.position() as usize) < data.len() {
        let (_, event) = parser.next(&mut input)?;
        json_cells(&event);
    }
    Ok(())
}

/// The JSON cells of a rows event (a payload's inner events included) through the library's
/// JSON reader; its error is a value the adapter reports, not a failure.
fn json_cells(event: &EventData) {
    let rows: Vec<&RowEvent> = match event {
        EventData::WriteRows(e) => e.rows.iter().collect(),
        EventData::DeleteRows(e) => e.rows.iter().collect(),
        EventData::UpdateRows(e) => e.rows.iter().flat_map(|(before, after)| [before, after]).collect(),
        EventData::TransactionPayload(e) => {
            e.uncompressed_events.iter().for_each(|(_, inner)| json_cells(inner));
            vec![]
        }
        _ => vec![],
    };
    for value in rows.iter().flat_map(|row| row.column_values.iter()) {
        if let ColumnValue::Json(bytes) = value {
            let _ = JsonBinary::parse_as_string(bytes);
        }
    }
}

fuzz_target!(|data: &[u8]| findings::run(data, parse));
