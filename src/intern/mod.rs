//! Interned strings: identifiers, semantics and file names as `Symbol(u32)`.
//!
//! HLSL's built-in type and namespace names are symbols `0..` in a table
//! the build script writes (read without a lock, built by no process); the
//! names seen at run time are in one process-wide table behind a lock.
//! Interned text is leaked on purpose:
//! the set of distinct identifiers a compiler (or the LSP server over a
//! session) sees is small, and `&'static str` keeps every use borrow-free.

pub mod builtins;
mod names;

use std::fmt;
use std::sync::{Mutex, MutexGuard};

// `PREINTERNED` (the built-in names in symbol order: that of
// `names::for_each_preinterned`, so that `builtins` classifies a symbol by
// its index) and `PREINTERNED_SLOTS` (their hash table, the same probing as
// `Table`'s), written by the build script.
include!(concat!(env!("OUT_DIR"), "/preinterned.rs"));

/// An interned string. Comparing two symbols compares their text.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Symbol(u32);

/// Bytes of interned text allocated at a time (under the 2 KiB from which
/// glibc zeroes memory with `rep stosb`, costly per byte).
const CHUNK: usize = 1984;

/// Slots the table of other names starts with.
const FIRST_SLOTS: usize = 512;

/// The built-in names' symbol, found in the build script's table without
/// taking the lock.
fn find_preinterned(s: &str, hash: u64) -> Option<Symbol> {
    let mask = PREINTERNED_SLOTS.len() - 1;
    let mut at = (hash >> (64 - PREINTERNED_BITS)) as usize;
    loop {
        match PREINTERNED_SLOTS[at] {
            0 => return None,
            e if PREINTERNED[e as usize - 1] == s => return Some(Symbol(e - 1)),
            _ => at = (at + 1) & mask,
        }
    }
}

/// The names interned at run time (symbols from `PREINTERNED.len()` on):
/// open addressing with linear probing over [`names::hash`]. Each slot
/// holds a symbol's index in `strings` plus one, or 0 when empty; the table
/// is kept at most half full.
struct Table {
    slots: Vec<u32>,
    /// `64 - log2(slots.len())`: a hash's top bits are its first slot.
    shift: u32,
    strings: Vec<&'static str>,
    /// The rest of the current chunk of leaked text.
    free: &'static mut [u8],
}

impl Table {
    /// The index of `s` in `strings`, or the empty slot where it belongs.
    fn find(&self, s: &str, hash: u64) -> Result<u32, usize> {
        let mask = self.slots.len() - 1;
        let mut at = (hash >> self.shift) as usize;
        loop {
            match self.slots[at] {
                0 => return Err(at),
                e if self.strings[e as usize - 1] == s => return Ok(e - 1),
                _ => at = (at + 1) & mask,
            }
        }
    }

    /// The index in `strings` of `s` (whose hash is `hash`), added if new.
    fn insert(&mut self, s: &str, hash: u64) -> u32 {
        if self.slots.is_empty() {
            self.grow();
        }
        match self.find(s, hash) {
            Ok(i) => i,
            Err(mut at) => {
                if 2 * (self.strings.len() + 1) > self.slots.len() {
                    self.grow();
                    at = self.find(s, hash).err().unwrap_or_default();
                }
                let i = self.strings.len() as u32;
                let text = self.leak(s);
                self.strings.push(text);
                self.slots[at] = i + 1;
                i
            }
        }
    }

    /// A `'static` copy of `s`, carved from a leaked chunk (one allocation
    /// per [`CHUNK`] bytes of new names, not one per name).
    fn leak(&mut self, s: &str) -> &'static str {
        if self.free.len() < s.len() {
            self.free = Box::leak(vec![0u8; CHUNK.max(s.len())].into_boxed_slice());
        }
        let (dst, rest) = std::mem::take(&mut self.free).split_at_mut(s.len());
        self.free = rest;
        dst.copy_from_slice(s.as_bytes());
        // SAFETY: `dst` holds a byte-for-byte copy of the `&str` `s`, so it
        // is valid UTF-8 (validating it again cost about 80 instructions
        // per new name).
        unsafe { std::str::from_utf8_unchecked(dst) }
    }

    /// Doubles the slots (or makes the first ones) and places every name
    /// again.
    fn grow(&mut self) {
        let size = (self.slots.len() * 2).max(FIRST_SLOTS);
        self.shift = 64 - size.trailing_zeros();
        self.slots = vec![0; size];
        for (i, s) in self.strings.iter().enumerate() {
            let mut at = (names::hash(s.as_bytes()) >> self.shift) as usize;
            while self.slots[at] != 0 {
                at = (at + 1) & (size - 1);
            }
            self.slots[at] = i as u32 + 1;
        }
    }
}

/// The table of names interned at run time (a plain static: a `OnceLock`
/// would be checked at every call).
static TABLE: Mutex<Table> = Mutex::new(Table {
    slots: Vec::new(),
    shift: 64,
    strings: Vec::new(),
    free: &mut [],
});

/// The first symbol of the names interned at run time.
const DYNAMIC: u32 = PREINTERNED.len() as u32;

fn lock() -> MutexGuard<'static, Table> {
    TABLE.lock().unwrap_or_else(|e| e.into_inner())
}

impl Symbol {
    pub fn intern(s: &str) -> Symbol {
        let hash = names::hash(s.as_bytes());
        if let Some(sym) = find_preinterned(s, hash) {
            return sym;
        }
        Symbol(DYNAMIC + lock().insert(s, hash))
    }

    pub fn as_str(self) -> &'static str {
        match self.0.checked_sub(DYNAMIC) {
            None => PREINTERNED[self.0 as usize],
            Some(i) => lock().strings[i as usize],
        }
    }

    pub fn index(self) -> u32 {
        self.0
    }

    /// The symbol with index `i` of the pre-interned built-in names (see
    /// `names::for_each_preinterned`); only for those, whose indices
    /// are fixed.
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

    /// Thousands of new names make the table grow several times; each
    /// keeps its symbol and its text, the built-ins included.
    #[test]
    fn growing_keeps_every_symbol() {
        let float4 = Symbol::intern("float4");
        let names: Vec<String> = (0..5000).map(|i| format!("grow_test_{i}")).collect();
        let syms: Vec<Symbol> = names.iter().map(|n| Symbol::intern(n)).collect();
        for (n, s) in names.iter().zip(&syms) {
            assert_eq!(Symbol::intern(n), *s);
            assert_eq!(s.as_str(), n);
        }
        assert_eq!(Symbol::intern("float4"), float4);
        assert_eq!(Symbol::intern(""), Symbol::intern(""));
        assert_eq!(Symbol::intern("").as_str(), "");
        let long = "x".repeat(3 * super::CHUNK);
        assert_eq!(Symbol::intern(&long).as_str(), long);
    }
}
