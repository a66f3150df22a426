//! The walk's own copy of kept expressions (`Rewrite::KEEPS_EXPRESSIONS`)
//! against the hook's.

use super::{Cx, Emitted, Rewrite, Unchanged, Unrolling, rebuild_function};
use crate::ir::build::{FunctionBuilder, add_global};
use crate::ir::display::module_to_string;
use crate::ir::*;
use crate::passes::test_util::check_valid;
use crate::span::{Loc, Span};
use BinaryOperator::*;

/// Keeps every expression through the `expression` hook.
struct Kept;
impl Rewrite for Kept {
    fn expression(&mut self, cx: &mut Cx, e: Emitted) -> Option<Handle<Expression>> {
        Some(cx.keep(e))
    }
}

/// Loads, arithmetic with a span, a compose, stores in nested blocks, and
/// an emitted expression turned into a literal in place (as a pass that
/// edits the arena leaves it: it must leave its `Emit` run).
fn module() -> (Module, Handle<Function>) {
    let mut m = Module::default();
    let f32t = m.scalar_type(Scalar::F32);
    let v2 = m.vector_type(2, Scalar::F32);
    let out = add_global(&mut m, "out", AddressSpace::Private, f32t);
    let mut fb = FunctionBuilder::new(&mut m, "main");
    let o = fb.global(out);
    let l = fb.local("l", f32t, false);
    let x = fb.load(o);
    let one = fb.f32(1.0);
    let sum = fb.binary(Add, x, one);
    let made_literal = fb.binary(Multiply, sum, sum);
    let v = fb.compose(v2, &[sum, made_literal]);
    let y = fb.access_index(v, 1);
    fb.store(l, y);
    let c = fb.binary(Less, x, one);
    fb.if_(
        c,
        |fb| {
            let z = fb.load(l);
            let w = fb.binary(Subtract, z, one);
            fb.store(o, w);
        },
        |fb| {
            let w = fb.binary(Divide, x, one);
            fb.store(l, w);
        },
    );
    let z = fb.load(l);
    fb.store(o, z);
    let f = fb.finish();
    let func = &mut m.functions[f];
    func.set_expr_span(sum, Span::new(Loc(3), Loc(9)));
    func.expressions[made_literal] = Expression::Literal(Literal::f32(4.0));
    (m, f)
}

#[test]
fn the_walks_copy_of_kept_expressions_is_the_hooks() {
    let (mut hooked, f) = module();
    let (mut direct, _) = module();
    rebuild_function(&mut hooked, f, &mut Kept);
    rebuild_function(&mut direct, f, &mut Unchanged);
    check_valid(&direct);
    let text = module_to_string(&direct);
    assert_eq!(module_to_string(&hooked), text);
    let (a, b) = (&hooked.functions[f], &direct.functions[f]);
    assert_eq!(a.expr_types, b.expr_types);
    assert_eq!(a.expr_spans, b.expr_spans);
    assert!(b.expr_spans.contains(&Span::new(Loc(3), Loc(9))), "{:?}", b.expr_spans);
    // The literal left its run: it is appended before the walk.
    assert!(text.contains("compose %"), "{text}");
}

/// Sema makes a new reference for each use of a variable and a new
/// literal for each constant: a rebuild keeps one of each (the first, with
/// its span), literals by their bits and references by what they name.
#[test]
fn a_rebuild_keeps_one_reference_and_one_literal_of_each() {
    let mut m = Module::default();
    let f32t = m.scalar_type(Scalar::F32);
    let out = add_global(&mut m, "out", AddressSpace::Private, f32t);
    let mut fb = FunctionBuilder::new(&mut m, "main");
    let l = fb.local("l", f32t, false);
    let mut sum = fb.f32(0.5);
    for _ in 0..3 {
        let o = fb.global(out);
        let x = fb.load(o);
        let one = fb.f32(1.0);
        let a = fb.binary(Add, x, one);
        fb.store(l, a);
        let pointer = fb.ty_of(l);
        let again = fb.expr(Expression::LocalVariable(Handle::from_index(0)), pointer);
        let y = fb.load(again);
        sum = fb.binary(Add, sum, y);
    }
    let o = fb.global(out);
    fb.store(o, sum);
    let f = fb.finish();
    let first_global = m.functions[f]
        .expressions
        .iter()
        .find(|(_, e)| matches!(e, Expression::GlobalVariable(_)))
        .map(|(h, _)| h)
        .expect("a reference to out");
    m.functions[f].set_expr_span(first_global, Span::new(Loc(7), Loc(10)));
    rebuild_function(&mut m, f, &mut Unchanged);
    check_valid(&m);
    let func = &m.functions[f];
    let count = |p: &dyn Fn(&Expression) -> bool| func.expressions.iter().filter(|(_, e)| p(e)).count();
    assert_eq!(count(&|e| matches!(e, Expression::GlobalVariable(_))), 1);
    assert_eq!(count(&|e| matches!(e, Expression::LocalVariable(_))), 1);
    assert_eq!(count(&|e| *e == Expression::Literal(Literal::f32(1.0))), 1);
    assert_eq!(count(&|e| *e == Expression::Literal(Literal::f32(0.5))), 1);
    let global = func
        .expressions
        .iter()
        .find(|(_, e)| matches!(e, Expression::GlobalVariable(_)))
        .map(|(h, _)| h)
        .expect("a reference to out");
    assert_eq!(func.expr_span(global), Span::new(Loc(7), Loc(10)));
}

