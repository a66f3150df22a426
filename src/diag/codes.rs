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
/// A command-line option is accepted for DXC compatibility but what it asks
/// for is not done (e.g. `-fspv-debug`, `-Oconfig`).
pub const OPTION_IGNORED: Code = Code("W0001");

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
/// The parser recovered from so many syntax errors that it stopped: each
/// recovery costs work in the size of the parse stack, so input that is an
/// error at almost every token (a runaway macro's output) must not be
/// recovered from token by token to its end.
pub const TOO_MANY_SYNTAX_ERRORS: Code = Code("E0205");

// --- W02xx: lexer and parser warnings ---
/// Effects-framework syntax (annotations `< … >`, `technique` blocks,
/// state blocks) that is parsed and ignored.
pub const IGNORED_EFFECTS_SYNTAX: Code = Code("W0201");
/// An unknown escape sequence in a string or character literal.
pub const UNKNOWN_ESCAPE: Code = Code("W0202");
/// Syntax that is accepted but has no effect in hlslc yet (attributes on a
/// type alias, a `using` declaration of a single name).
pub const IGNORED_SYNTAX: Code = Code("W0203");
/// An attribute hlslc does not know (a misspelling, or another
/// compiler's); it is ignored.
pub const UNKNOWN_ATTRIBUTE: Code = Code("W0204");

// --- E03xx: names and types (sema) ---
/// A name that is not declared.
pub const UNKNOWN_NAME: Code = Code("E0301");
/// A type name that is not declared, or a type used wrongly.
pub const UNKNOWN_TYPE: Code = Code("E0302");
/// A name declared twice in one scope.
pub const REDEFINITION: Code = Code("E0303");
/// A value cannot be converted to the type required.
pub const TYPE_MISMATCH: Code = Code("E0304");
/// A struct has no field or method of that name.
pub const NO_MEMBER: Code = Code("E0305");
/// An invalid swizzle or matrix element selector.
pub const BAD_SWIZZLE: Code = Code("E0306");
/// An operator applied to operands it does not accept.
pub const BAD_OPERANDS: Code = Code("E0307");
/// Indexing something that is not an array, vector, matrix or buffer.
pub const NOT_INDEXABLE: Code = Code("E0308");
/// No overload of a function or intrinsic accepts the arguments.
pub const NO_MATCHING_OVERLOAD: Code = Code("E0309");
/// Several overloads accept the arguments equally well.
pub const AMBIGUOUS_CALL: Code = Code("E0310");
/// Wrong number of arguments.
pub const WRONG_ARG_COUNT: Code = Code("E0311");
/// Template arguments that do not fit the template.
pub const BAD_TEMPLATE_ARGS: Code = Code("E0312");
/// A type where a value is needed, or a value where a type is needed.
pub const NOT_A_VALUE: Code = Code("E0313");
/// Assignment to something that is not an lvalue.
pub const NOT_ASSIGNABLE: Code = Code("E0314");
/// An initialiser list with the wrong number of elements.
pub const BAD_INITIALIZER: Code = Code("E0315");
/// An explicit cast between types that do not convert.
pub const BAD_CAST: Code = Code("E0316");
/// An array without a size where one is required.
pub const UNSIZED_ARRAY: Code = Code("E0317");
/// Calling something that is not a function.
pub const NOT_CALLABLE: Code = Code("E0318");
/// A template instance whose template is declared but never defined
/// (and no specialisation matches its arguments).
pub const INCOMPLETE_TYPE: Code = Code("E0319");
/// A template specialised twice for the same arguments, or after those
/// arguments were instantiated; or several partial specialisations match.
pub const BAD_SPECIALIZATION: Code = Code("E0320");
/// Implicit truncation of a vector or matrix (DXC warns too).
pub const IMPLICIT_TRUNCATION: Code = Code("W0301");
/// A conversion that may lose precision or sign (warning).
pub const LOSSY_CONVERSION: Code = Code("W0302");

// --- E04xx: storage classes and modifiers ---
/// Storage classes that exclude each other (`static extern`).
pub const CONFLICTING_STORAGE: Code = Code("E0401");
/// A modifier that is not allowed on this kind of declaration.
pub const MODIFIER_NOT_ALLOWED: Code = Code("E0402");
/// groupshared in a stage without thread groups.
pub const GROUPSHARED_STAGE: Code = Code("E0404");
/// More groupshared memory than a thread group has.
pub const GROUPSHARED_TOO_LARGE: Code = Code("E0405");
/// The same modifier twice.
pub const DUPLICATE_MODIFIER: Code = Code("E0406");
/// A `const` local (or a `string` variable) without initialiser.
pub const CONST_UNINITIALIZED: Code = Code("E0407");
/// Assignment to a `const`, uniform or read-only value.
pub const ASSIGN_READ_ONLY: Code = Code("E0408");
/// Two interpolation modifiers that exclude each other.
pub const CONFLICTING_INTERPOLATION: Code = Code("E0409");
/// An `Interlocked*` destination in private or function memory, which
/// other invocations cannot see (and Vulkan allows no atomics on).
pub const ATOMIC_NOT_SHARED: Code = Code("E0410");
/// `row_major`/`column_major` on a type that is not a matrix (warning).
pub const MAJOR_ON_NON_MATRIX: Code = Code("W0401");
/// A groupshared variable with an initialiser, which is ignored (warning,
/// as DXC: groupshared memory starts undefined).
pub const GROUPSHARED_INIT: Code = Code("W0402");

