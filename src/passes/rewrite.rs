//! Rebuilding a function's expression arena in one walk of its body: the
//! machinery under `const_fold`, `algebra`, `cse`, `dce` and `inline`.
//!
//! Passes that replace an expression by new ones (a folded literal, `x *
//! (1/c)`) cannot edit the arena in place: a new expression would come after
//! its users, and a literal must not stand in an `Emit` range. Instead
//! [`rebuild_function`] walks the body in order and builds a fresh arena:
//! first the old trivial expressions (literals, constants, variable and
//! argument references) that the pass keeps, then, as each `Emit` is
//! reached, whatever the pass makes of each expression, with its operands
//! already mapped to their new handles. Statements are copied with mapped
//! operands; `Emit` ranges are rebuilt around the new expressions (a trivial
//! expression appended in the middle of a run splits the run). The result
//! satisfies the arena invariants by construction: everything an expression
//! uses was appended before it.
//!
//! The walk recurses once per nested block.

use crate::ir::build::Body;
use crate::ir::*;
use crate::span::Span;
use rustc_hash::FxHashMap;

#[cfg(test)]
mod tests;
mod keep;
mod trivial;
mod unroll;
pub use unroll::Unrolling;

/// The state of a rebuild, handed to the pass's hooks.
pub struct Cx<'a> {
    pub module: &'a mut Module,
    /// The function as it was: its expressions and body (its declarations
    /// moved to the new function).
    pub old: &'a Function,
    /// The function being built (arguments, result and locals copied).
    pub body: Body,
    map: Vec<Option<Handle<Expression>>>,
    literals: FxHashMap<Literal, Handle<Expression>>,
    /// Loop counters of the unrolled copies being built, with their value
    /// in the current copy (innermost last): loads of them are literals.
    counters: Vec<(Handle<LocalVariable>, Literal)>,
    /// The `Carry`s copied before the loop about to be rebuilt: their new
    /// result and old latch (mapped once the loop's `continuing` is).
    carried: Vec<(Handle<Expression>, Handle<Expression>)>,
    /// The latch of each new `Carry` result, set when its loop's
    /// `continuing` block ends (by the copy, or by the pass with
    /// [`Cx::set_latch`]) and written into the `Carry` after the loop.
    latches: FxHashMap<Handle<Expression>, Handle<Expression>>,
    /// The branch taken of the `if` with a constant condition just
    /// replaced by that branch, and whether that branch runs to its end:
    /// its `Merge`s become that branch's values.
    folded_if: Option<(bool, bool)>,
    /// Old expressions that no statement defines any more, each read as
    /// the old expression it leads to (see [`rebuild_redirected`]).
    redirect: &'a FxHashMap<Handle<Expression>, Handle<Expression>>,
    /// The functions whose bodies [`Cx::inline_callee`] walks in place of
    /// a call (see [`rebuild_inlining`]).
    callees: Option<&'a Arena<Function>>,
    /// The new handles of the extra trivial expressions appended before
    /// the walk (see [`rebuild_inlining`]), in their order.
    extra: Vec<Handle<Expression>>,
}

/// An expression reached in an `Emit` run, its operands already mapped to
/// their new handles.
pub struct Emitted {
    /// Its handle in the old arena.
    pub old: Handle<Expression>,
    pub expr: Expression,
    pub ty: Handle<Type>,
    pub span: Span,
}

/// What the walk does with an emitted expression of a pass with
/// [`Rewrite::APPENDS_FIRST`] (see [`Rewrite::route`]).
pub enum Route {
    /// Appends it, operands mapped, and hands it to [`Rewrite::appended`].
    Append,
    /// Hands it to [`Rewrite::expression`].
    Hook,
    /// Drops it, as [`Rewrite::expression`] would (it must be unused).
    Drop,
}

