//! Interned strings: identifiers, semantics and file names as `Symbol(u32)`.
//!
//! HLSL's built-in type and namespace names are symbols `0..` in a table
//! the build script writes (built by no process); the names seen at run
//! time follow them. One process-wide hash table holds both, and reading
//! it takes no lock: a name already interned (most of a shader's) costs a
//! hash and a probe, and [`Symbol::as_str`] an index. Only adding a name
//! takes the writers' lock.
//!
//! Interned text is leaked on purpose, and so are the tables the hash
//! table outgrew (a reader may still be probing one): the set of distinct
//! identifiers a compiler (or the LSP server over a session) sees is
//! small, and `&'static str` keeps every use borrow-free.

pub mod builtins;
mod names;

use std::fmt;
use std::ptr::null_mut;
use std::sync::atomic::{AtomicPtr, AtomicU32, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Mutex, MutexGuard};

// `PREINTERNED` (the built-in names in symbol order: that of
// `names::for_each_preinterned`, so that `builtins` classifies a symbol by
// its index), `PREINTERNED_SLOTS` (their hash table, laid out as `Slots`'
// are) and `PREINTERNED_BITS` (its size's log2), written by the build
// script.
include!(concat!(env!("OUT_DIR"), "/preinterned.rs"));

/// An interned string. Comparing two symbols compares their text.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Symbol(u32);

/// Bytes of interned text allocated at a time (under the 2 KiB from which
/// glibc zeroes memory with `rep stosb`, costly per byte).
const CHUNK: usize = 1984;

/// The first symbol of the names interned at run time.
const DYNAMIC: u32 = PREINTERNED.len() as u32;

/// The hash table of every interned name: open addressing with linear
/// probing over [`names::hash`], at most half full. A slot holds the
/// name's hash in its top 32 bits (compared before the text) and its
/// symbol's index plus one in the low 32 bits, or 0 when empty. Slots are
/// written (under the writers' lock) only from empty to full, after the
/// name's text is in place, so a reader sees either nothing or a name it
/// can read.
struct Slots {
    /// `64 - log2(slots.len())`: a hash's top bits are its first slot.
    shift: u32,
    slots: &'static [AtomicU64],
}

/// The table the interner starts with: the built-in names' slots, which
/// the names met at run time join until the table grows.
static FIRST_SLOTS: [AtomicU64; PREINTERNED_SLOTS.len()] = {
    let mut slots = [const { AtomicU64::new(0) }; PREINTERNED_SLOTS.len()];
    let mut i = 0;
    while i < slots.len() {
        slots[i] = AtomicU64::new(PREINTERNED_SLOTS[i]);
        i += 1;
    }
    slots
};

static FIRST: Slots = Slots {
    shift: 64 - PREINTERNED_BITS,
    slots: &FIRST_SLOTS,
};

/// The current table: [`FIRST`], or the leaked one that replaced it when
/// it filled up. Swapped only under the writers' lock, once the new table
/// holds every name.
static TABLE: AtomicPtr<Slots> = AtomicPtr::new(std::ptr::addr_of!(FIRST).cast_mut());

fn table() -> &'static Slots {
    // SAFETY: `TABLE` points at `FIRST` or at a table `grow` leaked, both
    // `'static` and never written through the pointer; the acquiring load
    // sees the new table's slots as `grow` wrote them before storing it.
    unsafe { &*TABLE.load(Ordering::Acquire) }
}

/// Where the text of symbol `DYNAMIC + i` is: entry `i` of a list of
/// buckets, the first [`FIRST_BUCKET`] long and each next twice as long
/// as the one before, so that entries never move and a reader needs no
/// lock. An entry is written once, before its symbol is in the table.
struct Entry {
    ptr: AtomicPtr<u8>,
    len: AtomicUsize,
}

const FIRST_BUCKET: usize = 256;

/// The first bucket, enough for a small shader's names: no allocation.
static FIRST_ENTRIES: [Entry; FIRST_BUCKET] = [const {
    Entry {
        ptr: AtomicPtr::new(null_mut()),
        len: AtomicUsize::new(0),
    }
}; FIRST_BUCKET];

/// Enough buckets for every `u32` index; the later ones are leaked arrays,
/// allocated as they are needed.
static BUCKETS: [AtomicPtr<Entry>; 25] = {
    let mut buckets = [const { AtomicPtr::new(null_mut()) }; 25];
    buckets[0] = AtomicPtr::new(std::ptr::addr_of!(FIRST_ENTRIES).cast::<Entry>().cast_mut());
    buckets
};

