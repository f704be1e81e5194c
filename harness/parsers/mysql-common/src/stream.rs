//! The stream testee: mysql_async's `Conn::get_binlog_stream` against the harness primary, as a
//! CDC reader drives it: a fresh connection, `SET @mariadb_slave_capability=4` (MariaDB's
//! GTID-aware replica), `BinlogStreamRequest::new(server_id)` started as the stream mode asks
//! (below; blocking, as a replica runs), events taken from the stream until the last one served
//! (`end_file`/`end_position`), then the stream closed. The stream itself expands a
//! Transaction_payload into its events, which follow the payload event; they are put back into
//! its body by their sizes (they fill `uncompressed_size`).
//!
//! Stream modes (docs/plugin-contract.md), each as a user of the crate starts a replica:
//! - position: `with_filename` / `with_pos`;
//! - gtid: on MySQL `with_gtid()` and `with_gtid_set` (the request's set, parsed by the crate's own
//!   `Sid` parser, tags included: COM_BINLOG_DUMP_GTID); on MariaDB, whose GTID dump is not the
//!   crate's, the replica's documented way: `SET @slave_connect_state` and a dump without a file;
//! - current: the status query the server's version documents (`SHOW BINARY LOG STATUS` from
//!   MySQL 8.2, `SHOW BINLOG STATUS` on MariaDB 10.5.2+, else `SHOW MASTER STATUS`), then position;
//! - heartbeats: `SET @master_heartbeat_period` (nanoseconds) before the dump, and each heartbeat
//!   the stream yields reported as an event.

use crate::canon037::{body, canonical, nested_canonical};
use crate::shared::protocol::{Delivered, Outcome, Rejection, StreamSource};
use futures_util::StreamExt;
use mysql_async::binlog::events::EventData;
use mysql_async::binlog::EventType;
use mysql_async::prelude::Queryable;
use mysql_async::{BinlogStreamRequest, Conn, OptsBuilder};
use mysql_common_037::packets::Sid;
use serde_json::{json, Value};

const LOG_EVENT_ARTIFICIAL_F: u16 = 0x20;
const SERVER_ID: u32 = 0x5251_5354;
const HEARTBEAT_LOG_EVENT_V2: u8 = 0x29; // not in the crate's EventType (its consts.rs says so)

pub const MODES: [&str; 4] = ["position", "gtid", "current", "heartbeats"];

/// Where the dump starts: a file and position, or a GTID set (MySQL's COM_BINLOG_DUMP_GTID).
enum Start {
    At(String, u64),
    Gtids(Vec<Sid<'static>>),
}

/// The request's GTID set as the crate's `Sid`s: one per UUID and tag (MySQL's text puts the
/// tagged intervals after the untagged ones of the same UUID: `uuid:1-5:tag:1-3`).
fn sids(set: &str) -> Result<Vec<Sid<'static>>, String> {
    let mut out = Vec::new();
    for part in set.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        let mut parts = part.split(':');
        let uuid = parts.next().unwrap_or_default();
        let mut groups: Vec<(Option<&str>, Vec<&str>)> = vec![(None, vec![])];
        for piece in parts {
            if piece.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_') {
                groups.push((Some(piece), vec![]));
            } else if let Some(last) = groups.last_mut() {
                last.1.push(piece);
            }
        }
        for (tag, intervals) in groups.into_iter().filter(|(_, i)| !i.is_empty()) {
            let text = match tag {
                Some(t) => format!("{uuid}:{t}:{}", intervals.join(":")),
                None => format!("{uuid}:{}", intervals.join(":")),
            };
            out.push(text.parse::<Sid<'static>>().map_err(|e| format!("GTID set {text}: {e}"))?);
        }
    }
    Ok(out)
}

fn version_of(text: &str) -> (u32, u32, u32) {
    let mut n = text.split(|c: char| !c.is_ascii_digit()).filter(|p| !p.is_empty()).map(|p| p.parse().unwrap_or(0));
    (n.next().unwrap_or(0), n.next().unwrap_or(0), n.next().unwrap_or(0))
}

