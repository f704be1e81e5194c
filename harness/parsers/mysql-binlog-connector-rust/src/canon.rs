//! Events of mysql-binlog-connector-rust (EventHeader, EventData) in the canonical event model
//! (docs/canonical-model.md). Values are the library's; only their spelling follows the
//! documented conventions.

use crate::shared::protocol::object;
use crate::shared::values::{binary, double, fraction, int, tagged, text, uint};
use mysql_binlog_connector_rust::column::column_type::ColumnType;
use mysql_binlog_connector_rust::column::column_value::ColumnValue;
use mysql_binlog_connector_rust::column::json::json_binary::JsonBinary;
use mysql_binlog_connector_rust::event::event_data::EventData;
use mysql_binlog_connector_rust::event::event_header::EventHeader;
use mysql_binlog_connector_rust::event::event_type::EventType;
use mysql_binlog_connector_rust::event::row_event::RowEvent;
use mysql_binlog_connector_rust::event::table_map_event::TableMapEvent;
use serde_json::{json, Value};
use std::collections::HashMap;

pub type Tables = HashMap<u64, TableMapEvent>;

/// The canonical name of the library's own EventType for the event (EventType::from_code, its
/// Unknown for a code it does not know): None (null) for Unknown, and for a rows type whose data
/// the library did not decode (NotSupported: it names the event but delivers none of it).
fn type_name(t: &EventType, decoded: bool) -> Option<&'static str> {
    use EventType::*;
    let rows = |name| if decoded { Some(name) } else { None };
    match t {
        Unknown => None,
        StartV3 => Some("START_EVENT_V3"), Query => Some("QUERY_EVENT"), Stop => Some("STOP_EVENT"),
        Rotate => Some("ROTATE_EVENT"), Intvar => Some("INTVAR_EVENT"), Load => Some("LOAD_EVENT"),
        Slave => Some("SLAVE_EVENT"), CreateFile => Some("CREATE_FILE_EVENT"), AppendBlock => Some("APPEND_BLOCK_EVENT"),
        ExecLoad => Some("EXEC_LOAD_EVENT"), DeleteFile => Some("DELETE_FILE_EVENT"), NewLoad => Some("NEW_LOAD_EVENT"),
        Rand => Some("RAND_EVENT"), UserVar => Some("USER_VAR_EVENT"), FormatDescription => Some("FORMAT_DESCRIPTION_EVENT"),
        Xid => Some("XID_EVENT"), BeginLoadQuery => Some("BEGIN_LOAD_QUERY_EVENT"),
        ExecuteLoadQuery => Some("EXECUTE_LOAD_QUERY_EVENT"), TableMap => Some("TABLE_MAP_EVENT"),
        PreGaWriteRows => rows("PRE_GA_WRITE_ROWS_EVENT"), PreGaUpdateRows => rows("PRE_GA_UPDATE_ROWS_EVENT"),
        PreGaDeleteRows => rows("PRE_GA_DELETE_ROWS_EVENT"), WriteRows => rows("WRITE_ROWS_EVENT_V1"),
        UpdateRows => rows("UPDATE_ROWS_EVENT_V1"), DeleteRows => rows("DELETE_ROWS_EVENT_V1"),
        Incident => Some("INCIDENT_EVENT"), HeartBeat => Some("HEARTBEAT_LOG_EVENT"), Ignorable => Some("IGNORABLE_LOG_EVENT"),
        RowsQuery => Some("ROWS_QUERY_LOG_EVENT"), ExtWriteRows => rows("WRITE_ROWS_EVENT"),
        ExtUpdateRows => rows("UPDATE_ROWS_EVENT"), ExtDeleteRows => rows("DELETE_ROWS_EVENT"),
        Gtid => Some("GTID_LOG_EVENT"), AnonymousGtid => Some("ANONYMOUS_GTID_LOG_EVENT"),
        PreviousGtids => Some("PREVIOUS_GTIDS_LOG_EVENT"), TransactionContext => Some("TRANSACTION_CONTEXT_EVENT"),
        ViewChage => Some("VIEW_CHANGE_EVENT"), XaPrepare => Some("XA_PREPARE_LOG_EVENT"),
        PartialUpdateRowsEvent => rows("PARTIAL_UPDATE_ROWS_EVENT"), TransactionPayload => Some("TRANSACTION_PAYLOAD_EVENT"),
        AnnotateRows => Some("ANNOTATE_ROWS_EVENT"), BinlogCheckpoint => Some("BINLOG_CHECKPOINT_EVENT"),
        MariadbGtid => Some("GTID_EVENT"), MariadbGtidList => Some("GTID_LIST_EVENT"),
    }
}

