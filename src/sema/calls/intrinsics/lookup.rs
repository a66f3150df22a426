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
/// [`MORE`] (the first, where both have the name).
fn find_index(name: &str) -> Option<usize> {
    let text = name.as_bytes();
    let mut at = name_slot(text);
    loop {
        let i = usize::from(*BY_NAME.get(at)?).checked_sub(1)?;
        if nth(i)?.name.as_bytes() == text {
            return Some(i);
        }
        at = (at + 1) % BY_NAME.len();
    }
}

/// The home slot of a name in [`BY_NAME`]: a hash of its length and of
/// its first two and last two bytes (which tell most intrinsics apart),
/// cheap beside the binary search over both tables it replaced (a string
/// comparison at each of about ten steps).
const fn name_slot(text: &[u8]) -> usize {
    let (first, second, before_last, last) = match text {
        [a, b, .., y, z] => (*a, *b, *y, *z),
        [a, b, z] => (*a, *b, *b, *z),
        [a, z] => (*a, *z, *a, *z),
        [a] => (*a, 0, 0, *a),
        [] => (0, 0, 0, 0),
    };
    let key = (text.len() as u64)
        | ((first as u64) << 16)
        | ((second as u64) << 24)
        | ((before_last as u64) << 32)
        | ((last as u64) << 40);
    (key.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> (64 - BY_NAME_BITS)) as usize
}

const BY_NAME_BITS: u32 = 10;

/// The intrinsics by name: open addressing over [`name_slot`] with linear
/// probing, each slot an index of [`TABLE`] followed by [`MORE`] plus one,
/// or 0 when empty. Built when the program is compiled; a name of [`MORE`]
/// that [`TABLE`] also has is left out, so that [`TABLE`]'s is found.
static BY_NAME: [u16; 1 << BY_NAME_BITS] = {
    let mut slots = [0u16; 1 << BY_NAME_BITS];
    assert!(2 * (TABLE.len() + MORE.len()) < slots.len(), "BY_NAME is at most half full");
    let mut i = 0;
    while i < TABLE.len() + MORE.len() {
        let name = if i < TABLE.len() {
            TABLE[i].name.as_bytes()
        } else {
            MORE[i - TABLE.len()].name.as_bytes()
        };
        let mut at = name_slot(name);
        loop {
            if slots[at] == 0 {
                slots[at] = (i + 1) as u16;
                break;
            }
            let other = (slots[at] - 1) as usize;
            let other = if other < TABLE.len() {
                TABLE[other].name.as_bytes()
            } else {
                MORE[other - TABLE.len()].name.as_bytes()
            };
            if same_bytes(other, name) {
                break;
            }
            at = (at + 1) % slots.len();
        }
        i += 1;
    }
    slots
};

/// `a == b`, for [`BY_NAME`]'s construction (slices compare by `==` only
/// at run time).
const fn same_bytes(a: &[u8], b: &[u8]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
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

    /// The hashed look-up finds what a search of [`TABLE`] and then of
    /// [`MORE`] finds, for every intrinsic's name and for names that are
    /// none (prefixes, other cases, the empty name).
    #[test]
    fn by_name_agrees_with_a_search_of_both_tables() {
        let search = |name: &str| {
            TABLE
                .iter()
                .position(|i| i.name == name)
                .or_else(|| Some(TABLE.len() + MORE.iter().position(|i| i.name == name)?))
        };
        let mut names: Vec<String> = all().map(|i| i.name.to_string()).collect();
        for i in all() {
            names.push(i.name.to_uppercase());
            names.push(i.name[..i.name.len() - 1].to_string());
            names.push(format!("{}x", i.name));
        }
        names.extend(["", "a", "main", "nothing"].map(String::from));
        for n in &names {
            assert_eq!(find_index(n), search(n), "{n}");
        }
    }

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
