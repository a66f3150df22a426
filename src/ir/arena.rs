//! Arenas with typed handles, and a deduplicating arena for types.

use rustc_hash::FxHashMap;
use std::fmt;
use std::hash::Hash;
use std::marker::PhantomData;
use std::num::NonZeroU32;

/// A typed index into an [`Arena`]. `Option<Handle<T>>` is the size of a `u32`.
pub struct Handle<T> {
    index: NonZeroU32,
    marker: PhantomData<fn() -> T>,
}

impl<T> Handle<T> {
    /// The handle of the element at zero-based `index`.
    pub fn from_index(index: usize) -> Self {
        let n = u32::try_from(index + 1).expect("arena holds fewer than 2^32 elements");
        Handle {
            index: NonZeroU32::new(n).expect("index + 1 is non-zero"),
            marker: PhantomData,
        }
    }
    /// The zero-based index.
    pub fn index(self) -> usize {
        self.index.get() as usize - 1
    }
}

impl<T> Clone for Handle<T> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<T> Copy for Handle<T> {}
impl<T> PartialEq for Handle<T> {
    fn eq(&self, o: &Self) -> bool {
        self.index == o.index
    }
}
impl<T> Eq for Handle<T> {}
impl<T> PartialOrd for Handle<T> {
    fn partial_cmp(&self, o: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(o))
    }
}
impl<T> Ord for Handle<T> {
    fn cmp(&self, o: &Self) -> std::cmp::Ordering {
        self.index.cmp(&o.index)
    }
}
impl<T> Hash for Handle<T> {
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        self.index.hash(h)
    }
}
impl<T> fmt::Debug for Handle<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "[{}]", self.index())
    }
}

/// A half-open range of handles `first..first+len` (used by `Statement::Emit`).
pub struct Range<T> {
    start: u32,
    end: u32,
    marker: PhantomData<fn() -> T>,
}

impl<T> Range<T> {
    /// The handles from `first` up to (not including) the arena's length `end`.
    pub fn new(start: usize, end: usize) -> Self {
        Range {
            start: start as u32,
            end: end as u32,
            marker: PhantomData,
        }
    }
    pub fn is_empty(&self) -> bool {
        self.start >= self.end
    }
    pub fn start_index(&self) -> usize {
        self.start as usize
    }
    pub fn end_index(&self) -> usize {
        self.end as usize
    }
    pub fn iter(&self) -> impl DoubleEndedIterator<Item = Handle<T>> + ExactSizeIterator + use<T> {
        (self.start as usize..self.end as usize).map(Handle::from_index)
    }
}

impl<T> PartialEq for Arena<T>
where
    T: PartialEq,
{
    fn eq(&self, o: &Self) -> bool {
        self.data == o.data
    }
}

impl<T> Clone for Range<T> {
    fn clone(&self) -> Self {
        Range {
            start: self.start,
            end: self.end,
            marker: PhantomData,
        }
    }
}
impl<T> PartialEq for Range<T> {
    fn eq(&self, o: &Self) -> bool {
        self.start == o.start && self.end == o.end
    }
}
impl<T> Eq for Range<T> {}
impl<T> fmt::Debug for Range<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "[{}..{}]", self.start, self.end)
    }
}

/// An append-only vector of `T` addressed by [`Handle<T>`].
#[derive(Clone)]
pub struct Arena<T> {
    data: Vec<T>,
}

impl<T> Default for Arena<T> {
    fn default() -> Self {
        Arena { data: Vec::new() }
    }
}

impl<T: fmt::Debug> fmt::Debug for Arena<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_map().entries(self.iter()).finish()
    }
}

impl<T> Arena<T> {
    pub fn new() -> Self {
        Self::default()
    }
    /// An empty arena with room for `n` elements.
    pub fn with_capacity(n: usize) -> Self {
        Arena {
            data: Vec::with_capacity(n),
        }
    }
    /// Makes room for `n` more elements.
    pub fn reserve(&mut self, n: usize) {
        self.data.reserve(n);
    }
    /// Gives back the room grown beyond the elements.
    pub fn shrink_to_fit(&mut self) {
        self.data.shrink_to_fit();
    }
    #[inline]
    pub fn append(&mut self, value: T) -> Handle<T> {
        let h = Handle::from_index(self.data.len());
        self.data.push(value);
        h
    }
    pub fn len(&self) -> usize {
        self.data.len()
    }
    /// The elements in handle order.
    pub fn as_slice(&self) -> &[T] {
        &self.data
    }
    /// Drops the elements from `len` on (sema uses it to throw away code it
    /// lowered only to check it, such as unreachable statements).
    pub fn truncate(&mut self, len: usize) {
        self.data.truncate(len);
    }
    pub fn iter(&self) -> impl DoubleEndedIterator<Item = (Handle<T>, &T)> + ExactSizeIterator {
        self.data.iter().enumerate().map(|(i, v)| {
            #[cfg(test)]
            super::visit::work::visit();
            (Handle::from_index(i), v)
        })
    }
    pub fn iter_mut(
        &mut self,
    ) -> impl DoubleEndedIterator<Item = (Handle<T>, &mut T)> + ExactSizeIterator {
        self.data
            .iter_mut()
            .enumerate()
            .map(|(i, v)| (Handle::from_index(i), v))
    }
    pub fn get(&self, h: Handle<T>) -> Option<&T> {
        self.data.get(h.index())
    }
    pub fn handles(
        &self,
    ) -> impl DoubleEndedIterator<Item = Handle<T>> + ExactSizeIterator + use<T> {
        (0..self.data.len()).map(Handle::from_index)
    }
}