/// The bucket of entry `i` and the entry's place in it.
fn bucket_of(i: u32) -> (usize, usize) {
    let j = i as usize / FIRST_BUCKET + 1;
    let b = j.ilog2() as usize;
    (b, i as usize - ((1 << b) - 1) * FIRST_BUCKET)
}

/// The text of symbol `DYNAMIC + i` (empty for an entry not yet written,
/// which no symbol names).
fn dynamic_text(i: u32) -> &'static str {
    let (b, at) = bucket_of(i);
    let bucket = BUCKETS[b].load(Ordering::Acquire);
    if bucket.is_null() {
        return "";
    }
    // SAFETY: bucket `b` is an array of `FIRST_BUCKET << b` entries,
    // `FIRST_ENTRIES` or leaked, never freed; `at` is within it
    // (`bucket_of`).
    let e = unsafe { &*bucket.add(at) };
    let ptr = e.ptr.load(Ordering::Acquire);
    if ptr.is_null() {
        return "";
    }
    // SAFETY: the entry was written once with a leaked copy of a `&str`
    // (so valid UTF-8), its length stored before its pointer.
    unsafe {
        std::str::from_utf8_unchecked(std::slice::from_raw_parts(ptr, e.len.load(Ordering::Relaxed)))
    }
}

/// The symbol of `s` (whose hash is `hash`) in `t`, or the empty slot where
/// it belongs. Inlined in [`Symbol::intern`], whose every call probes.
#[inline(always)]
fn find(t: &Slots, s: &str, hash: u64) -> Result<Symbol, usize> {
    let mask = t.slots.len() - 1;
    let mut at = (hash >> t.shift) as usize;
    loop {
        let e = t.slots[at].load(Ordering::Acquire);
        if e == 0 {
            return Err(at);
        }
        if e >> 32 == hash >> 32 {
            let sym = Symbol(e as u32 - 1);
            if same_text(sym.as_str().as_bytes(), s.as_bytes()) {
                return Ok(sym);
            }
        }
        at = (at + 1) & mask;
    }
}

/// `a == b` without a call to `memcmp` for the short names most are (where
/// the hash bits matched, so that this nearly always confirms a match):
/// two overlapping words, or the three bytes a name under 4 bytes has.
#[inline(always)]
fn same_text(a: &[u8], b: &[u8]) -> bool {
    fn word(s: &[u8], at: usize) -> u64 {
        let mut w = [0u8; 8];
        w.copy_from_slice(&s[at..at + 8]);
        u64::from_le_bytes(w)
    }
    fn half(s: &[u8], at: usize) -> u32 {
        let mut w = [0u8; 4];
        w.copy_from_slice(&s[at..at + 4]);
        u32::from_le_bytes(w)
    }
    let n = a.len();
    if n != b.len() {
        false
    } else if n > 16 {
        a == b
    } else if n >= 8 {
        word(a, 0) == word(b, 0) && word(a, n - 8) == word(b, n - 8)
    } else if n >= 4 {
        half(a, 0) == half(b, 0) && half(a, n - 4) == half(b, n - 4)
    } else {
        n == 0 || (a[0] == b[0] && a[n / 2] == b[n / 2] && a[n - 1] == b[n - 1])
    }
}

/// How many names were interned at run time: changed only under the
/// writers' lock, after the new name's slot is written, so a reader that
/// saw this count before probing has seen every name it counts.
static COUNT: AtomicU32 = AtomicU32::new(0);

/// What only one thread at a time may change: the rest of the current chunk
/// of leaked text and the tables outgrown so far (and, besides, `COUNT`,
/// the buckets and the table).
struct Writer {
    free: &'static mut [u8],
    /// Every table [`grow`] replaced. A reader may still be probing one, so
    /// none is ever freed; held here, they stay reachable, so that a leak
    /// checker (the fuzzer's) does not report them as lost.
    outgrown: Vec<&'static Slots>,
}

static WRITER: Mutex<Writer> = Mutex::new(Writer {
    free: &mut [],
    outgrown: Vec::new(),
});

fn lock() -> MutexGuard<'static, Writer> {
    WRITER.lock().unwrap_or_else(|e| e.into_inner())
}

/// [`Writer::insert`] under the lock. Out of line, so that the lookup most
/// calls end with keeps few registers.
#[cold]
#[inline(never)]
fn insert(s: &str, hash: u64, seen: u32, t: &'static Slots, at: usize) -> Symbol {
    lock().insert(s, hash, seen, t, at)
}

