//! Typed tables: sema's declarations, scopes, types and resources, each
//! indexed by an id type of its own, as the IR's arenas are by `Handle`
//! (rustc's `IndexVec` and `newtype_index!`). An id of one table cannot
//! index another, and no id is made from a bare number outside the module
//! that defines it.

use std::fmt;
use std::marker::PhantomData;

/// An index into a [`Table`].
pub trait Id: Copy {
    fn from_index(index: usize) -> Self;
    fn index(self) -> usize;
}

/// Defines an id type: a `u32` that only its own module (and [`Table`])
/// can make.
macro_rules! define_id {
    ($(#[$meta:meta])* $vis:vis struct $name:ident;) => {
        $(#[$meta])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        $vis struct $name(u32);

        impl $crate::sema::table::Id for $name {
            fn from_index(index: usize) -> Self {
                $name(u32::try_from(index).expect("a table holds fewer than 2^32 entries"))
            }
            fn index(self) -> usize {
                self.0 as usize
            }
        }
    };
}
pub(crate) use define_id;

/// A table of `T`s indexed by `I`s.
pub struct Table<I, T> {
    items: Vec<T>,
    marker: PhantomData<fn(I) -> I>,
}

impl<I: Id, T> Table<I, T> {
    pub fn new() -> Self {
        Table {
            items: Vec::new(),
            marker: PhantomData,
        }
    }
    /// Appends `item` and returns its id.
    pub fn push(&mut self, item: T) -> I {
        let id = self.next_id();
        self.items.push(item);
        id
    }
    /// The id the next [`Table::push`] returns.
    pub fn next_id(&self) -> I {
        I::from_index(self.items.len())
    }
    pub fn len(&self) -> usize {
        self.items.len()
    }
    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }
    pub fn get(&self, id: I) -> Option<&T> {
        self.items.get(id.index())
    }
    pub fn get_mut(&mut self, id: I) -> Option<&mut T> {
        self.items.get_mut(id.index())
    }
    /// The entries with their ids, in order.
    pub fn iter(&self) -> impl DoubleEndedIterator<Item = (I, &T)> + ExactSizeIterator {
        self.items
            .iter()
            .enumerate()
            .map(|(i, t)| (I::from_index(i), t))
    }
    /// The entries, in order.
    pub fn values(&self) -> std::slice::Iter<'_, T> {
        self.items.iter()
    }
    /// The ids, in order.
    pub fn ids(&self) -> impl DoubleEndedIterator<Item = I> + ExactSizeIterator + use<I, T> {
        (0..self.items.len()).map(I::from_index)
    }
    /// The entries from `from` on, in order (entries made after a point).
    pub fn since(&self, from: usize) -> &[T] {
        &self.items[from.min(self.items.len())..]
    }
}

impl<I: Id, T> Default for Table<I, T> {
    fn default() -> Self {
        Self::new()
    }
}

impl<I: Id, T: Clone> Clone for Table<I, T> {
    fn clone(&self) -> Self {
        Table {
            items: self.items.clone(),
            marker: PhantomData,
        }
    }
}

impl<I: Id, T: fmt::Debug> fmt::Debug for Table<I, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(&self.items).finish()
    }
}

impl<I: Id, T> std::ops::Index<I> for Table<I, T> {
    type Output = T;
    fn index(&self, id: I) -> &T {
        &self.items[id.index()]
    }
}

impl<I: Id, T> std::ops::IndexMut<I> for Table<I, T> {
    fn index_mut(&mut self, id: I) -> &mut T {
        &mut self.items[id.index()]
    }
}

impl<'t, I: Id, T> IntoIterator for &'t Table<I, T> {
    type Item = &'t T;
    type IntoIter = std::slice::Iter<'t, T>;
    fn into_iter(self) -> Self::IntoIter {
        self.items.iter()
    }
}
