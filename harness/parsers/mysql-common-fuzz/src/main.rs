//! libFuzzer target: mysql_common 0.38's BinlogFile over the input, every event's data decoded
//! (`read_data`) and every rows event's rows read with the Table_map the reader keeps, as the
//! adapter (harness/parsers/mysql-common/src/file.rs) and the crate's documentation use it.
//! io::Error is the library's documented failure, a clean outcome. A panic is caught: named
//! `crash:panic@file.rs:line` by its location in the library (or the first library frame of its
//! backtrace when std panicked on the library's behalf), written with its input to
//! $NATIVE_FUZZ_FINDINGS (the first few per signature), and fuzzing goes on. An allocation
//! failure aborts, as it would for a user; libFuzzer saves the input.
#![no_main]

mod findings; // rust-fuzz-shared/findings.rs, copied here at build

use std::io::{self, Cursor};

use libfuzzer_sys::fuzz_target;
use mysql_common::binlog::consts::BinlogVersion;
use mysql_common::binlog::events::EventData;
use mysql_common::binlog::BinlogFile;

const LIBRARY: &str = "mysql_common"; // its frames' path in a backtrace
const SOURCE_DIR: &str = "/mysql_common-"; // its source in cargo's registry

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

fuzz_target!(|data: &[u8]| findings::run(data, parse));