/// What a pass does to expressions and statements during a rebuild. Every
/// hook has a default that copies.
pub trait Rewrite {
    /// True when [`Rewrite::expression`] is the default (keeps every
    /// expression as it is): the walk then appends each one itself, its
    /// operands mapped, without handing it to the hook (fewer copies of
    /// the expression on the way). A rewrite that sets it must not
    /// override `expression`.
    const KEEPS_EXPRESSIONS: bool = false;
    /// True when a plain nested block (`Statement::Block`) is walked as if
    /// its statements stood in the block around it: no block of its own
    /// ([`Rewrite::enter_block`] is not called), and a statement in it
    /// that ends the block ends the block around it too. (For
    /// [`Rewrite::unroll`], the statements before one in a nested block
    /// are those of that block.)
    const FLATTENS_BLOCKS: bool = false;
    /// Whether to keep an old trivial expression (not a statement result).
    fn keep_trivial(&self, _old: Handle<Expression>) -> bool {
        true
    }
    /// Whether a local survives the pass (its initialiser is copied only
    /// then; a dropped local must lose every reference).
    fn keep_local(&self, _local: Handle<LocalVariable>) -> bool {
        true
    }
    /// Whether to keep the result of a `Call` or `Atomic` statement (else
    /// the statement's `result` becomes `None`).
    fn keep_result(&self, _old: Handle<Expression>) -> bool {
        true
    }
    /// The new handle for an emitted expression; `None` drops it (it must
    /// be unused).
    fn expression(&mut self, cx: &mut Cx, e: Emitted) -> Option<Handle<Expression>> {
        Some(cx.keep(e))
    }
    /// True when the pass takes the expressions that [`Rewrite::route`]
    /// accepts through [`Rewrite::appended`]: already appended to the new
    /// arena, operands mapped, instead of handed over by value (fewer
    /// copies of the expression on the way).
    const APPENDS_FIRST: bool = false;
    /// With [`Rewrite::APPENDS_FIRST`]: what the walk does with old
    /// expression `old` (`e`, non-trivial, without span; its operands'
    /// new handles are `cx.map` of its own).
    fn route(&self, _cx: &Cx, _old: Handle<Expression>, _e: &Expression) -> Route {
        Route::Hook
    }
    /// What [`Rewrite::expression`] would make of old expression `old`,
    /// given `new`, its copy just appended in the current `Emit` run: `new`
    /// to keep it, or another handle after [`Cx::discard_last`] of `new`.
    fn appended(
        &mut self,
        _cx: &mut Cx,
        _old: Handle<Expression>,
        new: Handle<Expression>,
    ) -> Option<Handle<Expression>> {
        Some(new)
    }
    /// A statement without nested blocks, operands mapped.
    fn statement(&mut self, cx: &mut Cx, s: Statement) {
        cx.push(s);
    }
    /// The value of an `if` condition when the pass knows it.
    fn constant_condition(&self, _cx: &Cx, _condition: Handle<Expression>) -> Option<bool> {
        None
    }
    /// A block starts (the function body, a branch, a loop body, …).
    fn enter_block(&mut self, _cx: &mut Cx) {}
    /// The block that `enter_block` started ends.
    fn leave_block(&mut self, _cx: &mut Cx) {}
    /// Called before a loop's body is rebuilt (values may change around it).
    fn enter_loop(&mut self, _cx: &mut Cx) {}
    /// Called once the loop that `enter_loop` announced is pushed.
    fn after_loop(&mut self, _cx: &mut Cx) {}
    /// Called once an `if` with both its blocks rebuilt is pushed (its
    /// `Merge`s go next).
    fn after_if(&mut self, _cx: &mut Cx) {}
    /// The old statements `rest`, after one that ends their block, are
    /// left out (out of reach, they go with whatever only they used).
    fn unreachable(&mut self, _cx: &mut Cx, _rest: &[Statement]) {}
    /// Whether to rebuild old statement `old` (met in order, a statement
    /// before the ones nested in it, and those of a statement left out
    /// are not met): `false` leaves it out.
    fn keep_statement(&mut self, _cx: &Cx, _old: &Statement) -> bool {
        true
    }
    /// A call the pass rebuilds itself (by walking the callee's body with
    /// [`Cx::inline_callee`]): `Some(ends)` when it did, `ends` saying
    /// whether what it built ends the block (the rest is out of reach).
    fn call(&mut self, _cx: &mut Cx, _old: &Statement) -> Option<bool> {
        None
    }
    /// Whether to replace the loop `old` (after the statements `before` of
    /// its block) by a block per iteration: each a copy of its body (less
    /// `skip`) and continuing block, in which loads of `counter` are the
    /// iteration's value.
    fn unroll(&mut self, _cx: &Cx, _before: &[Statement], _old: &Statement) -> Option<Unrolling> {
        None
    }
}

