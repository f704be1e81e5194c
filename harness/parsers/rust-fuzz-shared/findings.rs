//! What every Rust fuzz crate shares (copied into its src/ at build by harness/fuzz/native/rust.py,
//! as go-fuzz-shared is for Go): a target's parse run under catch_unwind; a panic named
//! `crash:panic@file.rs:line` by its location in the library (or the first library frame of its
//! backtrace when std panicked on the library's behalf) and written with its input to
//! $NATIVE_FUZZ_FINDINGS (the first few per signature). The crate's main.rs names the library
//! with `LIBRARY` (its frames' path in a backtrace) and `SOURCE_DIR` (its source in cargo's
//! registry). An allocation failure aborts, as it would for a user; libFuzzer saves the input.

use std::cell::RefCell;
use std::collections::HashMap;
use std::panic::{self, AssertUnwindSafe};
use std::sync::{Mutex, Once};

use crate::{LIBRARY, SOURCE_DIR};

const KEEP_PER_SIGNATURE: usize = 3;

thread_local! {
    static LAST_PANIC: RefCell<Option<(String, String, String)>> = const { RefCell::new(None) };
}
static HOOK: Once = Once::new();
static SEEN: Mutex<Option<HashMap<String, usize>>> = Mutex::new(None);

/// The body of the crate's fuzz_target!: parse the input; a panic is a finding, recorded.
pub fn run<T>(data: &[u8], parse: impl FnOnce(&[u8]) -> T) {
    install_hook();
    if panic::catch_unwind(AssertUnwindSafe(|| parse(data))).is_err() {
        let (location, message, backtrace) = LAST_PANIC.with(|p| p.borrow_mut().take()).unwrap_or_default();
        let signature = format!("crash:panic@{}", library_site(&location, &backtrace));
        let stack = backtrace.lines().take(60).collect::<Vec<_>>().join("\n");
        record(&signature, &format!("panicked at {location}: {message}"), &stack, data);
    }
}

/// `file.rs:line` of the library frame a panic is named by: the panic's location when it is in
/// the library's source, else the first library frame of the backtrace.
fn library_site(location: &str, backtrace: &str) -> String {
    // "/…/src/binlog_parser.rs:48:27" -> "binlog_parser.rs:48"
    let site = |at: &str| {
        let line = at.rsplit_once(':').map_or(at, |(rest, _column)| rest);
        line.rsplit('/').next().unwrap_or(line).to_string()
    };
    if location.contains(SOURCE_DIR) {
        return site(location);
    }
    let mut in_library = false;
    for line in backtrace.lines().map(str::trim) {
        if let Some(at) = line.strip_prefix("at ") {
            if in_library {
                return site(at);
            }
        } else {
            in_library = line.contains(&format!("{LIBRARY}::"));
        }
    }
    "outside-library".to_string()
}

fn install_hook() {
    HOOK.call_once(|| {
        panic::set_hook(Box::new(|info| {
            let location = info.location().map(|l| format!("{}:{}:{}", l.file(), l.line(), l.column())).unwrap_or_default();
            let payload = info.payload();
            let message = payload.downcast_ref::<&str>().map(|s| s.to_string())
                .or_else(|| payload.downcast_ref::<String>().cloned())
                .unwrap_or_default();
            let backtrace = std::backtrace::Backtrace::force_capture().to_string();
            LAST_PANIC.with(|p| *p.borrow_mut() = Some((location, message, backtrace)));
        }));
    });
}

/// A JSON string literal (the note is written without a JSON crate).
fn quote(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' | '\\' => { out.push('\\'); out.push(c); }
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out + "\""
}

fn record(signature: &str, detail: &str, stack: &str, data: &[u8]) {
    let Ok(dir) = std::env::var("NATIVE_FUZZ_FINDINGS") else { return };
    {
        let mut seen = SEEN.lock().unwrap();
        let n = seen.get_or_insert_with(HashMap::new).entry(signature.to_string()).or_insert(0);
        *n += 1;
        if *n > KEEP_PER_SIGNATURE {
            return;
        }
    }
    let hash = data.iter().fold(0xcbf29ce484222325u64, |h, b| (h ^ *b as u64).wrapping_mul(0x100000001b3));
    let name = format!("{dir}/{hash:016x}{:08x}", data.len());
    let note = format!("{{\"kind\": \"crash\", \"signature\": {}, \"detail\": {}, \"stack\": {}}}\n",
                       quote(signature), quote(detail), quote(stack));
    let _ = std::fs::write(format!("{name}.bin"), data);
    let _ = std::fs::write(format!("{name}.json"), note);
}
