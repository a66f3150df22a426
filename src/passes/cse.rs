//! `cse`: common subexpression elimination within block scopes.
//!
//! An expression equal to one already emitted in the same block or a block
//! around it (same operation, same operands after renaming, same type)
//! reuses that one. Equality includes the `precise` flag, so a precise
//! expression and a non-precise twin are never merged.
//!
//! Memory reads are treated with care: a `Load` (or a read of a storage
//! image) is reused only within one straight run of expressions — any
//! statement other than an `Emit`, and any block boundary, forgets them,
//! since a store, call, atomic, barrier or loop iteration could change the
//! memory. Loads from memory the shader cannot write (inputs, uniform and
//! push-constant blocks, read-only buffers) are pure and are reused across
//! statements in scope.
//!
//! The walk also leaves out what `dce` would remove first (stores nothing
//! reads, then expressions and locals nothing live uses): one rebuild for
//! both, and `dce` after it usually finds nothing more to rebuild for.
//!
//! Once equal operands are one, the composite shortcuts of `algebra`
//! apply again (a vector composed of the lanes of one vector is it).
//!
//! The pass rebuilds expression arenas: handles change.

use super::dce;
use super::rewrite::{Cx, Emitted, Rewrite, Route, rebuild_function};
use crate::ir::*;
use rustc_hash::FxHashMap;
use std::collections::hash_map::Entry;

/// What `cse` tells `dce` of the module it leaves (see
/// [`dce::run_after_cse`]).
#[derive(Default)]
pub struct Left {
    /// Per function: whether the rebuild left nothing that `dce` would
    /// find dead.
    pub settled: Vec<bool>,
    /// Which functions are pure (as `dce::pure_functions` finds), when
    /// every function is settled: then no statement out of reach went,
    /// and what else the rebuilds leave out (stores into locals, calls of
    /// pure functions, constructs that hold no effect) is no effect, so
    /// the table found before them still holds.
    pub pure: Option<Vec<bool>>,
}

/// Runs CSE on every function; what `dce` would find dead (after dropping
/// the stores nothing reads) is left out in the same walk. Returns what
/// `dce` may take as known.
pub fn run(module: &mut Module) -> Left {
    run_with(module, rebuild_function)
}

/// [`run`], each function rebuilt by `rebuild` through its `Cse`.
fn run_with(
    module: &mut Module,
    mut rebuild: impl FnMut(&mut Module, Handle<Function>, &mut Cse),
) -> Left {
    let handles: Vec<Handle<Function>> = module.functions.handles().collect();
    let pure = dce::pure_functions(module);
    let mut settled = vec![false; handles.len()];
    for h in handles {
        let f = &mut module.functions[h];
        // The dead stores and control statements are left out as the
        // rebuild walks, not dropped from the body first.
        let (dead, drops) = dce::analyse_leaving_stores(f, &pure);
        // At most one entry per expression: sized once, the table of pure
        // expressions is not rehashed as it fills.
        let n = f.expressions.len();
        let mut cse = Cse {
            dead,
            drops,
            pure: FxHashMap::with_capacity_and_hasher(n, Default::default()),
            ..Cse::default()
        };
        // A kept local's initialiser other than a literal or constant is
        // an expression no statement uses: `dce` finds it dead.
        cse.unsettled = f.local_variables.iter().any(|(l, v)| {
            v.init.is_some_and(|i| {
                cse.keep_local(l) && f.expressions.get(i).is_none_or(|e| !e.is_trivial())
            })
        });
        rebuild(module, h, &mut cse);
        if let Some(s) = settled.get_mut(h.index()) {
            *s = !cse.unsettled;
        }
    }
    let pure = settled.iter().all(|s| *s).then_some(pure);
    Left { settled, pure }
}

/// The hash of an expression and its type: the tables hold handles of the
/// new arena under it, never copies of the expressions. Two different
/// expressions with one hash (a 64-bit collision) are not merged: the
/// second is emitted apart and stays out of the table.
type Key = u64;

fn key(expr: &Expression, ty: Handle<Type>) -> Key {
    use std::hash::BuildHasher;
    rustc_hash::FxBuildHasher.hash_one((expr, ty))
}

#[derive(Default)]
struct Cse {
    /// What is live, when something is dead.
    dead: Option<dce::Dce>,
    /// The statements to leave out, when some are dead.
    drops: Option<dce::Drops>,
    /// Pure expressions in scope.
    pure: FxHashMap<Key, Handle<Expression>>,
    /// Keys added per open block, to forget them when it closes.
    undo: Vec<Vec<Key>>,
    /// Memory reads of the current straight run.
    reads: FxHashMap<Key, Handle<Expression>>,
    /// Whether the rebuild may have left something that `dce` would find
    /// dead, or that its search would change. What is kept was live in
    /// what `dce::analyse` left, and merging an expression into an equal
    /// one keeps its operands in use; but a composite shortcut may leave
    /// the parts it looked through unused, statements out of reach after
    /// a `return` go with their uses, and initialisers and debug
    /// variables have rules of their own.
    unsettled: bool,
}

