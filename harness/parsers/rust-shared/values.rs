//! The tagging rules of oracle/values.py and the value conventions of docs/plugin-contract.md,
//! for values a library has already decoded. Nothing here decodes binlog bytes.

use serde_json::{json, Value};

const SAFE: u64 = (1 << 53) - 1;

pub fn tagged(kind: &str, value: impl Into<String>) -> Value {
    json!({"type": kind, "value": value.into()})
}

pub fn uint(v: u64) -> Value {
    if v <= SAFE { json!(v) } else { tagged("int", v.to_string()) }
}

pub fn int(v: i64) -> Value {
    if v.unsigned_abs() <= SAFE { json!(v) } else { tagged("int", v.to_string()) }
}

pub fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Bytes that are text by nature: a string when UTF-8, else a bytes tag.
pub fn text(bytes: &[u8]) -> Value {
    match std::str::from_utf8(bytes) {
        Ok(s) => json!(s),
        Err(_) => tagged("bytes", hex(bytes)),
    }
}

pub fn binary(bytes: &[u8]) -> Value {
    tagged("bytes", hex(bytes))
}

pub fn double(v: f64, kind: &str) -> Value {
    if v.is_nan() {
        tagged(kind, "nan")
    } else if v.is_infinite() {
        tagged(kind, if v > 0.0 { "inf" } else { "-inf" })
    } else {
        json!(v)
    }
}

/// ".ffffff" cut to `fsp` digits ("" for fsp 0): the column's declared precision.
pub fn fraction(micros: u32, fsp: u8) -> String {
    if fsp == 0 {
        return String::new();
    }
    let digits = format!("{micros:06}");
    format!(".{}", &digits[..(fsp.min(6) as usize)])
}

/// A big-endian unsigned integer of up to 8 bytes (BIT), or little-endian (SET).
pub fn be_uint(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0u64, |acc, b| (acc << 8) | *b as u64)
}

pub fn le_uint(bytes: &[u8]) -> u64 {
    bytes.iter().rev().fold(0u64, |acc, b| (acc << 8) | *b as u64)
}

/// A JSON document (parsed from a library's text) as MySQL prints it: `{"k": v, ...}`,
/// `[a, b]`, keys by length then bytes (the order of its binary format), `1e300` not `1e+300`.
pub fn mysql_json_text(v: &Value) -> String {
    match v {
        Value::Object(map) => {
            let mut keys: Vec<&String> = map.keys().collect();
            keys.sort_by(|a, b| a.len().cmp(&b.len()).then(a.as_bytes().cmp(b.as_bytes())));
            let items: Vec<String> = keys.iter().map(|k| format!("{}: {}", json!(k), mysql_json_text(&map[*k]))).collect();
            format!("{{{}}}", items.join(", "))
        }
        Value::Array(items) => format!("[{}]", items.iter().map(mysql_json_text).collect::<Vec<_>>().join(", ")),
        Value::Number(n) => n.to_string().replace("e+", "e"),
        other => other.to_string(),
    }
}

/// The column types (Table_map names) whose row values both Rust adapters report; an adapter
/// adds what only its library decodes.
pub const ROW_VALUE_TYPES: [&str; 28] = [
    "MYSQL_TYPE_TINY", "MYSQL_TYPE_SHORT", "MYSQL_TYPE_INT24", "MYSQL_TYPE_LONG", "MYSQL_TYPE_LONGLONG",
    "MYSQL_TYPE_FLOAT", "MYSQL_TYPE_DOUBLE", "MYSQL_TYPE_NEWDECIMAL",
    "MYSQL_TYPE_DATE", "MYSQL_TYPE_TIME", "MYSQL_TYPE_TIME2", "MYSQL_TYPE_DATETIME", "MYSQL_TYPE_DATETIME2",
    "MYSQL_TYPE_TIMESTAMP", "MYSQL_TYPE_TIMESTAMP2", "MYSQL_TYPE_YEAR",
    "MYSQL_TYPE_VARCHAR", "MYSQL_TYPE_VAR_STRING", "MYSQL_TYPE_STRING",
    "MYSQL_TYPE_TINY_BLOB", "MYSQL_TYPE_MEDIUM_BLOB", "MYSQL_TYPE_LONG_BLOB", "MYSQL_TYPE_BLOB",
    "MYSQL_TYPE_ENUM", "MYSQL_TYPE_SET", "MYSQL_TYPE_BIT", "MYSQL_TYPE_JSON", "MYSQL_TYPE_GEOMETRY",
];

/// Every rows event type of the canonical model (oracle.events.ROWS_TYPES): each adapter claims
/// them all, so rows a library does not deliver are a failed check, never excused.
pub const ROWS_TYPES: [&str; 16] = [
    "PRE_GA_WRITE_ROWS_EVENT", "PRE_GA_UPDATE_ROWS_EVENT", "PRE_GA_DELETE_ROWS_EVENT",
    "WRITE_ROWS_EVENT_V1", "UPDATE_ROWS_EVENT_V1", "DELETE_ROWS_EVENT_V1",
    "WRITE_ROWS_EVENT", "UPDATE_ROWS_EVENT", "DELETE_ROWS_EVENT", "PARTIAL_UPDATE_ROWS_EVENT",
    "WRITE_ROWS_COMPRESSED_EVENT_V1", "UPDATE_ROWS_COMPRESSED_EVENT_V1", "DELETE_ROWS_COMPRESSED_EVENT_V1",
    "WRITE_ROWS_COMPRESSED_EVENT", "UPDATE_ROWS_COMPRESSED_EVENT", "DELETE_ROWS_COMPRESSED_EVENT",
];
