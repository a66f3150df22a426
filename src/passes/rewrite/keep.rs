//! The `Emit` runs of a rebuild: through the pass's hooks, or, when the
//! pass keeps every expression as it is ([`Rewrite::KEEPS_EXPRESSIONS`]:
//! unrolling, inlining, a rebuild that only restores the arena's
//! invariants), straight into the new arena.
//!
//! Most expressions of a run only join the new run, their operands
//! mapped: those are read from slices of the old arena and its types and
//! appended straight away, without the checks that [`Cx::emit`] makes of
//! any expression (trivial? a span?), which were made of the old one. The
//! others (a trivial expression, one with a span, a load of an unrolled
//! loop's counter) take the walk's path.
//!
//! [`Rewrite::KEEPS_EXPRESSIONS`]: super::Rewrite::KEEPS_EXPRESSIONS

use super::{Cx, Emitted, Rewrite, Route};
use crate::ir::*;

impl Cx<'_> {
    /// Rebuilds the old run `r` as [`Rewrite::expression`]'s default
    /// would: each expression kept, its operands mapped.
    ///
    /// [`Rewrite::expression`]: super::Rewrite::expression
    pub(super) fn keep_run(&mut self, r: &Range<Expression>) {
        let old = self.old;
        let (start, end) = (r.start_index(), r.end_index());
        let (Some(exprs), Some(types)) = (
            old.expressions.as_slice().get(start..end),
            old.expr_types.get(start..end),
        ) else {
            for h in r.iter() {
                self.keep_one(h);
            }
            return;
        };
        let spans = old.expr_spans.get(start..).unwrap_or_default();
        let counting = !self.counters.is_empty();
        let f = &mut self.body.function;
        f.expressions.reserve(exprs.len());
        f.expr_types.reserve(exprs.len());
        for (i, (e, &ty)) in exprs.iter().zip(types).enumerate() {
            let h = Handle::from_index(start + i);
            if e.is_trivial()
                || spans.get(i).is_some_and(|s| !s.is_dummy())
                || (counting && self.counter_value(h).is_some())
            {
                self.keep_one(h);
                continue;
            }
            let copy = e.mapped(|o| super::lookup(&self.map, self.redirect, o));
            let new = self.body.function.add_expression(copy, ty);
            if let Some(slot) = self.map.get_mut(start + i) {
                *slot = Some(new);
            }
        }
    }

    /// Rebuilds the old run `r` through the pass's hooks: each expression
    /// handed to [`Rewrite::expression`], or appended first and handed to
    /// [`Rewrite::appended`] (see [`Rewrite::APPENDS_FIRST`]).
    ///
    /// [`Rewrite::expression`]: super::Rewrite::expression
    /// [`Rewrite::appended`]: super::Rewrite::appended
    /// [`Rewrite::APPENDS_FIRST`]: super::Rewrite::APPENDS_FIRST
    pub(super) fn hook_run<R: Rewrite>(&mut self, rw: &mut R, r: &Range<Expression>) {
        let old = self.old;
        // Only `unrolled` changes the counters, never a hook.
        let counting = !self.counters.is_empty();
        for h in r.iter() {
            if counting && let Some(lit) = self.counter_value(h) {
                let new = self.literal(lit);
                self.map[h.index()] = Some(new);
                continue;
            }
            let e = &old.expressions[h];
            let ty = old.expr_type(h);
            let span = old.expr_span(h);
            if R::APPENDS_FIRST && !e.is_trivial() && span.is_dummy() {
                match rw.route(self, h, e) {
                    Route::Append => {
                        // As `Cx::emit` appends such an expression.
                        let copy = e.mapped(|o| self.map(o));
                        let new = self.body.add_in_run(copy, ty);
                        self.map[h.index()] = rw.appended(self, h, new);
                        continue;
                    }
                    Route::Drop => {
                        self.map[h.index()] = None;
                        continue;
                    }
                    Route::Hook => {}
                }
            }
            let e = Emitted {
                old: h,
                expr: e.mapped(|o| self.map(o)),
                ty,
                span,
            };
            let new = rw.expression(self, e);
            self.map[h.index()] = new;
        }
    }

    /// Rebuilds old expression `h` of a run as the default hook would
    /// (a load of an unrolled counter is the copy's literal).
    pub(super) fn keep_one(&mut self, h: Handle<Expression>) {
        if !self.counters.is_empty()
            && let Some(lit) = self.counter_value(h)
        {
            let new = self.literal(lit);
            self.map[h.index()] = Some(new);
            return;
        }
        let old = self.old;
        let expr = old.expressions[h].mapped(|o| self.map(o));
        let new = self.emit(expr, old.expr_type(h), old.expr_span(h));
        self.map[h.index()] = Some(new);
    }
}