enum Kind {
    Pure,
    Read,
    Never,
}

fn kind(cx: &Cx, e: &Expression) -> Kind {
    match *e {
        Expression::Load { pointer } => match *cx.inner(pointer) {
            TypeInner::Pointer { space, .. } => match space {
                AddressSpace::Input
                | AddressSpace::Uniform
                | AddressSpace::PushConstant
                | AddressSpace::Handle
                | AddressSpace::Storage { writable: false } => Kind::Pure,
                _ => Kind::Read,
            },
            _ => Kind::Never,
        },
        Expression::ImageLoad { image, .. } => match *image_type(cx, image) {
            TypeInner::Image {
                class: ImageClass::Storage { .. },
                ..
            } => Kind::Read,
            _ => Kind::Pure,
        },
        // Statement results name one statement each.
        ref e if e.is_trivial() => Kind::Never,
        _ => Kind::Pure,
    }
}

/// The type of an image operand: a value or a pointer to a `Handle` global.
fn image_type<'c>(cx: &'c Cx, image: Handle<Expression>) -> &'c TypeInner {
    match *cx.inner(image) {
        TypeInner::Pointer { base, .. } => &cx.module.types[base].inner,
        ref other => other,
    }
}

impl Rewrite for Cse {
    const APPENDS_FIRST: bool = true;
    fn keep_local(&self, l: Handle<LocalVariable>) -> bool {
        self.dead.as_ref().is_none_or(|d| d.keep_local(l))
    }
    fn keep_trivial(&self, old: Handle<Expression>) -> bool {
        self.dead.as_ref().is_none_or(|d| d.keep_trivial(old))
    }
    fn keep_result(&self, old: Handle<Expression>) -> bool {
        self.dead.as_ref().is_none_or(|d| d.keep_result(old))
    }
    fn expression(&mut self, cx: &mut Cx, e: Emitted) -> Option<Handle<Expression>> {
        if !self.keep_result(e.old) {
            return None;
        }
        // With equal operands merged, composites may pick known parts.
        if let Some(h) = super::algebra::composite::simplify(cx, &e.expr, e.ty, e.span) {
            self.unsettled = true;
            return Some(h);
        }
        let Emitted { expr, ty, span, .. } = e;
        let k = kind(cx, &expr);
        let table = match k {
            Kind::Pure => &mut self.pure,
            Kind::Read => &mut self.reads,
            Kind::Never => return Some(cx.emit(expr, ty, span)),
        };
        let key = key(&expr, ty);
        // One lookup for both the search and the insertion that follows
        // a miss (most expressions are new).
        let slot = match table.entry(key) {
            Entry::Occupied(o) => {
                let h = *o.get();
                if *cx.expr(h) == expr && cx.ty(h) == ty {
                    return Some(h);
                }
                return Some(cx.emit(expr, ty, span));
            }
            Entry::Vacant(v) => v,
        };
        let h = cx.emit(expr, ty, span);
        slot.insert(h);
        if let Kind::Pure = k
            && let Some(u) = self.undo.last_mut()
        {
            u.push(key);
        }
        Some(h)
    }

    /// What is left out goes at once; what the composite shortcuts may
    /// simplify takes [`Rewrite::expression`]; the rest is appended.
    fn route(&self, cx: &Cx, old: Handle<Expression>, e: &Expression) -> Route {
        if !self.keep_result(old) {
            return Route::Drop;
        }
        match e {
            Expression::Swizzle { .. } | Expression::AccessIndex { .. } | Expression::Compose { .. }
                if !super::algebra::composite::leaves_alone(cx, e) =>
            {
                Route::Hook
            }
            _ => Route::Append,
        }
    }

    /// [`Rewrite::expression`] of an expression that is kept and that the
    /// composite shortcuts leave alone, appended already: it stays unless
    /// one equal to it is in scope.
    fn appended(
        &mut self,
        cx: &mut Cx,
        _old: Handle<Expression>,
        new: Handle<Expression>,
    ) -> Option<Handle<Expression>> {
        let expr = cx.expr(new);
        let k = kind(cx, expr);
        let table = match k {
            Kind::Pure => &mut self.pure,
            Kind::Read => &mut self.reads,
            Kind::Never => return Some(new),
        };
        let ty = cx.ty(new);
        let key = key(expr, ty);
        match table.entry(key) {
            Entry::Occupied(o) => {
                let h = *o.get();
                if cx.expr(h) == expr && cx.ty(h) == ty {
                    cx.discard_last(new);
                    return Some(h);
                }
            }
            Entry::Vacant(v) => {
                v.insert(new);
                if let Kind::Pure = k
                    && let Some(u) = self.undo.last_mut()
                {
                    u.push(key);
                }
            }
        }
        Some(new)
    }

