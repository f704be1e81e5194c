//! The file testee: the crate's BinlogParser over the file, as its own tests and ape-dts's
//! binlog reading drive it: `check_magic`, then `next` until the end; the parser keeps the
//! checksum length from each Format_description and the Table_maps by table id.

use crate::canon::{body, canonical, nested};
use crate::shared::protocol::{Delivered, Outcome, Rejection};
use mysql_binlog_connector_rust::binlog_error::BinlogError;
use mysql_binlog_connector_rust::binlog_parser::BinlogParser;
use serde_json::Value;
use std::collections::HashMap;
use std::fs::File;
use std::io::{BufReader, Seek};

fn rejection(e: &BinlogError, offset: u64, events: Vec<Value>) -> Outcome {
    let kind = match e {
        BinlogError::IoError(io) if io.kind() == std::io::ErrorKind::UnexpectedEof => "TruncatedEvent",
        _ => "BadEventBody",
    };
    Outcome::Rejected(Rejection { kind, offset: Some(offset), message: e.to_string(), events })
}

pub fn parse(path: &str) -> Outcome {
    let mut file = match File::open(path) {
        Ok(f) => BufReader::new(f),
        Err(e) => return rejection(&BinlogError::IoError(e), 0, vec![]),
    };
    let mut parser = BinlogParser { checksum_length: 0, table_map_event_by_table_id: HashMap::new() };
    if let Err(e) = parser.check_magic(&mut file) {
        return Outcome::Rejected(Rejection { kind: "BadMagic", offset: Some(0), message: e.to_string(), events: vec![] });
    }
    let size = std::fs::metadata(path).map(|m| m.len()).unwrap_or(0);
    let mut events = Delivered::default();
    let mut position: u64 = 4;
    while position < size {
        let (h, data) = match parser.next(&mut file) {
            Ok(x) => x,
            Err(e) => return rejection(&e, position, events.take()),
        };
        let end = position + h.event_length as u64;
        let tables = &parser.table_map_event_by_table_id;
        let b = body(&data, tables, &|inner| nested(inner, tables, end, h.next_event_position as u64));
        events.push(canonical(&h, position, h.next_event_position as u64, b));
        position = file.stream_position().unwrap_or(end);
    }
    Outcome::Events(events.take())
}
