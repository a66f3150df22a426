//! The names of HLSL's built-in types (the data are in `names.rs`, which
//! the build script reads too) and their classes.
//!
//! The parser's token adapter classifies an identifier as a type name when it
//! is one of these (or a user type): C-style casts `(float3)x`, template
//! arguments `Texture2D<float4>` and declarations `float4 x;` cannot be told
//! apart from expressions otherwise (the "lexer hack", see DESIGN.md).
//!
//! Scalars come with their vector (`float4`) and matrix (`float3x4`) forms,
//! generated from [`SCALARS`]. Object types (textures, buffers, samplers,
//! patches, streams, ray tracing and work-graph records) are listed in
//! [`OBJECTS`]. Types that live in the `vk::` namespace (DXC's SPIR-V
//! extensions) are in [`VK_TYPES`] and only classified after `vk::`.

use super::Symbol;
pub use super::names::{
    BUILTIN_NAMESPACES, OBJECTS, OTHER_TYPES, PREPROCESSOR_NAMES, SCALARS, TOKEN_SPELLINGS,
    VK_NAMESPACES, VK_TYPES,
};

/// How many names each class of `names::for_each_preinterned` has: the end of
/// each class's index range.
const TYPES_END: u32 = (SCALARS.len() * 21 + OTHER_TYPES.len() + OBJECTS.len()) as u32;
const VK_TYPES_END: u32 = TYPES_END + VK_TYPES.len() as u32;
const NAMESPACES_END: u32 = VK_TYPES_END + BUILTIN_NAMESPACES.len() as u32;
const VK_NAMESPACES_END: u32 = NAMESPACES_END + VK_NAMESPACES.len() as u32;
const TOKENS_END: u32 = VK_NAMESPACES_END + TOKEN_SPELLINGS.len() as u32;
const PREPROCESSOR_NAMES_END: u32 = TOKENS_END + PREPROCESSOR_NAMES.len() as u32;

// A `Symbol` exists only once the interner's table does, and the table is
// created with the pre-interned names: no check is needed below.

/// Is `name` a built-in type spelling (`float4`, `Texture2D`, `uint16_t3x2`)?
pub fn is_builtin_type(name: Symbol) -> bool {
    name.index() < TYPES_END
}

/// A scalar, vector or matrix type name as its scalar's spelling and its
/// rows and columns (`float` → ("float", 1, None), `float4` → ("float",
/// 4, None), `int2x3` → ("int", 2, Some(3))), read off the symbol's number
/// (each of the [`SCALARS`] is followed by its 20 forms); `None` for any
/// other name. Sema resolves a type name so without reading its text.
pub fn numeric_spelling(name: Symbol) -> Option<(&'static str, u8, Option<u8>)> {
    let i = name.index() as usize;
    let scalar = SCALARS.get(i / 21)?;
    let Some(form) = (i % 21).checked_sub(1) else {
        return Some((scalar, 1, None));
    };
    let (rows, cols) = ((form / 5 + 1) as u8, (form % 5) as u8);
    Some((scalar, rows, (cols > 0).then_some(cols)))
}

/// Is `name` a type of the `vk::` namespace (or one of its sub-namespaces)?
pub fn is_vk_type(name: Symbol) -> bool {
    (TYPES_END..VK_TYPES_END).contains(&name.index())
}

/// Is `name` a namespace that needs no declaration (`vk`, `dx`)?
pub fn is_builtin_namespace(name: Symbol) -> bool {
    (VK_TYPES_END..NAMESPACES_END).contains(&name.index())
}

/// Is `name` a sub-namespace of `vk` (`khr`, `util`)?
pub fn is_vk_namespace(name: Symbol) -> bool {
    (NAMESPACES_END..VK_NAMESPACES_END).contains(&name.index())
}

/// Is `name` one of the [`PREPROCESSOR_NAMES`] (so an identifier)?
pub fn is_preprocessor_name(name: Symbol) -> bool {
    (TOKENS_END..PREPROCESSOR_NAMES_END).contains(&name.index())
}

/// The symbol of token kind `kind` when the kind is always spelled the same
/// (keywords, punctuation: the entries of [`TOKEN_SPELLINGS`] that do not
/// start with NUL), else `None`. One load from a table: the lexer asks at
/// every token.
pub fn fixed_token_symbol(kind: usize) -> Option<Symbol> {
    match FIXED_TOKEN_SYMBOLS.get(kind) {
        Some(&i) if i != u32::MAX => Some(Symbol::preinterned(i)),
        _ => None,
    }
}

/// The symbol of `name`, one of the [`PREPROCESSOR_NAMES`], for constants
/// (`const { preprocessor_symbol("__LINE__") }`): found when the program
/// is compiled, so that code naming one of them hashes nothing. A name not
/// in the list does not compile (the search panics at compile time).
pub const fn preprocessor_symbol(name: &str) -> Symbol {
    let name = name.as_bytes();
    let mut i = 0;
    while i < PREPROCESSOR_NAMES.len() {
        let s = PREPROCESSOR_NAMES[i].as_bytes();
        let mut same = s.len() == name.len();
        let mut j = 0;
        while same && j < s.len() {
            same = s[j] == name[j];
            j += 1;
        }
        if same {
            return Symbol::preinterned(TOKENS_END + i as u32);
        }
        i += 1;
    }
    panic!("not one of the preprocessor's names");
}

