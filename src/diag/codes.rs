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

// --- E01xx: preprocessor ---
/// The lexer found text that is no token: a stray character, an unterminated
/// string or character literal, or an unterminated `/*` comment.
pub const PP_LEX_ERROR: Code = Code("E0101");
/// A `#` line names no directive the preprocessor knows.
pub const PP_UNKNOWN_DIRECTIVE: Code = Code("E0102");
/// An `#if`, `#ifdef` or `#ifndef` has no matching `#endif` in its file.
pub const PP_UNTERMINATED_CONDITIONAL: Code = Code("E0103");
/// `#else`, `#elif` or `#endif` without a matching `#if`, or `#else`/`#elif`
/// after `#else`.
pub const PP_MISPLACED_CONDITIONAL: Code = Code("E0104");
/// A malformed `#define` or `#undef`: missing or invalid macro name, bad
/// parameter list, `#` not followed by a parameter, `##` at either end.
pub const PP_BAD_DEFINE: Code = Code("E0105");
/// A function-like macro invocation whose argument list never closes.
pub const PP_UNTERMINATED_INVOCATION: Code = Code("E0106");
/// A function-like macro invoked with the wrong number of arguments.
pub const PP_ARGUMENT_COUNT: Code = Code("E0107");
/// An `#if`/`#elif` expression that cannot be evaluated (syntax, floats,
/// strings, `defined` without an identifier, nesting too deep).
pub const PP_BAD_EXPRESSION: Code = Code("E0108");
/// Division or remainder by zero in an evaluated part of an `#if` expression.
pub const PP_DIVISION_BY_ZERO: Code = Code("E0109");
/// An `#include`d file was not found in any searched directory.
pub const PP_INCLUDE_NOT_FOUND: Code = Code("E0110");
/// A malformed `#include` (no `"file"` or `<file>`), or one inside macro
/// arguments.
pub const PP_BAD_INCLUDE: Code = Code("E0111");
/// `#include`s nested too deeply (usually a file that includes itself).
/// Preprocessing stops.
pub const PP_INCLUDE_DEPTH: Code = Code("E0112");
/// Macro expansion produced too many tokens (a macro that grows without
/// bound). Preprocessing stops.
pub const PP_EXPANSION_LIMIT: Code = Code("E0113");
/// An `#error` directive was reached.
pub const PP_ERROR_DIRECTIVE: Code = Code("E0114");
/// A malformed `#line` directive.
pub const PP_BAD_LINE: Code = Code("E0115");
/// `##` pasted two tokens into text that is not one token.
pub const PP_BAD_PASTE: Code = Code("E0116");
/// A malformed `_Pragma` operator (its operand must be a string literal in
/// parentheses).
pub const PP_BAD_PRAGMA: Code = Code("E0117");

// --- W01xx: preprocessor warnings ---
/// A `#warning` directive was reached.
pub const PP_WARNING_DIRECTIVE: Code = Code("W0101");
/// A macro was redefined with a different body or parameter list.
pub const PP_MACRO_REDEFINED: Code = Code("W0102");
/// Extra tokens after a directive that takes none (`#endif X`, `#else X`).
pub const PP_EXTRA_TOKENS: Code = Code("W0103");
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
