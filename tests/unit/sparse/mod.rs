//! Tiled (streaming) resources, tier 2: `clamp` and `out uint status`
//! forms of texture reads and `CheckAccessFullyMapped`.
//!
//! - `compile`: every form compiles to the right SPIR-V (instruction,
//!   image operands, result struct, capabilities) and validates.
//! - `runtime`: compute shaders reading a sparse image with bound and
//!   unbound tiles on a real GPU.

mod compile;
mod runtime;