impl<T> std::ops::Index<Handle<T>> for Arena<T> {
    type Output = T;
    fn index(&self, h: Handle<T>) -> &T {
        #[cfg(test)]
        super::visit::work::visit();
        &self.data[h.index()]
    }
}

impl<T> std::ops::IndexMut<Handle<T>> for Arena<T> {
    fn index_mut(&mut self, h: Handle<T>) -> &mut T {
        #[cfg(test)]
        super::visit::work::visit();
        &mut self.data[h.index()]
    }
}

/// An arena that stores each distinct value once (used for types).
///
/// Each value is stored once, in `data`; the lookup table holds handles
/// under their value's hash, never a second copy of the value (a struct
/// type's members, names included, were cloned into the table on every
/// new type, and freed twice).
#[derive(Clone)]
pub struct UniqueArena<T: Eq + Hash + Clone> {
    data: Vec<T>,
    /// The handle of each value that lookups find, under its value's hash.
    by_hash: FxHashMap<u64, Handle<T>>,
    /// The others that lookups find: values whose hash that of another
    /// value found already has (a 64-bit collision; almost always empty).
    collided: Vec<Handle<T>>,
}

impl<T: Eq + Hash + Clone> Default for UniqueArena<T> {
    fn default() -> Self {
        UniqueArena {
            data: Vec::new(),
            by_hash: FxHashMap::default(),
            collided: Vec::new(),
        }
    }
}

impl<T: Eq + Hash + Clone + fmt::Debug> fmt::Debug for UniqueArena<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_map().entries(self.iter()).finish()
    }
}

/// The hash a value is found under.
fn hash_of<T: Hash>(value: &T) -> u64 {
    use std::hash::BuildHasher;
    rustc_hash::FxBuildHasher.hash_one(value)
}

impl<T: Eq + Hash + Clone> UniqueArena<T> {
    /// Returns the handle of `value`, adding it if it is new.
    pub fn insert(&mut self, value: T) -> Handle<T> {
        // One hash and one probe, whether the value is new or not.
        let hash = hash_of(&value);
        let h = Handle::from_index(self.data.len());
        let data = &self.data;
        match self.by_hash.entry(hash) {
            std::collections::hash_map::Entry::Occupied(o) => {
                let found = *o.get();
                if data.get(found.index()) == Some(&value) {
                    return found;
                }
            }
            std::collections::hash_map::Entry::Vacant(v) => {
                v.insert(h);
                self.data.push(value);
                return h;
            }
        }
        // Another value has this hash.
        if let Some(c) = self.find_collided(&value) {
            return c;
        }
        self.collided.push(h);
        self.data.push(value);
        h
    }
    /// The handle lookups find for `value` among the collided ones.
    fn find_collided(&self, value: &T) -> Option<Handle<T>> {
        self.collided
            .iter()
            .copied()
            .find(|c| self.data.get(c.index()) == Some(value))
    }
    /// The handle lookups find for a value with hash `hash`.
    fn find(&self, value: &T, hash: u64) -> Option<Handle<T>> {
        match self.by_hash.get(&hash) {
            Some(&h) if self.data.get(h.index()) == Some(value) => Some(h),
            _ => self.find_collided(value),
        }
    }
    /// Makes lookups find `h` for its value (which they find no handle
    /// for).
    fn list(&mut self, h: Handle<T>, hash: u64) {
        match self.by_hash.entry(hash) {
            std::collections::hash_map::Entry::Occupied(_) => self.collided.push(h),
            std::collections::hash_map::Entry::Vacant(v) => {
                v.insert(h);
            }
        }
    }
    /// Makes lookups no longer find `h` (whose value has hash `hash`).
    fn unlist(&mut self, h: Handle<T>, hash: u64) {
        if self.by_hash.get(&hash) == Some(&h) {
            self.by_hash.remove(&hash);
        } else if let Some(i) = self.collided.iter().position(|&c| c == h) {
            self.collided.remove(i);
        }
    }
    /// Makes room for `n` more values (and their lookup).
    pub fn reserve(&mut self, n: usize) {
        self.data.reserve(n);
        self.by_hash.reserve(n);
    }
    /// Puts `value` where the placeholder `h` was (a type that names
    /// itself through a pointer, made before its parts); a later insert of
    /// `value` finds `h`, unless it finds an equal value already.
    pub fn replace(&mut self, h: Handle<T>, value: T) {
        let Some(old) = self.data.get(h.index()) else {
            return;
        };
        // Lookups of the old value find nothing any more.
        let old_hash = hash_of(old);
        if let Some(g) = self.find(old, old_hash) {
            self.unlist(g, old_hash);
        }
        let hash = hash_of(&value);
        let found = self.find(&value, hash);
        if let Some(slot) = self.data.get_mut(h.index()) {
            *slot = value;
        }
        if found.is_none() {
            self.list(h, hash);
        }
    }
    /// Drops the values from index `len` on (sema's, made for code it
    /// lowered only to check it); inserting one again adds it anew.
    pub fn truncate(&mut self, len: usize) {
        if self.data.len() <= len {
            return;
        }
        // A value put in by `replace` may be found under an older
        // handle, which stays.
        for i in len..self.data.len() {
            let Some(v) = self.data.get(i) else {
                break;
            };
            let hash = hash_of(v);
            self.unlist(Handle::from_index(i), hash);
        }
        self.data.truncate(len);
    }
    pub fn get(&self, value: &T) -> Option<Handle<T>> {
        self.find(value, hash_of(value))
    }
    pub fn len(&self) -> usize {
        self.data.len()
    }
    pub fn iter(&self) -> impl DoubleEndedIterator<Item = (Handle<T>, &T)> + ExactSizeIterator {
        self.data
            .iter()
            .enumerate()
            .map(|(i, v)| (Handle::from_index(i), v))
    }
}

