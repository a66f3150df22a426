//! A function's block scopes ([`Locals`]).

use super::LocalSym;
use super::place::Val;
use crate::intern::Symbol;
use rustc_hash::FxHashMap;
use std::collections::hash_map::Entry;

/// Block scopes of a function: the declarations of the open scopes in
/// order, each name's innermost one found in one hash lookup (a closed
/// scope's names go back to what they shadowed).
#[derive(Default, Debug)]
pub struct Locals {
    entries: Vec<LocalEntry>,
    /// The innermost open declaration of each name (an index of `entries`).
    innermost: FxHashMap<Symbol, u32>,
    /// Where each open scope's declarations start in `entries`.
    frames: Vec<u32>,
    /// Whether a built-in type's spelling (`float3`) was ever declared
    /// here, as [`crate::sema::types::scope::Scopes`] tracks it.
    builtin_declared: bool,
}

#[derive(Debug)]
struct LocalEntry {
    name: Symbol,
    sym: LocalSym,
    /// The scope's depth (0 for the outermost).
    depth: u32,
    /// The declaration of the same name this one shadows, if open.
    shadows: Option<u32>,
}

impl Locals {
    pub fn lookup(&self, name: Symbol) -> Option<&LocalSym> {
        self.innermost.get(&name).map(|&i| &self.entries[i as usize].sym)
    }
    /// Whether a built-in type's spelling was ever declared here (not
    /// reset when its scope closes, nor when the scopes are reused).
    pub fn builtin_declared(&self) -> bool {
        self.builtin_declared
    }
    pub fn push(&mut self) {
        self.frames.push(self.entries.len() as u32);
    }
    pub fn pop(&mut self) {
        let Some(start) = self.frames.pop() else {
            return;
        };
        while self.entries.len() > start as usize {
            let Some(e) = self.entries.pop() else { break };
            match e.shadows {
                Some(i) => self.innermost.insert(e.name, i),
                None => self.innermost.remove(&e.name),
            };
        }
    }
    /// The index of `name`'s declaration in the innermost scope, if any.
    fn in_innermost(&self, name: Symbol) -> Option<usize> {
        let start = *self.frames.last()?;
        self.innermost
            .get(&name)
            .filter(|&&i| i >= start)
            .map(|&i| i as usize)
    }
    /// Declares in the innermost scope; returns the previous declaration
    /// in that same scope (a redefinition).
    pub fn declare(&mut self, name: Symbol, sym: LocalSym) -> Option<LocalSym> {
        self.builtin_declared |= crate::intern::builtins::is_builtin_type(name);
        if self.frames.is_empty() {
            self.push();
        }
        // One probe: the name's innermost declaration is replaced when it
        // is in this scope, else shadowed.
        let start = self.frames.last().copied().unwrap_or(0);
        let at = self.entries.len() as u32;
        let shadows = match self.innermost.entry(name) {
            Entry::Occupied(o) if *o.get() >= start => {
                let i = *o.get() as usize;
                return Some(std::mem::replace(&mut self.entries[i].sym, sym));
            }
            Entry::Occupied(mut o) => Some(o.insert(at)),
            Entry::Vacant(v) => {
                v.insert(at);
                None
            }
        };
        self.entries.push(LocalEntry {
            name,
            sym,
            depth: self.frames.len() as u32 - 1,
            shadows,
        });
        None
    }
    /// Replaces the binding of `name` in the innermost scope declaring it.
    pub fn rebind(&mut self, name: Symbol, sym: LocalSym) {
        if let Some(&i) = self.innermost.get(&name) {
            self.entries[i as usize].sym = sym;
        }
    }
    /// Every name declared in the open scopes (a shadowed one too), in
    /// declaration order.
    pub fn names(&self) -> impl Iterator<Item = Symbol> + '_ {
        self.entries.iter().map(|e| e.name)
    }
    /// The variables that `keep` selects, with the depth of their scope.
    pub fn vars_where(&self, keep: impl Fn(&Val) -> bool) -> Vec<(usize, Symbol, Val)> {
        let mut out = Vec::new();
        for e in &self.entries {
            if let LocalSym::Var(v) = &e.sym
                && keep(&v.val)
            {
                out.push((e.depth as usize, e.name, v.val.clone()));
            }
        }
        out
    }
    /// Sets the value of the variable `name` declared at `depth`, if that
    /// scope is still open.
    pub fn set_val_at(&mut self, depth: usize, name: Symbol, val: Val) {
        let mut at = self.innermost.get(&name).copied();
        while let Some(i) = at {
            let e = &mut self.entries[i as usize];
            if e.depth as usize == depth {
                if let LocalSym::Var(v) = &mut e.sym {
                    v.val = val;
                }
                return;
            }
            at = e.shadows;
        }
    }
    pub fn declared_here(&self, name: Symbol) -> Option<&LocalSym> {
        self.in_innermost(name).map(|i| &self.entries[i].sym)
    }
    /// Closes every scope, keeping the room (for the next function).
    pub fn clear(&mut self) {
        self.entries.clear();
        self.innermost.clear();
        self.frames.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sema::body::LocalVar;
    use crate::sema::types::consteval::{ConstVal, Konst};
    use crate::sema::types::{self, Sc};
    use crate::span::Span;

    fn var(n: i64) -> LocalSym {
        let k = Konst {
            sc: Sc::U32,
            v: ConstVal::Int(n),
        };
        LocalSym::Var(LocalVar {
            val: Val::konst(types::UINT, k),
            konst: None,
            span: Span::default(),
        })
    }

    fn value_of(l: &Locals, name: Symbol) -> Option<i64> {
        match l.lookup(name)? {
            LocalSym::Var(v) => match v.val.kind {
                crate::sema::body::place::ValKind::Const(k) => match k.v {
                    ConstVal::Int(n) => Some(n),
                    _ => None,
                },
                _ => None,
            },
            _ => None,
        }
    }

    /// An inner scope shadows; closing it brings the outer declaration
    /// back; a second declaration in one scope replaces the first and
    /// returns it; `set_val_at` reaches the declaration at its depth.
    #[test]
    fn scopes_shadow_and_restore() {
        let (x, y) = (Symbol::intern("x"), Symbol::intern("y"));
        let mut l = Locals::default();
        assert!(l.declare(x, var(1)).is_none());
        l.push();
        assert!(l.declare(x, var(2)).is_none());
        assert!(l.declare(y, var(3)).is_none());
        assert_eq!(value_of(&l, x), Some(2));
        assert!(l.declared_here(x).is_some());
        assert!(l.declare(x, var(4)).is_some(), "a redefinition in one scope");
        assert_eq!(value_of(&l, x), Some(4));
        l.set_val_at(0, x, Val::konst(types::UINT, Konst { sc: Sc::U32, v: ConstVal::Int(5) }));
        assert_eq!(value_of(&l, x), Some(4), "the outer x was set, not the inner");
        assert_eq!(l.names().collect::<Vec<_>>(), vec![x, x, y]);
        let depths: Vec<usize> = l.vars_where(|_| true).iter().map(|v| v.0).collect();
        assert_eq!(depths, vec![0, 1, 1]);
        l.pop();
        assert_eq!(value_of(&l, x), Some(5));
        assert!(l.lookup(y).is_none());
        l.rebind(x, var(6));
        assert_eq!(value_of(&l, x), Some(6));
    }
}
