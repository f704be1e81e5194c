//! The file testee: mysql_common 0.38's BinlogFile over the file, as its documentation shows
//! (an iterator of events; the reader keeps the Format_description and the Table_maps), with a
//! Transaction_payload's events read through `reader_mut().read_decompressed` as the crate asks
//! ("it is necessary to read the embedded stream as soon as it is encountered").

use crate::canon38::{body, canonical, nested_canonical};
use crate::shared::protocol::{Delivered, Outcome, Rejection};
use mysql_common::binlog::events::TransactionPayloadEvent;
use mysql_common::binlog::{consts::BinlogVersion, consts::EventType, BinlogFile};
use serde_json::{json, Value};
use std::fs::File;
use std::io::{self, BufReader};

fn rejection(e: &io::Error, offset: u64, events: Vec<Value>) -> Outcome {
    let kind = match e.kind() {
        io::ErrorKind::UnexpectedEof => "TruncatedEvent",
        _ => "BadEventBody",
    };
    Outcome::Rejected(Rejection { kind, offset: Some(offset), message: e.to_string(), events })
}

pub fn parse(path: &str) -> Outcome {
    let file = match File::open(path) {
        Ok(f) => f,
        Err(e) => return rejection(&e, 0, vec![]),
    };
    let mut binlog = match BinlogFile::new(BinlogVersion::Version4, BufReader::new(file)) {
        Ok(b) => b,
        Err(e) => {
            return Outcome::Rejected(Rejection { kind: "BadMagic", offset: Some(0), message: e.to_string(), events: vec![] })
        }
    };
    let mut events = Delivered::default();
    let mut position: u64 = 4;
    while let Some(next) = binlog.next() {
        let ev = match next {
            Ok(ev) => ev,
            Err(e) => return rejection(&e, position, events.take()),
        };
        let reader = binlog.reader();
        let decoded = body(&ev, &|id| reader.get_tme(id));
        let mut body = match decoded {
            Ok(b) => b,
            Err(e) => return rejection(&e, position, events.take()),
        };
        let end = position + ev.header().event_size() as u64;
        if ev.header().event_type_raw() == EventType::TRANSACTION_PAYLOAD_EVENT as u8 {
            match nested(&ev, end, &mut binlog) {
                Ok(inner) => {
                    if let Some(Value::Object(b)) = body.as_mut() {
                        b.insert("events".into(), json!(inner));
                    }
                }
                Err(e) => return rejection(&e, position, events.take()),
            }
        }
        events.push(canonical(&ev, position, body));
        position = end;
    }
    Outcome::Events(events.take())
}

/// The events inside a Transaction_payload, at the payload's end position (as mysqlbinlog
/// places them).
fn nested<R: io::BufRead>(
    ev: &mysql_common::binlog::events::Event,
    position: u64,
    binlog: &mut BinlogFile<R>,
) -> io::Result<Vec<Value>> {
    let payload: TransactionPayloadEvent = ev.read_event()?;
    let mut data = payload.decompressed()?;
    let mut inner = Vec::new();
    while data.has_data_left()? {
        let Some(e) = binlog.reader_mut().read_decompressed(&mut data)? else { break };
        let reader = binlog.reader();
        let b = body(&e, &|id| reader.get_tme(id))?;
        inner.push(nested_canonical(&e, position, ev.header().log_pos() as u64, b));
    }
    Ok(inner)
}

