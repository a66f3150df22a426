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
#[derive(Clone)]
pub struct UniqueArena<T: Eq + Hash + Clone> {
    data: Vec<T>,
    map: FxHashMap<T, Handle<T>>,
}

impl<T: Eq + Hash + Clone> Default for UniqueArena<T> {
    fn default() -> Self {
        UniqueArena {
            data: Vec::new(),
            map: FxHashMap::default(),
        }
    }
}

impl<T: Eq + Hash + Clone + fmt::Debug> fmt::Debug for UniqueArena<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_map().entries(self.iter()).finish()
    }
}

impl<T: Eq + Hash + Clone> UniqueArena<T> {
    /// Returns the handle of `value`, adding it if it is new.
    pub fn insert(&mut self, value: T) -> Handle<T> {
        // One hash and one probe, whether the value is new or not.
        match self.map.entry(value) {
            std::collections::hash_map::Entry::Occupied(o) => *o.get(),
            std::collections::hash_map::Entry::Vacant(v) => {
                let h = Handle::from_index(self.data.len());
                self.data.push(v.key().clone());
                v.insert(h);
                h
            }
        }
    }
    /// Makes room for `n` more values (and their lookup).
    pub fn reserve(&mut self, n: usize) {
        self.data.reserve(n);
        self.map.reserve(n);
    }
    /// Puts `value` where the placeholder `h` was (a type that names
    /// itself through a pointer, made before its parts); a later insert of
    /// `value` finds `h`.
    pub fn replace(&mut self, h: Handle<T>, value: T) {
        if let Some(slot) = self.data.get_mut(h.index()) {
            let old = std::mem::replace(slot, value.clone());
            self.map.remove(&old);
            self.map.entry(value).or_insert(h);
        }
    }
    /// Drops the values from index `len` on (sema's, made for code it
    /// lowered only to check it); inserting one again adds it anew.
    pub fn truncate(&mut self, len: usize) {
        if self.data.len() <= len {
            return;
        }
        for (i, v) in self.data.drain(len..).enumerate() {
            // A value put in by `replace` may be found under an older
            // handle, which stays.
            if self.map.get(&v).is_some_and(|h| h.index() == len + i) {
                self.map.remove(&v);
            }
        }
    }
    pub fn get(&self, value: &T) -> Option<Handle<T>> {
        self.map.get(value).copied()
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
}
