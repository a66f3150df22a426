//! Error codes. Each code is stable once published; add new ones at the end
//! of their range with a line saying what they mean.
//!
//! Ranges: E00xx driver and I/O, E01xx preprocessor, E02xx lexer and parser,
//! E03xx names and types, E04xx storage classes and modifiers, E05xx
//! statements and functions, E06xx entry points, resources and bindings,
//! E07xx constant evaluation, E08xx code generation limits, W-codes warnings.

/// A diagnostic code such as `E0101`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Code(pub &'static str);

impl std::fmt::Display for Code {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.0)
    }
}

// --- E00xx: driver and I/O ---
/// A file could not be read.
pub const IO_ERROR: Code = Code("E0001");
/// A command-line option is invalid, unknown or unsupported.
pub const BAD_OPTION: Code = Code("E0002");
/// An internal compiler error (a bug in hlslc, reported instead of a crash).
pub const INTERNAL: Code = Code("E0003");
/// Not supported yet: the feature is valid HLSL that hlslc does not compile.
pub const UNSUPPORTED: Code = Code("E0004");

// --- E07xx: constant evaluation ---
/// An integer division or remainder by a constant zero.
pub const INTEGER_DIVISION_BY_ZERO: Code = Code("E0701");

// --- E08xx: code generation limits ---
/// The chosen target environment (`-fspv-target-env`) cannot express a
/// feature the shader uses (e.g. wave operations need Vulkan 1.1).
pub const TARGET_TOO_OLD: Code = Code("E0801");
/// A float-controls execution mode (`-denorm`, `-Gis`) needs
/// SPV_KHR_float_controls, which `-fspv-extension` excludes below SPIR-V 1.4.
pub const FLOAT_CONTROLS_UNAVAILABLE: Code = Code("E0802");