impl<'a> Cx<'a> {
    /// Appends an expression to the new arena; a non-trivial one joins the
    /// current `Emit` run.
    ///
    /// Most expressions a rebuild appends need evaluation and have no
    /// span (sema keeps few): they join the run in a few instructions
    /// wherever this is called, as `Body::add` would append them; the
    /// others take [`Cx::emit_other`]. Always inlined: a call costs as much
    /// as the append.
    #[inline(always)]
    pub fn emit(&mut self, expr: Expression, ty: Handle<Type>, span: Span) -> Handle<Expression> {
        if expr.is_trivial() || !span.is_dummy() {
            return self.emit_other(expr, ty, span);
        }
        self.body.add_in_run(expr, ty)
    }

    /// [`Cx::emit`] of a trivial expression (outside any `Emit`; a literal
    /// becomes the one [`Cx::literal`] gives for its bits, unless one is
    /// already) or of one with a span.
    fn emit_other(&mut self, expr: Expression, ty: Handle<Type>, span: Span) -> Handle<Expression> {
        let h = if expr.is_trivial() {
            let lit = match expr {
                Expression::Literal(l) => Some(l),
                _ => None,
            };
            let h = self.body.add_outside(expr, ty);
            if let Some(l) = lit {
                self.literals.entry(l).or_insert(h);
            }
            h
        } else {
            self.body.add_in_run(expr, ty)
        };
        if !span.is_dummy() {
            self.body.function.set_expr_span(h, span);
        }
        h
    }

    /// Takes back `new`, the expression just appended to the current run
    /// for [`Rewrite::appended`] (no span, nothing appended after it).
    pub fn discard_last(&mut self, new: Handle<Expression>) {
        let f = &mut self.body.function;
        if new.index() + 1 == f.expressions.len() {
            f.expressions.truncate(new.index());
            f.expr_types.truncate(new.index());
        }
    }

    /// Appends an emitted expression as it is.
    #[inline]
    pub fn keep(&mut self, e: Emitted) -> Handle<Expression> {
        self.emit(e.expr, e.ty, e.span)
    }

    /// A literal expression (the same handle for the same bits).
    pub fn literal(&mut self, lit: Literal) -> Handle<Expression> {
        if let Some(&h) = self.literals.get(&lit) {
            return h;
        }
        let ty = self.module.scalar_type(lit.scalar());
        let h = self.body.add_outside(Expression::Literal(lit), ty);
        self.literals.insert(lit, h);
        h
    }

    /// An expression of the new arena.
    #[inline]
    pub fn expr(&self, h: Handle<Expression>) -> &Expression {
        &self.body.function.expressions[h]
    }
    #[inline]
    pub fn ty(&self, h: Handle<Expression>) -> Handle<Type> {
        self.body.function.expr_type(h)
    }
    #[inline]
    pub fn inner(&self, h: Handle<Expression>) -> &TypeInner {
        &self.module.types[self.body.function.expr_type(h)].inner
    }
    /// The literal an expression of the new arena is, if it is one.
    pub fn as_literal(&self, h: Handle<Expression>) -> Option<Literal> {
        match *self.expr(h) {
            Expression::Literal(l) => Some(l),
            _ => None,
        }
    }