pub fn canonical(h: &EventHeader, position: u64, next_position: u64, body: Option<Value>) -> Value {
    let library_type = EventType::from_code(h.event_type);
    let mut pairs = vec![
        ("position", json!(position)),
        ("event_size", json!(h.event_length)),
        ("next_position", json!(next_position)),
        ("type_code", json!(h.event_type)),
        ("type", json!(type_name(&library_type, body.is_some()))),
        ("library_type", json!(format!("{:?}", library_type))),
        ("server_id", json!(h.server_id)),
        ("timestamp", json!(h.timestamp)),
        ("flags", json!({"value": h.event_flags})),
    ];
    if let Some(b) = body {
        pairs.push(("body", b));
    }
    object(pairs)
}

/// The body of an event the library decodes; `None` for NotSupported (header only).
pub fn body(data: &EventData, tables: &Tables, nested: &dyn Fn(&[(EventHeader, EventData)]) -> Vec<Value>) -> Option<Value> {
    Some(match data {
        EventData::FormatDescription(e) => json!({
            "binlog_version": e.binlog_version, "created": e.create_timestamp, "common_header_len": e.header_length,
        }),
        EventData::Query(e) => json!({
            "thread_id": e.thread_id, "query_exec_time": e.exec_time, "error_code": e.error_code,
            "db": e.schema, "query": e.query,
        }),
        EventData::Rotate(e) => json!({"pos": uint(e.binlog_position), "new_log_ident": e.binlog_filename}),
        EventData::Xid(e) => json!({"xid": uint(e.xid)}),
        EventData::Gtid(e) => json!({"gtid_flags": e.flags, "gtid": e.gtid}),
        EventData::RowsQuery(e) => json!({"rows_query": e.query}),
        EventData::TableMap(e) => json!({
            "table_id": uint(e.table_id), "schema": e.database_name, "table": e.table_name,
            "column_count": e.column_types.len(), "column_types": e.column_types,
        }),
        EventData::WriteRows(e) => rows(e.table_id, e.rows.iter().map(|r| image(r, &e.included_columns, tables.get(&e.table_id))).collect()),
        EventData::DeleteRows(e) => rows(e.table_id, e.rows.iter().map(|r| image(r, &e.included_columns, tables.get(&e.table_id))).collect()),
        EventData::UpdateRows(e) => {
            let t = tables.get(&e.table_id);
            rows(e.table_id, e.rows.iter().map(|(b, a)| json!({
                "before_image": image(b, &e.included_columns_before, t),
                "after_image": image(a, &e.included_columns_after, t),
            })).collect())
        }
        EventData::TransactionPayload(e) => json!({
            "uncompressed_size": e.uncompressed_size, "events": nested(&e.uncompressed_events),
        }),
        _ => return None,
    })
}

fn rows(table_id: u64, rows: Vec<Value>) -> Value {
    json!({"table_id": uint(table_id), "rows": rows})
}

/// The values of the columns present in the image (the library puts None in the others' places).
fn image(row: &RowEvent, present: &[bool], table: Option<&TableMapEvent>) -> Value {
    let values: Vec<Value> = row
        .column_values
        .iter()
        .enumerate()
        .filter(|(i, _)| present.get(*i).copied().unwrap_or(false))
        .map(|(i, v)| column_value(v, table, i))
        .collect();
    json!({"values": values})
}

/// Signedness from the Table_map's SIGNEDNESS metadata (what ape-dts takes from the table's
/// definition): the library returns every integer as a signed number of the column's width.
fn unsigned(table: Option<&TableMapEvent>, col: usize) -> bool {
    table
        .and_then(|t| t.table_metadata.as_ref())
        .and_then(|m| m.columns.get(col))
        .and_then(|c| c.is_signed)
        .map(|signed| !signed)
        .unwrap_or(false)
}

fn meta(table: Option<&TableMapEvent>, col: usize) -> (u8, u16) {
    table.map(|t| (t.column_types[col], t.column_metas[col])).unwrap_or((0, 0))
}

