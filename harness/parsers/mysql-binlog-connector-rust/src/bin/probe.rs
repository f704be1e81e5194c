//! mysql-binlog-connector-rust ALONE, for tests/test_mysql_common_live.py: no harness, no
//! canonical mapping, only what the crate returns, printed with the crate's own serde derives.
//!
//!   probe file PATH                 BinlogParser: check_magic, then next() to the file's end
//!   probe stream URL FILE POSITION  BinlogClient as ape-dts builds it, read() until the server
//!                                   has been quiet for 3 s (the crate's read timeout)
//!   probe latest URL                the same from StartPosition::Latest (the crate finds the
//!                                   server's current position itself)
//!   probe gtid URL SET              the same from StartPosition::Gtid(SET)
//!                                   (these two: quiet for 8 s, as connect() runs queries first)
//!
//! One JSON line per event: {"header": EventHeader, "data": EventData}, with "json" added to a
//! rows event: each JSON column's text from the crate's `JsonBinary::parse_as_string` (what its
//! README gives for JSON). The last line is {"end": ...} or {"error": "<BinlogError>"}.

use mysql_binlog_connector_rust::binlog_client::{BinlogClient, StartPosition};
use mysql_binlog_connector_rust::binlog_error::BinlogError;
use mysql_binlog_connector_rust::binlog_parser::BinlogParser;
use mysql_binlog_connector_rust::column::column_value::ColumnValue;
use mysql_binlog_connector_rust::column::json::json_binary::JsonBinary;
use mysql_binlog_connector_rust::event::event_data::EventData;
use mysql_binlog_connector_rust::event::event_header::EventHeader;
use mysql_binlog_connector_rust::event::row_event::RowEvent;
use serde_json::{json, Value};
use std::collections::HashMap;
use std::io::{BufReader, Seek};
use std::time::Duration;

fn json_texts(rows: &[&RowEvent]) -> Value {
    let texts: Vec<Value> = rows
        .iter()
        .flat_map(|r| r.column_values.iter())
        .filter_map(|v| match v {
            ColumnValue::Json(b) => Some(match JsonBinary::parse_as_string(b) {
                Ok(s) => json!(s),
                Err(e) => json!({"error": e.to_string()}),
            }),
            _ => None,
        })
        .collect();
    json!(texts)
}

fn print(h: &EventHeader, data: &EventData) {
    let mut line = json!({"header": h, "data": data});
    let rows: Vec<&RowEvent> = match data {
        EventData::WriteRows(e) => e.rows.iter().collect(),
        EventData::DeleteRows(e) => e.rows.iter().collect(),
        EventData::UpdateRows(e) => e.rows.iter().flat_map(|(b, a)| [b, a]).collect(),
        _ => vec![],
    };
    if !rows.is_empty() {
        line["json"] = json_texts(&rows);
    }
    println!("{line}");
}

fn end(result: Result<(), BinlogError>) {
    match result {
        Ok(()) => println!("{}", json!({"end": "complete"})),
        Err(e) => println!("{}", json!({"error": e.to_string()})),
    }
}

fn file(path: &str) -> Result<(), BinlogError> {
    let size = std::fs::metadata(path)?.len();
    let mut reader = BufReader::new(std::fs::File::open(path)?);
    let mut parser = BinlogParser { checksum_length: 0, table_map_event_by_table_id: HashMap::new() };
    parser.check_magic(&mut reader)?;
    while reader.stream_position()? < size {
        let (h, data) = parser.next(&mut reader)?;
        print(&h, &data);
    }
    Ok(())
}

/// `quiet`: the crate's read timeout, which also bounds the queries `connect()` runs first (a
/// loaded machine's server can take seconds there); under the 10 s heartbeat, so it can end.
async fn stream(url: &str, start: StartPosition, quiet: Duration) -> Result<(), BinlogError> {
    let mut client = BinlogClient::new(url, 0x5052_4f42, start)
        .with_master_heartbeat(Duration::from_secs(10))
        .with_read_timeout(quiet)
        .with_keepalive(Duration::from_secs(60), Duration::from_secs(10));
    let mut stream = client.connect().await?;
    loop {
        match stream.read().await {
            Ok((h, data)) => print(&h, &data),
            Err(BinlogError::UnexpectedData(m)) if m.starts_with("Read binlog header timeout") => break,
            Err(e) => return Err(e),
        }
    }
    stream.close().await
}

const QUIET_AFTER_QUERIES: Duration = Duration::from_secs(8);

fn main() {
    let args: Vec<String> = std::env::args().collect();
    match args.get(1).map(String::as_str) {
        Some("file") if args.len() == 3 => end(file(&args[2])),
        Some("stream") if args.len() == 5 => {
            let position = args[4].parse().expect("position");
            let start = StartPosition::BinlogPosition(args[3].clone(), position);
            end(async_std::task::block_on(stream(&args[2], start, Duration::from_secs(3))))
        }
        Some("latest") if args.len() == 3 => {
            end(async_std::task::block_on(stream(&args[2], StartPosition::Latest, QUIET_AFTER_QUERIES)))
        }
        Some("gtid") if args.len() == 4 => {
            let start = StartPosition::Gtid(args[3].clone());
            end(async_std::task::block_on(stream(&args[2], start, QUIET_AFTER_QUERIES)))
        }
        _ => {
            eprintln!("usage: probe file PATH | probe stream URL FILE POSITION | probe latest URL | probe gtid URL SET");
            std::process::exit(2)
        }
    }
}