    /// The new handle of an old expression.
    #[inline]
    pub fn map(&self, old: Handle<Expression>) -> Handle<Expression> {
        lookup(&self.map, self.redirect, old)
    }

    /// Sets the new handle of an old expression (of the function whose
    /// body is being walked).
    pub fn set_map(&mut self, old: Handle<Expression>, new: Handle<Expression>) {
        if let Some(slot) = self.map.get_mut(old.index()) {
            *slot = Some(new);
        }
    }

    /// The new handle of the `i`th extra trivial expression given to
    /// [`rebuild_inlining`].
    pub fn extra(&self, i: usize) -> Option<Handle<Expression>> {
        self.extra.get(i).copied()
    }

    /// Walks the body of `callee` (less its last statement when
    /// `skip_last`) into the current block, its expressions read through
    /// `map` (old handles of `callee` to new ones, set for its arguments
    /// and trivial expressions), as if its statements stood in place of
    /// the statement being rebuilt. Returns whether a statement that ends
    /// the block was reached, and the map as the walk left it.
    pub fn inline_callee(
        &mut self,
        rw: &mut impl Rewrite,
        callee: Handle<Function>,
        map: Vec<Option<Handle<Expression>>>,
        skip_last: bool,
    ) -> (bool, Vec<Option<Handle<Expression>>>) {
        let Some(f) = self.callees.and_then(|c| c.get(callee)) else {
            return (false, map);
        };
        let outer_old = std::mem::replace(&mut self.old, f);
        let outer_map = std::mem::replace(&mut self.map, map);
        let n = f.body.len() - usize::from(skip_last && !f.body.is_empty());
        let statements = &f.body[..n];
        let mut ends = false;
        for (i, s) in statements.iter().enumerate() {
            if self.step(rw, &statements[..i], s) {
                ends = true;
                break;
            }
        }
        self.old = outer_old;
        let map = std::mem::replace(&mut self.map, outer_map);
        (ends, map)
    }

    /// Adds a statement to the current block.
    pub fn push(&mut self, s: Statement) {
        self.body.push(s);
    }

    /// Sets the latch of the `Carry` (pushed before the loop being
    /// rebuilt) whose result is `result`: a value visible at the end of
    /// the loop's `continuing` block, where this is called.
    pub fn set_latch(&mut self, result: Handle<Expression>, latch: Handle<Expression>) {
        self.latches.insert(result, latch);
    }

    /// Writes the latches set for the `Carry`s before the loop just pushed.
    fn fill_latches(&mut self) {
        if self.latches.is_empty() {
            return;
        }
        let latches = &mut self.latches;
        let Some(block) = self.body.current_mut() else {
            return;
        };
        let before_loop = block.iter_mut().rev().skip(1);
        for s in before_loop {
            match s {
                Statement::Carry { result, latch, .. } => {
                    if let Some(l) = latches.remove(result) {
                        *latch = l;
                    }
                }
                Statement::Emit(_) => {}
                _ => break,
            }
        }
    }

    /// Rebuilds an old block into a new one.
    pub fn block<R: Rewrite>(&mut self, rw: &mut R, old: &[Statement]) -> Block {
        // With the statements of the plain blocks directly in it (those
        // nested deeper not counted).
        let mut n = old.len();
        if R::FLATTENS_BLOCKS {
            for s in old {
                if let Statement::Block(b) = s {
                    n += b.len();
                }
            }
        }
        self.body.open_with_capacity(n);
        rw.enter_block(self);
        self.steps(rw, old);
        self.body.flush();
        rw.leave_block(self);
        self.body.close()
    }

