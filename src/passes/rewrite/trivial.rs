//! The trivial expressions a rebuild appends before its walk (see
//! `rebuild_with`): one of each literal, reference and constant.

use super::Cx;
use crate::ir::build::Body;
use crate::ir::*;
use crate::span::Span;
use rustc_hash::FxHashMap;

impl Cx<'_> {
    /// Appends a trivial expression before the walk, or finds the one
    /// already appended that it equals: the literal of the same bits, or
    /// the reference `trivial` holds under its [`trivial_key`].
    pub(super) fn add_trivial(
        &mut self,
        trivial: &mut FxHashMap<(u64, Handle<Type>), Handle<Expression>>,
        e: &Expression,
        ty: Handle<Type>,
        span: Span,
    ) -> Handle<Expression> {
        use std::collections::hash_map::Entry;
        // Every literal appended is in `literals` (what `emit` does with
        // a new one, with one lookup).
        if let Expression::Literal(l) = *e {
            return match self.literals.entry(l) {
                Entry::Occupied(o) => *o.get(),
                Entry::Vacant(v) => *v.insert(outside(&mut self.body, Expression::Literal(l), ty, span)),
            };
        }
        let Some(key) = trivial_key(e) else {
            return self.emit(e.clone(), ty, span);
        };
        match trivial.entry((key, ty)) {
            Entry::Occupied(o) => *o.get(),
            Entry::Vacant(v) => {
                // What `emit` does with it, without a call to clone it.
                let copy = match *e {
                    Expression::Constant(c) => Expression::Constant(c),
                    Expression::ZeroValue(t) => Expression::ZeroValue(t),
                    Expression::FunctionArgument(i) => Expression::FunctionArgument(i),
                    Expression::GlobalVariable(g) => Expression::GlobalVariable(g),
                    Expression::LocalVariable(l) => Expression::LocalVariable(l),
                    ref other => other.clone(),
                };
                *v.insert(outside(&mut self.body, copy, ty, span))
            }
        }
    }
}

/// A trivial expression appended outside any `Emit` run, with its span.
#[inline]
fn outside(body: &mut Body, e: Expression, ty: Handle<Type>, span: Span) -> Handle<Expression> {
    let h = body.add_outside(e, ty);
    if !span.is_dummy() {
        body.function.set_expr_span(h, span);
    }
    h
}

/// A trivial expression other than a literal or a statement result as
/// one number (its kind above its handle's index): equal for equal
/// expressions, and far cheaper to hash than the expression.
fn trivial_key(e: &Expression) -> Option<u64> {
    let (kind, index) = match *e {
        Expression::Constant(h) => (0u64, h.index()),
        Expression::ZeroValue(t) => (1, t.index()),
        Expression::FunctionArgument(i) => (2, i as usize),
        Expression::GlobalVariable(g) => (3, g.index()),
        Expression::LocalVariable(l) => (4, l.index()),
        _ => return None,
    };
    Some((kind << 32) | index as u64)
}