    fn statement(&mut self, cx: &mut Cx, s: Statement) {
        // (Clearing an empty table still wipes its buckets.)
        if !self.reads.is_empty() {
            self.reads.clear();
        }
        self.unsettled |= matches!(s, Statement::Debug(DebugInfo::Variable { .. }));
        cx.push(s);
    }

    fn unreachable(&mut self, _cx: &mut Cx, rest: &[Statement]) {
        self.unsettled = true;
        if let Some(d) = &mut self.drops {
            d.skip(rest);
        }
    }

    fn keep_statement(&mut self, cx: &Cx, old: &Statement) -> bool {
        self.drops.as_mut().is_none_or(|d| d.keeps(cx.old, old))
    }

    fn enter_block(&mut self, _cx: &mut Cx) {
        self.reads.clear();
        self.undo.push(Vec::new());
    }

    fn leave_block(&mut self, _cx: &mut Cx) {
        self.reads.clear();
        let keys = self.undo.pop().unwrap_or_default();
        // The function's body ends: nothing looks the table up any more
        // (it goes with the pass), no need to take its keys out one by
        // one.
        if self.undo.is_empty() {
            return;
        }
        for k in keys {
            self.pure.remove(&k);
        }
    }

    fn enter_loop(&mut self, _cx: &mut Cx) {
        self.reads.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::{Cse, run, run_with};
    use crate::passes::rewrite::{Cx, Emitted, Rewrite, rebuild_function};
    use crate::ir::build::FunctionBuilder;
    use crate::ir::display::module_to_string;
    use crate::ir::*;
    use crate::passes::test_util::{check_valid, private_float};
    use BinaryOperator::*;

    /// Runs the pass on a valid module; the result, still valid, as text.
    fn run_valid(m: &mut Module) -> String {
        check_valid(m);
        run(m);
        check_valid(m);
        module_to_string(m)
    }

    /// What `dce` would drop goes in the same walk: an unused product, and
    /// a local's store whose one load is unused, then the stored sum (the
    /// declaration itself is `dce`'s to drop).
    #[test]
    fn leaves_out_dead_code() {
        let mut m = Module::default();
        let (t, out) = private_float(&mut m, "out");
        let mut fb = FunctionBuilder::new(&mut m, "main");
        let l = fb.local("l", t, false);
        let o = fb.global(out);
        let x = fb.load(o);
        fb.binary(Multiply, x, x);
        let sum = fb.binary(Add, x, x);
        fb.store(l, sum);
        fb.load(l);
        fb.store(o, x);
        fb.finish();
        let text = run_valid(&mut m);
        let expected = "\
global @out:float Private

fn main() {
    local $l:float
    %1:float = load @out
    store @out, %1
}
";
        assert_eq!(text, expected);
    }

    #[test]
    fn merges_in_scope_but_not_precise_twins_or_loads_across_stores() {
        let mut m = Module::default();
        let (_, out) = private_float(&mut m, "out");
        let mut fb = FunctionBuilder::new(&mut m, "main");
        let o = fb.global(out);
        let x = fb.load(o);
        let x_again = fb.load(o);
        let a = fb.binary(Add, x, x);
        let b = fb.binary(Add, x_again, x_again);
        let p = fb.binary(Add, x, x);
        if let Expression::Binary { precise, .. } = &mut fb.body.function.expressions[p] {
            *precise = true;
        }
        fb.store(o, a);
        fb.store(o, b);
        fb.store(o, p);
        // After a store, the load is not reused.
        let x2 = fb.load(o);
        fb.store(o, x2);
        // Inside a branch, the outer add is reused; the branch's own add is
        // not visible after it.
        let c = fb.bool(true);
        let mut inner = None;
        fb.if_(
            c,
            |fb| {
                let a2 = fb.binary(Add, x, x);
                let y = fb.binary(Multiply, x, x);
                inner = Some(y);
                fb.store(o, a2);
                fb.store(o, y);
            },
            |_| {},
        );
        let y2 = fb.binary(Multiply, x, x);
        fb.store(o, y2);
        fb.finish();
        let text = run_valid(&mut m);
        let expected = "\
global @out:float Private

fn main() {
    %2:float = load @out
    %3:float = add %2, %2
    %4:float = precise add %2, %2
    store @out, %3
    store @out, %3
    store @out, %4
    %5:float = load @out
    store @out, %5
    if true {
        %6:float = mul %2, %2
        store @out, %3
        store @out, %6
    }
    %7:float = mul %2, %2
    store @out, %7
}
";
        assert_eq!(text, expected);
    }

    /// `Cse` with every expression handed over by value, through
    /// `Rewrite::expression` (the path before `APPENDS_FIRST`).
    struct ByValue<'c>(&'c mut Cse);
    impl Rewrite for ByValue<'_> {
        fn keep_local(&self, l: Handle<LocalVariable>) -> bool {
            self.0.keep_local(l)
        }
        fn keep_trivial(&self, old: Handle<Expression>) -> bool {
            self.0.keep_trivial(old)
        }
        fn keep_result(&self, old: Handle<Expression>) -> bool {
            self.0.keep_result(old)
        }
        fn expression(&mut self, cx: &mut Cx, e: Emitted) -> Option<Handle<Expression>> {
            self.0.expression(cx, e)
        }
        fn statement(&mut self, cx: &mut Cx, s: Statement) {
            self.0.statement(cx, s)
        }
        fn enter_block(&mut self, cx: &mut Cx) {
            self.0.enter_block(cx)
        }
        fn leave_block(&mut self, cx: &mut Cx) {
            self.0.leave_block(cx)
        }
        fn enter_loop(&mut self, cx: &mut Cx) {
            self.0.enter_loop(cx)
        }
        fn unreachable(&mut self, cx: &mut Cx, rest: &[Statement]) {
            self.0.unreachable(cx, rest)
        }
        fn keep_statement(&mut self, cx: &Cx, old: &Statement) -> bool {
            self.0.keep_statement(cx, old)
        }
    }

    /// Twins before and after stores, in and after branches and loops,
    /// dead twins before live ones, precise twins, composes of one
    /// vector's lanes and accesses: appended first or handed over by
    /// value, the expressions come out the same.
    #[test]
    fn appending_first_agrees_with_the_hook() {
        let build = || {
            let mut m = Module::default();
            let (_, out) = private_float(&mut m, "out");
            let v2 = m.vector_type(2, Scalar::F32);
            let inp = crate::ir::build::add_global(&mut m, "inp", AddressSpace::Input, v2);
            let mut fb = FunctionBuilder::new(&mut m, "main");
            let o = fb.global(out);
            let i = fb.global(inp);
            let v = fb.load(i);
            let x = fb.load(o);
            // Dead, then its live twin.
            fb.binary(Multiply, x, x);
            let m2 = fb.binary(Multiply, x, x);
            let a = fb.access_index(v, 0);
            let b = fb.access_index(v, 1);
            let a2 = fb.access_index(v, 0);
            let c = fb.compose(v2, &[a, b]);
            let c2 = fb.compose(v2, &[a2, b]);
            let s = fb.binary(Add, c, c2);
            let d = fb.compose(v2, &[x, m2]);
            let d2 = fb.compose(v2, &[x, m2]);
            let s = fb.binary(Add, s, d);
            let s = fb.binary(Add, s, d2);
            let p = fb.binary(Add, x, m2);
            if let Expression::Binary { precise, .. } = &mut fb.body.function.expressions[p] {
                *precise = true;
            }
            let q = fb.binary(Add, x, m2);
            let e = fb.access_index(s, 1);
            fb.store(o, e);
            fb.store(o, p);
            fb.store(o, q);
            let x2 = fb.load(o);
            let r = fb.binary(Multiply, x2, x2);
            fb.store(o, r);
            let cond = fb.bool(true);
            fb.if_(
                cond,
                |fb| {
                    let x3 = fb.load(o);
                    let t = fb.binary(Multiply, x, x);
                    let u = fb.binary(Subtract, x3, t);
                    fb.store(o, u);
                },
                |fb| {
                    let t = fb.binary(Add, x, m2);
                    fb.store(o, t);
                },
            );
            fb.loop_(
                |fb| {
                    let x4 = fb.load(o);
                    let t = fb.binary(Multiply, x, x);
                    let w = fb.binary(Add, x4, t);
                    let w2 = fb.binary(Add, x4, t);
                    fb.store(o, w);
                    fb.store(o, w2);
                    fb.push(Statement::Break);
                },
                |_| None,
            );
            let t = fb.binary(Multiply, x, x);
            fb.store(o, t);
            fb.finish();
            m
        };
        let mut fast = build();
        let fast_text = run_valid(&mut fast);
        let mut slow = build();
        check_valid(&slow);
        run_with(&mut slow, |m, h, cse| rebuild_function(m, h, &mut ByValue(cse)));
        check_valid(&slow);
        assert_eq!(fast_text, module_to_string(&slow));
        // Something was merged and something left out.
        assert!(fast_text.matches("= mul").count() < 6, "{fast_text}");
    }
}