    fn statement<R: Rewrite>(&mut self, rw: &mut R, s: &Statement) {
        if !rw.keep_statement(self, s) {
            return;
        }
        if R::FLATTENS_BLOCKS
            && let Statement::Block(b) = s
        {
            for s in b {
                self.statement(rw, s);
            }
            return;
        }
        let old = self.old;
        if !matches!(s, Statement::Merge { .. }) {
            self.folded_if = None;
        }
        match s {
            Statement::Emit(r) => {
                if R::KEEPS_EXPRESSIONS {
                    // What the default hook does, straight into the new
                    // arena.
                    self.keep_run(r);
                    return;
                }
                self.hook_run(rw, r);
            }
            Statement::Block(b) => {
                let b = self.block(rw, b);
                self.push(Statement::Block(b));
            }
            Statement::If {
                condition,
                accept,
                reject,
                control,
            } => {
                let condition = self.map(*condition);
                match rw.constant_condition(self, condition) {
                    Some(taken) => {
                        let b = self.block(rw, if taken { accept } else { reject });
                        let ends = b.last().is_some_and(Statement::ends_block);
                        self.folded_if = Some((taken, !ends));
                        if ends {
                            // Keep the rest of this block out of reach
                            // behind a scope of its own.
                            self.push(Statement::Block(b));
                        } else {
                            // A block is only a scope: its statements can
                            // stand here (and what they store stays in view
                            // for the passes that follow).
                            for s in b {
                                self.push(s);
                            }
                        }
                    }
                    None => {
                        let accept = self.block(rw, accept);
                        let reject = self.block(rw, reject);
                        self.push(Statement::If {
                            condition,
                            accept,
                            reject,
                            control: *control,
                        });
                        rw.after_if(self);
                    }
                }
            }
            Statement::Switch { selector, cases } => {
                let selector = self.map(*selector);
                let cases = cases
                    .iter()
                    .map(|c| SwitchCase {
                        value: c.value,
                        body: self.block(rw, &c.body),
                        fall_through: c.fall_through,
                    })
                    .collect();
                self.push(Statement::Switch { selector, cases });
            }
            Statement::Loop {
                body,
                continuing,
                break_if,
                control,
            } => {
                let carried = std::mem::take(&mut self.carried);
                self.body.flush();
                rw.enter_loop(self);
                let body = self.block(rw, body);
                // `break_if` is in the scope of `continuing`: map it before
                // the pass leaves that block.
                self.body.open();
                rw.enter_block(self);
                for s in continuing {
                    self.statement(rw, s);
                }
                self.body.flush();
                let break_if = break_if.map(|b| self.map(b));
                for (result, old_latch) in carried {
                    let latch = self.map(old_latch);
                    self.latches.insert(result, latch);
                }
                rw.leave_block(self);
                let continuing = self.body.close();
                self.push(Statement::Loop {
                    body,
                    continuing,
                    break_if,
                    control: *control,
                });
                self.fill_latches();
                rw.after_loop(self);
            }
            &Statement::Merge {
                result,
                accept,
                reject,
            } if self.folded_if.is_some() => {
                // The `if` is gone: the value is the taken branch's (code
                // after a branch that never ends is unreachable).
                let (taken, ends) = self.folded_if.unwrap_or_default();
                let side = if taken { accept } else { reject };
                let value = match side {
                    Some(v) if ends => self.map(v),
                    _ => {
                        let ty = old.expr_type(result);
                        self.emit(Expression::ZeroValue(ty), ty, Span::default())
                    }
                };
                self.map[result.index()] = Some(value);
            }
            Statement::Merge { result, .. } => {
                if rw.keep_result(*result) {
                    self.define_result(*result);
                    let mut s = s.clone();
                    s.map_expressions(|h| self.map(h));
                    rw.statement(self, s);
                }
            }
            // The most common statement, built with its operands mapped
            // (as `other` below does, without the clone and second walk).
            &Statement::Store { pointer, value } => {
                let s = Statement::Store {
                    pointer: self.map(pointer),
                    value: self.map(value),
                };
                rw.statement(self, s);
            }
            &Statement::Carry {
                result,
                init,
                latch,
            } => {
                if rw.keep_result(result) {
                    self.define_result(result);
                    let result = self.map(result);
                    // The latch is defined in the loop, not rebuilt yet.
                    self.carried.push((result, latch));
                    let init = self.map(init);
                    rw.statement(
                        self,
                        Statement::Carry {
                            result,
                            init,
                            latch,
                        },
                    );
                }
            }
            other => {
                let mut s = other.clone();
                // Statement results are appended when their statement is
                // reached, so a dropped statement leaves none behind.
                let result = match &mut s {
                    Statement::Call { result, .. }
                    | Statement::Atomic { result, .. }
                    | Statement::Ray { result, .. } => result,
                    Statement::Subgroup { result, .. } => {
                        let r = *result;
                        self.define_result(r);
                        s.map_expressions(|h| self.map(h));
                        rw.statement(self, s);
                        return;
                    }
                    // A node operation's result is kept even when unused:
                    // an allocation always gives its payload array.
                    Statement::Node { result, .. } | Statement::Spirv { result, .. } => {
                        if let Some(r) = *result {
                            self.define_result(r);
                        }
                        s.map_expressions(|h| self.map(h));
                        rw.statement(self, s);
                        return;
                    }
                    _ => {
                        s.map_expressions(|h| self.map(h));
                        rw.statement(self, s);
                        return;
                    }
                };
                if let Some(r) = *result {
                    if rw.keep_result(r) {
                        self.define_result(r);
                    } else {
                        *result = None;
                    }
                }
                s.map_expressions(|h| self.map(h));
                rw.statement(self, s);
            }
        }
    }