/// The status query a user runs on this server version to find where its binlog is.
fn status_query(version: &str) -> &'static str {
    let v = version_of(version);
    if version.to_lowercase().contains("mariadb") {
        if v >= (10, 5, 2) { "SHOW BINLOG STATUS" } else { "SHOW MASTER STATUS" }
    } else if v >= (8, 2, 0) {
        "SHOW BINARY LOG STATUS"
    } else {
        "SHOW MASTER STATUS"
    }
}

/// Run what the mode asks before the dump and say where it starts.
async fn prepare(conn: &mut Conn, source: &StreamSource) -> Result<Start, String> {
    let version: String = conn.query_first("SELECT VERSION()").await.map_err(|e| format!("SELECT VERSION(): {e}"))?
        .unwrap_or_default();
    let mariadb = version.to_lowercase().contains("mariadb");
    match source.mode.as_str() {
        "heartbeats" => {
            let ns = (source.heartbeat_period * 1e9) as u64;
            conn.query_drop(format!("SET @master_heartbeat_period = {ns}")).await
                .map_err(|e| format!("SET @master_heartbeat_period: {e}"))?;
            Ok(Start::At(source.file.clone(), source.start_position))
        }
        "current" => {
            let query = status_query(&version);
            let row: Option<mysql_async::Row> = conn.query_first(query).await.map_err(|e| format!("{query}: {e}"))?;
            let row = row.ok_or_else(|| format!("{query}: no row (binary logging off?)"))?;
            let file: String = row.get(0).ok_or_else(|| format!("{query}: no File column"))?;
            let position: u64 = row.get(1).ok_or_else(|| format!("{query}: no Position column"))?;
            Ok(Start::At(file, position))
        }
        "gtid" if mariadb => {
            let state = source.gtid_set.replace('\'', "");
            conn.query_drop(format!("SET @slave_connect_state = '{state}'")).await
                .map_err(|e| format!("SET @slave_connect_state: {e}"))?;
            Ok(Start::At(String::new(), 4))
        }
        "gtid" => Ok(Start::Gtids(sids(&source.gtid_set)?)),
        _ => Ok(Start::At(source.file.clone(), source.start_position)),
    }
}

/// A heartbeat as the stream yields it: the crate's EventType names v1 (its HeartbeatEvent has
/// no fields: the binlog it names is not read); v2 is no EventType of the crate (type null).
fn heartbeat(ev: &mysql_async::binlog::events::Event) -> Value {
    let h = ev.header();
    let code = h.event_type_raw();
    let named = code == EventType::HEARTBEAT_EVENT as u8;
    json!({"type": if named { json!("HEARTBEAT_LOG_EVENT") } else { Value::Null },
           "type_code": code, "event_size": h.event_size(), "next_position": h.log_pos(),
           "server_id": h.server_id(), "timestamp": h.timestamp(), "flags": {"value": h.flags_raw()},
           "library_type": if named { "EventType::HEARTBEAT_EVENT" } else { "unknown event type" }, "body": {}})
}

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
    let start = match prepare(&mut conn, source).await {
        Ok(s) => s,
        Err(e) => return failed(e, source.start_position, vec![]),
    };
    let mut request = BinlogStreamRequest::new(SERVER_ID);
    request = match &start {
        Start::At(file, pos) => request.with_filename(file.as_bytes()).with_pos(*pos),
        Start::Gtids(set) => request.with_gtid().with_gtid_set(set.iter().cloned()),
    };
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
        let beat = code == EventType::HEARTBEAT_EVENT as u8 || code == HEARTBEAT_LOG_EVENT_V2;
        if beat && source.mode == "heartbeats" && payload.is_none() {
            events.push(heartbeat(&ev));
            continue;
        }
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
