//! `forward`: store-to-load forwarding for local variables, at -O1 and
//! above.
//!
//! Sema gives every HLSL variable and parameter a local and reads it with a
//! `load`. Where the value a load reads is known — the last `store` into
//! that local on every path to the load, in the same block or a block
//! around it — the load is replaced by the stored value; a load through a
//! constant access chain (`s.pos.x`, `m[1]`) becomes an `access` of the
//! stored value. `dce` then removes the stores and locals nothing reads.
//!
//! Only *simple* locals are forwarded: their address never escapes (no
//! call argument, atomic or anything but `load`, access chains that are
//! loaded, and stores of the whole variable). Nothing else can write a
//! simple local, so the walk needs no alias analysis. The walk follows the
//! structured body in order with a table of known values:
//! - a store sets the value; a nested block starts with the values known
//!   before it, and after it every local it stored is unknown;
//! - a loop first forgets every local stored anywhere in it (a load in the
//!   body may see the previous iteration's store);
//! - a local with a literal, constant or zero initialiser starts known.
//!
//! A stored value is visible where it is forwarded to (the same block
//! after the store, or blocks nested in it), as the IR's scoping requires.
//!
//! Precise: the pass runs after `precise`, which already marked every
//! operation that contributes to a precise variable; forwarding replaces
//! only loads, never an operation, so those marks stay where they are and
//! nothing new is marked (a use of a precise variable is not precise).
//!
//! After forwarding, constants may have become visible (`float k = 2; x *
//! k`): the pass folds again. That fold reports nothing: a constant
//! division by zero reached only through a variable is not an error at any
//! level (`const_fold`, which runs first, reports the literal ones), so
//! diagnostics never depend on the optimisation level.
//!
//! The pass rebuilds expression arenas: handles change.

use super::const_fold::{self, FoldOptions};
use super::rewrite::{Cx, Rewrite, rebuild_function};
use crate::diag::Diagnostics;
use crate::ir::*;
use crate::span::Span;
use rustc_hash::{FxHashMap, FxHashSet};

/// Forwards stores to loads in every function, then folds constants with
/// `fold`'s float environment.
pub fn run(module: &mut Module, fold: &FoldOptions) {
    let handles: Vec<Handle<Function>> = module.functions.handles().collect();
    for h in handles {
        let f = &module.functions[h];
        let simple = simple_locals(f);
        if !simple.iter().any(|s| *s) {
            continue;
        }
        let mut loops = Vec::new();
        stores_in(&f.body, f, &simple, &mut loops, true);
        let mut fw = Forward {
            simple,
            loops,
            next_loop: 0,
            known: FxHashMap::default(),
            log: Vec::new(),
            frames: Vec::new(),
        };
        rebuild_function(module, h, &mut fw);
    }
    // What forwarding made constant; errors were reported by the first fold.
    let mut silent = Diagnostics::new();
    const_fold::run(module, fold, &mut silent);
}

/// The local a pointer expression points into, for every expression.
fn local_roots(f: &Function) -> Vec<Option<Handle<LocalVariable>>> {
    let mut roots: Vec<Option<Handle<LocalVariable>>> = vec![None; f.expressions.len()];
    for (h, e) in f.expressions.iter() {
        roots[h.index()] = match *e {
            Expression::LocalVariable(l) => Some(l),
            Expression::AccessIndex { base, .. } | Expression::Access { base, .. } => {
                roots.get(base.index()).copied().flatten()
            }
            _ => None,
        };
    }
    roots
}

/// Which locals are simple (see the module docs).
fn simple_locals(f: &Function) -> Vec<bool> {
    let roots = local_roots(f);
    let root = |h: Handle<Expression>| roots.get(h.index()).copied().flatten();
    let mut simple = vec![true; f.local_variables.len()];
    for (_, e) in f.expressions.iter() {
        match e {
            Expression::Load { .. }
            | Expression::AccessIndex { .. }
            | Expression::Access { .. }
            | Expression::LocalVariable(_) => {}
            other => other.for_each_operand(|o| {
                if let Some(l) = root(o) {
                    simple[l.index()] = false;
                }
            }),
        }
    }
    crate::ir::visit::walk_statements(&f.body, |s| match *s {
        Statement::Store { pointer, value } => {
            if let Some(l) = root(pointer)
                && !matches!(f.expressions[pointer], Expression::LocalVariable(_))
            {
                simple[l.index()] = false;
            }
            if let Some(l) = root(value) {
                simple[l.index()] = false;
            }
        }
        ref other => other.for_each_operand(|o| {
            if let Some(l) = root(o) {
                simple[l.index()] = false;
            }
        }),
    });
    simple
}

/// The simple locals stored in `block`; records, for each loop in the order
/// the rebuild meets them, the simple locals stored anywhere in it.
fn stores_in(
    block: &[Statement],
    f: &Function,
    simple: &[bool],
    loops: &mut Vec<Vec<Handle<LocalVariable>>>,
    stop_at_terminator: bool,
) -> FxHashSet<Handle<LocalVariable>> {
    let mut set = FxHashSet::default();
    for s in block {
        match s {
            Statement::Store { pointer, .. } => {
                if let Expression::LocalVariable(l) = f.expressions[*pointer]
                    && simple[l.index()]
                {
                    set.insert(l);
                }
            }
            Statement::Loop {
                body, continuing, ..
            } => {
                let k = loops.len();
                loops.push(Vec::new());
                let mut inner = stores_in(body, f, simple, loops, true);
                // The rebuild walks `continuing` without stopping at a
                // terminator: so does this.
                inner.extend(stores_in(continuing, f, simple, loops, false));
                let mut list: Vec<_> = inner.iter().copied().collect();
                list.sort_by_key(|l| l.index());
                loops[k] = list;
                set.extend(inner);
            }
            other => {
                for b in other.blocks() {
                    set.extend(stores_in(b, f, simple, loops, true));
                }
            }
        }
        if stop_at_terminator
            && matches!(
                s,
                Statement::Break | Statement::Continue | Statement::Return { .. } | Statement::Kill
            )
        {
            break;
        }
    }
    set
}

