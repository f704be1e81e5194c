// Included by canon.rs (once per mysql_common version): a JSON document as MySQL prints it
// (`{"k": v, ...}`, `[a, b]`, keys by length then bytes, the order of its binary format).
// The document is the library's own structured form (`jsonb::Value::parse` -> JsonDom, the
// conversion its documentation gives for values holding opaque scalars); only the spelling is
// ours: DECIMAL and DATE/TIME scalars print as MySQL prints them (a number; a quoted string with
// six fraction digits) rather than the strings of the crate's serde_json conversion.

use mc::binlog::jsonb::{JsonContainer, JsonDom, JsonNumber, JsonScalar};

pub fn mysql_json_text(doc: &JsonDom) -> String {
    let mut out = String::new();
    write_dom(doc, &mut out);
    out
}

fn quoted(s: &str) -> String {
    serde_json::Value::String(s.to_string()).to_string()
}

fn write_dom(v: &JsonDom, out: &mut String) {
    match v {
        JsonDom::Container(JsonContainer::Object(map)) => {
            let mut keys: Vec<&String> = map.keys().collect();
            keys.sort_by(|a, b| a.len().cmp(&b.len()).then(a.as_bytes().cmp(b.as_bytes())));
            out.push('{');
            for (i, k) in keys.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                out.push_str(&quoted(k));
                out.push_str(": ");
                write_dom(&map[*k], out);
            }
            out.push('}');
        }
        JsonDom::Container(JsonContainer::Array(items)) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                write_dom(item, out);
            }
            out.push(']');
        }
        JsonDom::Scalar(s) => out.push_str(&scalar(s)),
    }
}

fn scalar(s: &JsonScalar) -> String {
    match s {
        JsonScalar::Boolean(b) => b.to_string(),
        JsonScalar::Null => "null".into(),
        JsonScalar::String(x) => quoted(x),
        JsonScalar::DateTime(t) => quoted(&format!("{t:.6}")),
        JsonScalar::Opaque(o) => quoted(&o.to_string()),
        JsonScalar::Number(JsonNumber::Int(i)) => i.to_string(),
        JsonScalar::Number(JsonNumber::Uint(u)) => u.to_string(),
        JsonScalar::Number(JsonNumber::Decimal(d)) => d.to_string(),
        // the shortest round-trip digits, with MySQL's exponent spelling (1e300, not 1e+300)
        JsonScalar::Number(JsonNumber::Double(d)) => serde_json::Number::from_f64(*d)
            .map(|n| n.to_string().replace("e+", "e"))
            .unwrap_or_else(|| d.to_string()),
    }
}