    /// Rebuilds the statements of `old` in order until one ends the block
    /// (those after it, out of reach, go to [`Rewrite::unreachable`]).
    /// Returns whether one ended it.
    #[inline(always)]
    fn steps<R: Rewrite>(&mut self, rw: &mut R, old: &[Statement]) -> bool {
        for (i, s) in old.iter().enumerate() {
            #[cfg(test)]
            crate::ir::visit::work::visit();
            if self.step(rw, &old[..i], s) {
                if let Some(rest) = old.get(i + 1..)
                    && !rest.is_empty()
                {
                    rw.unreachable(self, rest);
                }
                return true;
            }
        }
        false
    }

    /// Rebuilds `s`, which follows `before` in its block: the copies of
    /// its body if it is a loop `rw` unrolls, what `rw` makes of it if it
    /// is a call `rw` rebuilds itself. Returns whether the block ends
    /// there.
    fn step<R: Rewrite>(&mut self, rw: &mut R, before: &[Statement], s: &Statement) -> bool {
        match s {
            Statement::Block(b) if R::FLATTENS_BLOCKS => return self.steps(rw, b),
            Statement::Loop { .. } => {
                if let Some(u) = rw.unroll(self, before, s) {
                    self.unrolled(rw, s, u);
                    return false;
                }
            }
            Statement::Call { .. } => {
                if let Some(ends) = rw.call(self, s) {
                    return ends;
                }
            }
            _ => {}
        }
        self.statement(rw, s);
        s.ends_block()
    }

    /// Copies a local's initialiser (literals, constants, zero values and
    /// `Compose`/`Splat` of them) into the new arena, without `Emit`.
    fn copy_initialiser(&mut self, h: Handle<Expression>, depth: u32) -> Handle<Expression> {
        if let Some(n) = self.map.get(h.index()).copied().flatten() {
            return n;
        }
        let old = self.old;
        let mut e = old.expressions[h].clone();
        if depth < 64 {
            e.map_operands(|o| self.copy_initialiser(o, depth + 1));
        }
        let ty = old.expr_type(h);
        let n = if e.is_trivial() {
            self.emit(e, ty, old.expr_span(h))
        } else {
            self.body.add_outside(e, ty)
        };
        self.map[h.index()] = Some(n);
        n
    }

    fn define_result(&mut self, old_result: Handle<Expression>) {
        let old = self.old;
        let e = old.expressions[old_result].clone();
        let new = self.emit(e, old.expr_type(old_result), old.expr_span(old_result));
        self.map[old_result.index()] = Some(new);
    }
}

