//! Which locals are read: those a live expression points into, where a
//! store into a local is live only once that local is read. A local whose
//! loads only feed stores into locals nobody reads (`val = val * 10;`
//! with `val` never used otherwise) is write-only, its stores dead.

use super::{local_root, pinned};
use crate::ir::visit::walk_statements;
use crate::ir::*;
use rustc_hash::FxHashMap;

/// Per local: whether anything that matters reads it (or it is pinned).
/// One worklist pass over the expressions: linear in the function.
pub(super) fn read_locals(f: &Function) -> Vec<bool> {
    let mut read: Vec<bool> = f.local_variables.iter().map(|(_, l)| pinned(l)).collect();
    let mut live = vec![false; f.expressions.len()];
    let mut stack = Vec::new();
    // The operands of the stores into each local not (yet) known read.
    let mut deferred: FxHashMap<Handle<LocalVariable>, Vec<Handle<Expression>>> =
        FxHashMap::default();
    // The operands of each phi, live when it is.
    let mut phis: FxHashMap<Handle<Expression>, Vec<Handle<Expression>>> = FxHashMap::default();
    fn mark(h: Handle<Expression>, live: &mut [bool], stack: &mut Vec<Handle<Expression>>) {
        if !live[h.index()] {
            live[h.index()] = true;
            stack.push(h);
        }
    }
    walk_statements(&f.body, |s| match *s {
        Statement::Emit(_) => {}
        Statement::Store { pointer, value } => match local_root(f, pointer) {
            Some(l) if !read[l.index()] => deferred.entry(l).or_default().extend([pointer, value]),
            _ => {
                mark(pointer, &mut live, &mut stack);
                mark(value, &mut live, &mut stack);
            }
        },
        Statement::Merge { result, .. } | Statement::Carry { result, .. } => {
            let ops = phis.entry(result).or_default();
            s.for_each_operand(|o| ops.push(o));
        }
        // A debug variable's pointer names the local for debuggers: not a
        // read that keeps its stores (its values still are).
        Statement::Debug(_) => s.for_each_operand(|o| {
            if local_root(f, o).is_none() {
                mark(o, &mut live, &mut stack)
            }
        }),
        ref other => other.for_each_operand(|o| mark(o, &mut live, &mut stack)),
    });
    while let Some(h) = stack.pop() {
        let e = &f.expressions[h];
        if let Expression::LocalVariable(l) = *e
            && !read[l.index()]
        {
            read[l.index()] = true;
            for o in deferred.remove(&l).unwrap_or_default() {
                mark(o, &mut live, &mut stack);
            }
        }
        e.for_each_operand(|o| mark(o, &mut live, &mut stack));
        if let Some(ops) = phis.remove(&h) {
            for o in ops {
                mark(o, &mut live, &mut stack);
            }
        }
    }
    read
}