/// [`fixed_token_symbol`]'s answers by kind: a symbol index, or `u32::MAX`.
static FIXED_TOKEN_SYMBOLS: [u32; TOKEN_SPELLINGS.len()] = {
    let mut table = [u32::MAX; TOKEN_SPELLINGS.len()];
    let mut kind = 0;
    while kind < table.len() {
        if TOKEN_SPELLINGS[kind].as_bytes()[0] != 0 {
            table[kind] = VK_NAMESPACES_END + kind as u32;
        }
        kind += 1;
    }
    table
};

/// The symbol `vk` (the first of [`BUILTIN_NAMESPACES`]).
pub fn vk_symbol() -> Symbol {
    Symbol::preinterned(VK_TYPES_END)
}

#[cfg(test)]
mod tests {
    use super::super::names::for_each_preinterned;
    use super::*;

    #[test]
    fn scalar_vector_and_matrix_forms_are_types() {
        for name in [
            "float",
            "float4",
            "uint2x3",
            "min16float4",
            "float16_t2",
            "dword",
        ] {
            assert!(is_builtin_type(Symbol::intern(name)), "{name}");
        }
        for name in ["float5", "float4x5", "foo", "vk", "SpirvType"] {
            assert!(!is_builtin_type(Symbol::intern(name)), "{name}");
        }
        assert!(is_vk_type(Symbol::intern("SpirvType")));
        assert!(is_vk_type(Symbol::intern("ConversionSelector")));
        assert!(!is_vk_type(Symbol::intern("float4")));
        assert!(is_builtin_namespace(Symbol::intern("vk")));
        assert!(is_builtin_namespace(Symbol::intern("dx")));
        assert!(!is_builtin_namespace(Symbol::intern("khr")));
        assert!(is_vk_namespace(Symbol::intern("khr")));
        assert!(is_vk_namespace(Symbol::intern("util")));
        assert!(!is_vk_namespace(Symbol::intern("vk")));
        assert_eq!(vk_symbol().as_str(), "vk");
    }

    /// The ranges rest on every pre-interned name being new when interned.
    #[test]
    fn preinterned_names_are_distinct() {
        let mut seen = std::collections::HashSet::new();
        let mut n = 0usize;
        for_each_preinterned(|s| {
            assert!(seen.insert(s.to_string()), "{s} twice");
            n += 1;
        });
        assert_eq!(n, PREPROCESSOR_NAMES_END as usize);
        assert!(is_builtin_type(Symbol::intern("float4x4")));
        assert!(is_builtin_type(Symbol::intern("GroupNodeOutputRecords")));
        for (i, s) in TOKEN_SPELLINGS.iter().enumerate() {
            let sym = Symbol::intern(s);
            assert_eq!(sym.index(), VK_NAMESPACES_END + i as u32);
            let fixed = !s.starts_with('\0');
            assert_eq!(fixed_token_symbol(i), fixed.then_some(sym));
            assert!(!is_builtin_type(sym) && !is_vk_namespace(sym));
        }
        assert_eq!(fixed_token_symbol(TOKEN_SPELLINGS.len()), None);
    }

    /// Each of the [`PREPROCESSOR_NAMES`] lexes as one identifier, and is
    /// classified as one of them; other names are not.
    #[test]
    fn preprocessor_names_are_identifiers() {
        use crate::front::lexer::{Token, lex_one};
        for s in PREPROCESSOR_NAMES {
            assert_eq!(lex_one(s), Some(Token::Ident), "{s}");
            assert!(is_preprocessor_name(Symbol::intern(s)), "{s}");
        }
        for s in ["float4", "if", "__LINE", "main"] {
            assert!(!is_preprocessor_name(Symbol::intern(s)), "{s}");
        }
    }

    /// The list holds every macro the driver predefines, with the flags
    /// that add some.
    #[test]
    fn preprocessor_names_hold_the_predefined_macros() {
        let args = ["-T", "cs_6_2", "-enable-16bit-types"];
        let Ok(options) = crate::options::Options::from_args(args) else {
            panic!("{args:?} are valid options");
        };
        let predefined = options.preprocess_options().predefined;
        assert!(predefined.len() > 20);
        for (name, _) in &predefined {
            assert!(is_preprocessor_name(*name), "{name}");
        }
    }

    /// `preprocessor_symbol` finds each name's symbol, the one the
    /// interner has for it.
    #[test]
    fn preprocessor_symbols_are_the_interned_ones() {
        for s in PREPROCESSOR_NAMES {
            assert_eq!(preprocessor_symbol(s), Symbol::intern(s), "{s}");
        }
        assert_eq!(const { preprocessor_symbol("__LINE__") }.as_str(), "__LINE__");
    }

    #[test]
    fn numeric_spellings_are_read_off_the_symbol() {
        for (name, want) in [
            ("bool", Some(("bool", 1, None))),
            ("float", Some(("float", 1, None))),
            ("float1", Some(("float", 1, None))),
            ("float4", Some(("float", 4, None))),
            ("int2x3", Some(("int", 2, Some(3)))),
            ("uint4x4", Some(("uint", 4, Some(4)))),
            ("min16float1x1", Some(("min16float", 1, Some(1)))),
            ("float64_t3x1", Some(("float64_t", 3, Some(1)))),
            ("void", None),
            ("Texture2D", None),
            ("float5", None),
            ("foo", None),
        ] {
            assert_eq!(numeric_spelling(Symbol::intern(name)), want, "{name}");
        }
    }
}