/// The new handle of old expression `old` under `map`, following
/// `redirect` when it was not rebuilt (see [`Cx::map`]).
#[inline]
fn lookup(
    map: &[Option<Handle<Expression>>],
    redirect: &FxHashMap<Handle<Expression>, Handle<Expression>>,
    old: Handle<Expression>,
) -> Handle<Expression> {
    match map.get(old.index()).copied().flatten() {
        Some(new) => new,
        None => redirected(map, redirect, old),
    }
}

/// The new handle of an old expression not rebuilt (itself if it is not
/// redirected).
#[cold]
fn redirected(
    map: &[Option<Handle<Expression>>],
    redirect: &FxHashMap<Handle<Expression>, Handle<Expression>>,
    mut old: Handle<Expression>,
) -> Handle<Expression> {
    while let Some(&to) = redirect.get(&old) {
        if let Some(new) = map.get(to.index()).copied().flatten() {
            return new;
        }
        old = to;
    }
    old
}

/// The rewrite that keeps every expression and statement: a rebuild
/// through it only restores the arena's invariants (an inlined call's
/// result redirected, an expression made trivial taken out of its `Emit`
/// run).
pub struct Unchanged;
impl Rewrite for Unchanged {
    const KEEPS_EXPRESSIONS: bool = true;
}

/// Rebuilds function `h` of `module` through `rw`.
pub fn rebuild_function(module: &mut Module, h: Handle<Function>, rw: &mut impl Rewrite) {
    rebuild_redirected(module, h, rw, &FxHashMap::default());
}

/// Rebuilds function `h` of `module` through `rw`, reading a use of each
/// key of `redirect` (a result no statement defines any more: an inlined
/// call's) as a use of its value (or of that value's value, in turn),
/// which must be defined before the use.
pub fn rebuild_redirected(
    module: &mut Module,
    h: Handle<Function>,
    rw: &mut impl Rewrite,
    redirect: &FxHashMap<Handle<Expression>, Handle<Expression>>,
) {
    let old = std::mem::take(&mut module.functions[h]);
    let new = rebuild_with(module, old, rw, redirect, &Inlining::default());
    module.functions[h] = new;
}

/// What a rebuild that inlines calls needs besides the caller.
#[derive(Default)]
pub struct Inlining<'i> {
    /// The functions whose bodies replace calls (the module's functions,
    /// out of the module while the rebuild runs).
    pub callees: Option<&'i Arena<Function>>,
    /// Trivial expressions to append after the caller's own, deduplicated
    /// with them, in this order (with their types and spans): those of
    /// the inlined bodies, which [`Cx::extra`] then gives.
    pub trivials: &'i [(Expression, Handle<Type>, Span)],
    /// How many expressions the inlined bodies add, about.
    pub added: usize,
}

/// Rebuilds `caller` (out of `module.functions` while this runs) through
/// `rw`, whose [`Rewrite::call`] may walk the bodies of
/// `inlining.callees` in place of calls; `inlining.trivials` join the
/// caller's trivial expressions. Returns the new function.
pub fn rebuild_inlining(
    module: &mut Module,
    caller: Function,
    rw: &mut impl Rewrite,
    inlining: &Inlining,
) -> Function {
    rebuild_with(module, caller, rw, &FxHashMap::default(), inlining)
}

