//! What every Rust adapter shares (harness/runtimes/rust.py): each parser folder reaches this
//! directory through its symlink src/shared.
#![allow(dead_code)] // each adapter uses part of what the others share
pub mod protocol;
pub mod values;