// --- E05xx: statements and functions ---
/// A function that calls itself, directly or not.
pub const RECURSION: Code = Code("E0501");
/// A non-void function can reach its end without returning (warning, as DXC).
pub const MISSING_RETURN: Code = Code("W0501");
/// `break` outside a loop or switch.
pub const BREAK_OUTSIDE: Code = Code("E0502");
/// `continue` outside a loop.
pub const CONTINUE_OUTSIDE: Code = Code("E0503");
/// `return` with a value in a void function, or without one in a non-void function.
pub const BAD_RETURN: Code = Code("E0504");
/// A `case` label that is not an integer constant, or repeated.
pub const BAD_CASE: Code = Code("E0505");
/// A function that is called, or a `const static` member that is used, but
/// never defined.
pub const UNDEFINED_FUNCTION: Code = Code("E0506");
/// A statement not allowed in this stage (`discard` outside pixel shaders).
pub const STAGE_STATEMENT: Code = Code("E0507");
/// An `out`/`inout` argument that is not an lvalue.
pub const OUT_ARG_NOT_LVALUE: Code = Code("E0508");
/// Code after `return`/`break`/`continue` in the same block (warning).
pub const UNREACHABLE_CODE: Code = Code("W0502");
/// A `for` initializer declaring a name again in the enclosing scope
/// (before HLSL 2021; warning, as DXC).
pub const FOR_REDEFINITION: Code = Code("W0503");

// --- E06xx: entry points, resources, bindings ---
/// The entry point named by `-E` is not defined.
pub const ENTRY_NOT_FOUND: Code = Code("E0601");
/// A compute-like entry point without `[numthreads]`.
pub const NUMTHREADS_MISSING: Code = Code("E0602");
/// `[numthreads]` with invalid values.
pub const NUMTHREADS_INVALID: Code = Code("E0603");
/// An entry parameter without semantic, or an unknown system value.
pub const BAD_SEMANTIC: Code = Code("E0604");
/// A system value with a type that does not fit it.
pub const SEMANTIC_TYPE: Code = Code("E0605");
/// A malformed `register(…)`, `packoffset(…)` or binding attribute, or a
/// resource `-fvk-bind-register` leaves without a binding.
pub const BAD_REGISTER: Code = Code("E0606");
/// An attribute with wrong arguments.
pub const BAD_ATTRIBUTE: Code = Code("E0607");
/// A method that the object's type does not have.
pub const NO_METHOD: Code = Code("E0608");
/// A resource where it cannot be (in a struct, as a local without initialiser…).
pub const RESOURCE_MISUSE: Code = Code("E0609");
/// An explicit member offset (`[[vk::offset]]`, `packoffset`,
/// `register(cN)`) the buffer's layout rule does not allow, or that
/// overlaps another member.
pub const MISALIGNED_OFFSET: Code = Code("E0610");
/// A feature the target profile's shader model does not have (derivatives
/// in compute shaders need 6.6, `SampleCmpLevel` 6.7, `SampleCmpBias` 6.8).
pub const SHADER_MODEL_TOO_OLD: Code = Code("E0611");
/// A ray tracing entry whose signature does not fit its stage (a
/// closest-hit shader without its payload and attributes, a ray
/// generation shader with parameters), or a ray tracing stage outside a
/// library profile.
pub const RAY_TRACING_ENTRY: Code = Code("E0620");
/// A ray payload, hit attribute or callable data type that is not a
/// struct.
pub const RAY_TRACING_TYPE: Code = Code("E0621");
/// A work graph node entry whose attributes or parameters do not make a
/// node: a launch that does not exist, a broadcasting node without a
/// dispatch grid, an input of another launch's kind, two inputs.
pub const NODE_ENTRY: Code = Code("E0622");
/// A work graph object used where it means nothing: a method its kind
/// lacks (`Get()` on a group's records), a node input or output outside a
/// node shader, an `SV_DispatchGrid` field of a wrong type.
pub const NODE_OBJECT: Code = Code("E0623");
/// Two resources given the same binding (warning, as DXC).
pub const BINDING_OVERLAP: Code = Code("W0601");

// --- E07xx: constant evaluation ---
/// An integer division or remainder by a constant zero.
pub const INTEGER_DIVISION_BY_ZERO: Code = Code("E0701");
/// The same code as sema names it (constant expressions sema must fold:
/// array sizes, template arguments, case labels).
pub const CONST_DIV_BY_ZERO: Code = INTEGER_DIVISION_BY_ZERO;
/// An expression that must be constant is not.
pub const NOT_CONSTANT: Code = Code("E0702");
/// An array size that is zero, negative or too large.
pub const BAD_ARRAY_SIZE: Code = Code("E0703");

// --- E08xx: code generation limits ---
/// The chosen target environment (`-fspv-target-env`) cannot express a
/// feature the shader uses (e.g. wave operations need Vulkan 1.1).
pub const TARGET_TOO_OLD: Code = Code("E0801");
/// A float-controls execution mode (`-denorm`, `-Gis`) needs
/// SPV_KHR_float_controls, which `-fspv-extension` excludes below SPIR-V 1.4.
pub const FLOAT_CONTROLS_UNAVAILABLE: Code = Code("E0802");
/// A texture offset outside a gather that is not a constant after
/// inlining (Vulkan allows only `ConstOffset` there).
pub const NON_CONSTANT_OFFSET: Code = Code("E0803");
/// The shader needs a SPIR-V extension that `-fspv-extension` leaves out.
pub const EXTENSION_NOT_ALLOWED: Code = Code("E0804");
