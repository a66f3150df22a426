//! Source locations: one `u32` space shared by every file and macro expansion.
//!
//! A [`Loc`] below [`EXPANSION_BIT`] is a byte offset into the concatenation
//! of all loaded files (each file owns `base..=base + len` in that space, see
//! [`crate::source::SourceMap`]). A `Loc` with the bit set names one token
//! produced by a macro expansion; the source map knows where that token was
//! spelled and which expansion produced it. Spans are half-open `lo..hi`.
//! For an expanded token, `hi == lo + 1`.

/// The high bit of a [`Loc`] marks a token produced by macro expansion.
pub const EXPANSION_BIT: u32 = 1 << 31;

/// A position in the global location space.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Loc(pub u32);

impl Loc {
    /// True if this location names a token produced by a macro expansion.
    pub(crate) fn is_expansion(self) -> bool {
        self.0 & EXPANSION_BIT != 0
    }
    /// The index into the source map's expanded-token table.
    pub(crate) fn expansion_index(self) -> Option<u32> {
        self.is_expansion().then_some(self.0 & !EXPANSION_BIT)
    }
    pub(crate) fn from_expansion_index(index: u32) -> Loc {
        Loc(index | EXPANSION_BIT)
    }
}

/// A half-open range `lo..hi` of locations.
///
/// Every AST node carries one. `Span::default()` is the empty span at 0, used
/// only for compiler-synthesised things that have no source.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Span {
    pub(crate) lo: Loc,
    pub(crate) hi: Loc,
}

impl Span {
    pub(crate) fn new(lo: Loc, hi: Loc) -> Span {
        Span { lo, hi }
    }
    /// The span from the start of `self` to the end of `other`.
    pub(crate) fn to(self, other: Span) -> Span {
        Span {
            lo: self.lo,
            hi: other.hi,
        }
    }
    pub(crate) fn is_dummy(self) -> bool {
        self.lo.0 == 0 && self.hi.0 == 0
    }
}

impl From<std::ops::Range<u32>> for Span {
    fn from(r: std::ops::Range<u32>) -> Span {
        Span {
            lo: Loc(r.start),
            hi: Loc(r.end),
        }
    }
}