impl<T: Eq + Hash + Clone> std::ops::Index<Handle<T>> for UniqueArena<T> {
    type Output = T;
    fn index(&self, h: Handle<T>) -> &T {
        &self.data[h.index()]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn handles_and_ranges() {
        let mut a = Arena::new();
        let h0 = a.append(10);
        let h1 = a.append(11);
        assert_eq!(a[h0], 10);
        assert_eq!(a[h1], 11);
        let r = Range::new(1, a.len());
        assert_eq!(r.iter().collect::<Vec<_>>(), vec![h1]);
        assert_eq!(std::mem::size_of::<Option<Handle<u8>>>(), 4);
    }
    #[test]
    fn unique_arena_dedups() {
        let mut u = UniqueArena::default();
        let a = u.insert("x");
        let b = u.insert("y");
        assert_eq!(u.insert("x"), a);
        assert_ne!(a, b);
        assert_eq!(u.len(), 2);
    }
    #[test]
    fn unique_arena_truncates() {
        let mut u = UniqueArena::default();
        let a = u.insert("x");
        u.insert("y");
        u.truncate(1);
        assert_eq!(u.len(), 1);
        assert_eq!(u.get(&"y"), None);
        assert_eq!(u.insert("x"), a);
        assert_eq!(u.insert("y").index(), 1);
    }

    /// A value whose hash is the same for all: every second distinct value
    /// collides.
    #[derive(Clone, Debug, PartialEq, Eq)]
    struct Same(u32);
    impl Hash for Same {
        fn hash<H: std::hash::Hasher>(&self, _: &mut H) {}
    }

    #[test]
    fn unique_arena_tells_apart_values_of_one_hash() {
        let mut u = UniqueArena::default();
        let a = u.insert(Same(1));
        let b = u.insert(Same(2));
        let c = u.insert(Same(3));
        assert_ne!(a, b);
        assert_ne!(b, c);
        assert_eq!(u.insert(Same(1)), a);
        assert_eq!(u.insert(Same(2)), b);
        assert_eq!(u.insert(Same(3)), c);
        assert_eq!(u.get(&Same(3)), Some(c));
        assert_eq!(u.len(), 3);
        // Truncating the first collided value keeps the others found.
        u.truncate(2);
        assert_eq!(u.get(&Same(3)), None);
        assert_eq!(u.get(&Same(2)), Some(b));
        assert_eq!(u.insert(Same(3)).index(), 2);
        u.truncate(0);
        assert_eq!(u.get(&Same(1)), None);
        assert_eq!(u.get(&Same(2)), None);
        assert_eq!(u.insert(Same(2)).index(), 0);
    }

    #[test]
    fn unique_arena_replaces_a_placeholder() {
        let mut u = UniqueArena::default();
        let p = u.insert(Same(0));
        let a = u.insert(Same(1));
        u.replace(p, Same(2));
        assert_eq!(u.get(&Same(0)), None);
        assert_eq!(u.get(&Same(2)), Some(p));
        assert_eq!(u.insert(Same(2)), p);
        // A value found already stays found under its handle.
        u.replace(p, Same(1));
        assert_eq!(u.get(&Same(1)), Some(a));
        assert_eq!(u.get(&Same(2)), None);
        // Strings: a placeholder replaced by a new value.
        let mut s = UniqueArena::default();
        let x = s.insert("x");
        s.insert("y");
        s.replace(x, "z");
        assert_eq!(s.get(&"x"), None);
        assert_eq!(s.get(&"z"), Some(x));
        assert_eq!(s.insert("x").index(), 2);
    }
}