fn column_value(v: &ColumnValue, table: Option<&TableMapEvent>, col: usize) -> Value {
    let u = unsigned(table, col);
    let (ty, m) = meta(table, col);
    let fsp = m as u8;
    match v {
        ColumnValue::None => Value::Null,
        ColumnValue::Tiny(x) => if u { json!(*x as u8) } else { json!(x) },
        ColumnValue::Short(x) => if u { json!(*x as u16) } else { json!(x) },
        ColumnValue::Long(x) if ty == ColumnType::Int24 as u8 => if u { json!((*x as u32) & 0xff_ffff) } else { json!(x) },
        ColumnValue::Long(x) => if u { json!(*x as u32) } else { json!(x) },
        ColumnValue::LongLong(x) => if u { uint(*x as u64) } else { int(*x) },
        ColumnValue::Float(x) => double(*x as f64, "float"),
        ColumnValue::Double(x) => double(*x, "double"),
        ColumnValue::Decimal(s) => tagged("decimal", s.clone()),
        ColumnValue::Date(s) => tagged("date", four_digit_year(s)),
        ColumnValue::Time(s) => tagged("time", at_fsp(s, if ty == ColumnType::Time2 as u8 { fsp } else { 0 })),
        ColumnValue::DateTime(s) => tagged("datetime", at_fsp(&four_digit_year(s), if ty == ColumnType::DateTime2 as u8 { fsp } else { 0 })),
        ColumnValue::Timestamp(micros) => {
            let f = if ty == ColumnType::TimeStamp2 as u8 { fsp } else { 0 };
            tagged("timestamp", format!("{}{}", micros.div_euclid(1_000_000), fraction(micros.rem_euclid(1_000_000) as u32, f)))
        }
        ColumnValue::Year(y) => json!(y),
        ColumnValue::String(b) => text(b),
        ColumnValue::Blob(b) if ty == ColumnType::Geometry as u8 => binary(b),
        ColumnValue::Blob(b) => text(b),
        ColumnValue::Bit(x) | ColumnValue::Set(x) => uint(*x),
        ColumnValue::Enum(x) => json!(x),
        ColumnValue::Json(b) => match JsonBinary::parse_as_string(b) {
            Ok(s) => match serde_json::from_str::<Value>(&s) {
                Ok(doc) => tagged("json", crate::shared::values::mysql_json_text(&doc)),
                Err(_) => tagged("json_text", s),
            },
            Err(e) => tagged("json_error", e.to_string()),
        },
    }
}

/// "hh:mm:ss.ffffff" / "YYYY-MM-DD hh:mm:ss.ffffff" as the library spells them, cut to the
/// column's fsp (the library always writes six digits).
fn at_fsp(s: &str, fsp: u8) -> String {
    match s.split_once('.') {
        Some((whole, frac)) if fsp == 0 => { let _ = frac; whole.to_string() }
        Some((whole, frac)) => format!("{whole}.{}", &frac[..(fsp.min(6) as usize).min(frac.len())]),
        None => s.to_string(),
    }
}

/// The library writes the year with `{}` ("0-00-00" for the zero date); MySQL's spelling has
/// four digits. The value is unchanged.
fn four_digit_year(s: &str) -> String {
    match s.split_once('-') {
        Some((year, rest)) => format!("{year:0>4}-{rest}"),
        None => s.to_string(),
    }
}

/// A Transaction_payload's events, which the library decodes into the payload event itself:
/// placed at the payload's end with its log_pos, as mysqlbinlog prints them.
pub fn nested(inner: &[(EventHeader, EventData)], outer: &Tables, position: u64, log_pos: u64) -> Vec<Value> {
    let mut tables: Tables = HashMap::new();
    let mut out = Vec::new();
    for (h, data) in inner {
        if let EventData::TableMap(t) = data {
            tables.insert(t.table_id, t.clone());
        }
        let find = |id: &u64| tables.get(id).or_else(|| outer.get(id)).cloned();
        let local: Tables = match data {
            EventData::WriteRows(e) => find(&e.table_id).map(|t| HashMap::from([(e.table_id, t)])).unwrap_or_default(),
            EventData::UpdateRows(e) => find(&e.table_id).map(|t| HashMap::from([(e.table_id, t)])).unwrap_or_default(),
            EventData::DeleteRows(e) => find(&e.table_id).map(|t| HashMap::from([(e.table_id, t)])).unwrap_or_default(),
            _ => HashMap::new(),
        };
        out.push(canonical(h, position, log_pos, body(data, &local, &|_| vec![])));
    }
    out
}