/// Unrolls every loop into copies for the counter values 0, 1 and 2,
/// keeping expressions through the walk's own copy (`KEEPS_EXPRESSIONS`)
/// or through the hook.
struct Unrolled<const KEEPS: bool> {
    counter: Handle<LocalVariable>,
}
impl<const KEEPS: bool> Rewrite for Unrolled<KEEPS> {
    const KEEPS_EXPRESSIONS: bool = KEEPS;
    fn expression(&mut self, cx: &mut Cx, e: Emitted) -> Option<Handle<Expression>> {
        Some(cx.keep(e))
    }
    fn unroll(&mut self, _cx: &Cx, _before: &[Statement], _old: &Statement) -> Option<Unrolling> {
        Some(Unrolling {
            counter: self.counter,
            skip: usize::MAX,
            values: (0..3).map(Literal::I32).collect(),
        })
    }
}

/// A loop whose body has one long run: plain expressions around a load
/// of the counter, an expression with a span, a zero value left in the
/// run (as a pass that edits the arena leaves it) and a compose; then
/// the same run outside the loop.
fn looping() -> (Module, Handle<Function>, Handle<LocalVariable>) {
    let mut m = Module::default();
    let i32t = m.scalar_type(Scalar::I32);
    let v2 = m.vector_type(2, Scalar::I32);
    let out = add_global(&mut m, "out", AddressSpace::Private, i32t);
    let mut fb = FunctionBuilder::new(&mut m, "main");
    let o = fb.global(out);
    let i = fb.local("i", i32t, false);
    let one = fb.i32(1);
    let mut marked = Vec::new();
    let mut run = |fb: &mut FunctionBuilder| {
        let x = fb.load(o);
        let a = fb.binary(Add, x, one);
        let c = fb.load(i);
        let b = fb.binary(Multiply, a, c);
        let zero = fb.binary(Subtract, b, b);
        let v = fb.compose(v2, &[b, zero]);
        let y = fb.access_index(v, 0);
        let z = fb.binary(Add, y, c);
        fb.store(o, z);
        marked.push((b, zero));
    };
    fb.loop_(|fb| run(fb), |_| None);
    run(&mut fb);
    let f = fb.finish();
    let func = &mut m.functions[f];
    for (k, (b, zero)) in marked.into_iter().enumerate() {
        func.set_expr_span(b, Span::new(Loc(3 + k as u32), Loc(9)));
        func.expressions[zero] = Expression::ZeroValue(i32t);
    }
    let counter = func.local_variables.handles().next().expect("the counter");
    (m, f, counter)
}

#[test]
fn the_walks_copy_of_unrolled_runs_is_the_hooks() {
    let (mut hooked, f, counter) = looping();
    let (mut direct, _, _) = looping();
    rebuild_function(&mut hooked, f, &mut Unrolled::<false> { counter });
    rebuild_function(&mut direct, f, &mut Unrolled::<true> { counter });
    check_valid(&direct);
    let text = module_to_string(&direct);
    assert_eq!(module_to_string(&hooked), text);
    let (a, b) = (&hooked.functions[f], &direct.functions[f]);
    assert_eq!(a.expr_types, b.expr_types);
    assert_eq!(a.expr_spans, b.expr_spans);
    // Three copies, each with the counter's value in place of its loads.
    assert_eq!(text.matches("mul ").count(), 4, "{text}");
    for v in 0..3 {
        assert!(text.contains(&format!(", {v}i32")), "{text}");
    }
    assert!(b.expr_spans.contains(&Span::new(Loc(3), Loc(9))), "{:?}", b.expr_spans);
}
