//! The one integration-test binary; each kind of test is a module.
//!
//! File-based cases live under `tests/in/`; expected outputs sit beside them
//! and are rewritten with `HLSLC_BLESS=1 cargo test`.

mod back_spv;
mod cli;
mod common;
mod diag_ui;
mod lsp;
mod parse;
mod passes;
mod precise_spirv;
mod preprocess;
mod reflect;
mod runtime;
mod runtime_fma;
mod runtime_graphics;
mod runtime_ieee;
mod runtime_stages;
mod samples;
mod sema;
mod snapshots;
mod sparse;
mod vk;