struct Frame {
    /// Where this block's entries in `log` start.
    mark: usize,
    /// Simple locals stored in this block or blocks nested in it.
    stored: FxHashSet<Handle<LocalVariable>>,
}

struct Forward {
    simple: Vec<bool>,
    /// Per loop, in rebuild order: the simple locals stored in it.
    loops: Vec<Vec<Handle<LocalVariable>>>,
    next_loop: usize,
    /// The value each local is known to hold here (new-arena handles).
    known: FxHashMap<Handle<LocalVariable>, Handle<Expression>>,
    /// Undo log of `known`: (local, previous value).
    log: Vec<(Handle<LocalVariable>, Option<Handle<Expression>>)>,
    frames: Vec<Frame>,
}

impl Forward {
    fn set(&mut self, l: Handle<LocalVariable>, v: Handle<Expression>) {
        let prev = self.known.insert(l, v);
        self.log.push((l, prev));
    }
    fn forget(&mut self, l: Handle<LocalVariable>) {
        if let Some(prev) = self.known.remove(&l) {
            self.log.push((l, Some(prev)));
        }
    }

    /// The value a load through `pointer` (new arena) reads, when known.
    fn forwarded(
        &self,
        cx: &mut Cx,
        pointer: Handle<Expression>,
        span: Span,
    ) -> Option<Handle<Expression>> {
        let mut indices = Vec::new();
        let mut p = pointer;
        let local = loop {
            match *cx.expr(p) {
                Expression::AccessIndex { base, index } => {
                    indices.push((index, p));
                    p = base;
                }
                Expression::LocalVariable(l) => break l,
                _ => return None,
            }
        };
        if !self.simple.get(local.index()).copied().unwrap_or(false) {
            return None;
        }
        let mut value = *self.known.get(&local)?;
        // From the variable outwards: each step's type is the pointee of
        // that step's pointer.
        for &(index, step) in indices.iter().rev() {
            let ty = match cx.module.types[cx.ty(step)].inner {
                TypeInner::Pointer { base, .. } => base,
                _ => return None,
            };
            value = cx.emit(Expression::AccessIndex { base: value, index }, ty, span);
        }
        Some(value)
    }
}

impl Rewrite for Forward {
    fn expression(
        &mut self,
        cx: &mut Cx,
        _old: Handle<Expression>,
        expr: Expression,
        ty: Handle<Type>,
        span: Span,
    ) -> Option<Handle<Expression>> {
        if let Expression::Load { pointer } = expr
            && let Some(v) = self.forwarded(cx, pointer, span)
        {
            return Some(v);
        }
        Some(cx.emit(expr, ty, span))
    }

    fn statement(&mut self, cx: &mut Cx, s: Statement) {
        if let Statement::Store { pointer, value } = s
            && let Expression::LocalVariable(l) = *cx.expr(pointer)
            && self.simple.get(l.index()).copied().unwrap_or(false)
        {
            self.set(l, value);
            if let Some(f) = self.frames.last_mut() {
                f.stored.insert(l);
            }
        }
        cx.push(s);
    }

    fn enter_block(&mut self, cx: &mut Cx) {
        if self.frames.is_empty() {
            // The function body: locals with a trivial initialiser start
            // with its value.
            let inits: Vec<_> = cx
                .new
                .local_variables
                .iter()
                .filter(|(l, _)| self.simple[l.index()])
                .filter_map(|(l, v)| v.init.map(|i| (l, i)))
                .filter(|&(_, i)| {
                    matches!(
                        cx.new.expressions[i],
                        Expression::Literal(_) | Expression::Constant(_) | Expression::ZeroValue(_)
                    )
                })
                .collect();
            for (l, i) in inits {
                self.set(l, i);
            }
        }
        self.frames.push(Frame {
            mark: self.log.len(),
            stored: FxHashSet::default(),
        });
    }

    fn leave_block(&mut self, _cx: &mut Cx) {
        let Some(frame) = self.frames.pop() else {
            return;
        };
        while self.log.len() > frame.mark {
            if let Some((l, prev)) = self.log.pop() {
                match prev {
                    Some(v) => self.known.insert(l, v),
                    None => self.known.remove(&l),
                };
            }
        }
        // After the block, what it stored is not known in general (it may
        // not have run, or stopped early).
        let mut stored: Vec<_> = frame.stored.into_iter().collect();
        stored.sort_by_key(|l| l.index());
        for &l in &stored {
            self.forget(l);
        }
        if let Some(parent) = self.frames.last_mut() {
            parent.stored.extend(stored);
        }
    }

    fn enter_loop(&mut self, _cx: &mut Cx) {
        let stored = self.loops.get(self.next_loop).cloned().unwrap_or_default();
        self.next_loop += 1;
        for l in stored {
            self.forget(l);
        }
    }
}

#[cfg(test)]
mod tests;
