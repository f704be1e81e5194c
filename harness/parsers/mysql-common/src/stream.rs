//! The stream testee: mysql_async's `Conn::get_binlog_stream` against the harness primary, as a
//! CDC reader drives it: a fresh connection, `SET @mariadb_slave_capability=4` (MariaDB's
//! GTID-aware replica), `BinlogStreamRequest::new(server_id)` with the
//! file and position to start from (blocking, as a replica runs), events taken from the stream
//! until the last one served (`end_file`/`end_position`), then the stream closed. The stream
//! itself expands a Transaction_payload into its events, which follow the payload event; they
//! are put back into its body by their sizes (they fill `uncompressed_size`).

use crate::canon037::{body, canonical, nested_canonical};
use crate::shared::protocol::{Delivered, Outcome, Rejection, StreamSource};
use futures_util::StreamExt;
use mysql_async::binlog::events::EventData;
use mysql_async::binlog::EventType;
use mysql_async::prelude::Queryable;
use mysql_async::{BinlogStreamRequest, Conn, OptsBuilder};
use serde_json::{json, Value};

const LOG_EVENT_ARTIFICIAL_F: u16 = 0x20;
const SERVER_ID: u32 = 0x5251_5354;

/// An expanded Transaction_payload waiting for its events.
struct Payload {
    event: Value,
    remaining: u64,
    position: u64,
    log_pos: u64,
    inner: Vec<Value>,
    last: bool,
}

impl Payload {
    fn finish(mut self) -> Value {
        self.event["body"]["events"] = json!(self.inner);
        self.event
    }
}

fn failed(message: String, offset: u64, events: Vec<Value>) -> Outcome {
    Outcome::Rejected(Rejection { kind: "ReplicationError", offset: Some(offset), message, events })
}

pub fn parse(runtime: &tokio::runtime::Runtime, source: &StreamSource) -> Outcome {
    runtime.block_on(read(source))
}

async fn read(source: &StreamSource) -> Outcome {
    let opts = OptsBuilder::default()
        .ip_or_hostname(source.host.clone())
        .tcp_port(source.port)
        .user(Some(source.user.clone()))
        .pass(Some(source.password.clone()))
        .prefer_socket(false);
    let mut conn = match Conn::new(opts).await {
        Ok(c) => c,
        Err(e) => return failed(format!("connect: {e}"), source.start_position, vec![]),
    };
    // What MariaDB readers set before the dump (python-mysql-replication, mysql_cdc, pipelinewise):
    // without it a MariaDB server sends a pre-GTID replica stand-ins for GTID, Gtid_list and
    // Binlog_checkpoint events. A harmless user variable on MySQL.
    if let Err(e) = conn.query_drop("SET @mariadb_slave_capability=4").await {
        return failed(format!("SET @mariadb_slave_capability: {e}"), source.start_position, vec![]);
    }
    let mut request = BinlogStreamRequest::new(SERVER_ID)
        .with_filename(source.file.as_bytes())
        .with_pos(source.start_position);
    if source.end_position == 0 {
        request = request.with_non_blocking(); // no known end: let the primary end the dump
    }
    let mut stream = match conn.get_binlog_stream(request).await {
        Ok(s) => s,
        Err(e) => return failed(format!("binlog dump: {e}"), source.start_position, vec![]),
    };
    let mut events = Delivered::default();
    let mut file = source.file.clone();
    let mut end = source.start_position; // where the last reported event ended
    let mut payload: Option<Payload> = None;
    let failure: Option<String> = loop {
        let ev = match stream.next().await {
            None => break None,
            Some(Err(e)) => break Some(e.to_string()),
            Some(Ok(ev)) => ev,
        };
        let h = ev.header();
        let code = h.event_type_raw();
        let rotate_to = || match ev.read_data() {
            Ok(Some(EventData::RotateEvent(r))) => Some(r.name().to_string()),
            _ => None,
        };
        let artificial = h.flags_raw() & LOG_EVENT_ARTIFICIAL_F != 0
            || ((code == EventType::ROTATE_EVENT as u8 || code == EventType::FORMAT_DESCRIPTION_EVENT as u8)
                && h.log_pos() == 0)
            || code == EventType::HEARTBEAT_EVENT as u8;
        if artificial && payload.is_none() {
            if code == EventType::ROTATE_EVENT as u8 {
                file = rotate_to().unwrap_or(file);
            }
            continue;
        }
        let b = match body(&ev, &|id| stream.get_tme(id)) {
            Ok(b) => b,
            Err(e) => break Some(e.to_string()),
        };
        if let Some(p) = payload.as_mut() {
            p.inner.push(nested_canonical(&ev, p.position, p.log_pos, b));
            p.remaining = p.remaining.saturating_sub(h.event_size() as u64);
            if p.remaining == 0 {
                let p = payload.take().unwrap();
                let last = p.last;
                events.push(p.finish());
                if last {
                    break None;
                }
            }
            continue;
        }
        let size = h.event_size() as u64;
        let (position, undetermined) = if h.log_pos() as u64 >= size {
            (h.log_pos() as u64 - size, false)
        } else {
            (end, true) // MariaDB 11 writes log_pos 0 inside a transaction
        };
        let mut event = canonical(&ev, position, b);
        if undetermined {
            event["_undetermined"] = json!(["position"]);
        }
        end = position + size;
        // by where the event ends: MariaDB 11 writes log_pos 0 inside a transaction
        let last = file == source.end_file && end == source.end_position;
        if code == EventType::TRANSACTION_PAYLOAD_EVENT as u8 {
            let size = event["body"]["uncompressed_size"].as_u64().unwrap_or(0);
            payload = Some(Payload { event, remaining: size, position: end, log_pos: h.log_pos() as u64, inner: vec![], last });
            continue;
        }
        events.push(event);
        if code == EventType::ROTATE_EVENT as u8 {
            file = rotate_to().unwrap_or(file);
        }
        if last {
            break None;
        }
    };
    if let Some(p) = payload {
        events.push(p.finish()); // a payload whose events did not all arrive, with those that did
    }
    let _ = stream.close().await;
    match failure {
        None => Outcome::Events(events.take()),
        Some(message) => failed(message, end, events.take()),
    }
}
