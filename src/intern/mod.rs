//! Interned strings: identifiers, semantics and file names as `Symbol(u32)`.
//!
//! One process-wide table behind a lock. Interned text is leaked on purpose:
//! the set of distinct identifiers a compiler (or the LSP server over a
//! session) sees is small, and `&'static str` keeps every use borrow-free.

pub mod builtins;

use builtins::for_each_preinterned;
use rustc_hash::FxHashMap;
use std::fmt;
use std::sync::{Mutex, OnceLock};

/// An interned string. Comparing two symbols compares their text.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Symbol(u32);

struct Table {
    map: FxHashMap<&'static str, Symbol>,
    strings: Vec<&'static str>,
}

impl Table {
    /// A table holding HLSL's built-in type and namespace names as its first
    /// symbols, in [`for_each_preinterned`]'s order, so that
    /// [`builtins`] classifies a symbol by its index.
    /// Their text shares one leaked buffer.
    fn with_builtins() -> Table {
        let mut text = String::with_capacity(8 * 1024);
        let mut ends = Vec::with_capacity(1024);
        for_each_preinterned(|s| {
            text.push_str(s);
            ends.push(text.len());
        });
        let text: &'static str = Box::leak(text.into_boxed_str());
        let mut t = Table {
            map: FxHashMap::with_capacity_and_hasher(2 * ends.len(), Default::default()),
            strings: Vec::with_capacity(2 * ends.len()),
        };
        let mut start = 0;
        for end in ends {
            let s = &text[start..end];
            start = end;
            let sym = Symbol(t.strings.len() as u32);
            t.strings.push(s);
            t.map.insert(s, sym);
        }
        t
    }
}

fn table() -> &'static Mutex<Table> {
    static TABLE: OnceLock<Mutex<Table>> = OnceLock::new();
    TABLE.get_or_init(|| Mutex::new(Table::with_builtins()))
}

impl Symbol {
    pub fn intern(s: &str) -> Symbol {
        let mut t = table().lock().unwrap_or_else(|e| e.into_inner());
        if let Some(&sym) = t.map.get(s) {
            return sym;
        }
        let leaked: &'static str = Box::leak(s.to_owned().into_boxed_str());
        let sym = Symbol(t.strings.len() as u32);
        t.strings.push(leaked);
        t.map.insert(leaked, sym);
        sym
    }

    pub fn as_str(self) -> &'static str {
        let t = table().lock().unwrap_or_else(|e| e.into_inner());
        t.strings[self.0 as usize]
    }

    pub fn index(self) -> u32 {
        self.0
    }

    /// The symbol with index `i` of the pre-interned built-in names (see
    /// [`for_each_preinterned`]); only for those, whose indices are fixed.
    pub(crate) const fn preinterned(i: u32) -> Symbol {
        Symbol(i)
    }
}

impl fmt::Debug for Symbol {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?}", self.as_str())
    }
}

impl fmt::Display for Symbol {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl From<&str> for Symbol {
    fn from(s: &str) -> Symbol {
        Symbol::intern(s)
    }
}

#[cfg(test)]
mod tests {
    use super::Symbol;
    #[test]
    fn interning_is_idempotent() {
        let a = Symbol::intern("float4");
        let b = Symbol::intern("float4");
        assert_eq!(a, b);
        assert_ne!(a, Symbol::intern("float3"));
        assert_eq!(a.as_str(), "float4");
    }
}
