//! The crate's test tree: the tests that need its internals (the IR, the
//! SPIR-V writer, the front end, the language server) or the Vulkan test
//! runner (`vk`), one module per kind of test.
//!
//! File-based cases live under `tests/in/`; expected outputs sit beside them
//! and are rewritten with `HLSLC_BLESS=1 cargo test`. The tests of what users
//! run — the binary, the build-script example, the public API — are the
//! integration tests under `tests/`.

mod back_spv;
mod batch;
pub(crate) mod common;
mod debug_info;
mod format;
mod intrinsics_more;
#[cfg(feature = "lsp")]
mod lsp;
mod parse;
mod passes;
mod precise_spirv;
mod preprocess;
mod raytracing;
mod reflect;
mod runtime;
mod runtime_fma;
mod runtime_graphics;
mod runtime_ieee;
mod runtime_intrinsics;
mod runtime_mesh;
mod runtime_raytracing;
mod runtime_stages;
mod sema;
mod snapshots;
mod sparse;
mod vk;
mod work_graphs;
