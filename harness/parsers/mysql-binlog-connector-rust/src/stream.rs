//! The stream testee: the crate's `BinlogClient` against the harness primary, built as ape-dts's
//! MySQL CDC extractor builds it (dt-connector/src/extractor/mysql/mysql_cdc_extractor.rs and
//! its task config's defaults): the `mysql://user:password@host:port` url, a server id,
//! `StartPosition::BinlogPosition(file, position)` (GTID mode off, ape-dts's default),
//! `with_master_heartbeat(10 s)`, `with_read_timeout(60 s)`, `with_keepalive(60 s, 10 s)`, then
//! `connect()` and `BinlogStream::read()` until the last event served (`end_file`/`end_position`),
//! then `close()`. The dump is blocking (the crate sends flags 0), as a replica's; the crate sends
//! nothing MariaDB-specific (its README names MySQL 5.6, 5.7 and 8.0 only).
//!
//! Stream modes (docs/plugin-contract.md), each through the crate's own `StartPosition`:
//! gtid: `StartPosition::Gtid(set)` (the crate's GTID dump; an empty set makes it fetch the
//! server's executed set first, with `show master status`); current: `StartPosition::Latest`
//! (the crate asks `show master status`); heartbeats: `with_master_heartbeat(period)`, and each
//! heartbeat the stream yields reported as an event.

use crate::canon::{body, canonical, nested};
use crate::shared::protocol::{Delivered, Outcome, Rejection, StreamSource};
use mysql_binlog_connector_rust::binlog_client::{BinlogClient, StartPosition};
use mysql_binlog_connector_rust::binlog_error::BinlogError;
use mysql_binlog_connector_rust::event::event_data::EventData;
use mysql_binlog_connector_rust::event::event_header::EventHeader;
use serde_json::{json, Value};
use std::time::Duration;

const SERVER_ID: u64 = 0x5251_5354;
const LOG_EVENT_ARTIFICIAL_F: u16 = 0x20;
const ROTATE_EVENT: u8 = 4;
const FORMAT_DESCRIPTION_EVENT: u8 = 15;
const HEARTBEAT_LOG_EVENT_V2: u8 = 0x29;
// ape-dts's defaults: binlog_heartbeat_interval_secs, binlog_timeout_secs, keepalive_idle_secs,
// keepalive_interval_secs (dt-common/src/config/task_config.rs)
const HEARTBEAT: Duration = Duration::from_secs(10);
const READ_TIMEOUT: Duration = Duration::from_secs(60);
const KEEPALIVE_IDLE: Duration = Duration::from_secs(60);
const KEEPALIVE_INTERVAL: Duration = Duration::from_secs(10);
// A request with no known end (end_position 0): the crate only dumps blocking, so the stream
// ends when the primary has been silent this long (heartbeats come every 10 s, not sooner).
const QUIET_END: Duration = Duration::from_secs(2);

pub const MODES: [&str; 4] = ["position", "gtid", "current", "heartbeats"];

/// Where the mode starts the dump, as the crate's StartPosition says it.
fn start_position(source: &StreamSource) -> StartPosition {
    match source.mode.as_str() {
        "gtid" => StartPosition::Gtid(source.gtid_set.clone()),
        "current" => StartPosition::Latest,
        _ => StartPosition::BinlogPosition(source.file.clone(), source.start_position as u32),
    }
}

/// A heartbeat as the stream yields it: the crate's `EventData::HeartBeat` has no fields (the
/// binlog it names is not read), so only the header is reported.
fn heartbeat(h: &EventHeader, data: &EventData) -> Value {
    let named = matches!(data, EventData::HeartBeat);
    json!({"type": if named { json!("HEARTBEAT_LOG_EVENT") } else { Value::Null },
           "type_code": h.event_type, "event_size": h.event_length, "next_position": h.next_event_position,
           "server_id": h.server_id, "timestamp": h.timestamp, "flags": {"value": h.event_flags},
           "library_type": if named { "EventData::HeartBeat" } else { "not a heartbeat of the crate" }, "body": {}})
}

/// The crate's read timeout (`PacketChannel::read_packet_info`), which ends a stream with no known end.
fn is_quiet_end(e: &BinlogError) -> bool {
    matches!(e, BinlogError::UnexpectedData(m) if m.starts_with("Read binlog header timeout"))
}

