//! Backends.
pub mod spv;
