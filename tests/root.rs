//! The integration tests: hlslc as its users run it — the `hlslc` binary,
//! the build-script and CMake examples, the public library API. Everything
//! that needs the crate's internals is a unit test in `tests/unit/`.
//!
//! File-based cases live under `tests/in/`; expected outputs sit beside them
//! and are rewritten with `HLSLC_BLESS=1 cargo test`.

mod allocator;
mod batch;
mod build_script;
mod cli;
mod cmake;
mod common;
mod diag_ui;
mod editor;
mod link;
mod pgo;
mod samples;
mod tidy;