/// Rebuilds `old` (not in `module.functions` while this runs) through
/// `rw` and returns the new function. Its declarations (name, arguments,
/// result, locals) move to the new function, not copied: the walk reads
/// only the old expressions and body.
fn rebuild_with(
    module: &mut Module,
    mut old: Function,
    rw: &mut impl Rewrite,
    redirect: &FxHashMap<Handle<Expression>, Handle<Expression>>,
    inlining: &Inlining,
) -> Function {
    // The new arenas end up about as large as the old ones (a pass removes
    // or adds a few expressions): sized once, they are not regrown and
    // copied a dozen times per function per pass.
    let n = old.expressions.len() + inlining.added;
    // The tables of trivial expressions and of literals, sized once from
    // the old arena (an upper bound): grown from empty, they were rehashed
    // a handful of times per function per pass.
    // The same scan lists the old trivial expressions, in order, for the
    // walk that appends them first (which then skips the others).
    let (mut trivials, mut literals) = (0, 0);
    let mut own_trivials = Vec::with_capacity(old.expressions.len());
    for (h, e) in old.expressions.iter() {
        if e.is_trivial() {
            own_trivials.push(h);
            literals += usize::from(matches!(e, Expression::Literal(_)));
        }
    }
    for (e, _, _) in inlining.trivials {
        if e.is_trivial() {
            trivials += 1;
            literals += usize::from(matches!(e, Expression::Literal(_)));
        }
    }
    trivials += own_trivials.len();
    let new = Function {
        name: std::mem::take(&mut old.name),
        arguments: std::mem::take(&mut old.arguments),
        result: old.result.take(),
        local_variables: std::mem::take(&mut old.local_variables),
        span: old.span,
        export: old.export.take(),
        spirv_decorations: std::mem::take(&mut old.spirv_decorations),
        expressions: Arena::with_capacity(n),
        expr_types: Vec::with_capacity(n),
        expr_spans: Vec::with_capacity(n),
        ..Function::default()
    };
    let old = &old;
    let mut cx = Cx {
        module,
        old,
        body: Body::new(new),
        map: vec![None; old.expressions.len()],
        literals: FxHashMap::with_capacity_and_hasher(literals, Default::default()),
        counters: Vec::new(),
        carried: Vec::new(),
        latches: FxHashMap::default(),
        folded_if: None,
        redirect,
        callees: inlining.callees,
        extra: Vec::with_capacity(inlining.trivials.len()),
    };
    // Trivial expressions are deduplicated: sema makes a fresh reference
    // for each use of a variable, and `access @buf[0]` twice over two
    // references to `@buf` would look different to `cse`.
    let mut trivial: FxHashMap<(u64, Handle<Type>), Handle<Expression>> =
        FxHashMap::with_capacity_and_hasher(trivials, Default::default());
    for h in own_trivials {
        let e = &old.expressions[h];
        if !e.is_statement_result() && rw.keep_trivial(h) {
            let n = cx.add_trivial(&mut trivial, e, old.expr_type(h), old.expr_span(h));
            cx.map[h.index()] = Some(n);
        }
    }
    for (e, ty, span) in inlining.trivials {
        let n = cx.add_trivial(&mut trivial, e, *ty, *span);
        cx.extra.push(n);
    }
    // The locals moved over still hold their old initialisers.
    for l in cx.body.function.local_variables.handles() {
        let init = match cx.body.function.local_variables[l].init {
            Some(i) if rw.keep_local(l) && i.index() < old.expressions.len() => {
                Some(cx.copy_initialiser(i, 0))
            }
            _ => None,
        };
        cx.body.function.local_variables[l].init = init;
    }
    let body = cx.block(rw, &old.body);
    let mut new = cx.body.finish();
    new.body = body;
    new
}

/// How many times each expression is used, by expressions that are
/// emitted or by statements (a `break_if` counts).
pub fn use_counts(f: &Function) -> Vec<u32> {
    let mut counts = vec![0u32; f.expressions.len()];
    let mut bump = |h: Handle<Expression>| {
        if let Some(c) = counts.get_mut(h.index()) {
            *c += 1;
        }
    };
    crate::ir::visit::walk_statements(&f.body, |s| match s {
        Statement::Emit(r) => {
            for h in r.iter() {
                f.expressions[h].for_each_operand(&mut bump);
            }
        }
        Statement::Loop {
            break_if: Some(b), ..
        } => bump(*b),
        other => other.for_each_operand(&mut bump),
    });
    counts
}
