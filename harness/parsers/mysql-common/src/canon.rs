// Included twice by main.rs, once with `mc` = mysql_common 0.38 (file testee) and once with
// `mc` = the mysql_common 0.37 inside mysql_async (stream testee): the two crates' binlog modules
// are the same source. Maps what the library decoded to the canonical event model
// (docs/canonical-model.md); nothing here reads binlog bytes itself.

use crate::shared::protocol::object;
use crate::shared::values::{binary, double, fraction, int, le_uint, be_uint, tagged, text, uint};
use mc::binlog::events::{Event, EventData, RowsEventData, TableMapEvent};
use mc::binlog::row::BinlogRow;
use mc::binlog::value::BinlogValue;
use mc::constants::ColumnType;
use mc::value::Value as MyValue;
use serde_json::{json, Value};
use std::io;

mod json_text {
    use super::mc;
    include!("json_text.rs");
}

/// The header fields the testees report (capabilities "header").
pub fn header(ev: &Event, position: u64) -> Vec<(&'static str, Value)> {
    let h = ev.header();
    vec![
        ("position", json!(position)),
        ("event_size", json!(h.event_size())),
        ("next_position", json!(h.log_pos())),
        ("type_code", json!(h.event_type_raw())),
        ("type", type_name(&h)),
        ("library_type", json!(match h.event_type() {
            Ok(t) => format!("{:?}", t),
            Err(e) => format!("{:?}", e),
        })),
        ("server_id", json!(h.server_id())),
        ("timestamp", json!(h.timestamp())),
        ("flags", json!({"value": h.flags_raw()})),
    ]
}

/// The canonical name of the library's own EventType for the event (its Debug name, spelt as
/// MySQL's source spells the six it abbreviates); null for UNKNOWN_EVENT, ENUM_END_EVENT and a
/// code it has no EventType for (UnknownEventType: every MariaDB event among them).
fn type_name(h: &mc::binlog::events::BinlogEventHeader) -> Value {
    use mc::binlog::consts::EventType as T;
    match h.event_type() {
        Ok(T::UNKNOWN_EVENT) | Ok(T::ENUM_END_EVENT) | Err(_) => Value::Null,
        Ok(T::HEARTBEAT_EVENT) => json!("HEARTBEAT_LOG_EVENT"),
        Ok(T::IGNORABLE_EVENT) => json!("IGNORABLE_LOG_EVENT"),
        Ok(T::ROWS_QUERY_EVENT) => json!("ROWS_QUERY_LOG_EVENT"),
        Ok(T::GTID_EVENT) => json!("GTID_LOG_EVENT"),
        Ok(T::ANONYMOUS_GTID_EVENT) => json!("ANONYMOUS_GTID_LOG_EVENT"),
        Ok(T::PREVIOUS_GTIDS_EVENT) => json!("PREVIOUS_GTIDS_LOG_EVENT"),
        Ok(t) => json!(format!("{:?}", t)),
    }
}

pub fn canonical(ev: &Event, position: u64, body: Option<Value>) -> Value {
    with_header(header(ev, position), body)
}

/// An event inside a Transaction_payload: placed at the payload's end and given its log_pos,
/// as mysqlbinlog prints them (docs/canonical-model.md); the inner header stores 0.
pub fn nested_canonical(ev: &Event, payload_end: u64, payload_log_pos: u64, body: Option<Value>) -> Value {
    let mut pairs = header(ev, payload_end);
    for pair in pairs.iter_mut().filter(|(k, _)| *k == "next_position") {
        pair.1 = json!(payload_log_pos);
    }
    with_header(pairs, body)
}

