//! libFuzzer target: mysql_common 0.38's BinlogFile over the input, every event's data decoded
//! (`read_data`) and every rows event's rows read with the Table_map the reader keeps, as the
//! adapter (harness/parsers/mysql-common/src/file.rs) and the crate's documentation use it.
//! io::Error is the library's documented failure, a clean outcome. A panic is caught: named
//! `crash:panic@file.rs:line` by its location in the library (or the first library frame of its
//! backtrace when std panicked on the library's behalf), written with its input to
//! $NATIVE_FUZZ_FINDINGS (the first few per signature), and fuzzing goes on. An allocation
//! failure aborts, as it would for a user; libFuzzer saves the input.
#![no_main]

use std::cell::RefCell;
use std::collections::HashMap;
use std::io::{self, Cursor};
use std::panic::{self, AssertUnwindSafe};
use std::sync::{Mutex, Once};

use libfuzzer_sys::fuzz_target;
use mysql_common::binlog::consts::BinlogVersion;
use mysql_common::binlog::events::EventData;
use mysql_common::binlog::BinlogFile;

const LIBRARY: &str = "mysql_common";
const KEEP_PER_SIGNATURE: usize = 3;

thread_local! {
    static LAST_PANIC: RefCell<Option<(String, String, String)>> = const { RefCell::new(None) };
}
static HOOK: Once = Once::new();
static SEEN: Mutex<Option<HashMap<String, usize>>> = Mutex::new(None);

fn parse(data: &[u8]) -> io::Result<()> {
    let mut binlog = BinlogFile::new(BinlogVersion::Version4, Cursor::new(data))?;
    while let Some(next) = binlog.next() {
        let ev = next?;
        if let Some(EventData::RowsEvent(rows)) = ev.read_data()? {
            if let Some(tme) = binlog.reader().get_tme(rows.table_id()) {
                for row in rows.rows(tme) {
                    row?;
                }
            }
        }
    }
    Ok(())
}

/// The library frame a panic is named by: its location when that is in the library, else the
/// first library frame of the backtrace (file:line).
fn library_site(location: &str, backtrace: &str) -> String {
    let base = |path: &str| path.rsplit('/').next().unwrap_or(path).to_string();
    if location.contains(LIBRARY) {
        return base(location.rsplit_once(':').map(|(l, _)| l).unwrap_or(location));
    }
    let mut in_library = false;
    for line in backtrace.lines() {
        let line = line.trim();
        if line.contains(": ") && !line.starts_with("at ") {
            in_library = line.contains(&format!("{LIBRARY}::"));
        } else if in_library && line.starts_with("at ") {
            let path = line.trim_start_matches("at ");
            return base(path.rsplit_once(':').map(|(l, _)| l).unwrap_or(path));
        }
    }
    "outside-library".to_string()
}

fn install_hook() {
    HOOK.call_once(|| {
        panic::set_hook(Box::new(|info| {
            let location = info.location().map(|l| format!("{}:{}:{}", l.file(), l.line(), l.column())).unwrap_or_default();
            let message = info
                .payload()
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| info.payload().downcast_ref::<String>().cloned())
                .unwrap_or_default();
            let backtrace = std::backtrace::Backtrace::force_capture().to_string();
            LAST_PANIC.with(|p| *p.borrow_mut() = Some((location, message, backtrace)));
        }));
    });
}

fn quote(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

fn record(signature: &str, detail: &str, stack: &str, data: &[u8]) {
    let Ok(dir) = std::env::var("NATIVE_FUZZ_FINDINGS") else { return };
    let mut seen = SEEN.lock().unwrap();
    let n = seen.get_or_insert_with(HashMap::new).entry(signature.to_string()).or_insert(0);
    *n += 1;
    if *n > KEEP_PER_SIGNATURE {
        return;
    }
    let name = format!("{dir}/{:016x}{:08x}", fnv(data), data.len());
    let note = format!("{{\"kind\": \"crash\", \"signature\": {}, \"detail\": {}, \"stack\": {}}}\n",
                       quote(signature), quote(detail), quote(stack));
    let _ = std::fs::write(format!("{name}.bin"), data);
    let _ = std::fs::write(format!("{name}.json"), note);
}

fn fnv(data: &[u8]) -> u64 {
    data.iter().fold(0xcbf29ce484222325u64, |h, b| (h ^ *b as u64).wrapping_mul(0x100000001b3))
}

fuzz_target!(|data: &[u8]| {
    install_hook();
    if panic::catch_unwind(AssertUnwindSafe(|| parse(data))).is_err() {
        let (location, message, backtrace) = LAST_PANIC.with(|p| p.borrow_mut().take()).unwrap_or_default();
        let signature = format!("crash:panic@{}", library_site(&location, &backtrace));
        let frames: String = backtrace.lines().take(60).collect::<Vec<_>>().join("\n");
        record(&signature, &format!("panicked at {location}: {message}"), &frames, data);
    }
});