impl Writer {
    /// Adds `s` (whose hash is `hash`), which was not in `t` at slot `at`
    /// when `COUNT` was `seen`, unless another thread has added it since.
    fn insert(&mut self, s: &str, hash: u64, seen: u32, t: &'static Slots, at: usize) -> Symbol {
        let count = COUNT.load(Ordering::Relaxed);
        let (mut t, mut at) = (t, at);
        if count != seen {
            // Names were added since the probe (maybe `s`, maybe in a new table).
            t = table();
            at = match find(t, s, hash) {
                Ok(sym) => return sym,
                Err(at) => at,
            };
        }
        let index = DYNAMIC + count;
        if 2 * (index as usize + 1) > t.slots.len() {
            self.outgrown.push(t);
            t = grow(t);
            at = find(t, s, hash).err().unwrap_or_default();
        }
        let text = self.leak(s);
        let (b, i) = bucket_of(count);
        let mut bucket = BUCKETS[b].load(Ordering::Acquire);
        if bucket.is_null() {
            let entries: Box<[Entry]> = (0..FIRST_BUCKET << b)
                .map(|_| Entry {
                    ptr: AtomicPtr::new(null_mut()),
                    len: AtomicUsize::new(0),
                })
                .collect();
            bucket = Box::leak(entries).as_mut_ptr();
            BUCKETS[b].store(bucket, Ordering::Release);
        }
        // SAFETY: as in `dynamic_text`.
        let e = unsafe { &*bucket.add(i) };
        e.len.store(text.len(), Ordering::Relaxed);
        e.ptr.store(text.as_ptr().cast_mut(), Ordering::Release);
        t.slots[at].store((hash >> 32 << 32) | u64::from(index + 1), Ordering::Release);
        COUNT.store(count + 1, Ordering::Release);
        Symbol(index)
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
}

/// Replaces the full table `old` with one twice its size holding the same
/// names, placed by the hash bits their slots keep (no text is hashed
/// again). `old` is kept ([`Writer::outgrown`]): a reader may be probing it.
fn grow(old: &Slots) -> &'static Slots {
    let size = old.slots.len() * 2;
    let shift = 64 - size.trailing_zeros();
    let slots: Box<[AtomicU64]> = (0..size).map(|_| AtomicU64::new(0)).collect();
    for e in old.slots.iter().map(|e| e.load(Ordering::Relaxed)) {
        if e != 0 {
            // `shift` is at least 32: only hash bits remain.
            let mut at = (e >> shift) as usize;
            while slots[at].load(Ordering::Relaxed) != 0 {
                at = (at + 1) & (size - 1);
            }
            slots[at].store(e, Ordering::Relaxed);
        }
    }
    let t: &'static Slots = Box::leak(Box::new(Slots {
        shift,
        slots: Box::leak(slots),
    }));
    TABLE.store(std::ptr::from_ref(t).cast_mut(), Ordering::Release);
    t
}

impl Symbol {
    pub fn intern(s: &str) -> Symbol {
        let hash = names::hash(s.as_bytes());
        let seen = COUNT.load(Ordering::Acquire);
        let t = table();
        match find(t, s, hash) {
            Ok(sym) => sym,
            Err(at) => insert(s, hash, seen, t, at),
        }
    }

    pub fn as_str(self) -> &'static str {
        match self.0.checked_sub(DYNAMIC) {
            None => PREINTERNED[self.0 as usize],
            Some(i) => dynamic_text(i),
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

    /// Every table the interner outgrows stays reachable from it (a leak
    /// checker would report it otherwise), and each is smaller than the
    /// table in use.
    #[test]
    fn outgrown_tables_are_held() {
        let size = super::table().slots.len();
        for i in 0..size {
            Symbol::intern(&format!("outgrown_tables_are_held_{i}"));
        }
        let current = super::table().slots.len();
        assert!(current > size, "the table grew");
        let writer = super::lock();
        assert!(!writer.outgrown.is_empty());
        assert!(writer.outgrown.iter().all(|t| t.slots.len() < current));
    }
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

    /// Threads interning the same new names at once (some while the table
    /// grows) agree on every symbol.
    #[test]
    fn threads_agree() {
        let names: Vec<String> = (0..3000).map(|i| format!("thread_test_{i}")).collect();
        let runs: Vec<Vec<Symbol>> = std::thread::scope(|scope| {
            let workers: Vec<_> = (0..4)
                .map(|_| scope.spawn(|| names.iter().map(|n| Symbol::intern(n)).collect()))
                .collect();
            workers.into_iter().filter_map(|w| w.join().ok()).collect()
        });
        assert_eq!(runs.len(), 4);
        for run in &runs[1..] {
            assert_eq!(run, &runs[0]);
        }
        for (n, s) in names.iter().zip(&runs[0]) {
            assert_eq!(s.as_str(), n);
        }
    }
}