fn with_header(mut pairs: Vec<(&'static str, Value)>, body: Option<Value>) -> Value {
    if let Some(body) = body {
        pairs.push(("body", body));
    }
    object(pairs)
}

/// The body of an event whose type the library decodes, `None` for one it leaves undecoded.
/// `table` finds the Table_map a rows event refers to, as the library's reader keeps them.
pub fn body<'t>(ev: &Event, table: &dyn Fn(u64) -> Option<&'t TableMapEvent<'static>>) -> io::Result<Option<Value>> {
    let Some(data) = ev.read_data()? else { return Ok(None) };
    Ok(match data {
        EventData::FormatDescriptionEvent(e) => Some(json!({
            "binlog_version": e.binlog_version() as u16,
            "created": e.create_timestamp(),
            "common_header_len": e.event_header_length(),
        })),
        EventData::QueryEvent(e) => Some(json!({
            "thread_id": e.thread_id(), "query_exec_time": e.execution_time(),
            "error_code": e.error_code(), "db": text(e.schema_raw()), "query": text(e.query_raw()),
        })),
        EventData::RotateEvent(e) => Some(json!({"pos": uint(e.position()), "new_log_ident": text(e.name_raw())})),
        EventData::XidEvent(e) => Some(json!({"xid": uint(e.xid)})),
        EventData::IntvarEvent(e) => Some(json!({"type": e.subtype() as u8, "val": uint(e.value())})),
        EventData::RandEvent(e) => Some(json!({"seed1": uint(*e.seed1), "seed2": uint(*e.seed2)})),
        EventData::RowsQueryEvent(e) => Some(json!({"rows_query": text(e.query_raw())})),
        EventData::GtidEvent(e) => Some(gtid(&e)),
        EventData::AnonymousGtidEvent(e) => Some(gtid(&e.0)),
        EventData::TableMapEvent(e) => Some(table_map(&e)),
        EventData::RowsEvent(e) => Some(rows_event(&e, table(e.table_id()))?),
        EventData::TransactionPayloadEvent(e) => Some(json!({
            "payload_size": uint(e.payload_size()),
            "compression_type": e.algorithm() as u8,
            "uncompressed_size": uint(e.uncompressed_size()),
        })),
        _ => None,
    })
}

fn gtid(e: &mc::binlog::events::GtidEvent) -> Value {
    let sid = e.sid();
    let h = crate::shared::values::hex(&sid);
    let uuid = format!("{}-{}-{}-{}-{}", &h[0..8], &h[8..12], &h[12..16], &h[16..20], &h[20..32]);
    let mut body = json!({
        "gtid_flags": e.flags_raw(), "sid": uuid, "gno": uint(e.gno()),
        "last_committed": int(e.last_committed() as i64), "sequence_number": int(e.sequence_number() as i64),
    });
    // the library gives 0 for the fields an older event does not carry; only present ones are named
    let optional = [
        ("immediate_commit_timestamp", e.immediate_commit_timestamp()),
        ("original_commit_timestamp", e.original_commit_timestamp()),
        ("transaction_length", e.tx_length()),
        ("immediate_server_version", e.immediate_server_version() as u64),
        ("original_server_version", e.original_server_version() as u64),
    ];
    for (key, v) in optional {
        if v != 0 {
            body[key] = uint(v);
        }
    }
    body
}

fn table_map(e: &TableMapEvent) -> Value {
    let n = e.columns_count() as usize;
    let types: Vec<Value> = (0..n)
        .map(|i| e.get_raw_column_type(i).ok().flatten().map(|t| json!(t as u8)).unwrap_or(Value::Null))
        .collect();
    json!({
        "table_id": uint(e.table_id()), "schema": text(e.database_name_raw()), "table": text(e.table_name_raw()),
        "column_count": n, "column_types": types,
    })
}

fn rows_event(e: &RowsEventData, tme: Option<&TableMapEvent<'static>>) -> io::Result<Value> {
    let Some(tme) = tme else {
        return Err(io::Error::other(format!("no Table_map for table_id {}", e.table_id())));
    };
    let before_cols: Option<Vec<bool>> = e.columns_before_image().map(|b| b.iter().map(|x| *x).collect());
    let after_cols: Option<Vec<bool>> = e.columns_after_image().map(|b| b.iter().map(|x| *x).collect());
    let is_update = before_cols.is_some() && after_cols.is_some();
    let mut rows = Vec::new();
    for row in e.rows(tme) {
        let (before, after) = row?;
        let before = before.map(|r| image(&r, before_cols.as_deref().unwrap_or(&[]), tme));
        let after = after.map(|r| image(&r, after_cols.as_deref().unwrap_or(&[]), tme));
        rows.push(match (is_update, before, after) {
            (true, b, a) => json!({"before_image": b, "after_image": a}),
            (false, Some(b), _) => b,
            (false, None, Some(a)) => a,
            (false, None, None) => json!({}),
        });
    }
    Ok(json!({"table_id": uint(e.table_id()), "width": e.num_columns(), "rows": rows}))
}

