//! What every Rust adapter shares (harness/runtimes/rust.py): each parser folder reaches this
//! directory through its symlink src/shared.
pub mod protocol;
pub mod values;