fn failed(e: &BinlogError, offset: u64, events: Vec<Value>) -> Outcome {
    let kind = match e {
        BinlogError::ConnectError(_) => "ReplicationError",
        // the crate's read timeout and its polling of a closed connection (PacketChannel)
        BinlogError::UnexpectedData(m) if m.contains("timeout") || m.starts_with("Too many zero-length reads") => {
            "ReplicationError"
        }
        BinlogError::IoError(io) if io.kind() == std::io::ErrorKind::UnexpectedEof => "TruncatedEvent",
        _ => "BadEventBody",
    };
    Outcome::Rejected(Rejection { kind, offset: Some(offset), message: e.to_string(), events })
}

/// The dump's own events, which are no event of the binlog: events flagged artificial,
/// heartbeats, a Format_description resent for a later start (log_pos 0), and the Rotate the
/// dump starts with (log_pos 0, before any event of the binlog: a binlog's own last Rotate
/// whose log_pos reads 0 is still its event, and the stream's end).
fn artificial(h: &EventHeader, data: &EventData, reported: bool) -> bool {
    h.event_flags & LOG_EVENT_ARTIFICIAL_F != 0
        || matches!(data, EventData::HeartBeat)
        || (h.event_type == FORMAT_DESCRIPTION_EVENT && h.next_event_position == 0)
        || (h.event_type == ROTATE_EVENT && h.next_event_position == 0 && !reported)
}

fn url(source: &StreamSource) -> String {
    // the crate's Authenticator percent-decodes user and password (src/command/authenticator.rs)
    let enc = |s: &str| s.bytes().map(|b| if b.is_ascii_alphanumeric() { (b as char).to_string() } else { format!("%{b:02X}") }).collect::<String>();
    format!("mysql://{}:{}@{}:{}", enc(&source.user), enc(&source.password), source.host, source.port)
}

pub fn parse(source: &StreamSource) -> Outcome {
    async_std::task::block_on(read(source))
}

async fn read(source: &StreamSource) -> Outcome {
    if source.mode == "gtid" && source.gtid_set.trim().is_empty() {
        // binlog_client.rs connect(): an empty gtid_set is replaced by the server's executed set
        // (show master status), a start at the binlog's end: no GTID start at the beginning
        return Outcome::Skipped("an empty GTID set (a start at the server's first transaction): the crate \
                                 replaces it with the server's executed set and starts at the end".into());
    }
    let heartbeats = source.mode == "heartbeats";
    let period = if heartbeats { Duration::from_secs_f64(source.heartbeat_period.max(1.0)) } else { HEARTBEAT };
    let mut client = BinlogClient::new(&url(source), SERVER_ID, start_position(source))
        .with_master_heartbeat(period)
        .with_read_timeout(if source.end_position == 0 { QUIET_END } else { READ_TIMEOUT })
        .with_keepalive(KEEPALIVE_IDLE, KEEPALIVE_INTERVAL);
    let mut stream = match client.connect().await {
        Ok(s) => s,
        Err(e) => return failed(&e, source.start_position, vec![]),
    };
    let mut events = Delivered::default();
    let mut file = source.file.clone();
    let mut end = source.start_position; // where the last reported event ended
    let failure = loop {
        let (h, data) = match stream.read().await {
            Ok(x) => x,
            Err(e) if source.end_position == 0 && is_quiet_end(&e) => break None,
            Err(e) => break Some(e),
        };
        if heartbeats && (matches!(data, EventData::HeartBeat) || h.event_type == HEARTBEAT_LOG_EVENT_V2) {
            events.push(heartbeat(&h, &data));
            continue;
        }
        if artificial(&h, &data, !events.is_empty()) {
            if let EventData::Rotate(r) = &data {
                file = r.binlog_filename.clone();
            }
            continue;
        }
        let size = h.event_length as u64;
        let log_pos = h.next_event_position as u64;
        let (position, undetermined) = if log_pos >= size { (log_pos - size, false) } else { (end, true) };
        end = position + size;
        let tables = &stream.parser.table_map_event_by_table_id;
        let b = body(&data, tables, &|inner| nested(inner, tables, end, log_pos));
        let mut event = canonical(&h, position, log_pos, b);
        if undetermined {
            event["_undetermined"] = json!(["position"]); // MariaDB 11 writes log_pos 0 inside a transaction
        }
        events.push(event);
        let last = file == source.end_file && end == source.end_position;
        if let EventData::Rotate(r) = &data {
            file = r.binlog_filename.clone();
        }
        if last {
            break None;
        }
    };
    let _ = stream.close().await;
    match failure {
        None => Outcome::Events(events.take()),
        Some(e) => failed(&e, end, events.take()),
    }
}
