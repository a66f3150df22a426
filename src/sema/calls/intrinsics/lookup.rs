//! Looking intrinsics up by name in the catalog ([`TABLE`] and then
//! [`MORE`]), and by interned name through a per-thread table.

use super::more::MORE;
use super::table::{Intrinsic, TABLE};
use crate::intern::Symbol;
use std::cell::Cell;

/// Looks an intrinsic up by name, in [`TABLE`] and then in
/// [`MORE`].
pub fn find(name: &str) -> Option<&'static Intrinsic> {
    find_index(name).and_then(nth)
}

/// Where [`find`] finds `name`: its index in [`TABLE`] followed by
/// [`MORE`].
fn find_index(name: &str) -> Option<usize> {
    // Most probes differ in the first byte: compared first, in line, it
    // spares them the call to `memcmp` (the order is the same).
    let first = name.as_bytes().first();
    let cmp = |i: &Intrinsic| match i.name.as_bytes().first().cmp(&first) {
        std::cmp::Ordering::Equal => i.name.cmp(name),
        o => o,
    };
    let at = |t: &[Intrinsic]| t.binary_search_by(cmp).ok();
    at(TABLE).or_else(|| Some(TABLE.len() + at(MORE)?))
}

/// The intrinsic at index `i` of [`TABLE`] followed by [`MORE`].
fn nth(i: usize) -> Option<&'static Intrinsic> {
    TABLE.get(i).or_else(|| MORE.get(i.checked_sub(TABLE.len())?))
}

/// Every intrinsic of both tables.
pub fn all() -> impl Iterator<Item = &'static Intrinsic> {
    TABLE.iter().chain(MORE)
}

/// [`find`] by interned name, remembered per thread: sema asks at every
/// call it lowers and, when it scans a body for the variables it writes,
/// for every argument of every call, mostly for the same few names. The
/// table is direct-mapped by the symbol's number (a name sharing a slot is
/// looked up again): no hashing, and no destructor for the thread to
/// register, which a map's first use paid (as much as a dozen look-ups).
pub fn find_symbol(name: Symbol) -> Option<&'static Intrinsic> {
    const SLOTS: usize = 256;
    thread_local! {
        /// (symbol number, its index in the tables plus one, or 0: none).
        static FOUND: [Cell<(u32, u32)>; SLOTS] =
            const { [const { Cell::new((u32::MAX, 0)) }; SLOTS] };
    }
    let key = name.index();
    let look = |found: &[Cell<(u32, u32)>; SLOTS]| {
        let slot = &found[key as usize % SLOTS];
        if let (k, i) = slot.get()
            && k == key
        {
            return nth((i as usize).checked_sub(1)?);
        }
        let i = find_index(name.as_str());
        slot.set((key, i.map_or(0, |i| i as u32 + 1)));
        nth(i?)
    };
    FOUND.try_with(look).unwrap_or_else(|_| find(name.as_str()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn find_symbol_agrees_with_find() {
        for i in all() {
            let found = find_symbol(Symbol::intern(i.name));
            assert!(found.is_some_and(|f| std::ptr::eq(f, i)), "{}", i.name);
        }
        assert!(find_symbol(Symbol::intern("nothing")).is_none());
    }

    #[test]
    fn the_per_thread_table_answers_as_find() {
        // Twice over more names than slots: hits, misses and names that
        // share a slot.
        let names: Vec<&str> = all().map(|i| i.name).chain(["nothing", "main", "x"]).collect();
        for _ in 0..2 {
            for &n in &names {
                let (a, b) = (find_symbol(Symbol::intern(n)), find(n));
                let same = match (a, b) {
                    (Some(a), Some(b)) => std::ptr::eq(a, b),
                    (a, b) => a.is_none() && b.is_none(),
                };
                assert!(same, "{n}");
            }
        }
    }
}