/// One row image: the values of the columns present in it, in column order.
fn image(row: &BinlogRow, present: &[bool], tme: &TableMapEvent) -> Value {
    let columns = present.iter().enumerate().filter(|(_, p)| **p).map(|(i, _)| i);
    let values: Vec<Value> = columns
        .enumerate()
        .map(|(k, col)| {
            let ty = tme.get_column_type(col).ok().flatten();
            let meta = tme.get_column_metadata(col).unwrap_or(&[]);
            match (row.as_ref(k), ty) {
                (Some(v), Some(ty)) => column_value(v, ty, meta),
                _ => json!({"type": "missing", "value": ""}),
            }
        })
        .collect();
    json!({"values": values})
}

fn fsp(meta: &[u8]) -> u8 {
    meta.first().copied().unwrap_or(0)
}

/// A value as the library decoded it, in the documented convention for its column type.
fn column_value(v: &BinlogValue, ty: ColumnType, meta: &[u8]) -> Value {
    use ColumnType::*;
    match v {
        BinlogValue::Value(MyValue::NULL) => Value::Null,
        BinlogValue::Value(MyValue::Int(i)) if ty == MYSQL_TYPE_TIMESTAMP => tagged("timestamp", i.to_string()),
        BinlogValue::Value(MyValue::Int(i)) => int(*i),
        BinlogValue::Value(MyValue::UInt(u)) => uint(*u),
        BinlogValue::Value(MyValue::Float(f)) => double(*f as f64, "float"),
        BinlogValue::Value(MyValue::Double(d)) => double(*d, "double"),
        BinlogValue::Value(MyValue::Date(y, mo, d, h, mi, s, us)) => match ty {
            MYSQL_TYPE_DATE | MYSQL_TYPE_NEWDATE => tagged("date", format!("{y:04}-{mo:02}-{d:02}")),
            _ => {
                let frac = if ty == MYSQL_TYPE_DATETIME2 { fraction(*us, fsp(meta)) } else { String::new() };
                tagged("datetime", format!("{y:04}-{mo:02}-{d:02} {h:02}:{mi:02}:{s:02}{frac}"))
            }
        },
        BinlogValue::Value(MyValue::Time(neg, days, h, mi, s, us)) => {
            let frac = if ty == MYSQL_TYPE_TIME2 { fraction(*us, fsp(meta)) } else { String::new() };
            let hours = *days as u64 * 24 + *h as u64;
            tagged("time", format!("{}{hours:02}:{mi:02}:{s:02}{frac}", if *neg { "-" } else { "" }))
        }
        BinlogValue::Value(MyValue::Bytes(b)) => bytes_value(b, ty, meta),
        BinlogValue::Jsonb(j) => match j.clone().parse() {
            Ok(doc) => tagged("json", json_text::mysql_json_text(&doc)),
            Err(e) => tagged("json_error", e.to_string()),
        },
        BinlogValue::JsonDiff(diffs) => json!({"type": "json_diff", "value": diffs.iter().map(json_diff).collect::<Vec<_>>()}),
    }
}

/// One operation of a partial JSON update as the library decoded it (path, operation, and the
/// new value as MySQL prints it; none for REMOVE), the contract's json_diff entry.
fn json_diff(d: &mc::binlog::jsondiff::JsonDiff) -> Value {
    let value = d.value().map(|v| match v.clone().parse() {
        Ok(doc) => tagged("json", json_text::mysql_json_text(&doc)),
        Err(e) => tagged("json_error", e.to_string()),
    });
    json!({"operation": format!("{:?}", d.operation()), "path": d.path_str(), "value": value})
}

/// Bytes the library returns for many types: some hold text it formatted (YEAR, TIMESTAMP2,
/// DECIMAL), some a bit pattern (BIT, SET), the rest the stored bytes.
fn bytes_value(b: &[u8], ty: ColumnType, meta: &[u8]) -> Value {
    use ColumnType::*;
    let s = String::from_utf8_lossy(b);
    match ty {
        MYSQL_TYPE_YEAR => s.parse::<i64>().map(|y| json!(y)).unwrap_or_else(|_| text(b)),
        MYSQL_TYPE_TIMESTAMP2 => {
            let (sec, micros) = s.split_once('.').unwrap_or((&s, "0"));
            tagged("timestamp", format!("{sec}{}", fraction(micros.parse().unwrap_or(0), fsp(meta))))
        }
        MYSQL_TYPE_NEWDECIMAL | MYSQL_TYPE_DECIMAL => tagged("decimal", s.to_string()),
        MYSQL_TYPE_BIT => uint(be_uint(b)),
        MYSQL_TYPE_SET => uint(le_uint(b)),
        MYSQL_TYPE_GEOMETRY | MYSQL_TYPE_VECTOR => binary(b),
        _ => text(b),
    }
}
