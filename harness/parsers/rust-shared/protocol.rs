//! The persistent protocol of docs/plugin-contract.md: a hello, then one reply line per `parse`
//! request, until stdin closes. A panic inside the library is caught, printed as one stderr
//! line naming its place, answered with a `crashed` reply holding the events delivered before it
//! (`Delivered`), and ends the process with status 101: the harness records that as a crash of
//! the parser (a finding), and restarts the adapter for the next case.

use serde_json::{json, Map, Value};
use std::cell::RefCell;
use std::io::{BufRead, Write};
use std::ops::{Deref, DerefMut};
use std::panic::{catch_unwind, AssertUnwindSafe};

thread_local! {
    /// The events of a `Delivered` dropped while a panic unwound: the `crashed` reply's.
    static DELIVERED_BEFORE_PANIC: RefCell<Vec<Value>> = const { RefCell::new(Vec::new()) };
}

/// The list of events an adapter fills as it decodes. If the library panics, the list is
/// dropped while the panic unwinds, and keeps its events for the `crashed` reply, so they are
/// still compared. Use it for a request's top-level list only.
#[derive(Default)]
pub struct Delivered(Vec<Value>);

impl Delivered {
    /// The events, for a reply (the list is left empty).
    pub fn take(&mut self) -> Vec<Value> {
        std::mem::take(&mut self.0)
    }
}

impl Deref for Delivered {
    type Target = Vec<Value>;
    fn deref(&self) -> &Vec<Value> {
        &self.0
    }
}

impl DerefMut for Delivered {
    fn deref_mut(&mut self) -> &mut Vec<Value> {
        &mut self.0
    }
}

impl Drop for Delivered {
    fn drop(&mut self) {
        if std::thread::panicking() {
            let events = self.take();
            DELIVERED_BEFORE_PANIC.with(|d| d.borrow_mut().extend(events));
        }
    }
}

/// Where a stream testee connects and where it stops.
pub struct StreamSource {
    pub host: String,
    pub port: u16,
    pub user: String,
    pub password: String,
    pub file: String,
    pub start_position: u64,
    pub end_file: String,
    pub end_position: u64,
    /// docs/plugin-contract.md "Stream modes": position, gtid, current, heartbeats
    pub mode: String,
    pub gtid_set: String,
    pub heartbeat_period: f64,
}

/// A clean rejection: a typed error, its byte offset, and the events before it.
pub struct Rejection {
    pub kind: &'static str,
    pub offset: Option<u64>,
    pub message: String,
    pub events: Vec<Value>,
}

pub enum Outcome {
    Events(Vec<Value>),
    Rejected(Rejection),
    Skipped(String),
}

pub struct Testee<'a> {
    pub name: &'a str,
    pub version: &'a str,
    pub transport: &'a str,
    pub capabilities: Value,
    /// the stream modes it runs in, and for the others why not (a stream testee's hello)
    pub modes: Vec<&'a str>,
    pub modes_unsupported: Value,
}

fn stream_source(v: &Value) -> Option<StreamSource> {
    let s = v.get("stream")?;
    let text = |k: &str| s.get(k).and_then(Value::as_str).unwrap_or("").to_string();
    let num = |k: &str| s.get(k).and_then(Value::as_u64).unwrap_or(0);
    let file = text("file");
    let end_file = text("end_file");
    Some(StreamSource {
        host: text("host"),
        port: num("port") as u16,
        user: text("user"),
        password: text("password"),
        start_position: num("start_position").max(4),
        end_file: if end_file.is_empty() { file.clone() } else { end_file },
        file,
        end_position: num("end_position"),
        mode: Some(text("mode")).filter(|m| !m.is_empty()).unwrap_or_else(|| "position".into()),
        gtid_set: text("gtid_set"),
        heartbeat_period: s.get("heartbeat_period").and_then(Value::as_f64).unwrap_or(0.0),
    })
}

fn reply(id: &Value, outcome: Outcome) -> Value {
    match outcome {
        Outcome::Events(events) => json!({"type": "events", "id": id, "events": events}),
        Outcome::Rejected(r) => json!({"type": "error", "id": id, "kind": r.kind, "offset": r.offset,
                                       "message": r.message, "events": r.events}),
        Outcome::Skipped(reason) => json!({"type": "skipped", "id": id, "reason": reason}),
    }
}

fn install_panic_hook() {
    std::panic::set_hook(Box::new(|info| {
        let place = info.location().map(|l| format!(" at {}:{}", l.file(), l.line())).unwrap_or_default();
        let what = info
            .payload()
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| info.payload().downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "panic".into());
        eprintln!("panic{place}: {}", what.replace('\n', " "));
    }));
}

/// Serve requests until stdin closes. `file` handles a path, `stream` a StreamSource.
pub fn serve(
    testee: Testee,
    file: &dyn Fn(&str) -> Outcome,
    stream: &dyn Fn(&StreamSource) -> Outcome,
) {
    install_panic_hook();
    let hello = json!({"type": "hello", "protocol": 1, "name": testee.name, "version": testee.version,
                       "transport": testee.transport, "capabilities": testee.capabilities,
                       "unavailable": null, "modes": testee.modes,
                       "modes_unsupported": testee.modes_unsupported});
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    writeln!(out, "{hello}").ok();
    out.flush().ok();
    for line in std::io::stdin().lock().lines() {
        let Ok(line) = line else { break };
        if line.trim().is_empty() {
            continue;
        }
        let request: Value = serde_json::from_str(&line).unwrap_or(Value::Null);
        let id = request.get("id").cloned().unwrap_or(Value::Null);
        let path = request.get("path").and_then(Value::as_str).unwrap_or("").to_string();
        let source = stream_source(&request);
        let outcome = catch_unwind(AssertUnwindSafe(|| match (&source, testee.transport) {
            (Some(s), "stream") => stream(s),
            (_, "stream") => Outcome::Skipped("a stream testee needs the request's stream fields".into()),
            _ => file(&path),
        }));
        match outcome {
            Ok(outcome) => {
                writeln!(out, "{}", reply(&id, outcome)).ok();
                out.flush().ok();
            }
            // the hook has printed where the library panicked; the harness sees a crash
            Err(payload) => {
                let events = DELIVERED_BEFORE_PANIC.with(|d| std::mem::take(&mut *d.borrow_mut()));
                let message = payload
                    .downcast_ref::<&str>()
                    .map(|s| s.to_string())
                    .or_else(|| payload.downcast_ref::<String>().cloned())
                    .unwrap_or_else(|| "panic".into());
                let crashed = json!({"type": "crashed", "id": id, "message": message, "events": events});
                writeln!(out, "{crashed}").ok();
                out.flush().ok();
                std::process::exit(101)
            }
        }
    }
}

/// An object from key/value pairs, in order.
pub fn object(pairs: Vec<(&str, Value)>) -> Value {
    Value::Object(pairs.into_iter().map(|(k, v)| (k.to_string(), v)).collect::<Map<_, _>>())
}
