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

// --- E08xx: code generation limits ---
/// The chosen target environment (`-fspv-target-env`) cannot express a
/// feature the shader uses (e.g. wave operations need Vulkan 1.1).
pub const TARGET_TOO_OLD: Code = Code("E0801");

// --- E02xx: lexer and parser ---
/// A syntax error: a token the grammar does not expect here.
pub const SYNTAX: Code = Code("E0201");
/// Brackets (`(`, `[`, `{`, template argument lists) nested deeper than the
/// parser's limit.
pub const NESTING_TOO_DEEP: Code = Code("E0202");
/// An expression or statement nested deeper than the parser's limit.
pub const EXPR_TOO_DEEP: Code = Code("E0203");
/// A malformed literal: an integer too large for 64 bits, a bad digit, a
/// character literal that is not one character.
pub const BAD_LITERAL: Code = Code("E0204");

// --- W02xx: lexer and parser warnings ---
/// Effects-framework syntax (annotations `< … >`, `technique` blocks,
/// state blocks) that is parsed and ignored.
pub const IGNORED_EFFECTS_SYNTAX: Code = Code("W0201");
/// An unknown escape sequence in a string or character literal.
pub const UNKNOWN_ESCAPE: Code = Code("W0202");
/// Syntax that is accepted but has no effect in hlslc yet (attributes on a
/// type alias, a `using` declaration of a single name).
pub const IGNORED_SYNTAX: Code = Code("W0203");
