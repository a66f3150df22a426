use super::run;
use crate::ir::build::{FunctionBuilder, add_global};
use crate::ir::*;
use crate::passes::const_fold::FoldOptions;
use crate::passes::test_util::{fn_text, run_main};
use BinaryOperator::*;

fn forward(m: &mut Module) {
    run(m, &FoldOptions::default(), false, &[]);
}

/// The float type, a Private global `inp` and an Output `out` of it (a
/// written static the entry point alone uses would become a local).
fn float_in_out(m: &mut Module) -> (Handle<Type>, Handle<GlobalVariable>, Handle<GlobalVariable>) {
    let f32t = m.scalar_type(Scalar::F32);
    let inp = add_global(m, "inp", AddressSpace::Private, f32t);
    let out = add_global(m, "out", AddressSpace::Output, f32t);
    (f32t, inp, out)
}

/// `x = in; loop { out = x; x = x + 1; if (x > 9) break; }`: the load in
/// the loop must not see the store before the loop (the second iteration
/// reads the first one's store): it reads a phi of the value before the
/// loop and the one the body leaves; a local the loop never stores is
/// forwarded into it as it is.
#[test]
fn loops_carry_what_they_store() {
    let mut m = Module::default();
    let (f32t, inp, out) = float_in_out(&mut m);
    let mut fb = FunctionBuilder::new(&mut m, "main");
    let x = fb.local("x", f32t, false);
    let k = fb.local("k", f32t, false);
    let i = fb.global(inp);
    let o = fb.global(out);
    let v = fb.load(i);
    fb.store(x, v);
    fb.store(k, v);
    fb.loop_(
        |fb| {
            let xv = fb.load(x);
            let kv = fb.load(k);
            let s = fb.binary(Add, xv, kv);
            fb.store(o, s);
            let one = fb.f32(1.0);
            let x1 = fb.binary(Add, xv, one);
            fb.store(x, x1);
            let nine = fb.f32(9.0);
            let c = fb.binary(Greater, x1, nine);
            fb.if_(c, |fb| fb.push(Statement::Break), |_| {});
        },
        |_| None,
    );
    let f = fb.finish();
    let text = run_main(&mut m, f, forward);
    let main = fn_text(&text, "main");
    // Neither local is loaded: $x is the phi of the input and of the
    // body's `x + 1` (the latch, from the body's end: no `continue`), $k
    // is the input.
    assert!(!main.contains("= load $x"), "{main}");
    assert!(!main.contains("= load $k"), "{main}");
    let carry = main
        .lines()
        .find(|l| l.contains("= carry "))
        .unwrap_or_else(|| panic!("no carry: {main}"));
    let phi = carry.trim().split(':').next().unwrap_or_default().to_string();
    let latch = carry.rsplit(", ").next().unwrap_or_default().to_string();
    assert!(main.contains(&format!("{latch}:float = add {phi}, 1.0f32")), "{main}");
    assert!(main.contains(&format!("add {phi}, %")), "{main}");
}

/// A store before the `if` is known inside both branches; after it, the
/// local is the merge of what each branch left.
#[test]
fn branches_see_what_was_stored_before_and_merge() {
    let mut m = Module::default();
    let (f32t, inp, out) = float_in_out(&mut m);
    let mut fb = FunctionBuilder::new(&mut m, "main");
    let x = fb.local("x", f32t, false);
    let i = fb.global(inp);
    let o = fb.global(out);
    let v = fb.load(i);
    fb.store(x, v);
    let zero = fb.f32(0.0);
    let c = fb.binary(Less, v, zero);
    fb.if_(
        c,
        |fb| {
            let xv = fb.load(x);
            let n = fb.unary(UnaryOperator::Negate, xv);
            fb.store(x, n);
        },
        |fb| {
            let xv = fb.load(x);
            fb.store(o, xv);
        },
    );
    let xv = fb.load(x);
    fb.store(o, xv);
    let f = fb.finish();
    let text = run_main(&mut m, f, forward);
    let main = fn_text(&text, "main");
    // Inside both branches the input is used directly (the `else` branch
    // does not see the `then` branch's store); after the `if` the local is
    // the merge of the negation and the input, never loaded.
    assert_eq!(main.matches("= load $x").count(), 0, "{main}");
    let neg = main
        .lines()
        .find(|l| l.contains("neg %"))
        .and_then(|l| l.trim().split(':').next())
        .unwrap_or_else(|| panic!("no negation: {main}"))
        .to_string();
    let input = main
        .lines()
        .find(|l| l.contains("load @inp"))
        .and_then(|l| l.trim().split(':').next())
        .unwrap_or_default()
        .to_string();
    let merge = main
        .lines()
        .find(|l| l.contains("= merge "))
        .unwrap_or_else(|| panic!("no merge: {main}"));
    assert!(merge.ends_with(&format!("merge {neg}, {input}")), "{main}");
    let phi = merge.trim().split(':').next().unwrap_or_default();
    let after = &main[main.find(merge).unwrap_or(0)..];
    assert!(after.contains(&format!("store @out, {phi}")), "{main}");
}

/// A local passed to a call (an `out` argument) escapes: it is not
/// forwarded. Parts stored one by one compose a whole.
#[test]
fn escaping_locals_stay_and_parts_compose() {
    let mut m = Module::default();
    let f32t = m.scalar_type(Scalar::F32);
    let v2 = m.vector_type(2, Scalar::F32);
    let ptr = m.ty(TypeInner::Pointer {
        base: f32t,
        space: AddressSpace::Function,
    });
    let out = add_global(&mut m, "out", AddressSpace::Output, v2);
    let mut fb = FunctionBuilder::new(&mut m, "set");
    let r = fb.argument("r", ptr);
    let one = fb.f32(1.0);
    fb.store(r, one);
    let set = fb.finish();
    let mut fb = FunctionBuilder::new(&mut m, "main");
    let e = fb.local("e", f32t, false);
    let p = fb.local("p", v2, false);
    let o = fb.global(out);
    let two = fb.f32(2.0);
    fb.store(e, two);
    fb.call(set, &[e]);
    let ev = fb.load(e);
    let px = fb.access_index(p, 0);
    fb.store(px, ev);
    let py = fb.access_index(p, 1);
    fb.store(py, two);
    let pv = fb.load(p);
    fb.store(o, pv);
    let f = fb.finish();
    let text = run_main(&mut m, f, forward);
    let main = fn_text(&text, "main");
    assert!(main.contains("= load $e"), "{main}");
    assert!(!main.contains("= load $p"), "{main}");
    assert!(main.contains(":float2 = compose %"), "{main}");
    assert!(main.contains(", 2.0f32\n"), "{main}");
}

/// Switch cases falling through: the next case does not assume the value
/// stored before the switch when the previous case stored another.
#[test]
fn fall_through_forgets_the_previous_case() {
    let mut m = Module::default();
    let f32t = m.scalar_type(Scalar::F32);
    let i32t = m.scalar_type(Scalar::I32);
    let sel = add_global(&mut m, "sel", AddressSpace::Private, i32t);
    let out = add_global(&mut m, "out", AddressSpace::Output, f32t);
    let mut fb = FunctionBuilder::new(&mut m, "main");
    let x = fb.local("x", f32t, false);
    let s = fb.global(sel);
    let o = fb.global(out);
    let one = fb.f32(1.0);
    let two = fb.f32(2.0);
    fb.store(x, one);
    let selector = fb.load(s);
    let case0 = fb.block(|fb| fb.store(x, two));
    let case1 = fb.block(|fb| {
        let xv = fb.load(x);
        fb.store(o, xv);
    });
    fb.push(Statement::Switch {
        selector,
        cases: vec![
            SwitchCase {
                value: SwitchValue::I32(0),
                body: case0,
                fall_through: true,
            },
            SwitchCase {
                value: SwitchValue::Default,
                body: case1,
                fall_through: false,
            },
        ],
    });
    let f = fb.finish();
    let text = run_main(&mut m, f, forward);
    let main = fn_text(&text, "main");
    assert!(main.contains("= load $x"), "{main}");
    assert!(!main.contains("store @out, 1.0f32"), "{main}");
}

/// Hands each expression of a rebuild to `Simplifier::emit`, and checks
/// that one `algebra::leaves_alone` lets `forward` append as it is comes
/// out of it appended unchanged (the rules' shortcut agrees with them).
struct Shortcut<'f> {
    simplifier: super::Simplifier<'f>,
    /// How many expressions took the shortcut, and how many did not.
    counts: (usize, usize),
}

impl crate::passes::rewrite::Rewrite for Shortcut<'_> {
    fn expression(
        &mut self,
        cx: &mut crate::passes::rewrite::Cx,
        e: crate::passes::rewrite::Emitted,
    ) -> Option<Handle<Expression>> {
        let alone = crate::passes::algebra::leaves_alone(cx, &cx.old.expressions[e.old]);
        let (copy, len) = (e.expr.clone(), cx.body.function.expressions.len());
        let h = self.simplifier.emit(cx, e.expr, e.ty, e.span);
        if alone {
            self.counts.0 += 1;
            assert_eq!(h.index(), len, "{copy:?}");
            assert_eq!(cx.body.function.expressions.len(), len + 1, "{copy:?}");
            assert_eq!(cx.expr(h), &copy);
        } else {
            self.counts.1 += 1;
        }
        Some(h)
    }
}

/// Operations on variables, on constants and on the same operand twice
/// (integer `x - x`, `x ^ x`), double negation, casts, selects, math and
/// accesses: whatever the shortcut takes, the rules leave alone.
#[test]
fn the_shortcut_takes_only_what_the_rules_leave_alone() {
    let mut m = Module::default();
    let f32t = m.scalar_type(Scalar::F32);
    let i32t = m.scalar_type(Scalar::I32);
    let u32t = m.scalar_type(Scalar::U32);
    let v2 = m.vector_type(2, Scalar::F32);
    let fin = add_global(&mut m, "fin", AddressSpace::Input, f32t);
    let iin = add_global(&mut m, "iin", AddressSpace::Input, i32t);
    let uin = add_global(&mut m, "uin", AddressSpace::Input, u32t);
    let out = add_global(&mut m, "out", AddressSpace::Private, f32t);
    let iout = add_global(&mut m, "iout", AddressSpace::Private, i32t);
    let mut fb = FunctionBuilder::new(&mut m, "main");
    let fp = fb.global(fin);
    let ip = fb.global(iin);
    let up = fb.global(uin);
    let o = fb.global(out);
    let io = fb.global(iout);
    let x = fb.load(fp);
    let y = fb.load(fp);
    let i = fb.load(ip);
    let j = fb.load(ip);
    let u = fb.load(up);
    let one = fb.f32(1.0);
    let minus_zero = fb.f32(-0.0);
    let ione = fb.i32(1);
    let uzero = fb.u32(0);
    let mut floats = Vec::new();
    let mut ints = Vec::new();
    for op in [Add, Subtract, Multiply, Divide] {
        for (l, r) in [(x, y), (x, x), (x, one), (one, x), (x, minus_zero)] {
            floats.push(fb.binary(op, l, r));
        }
    }
    for op in [Add, Subtract, ExclusiveOr, Multiply, And, ShiftLeft] {
        for (l, r) in [(i, j), (i, i), (i, ione), (ione, i)] {
            ints.push(fb.binary(op, l, r));
        }
    }
    for op in [Less, GreaterEqual] {
        for (l, r) in [(u, uzero), (uzero, u), (u, u)] {
            let c = fb.binary(op, l, r);
            let s = fb.select(c, x, y);
            floats.push(s);
        }
    }
    let neg = fb.unary(UnaryOperator::Negate, x);
    floats.push(neg);
    floats.push(fb.unary(UnaryOperator::Negate, neg));
    let negone = fb.unary(UnaryOperator::Negate, one);
    floats.push(negone);
    let splat = fb.expr(Expression::Splat { size: 2, value: x }, v2);
    let splat_one = fb.expr(Expression::Splat { size: 2, value: one }, v2);
    let sum = fb.binary(Add, splat, splat_one);
    floats.push(fb.access_index(sum, 0));
    floats.push(fb.access_index(splat, 1));
    let v = fb.compose(v2, &[x, y]);
    floats.push(fb.access_index(v, 1));
    let lanes = fb.compose(v2, &[floats[0], floats[1]]);
    let sw = fb.swizzle(lanes, &[1, 0]);
    floats.push(fb.access_index(sw, 0));
    let picked = fb.swizzle(sw, &[1, 0]);
    floats.push(fb.access_index(picked, 1));
    let a = fb.access_index(sum, 0);
    let b = fb.access_index(sum, 1);
    let regrouped = fb.compose(v2, &[a, b]);
    floats.push(fb.access_index(regrouped, 0));
    for args in [vec![x, y], vec![x, one], vec![one, one]] {
        let m = fb.expr(
            Expression::Math {
                fun: MathFunction::Max,
                args,
                precise: false,
            },
            f32t,
        );
        floats.push(m);
    }
    for e in [i, ione] {
        let c = fb.cast(e, ScalarKind::Float, Some(4));
        floats.push(c);
    }
    for f in floats {
        fb.store(o, f);
    }
    for v in ints {
        fb.store(io, v);
    }
    let f = fb.finish();
    crate::passes::test_util::check_valid(&m);
    let fold = FoldOptions::default();
    let mut silent = crate::diag::Diagnostics::new();
    let mut check = Shortcut {
        simplifier: super::Simplifier {
            folder: crate::passes::const_fold::Folder::new(&fold, &mut silent),
            algebra: true,
        },
        counts: (0, 0),
    };
    crate::passes::rewrite::rebuild_function(&mut m, f, &mut check);
    crate::passes::test_util::check_valid(&m);
    let (taken, not) = check.counts;
    assert!(taken >= 10 && not >= 30, "{taken} taken, {not} not");
}

/// Plain nested blocks are walked as if their statements stood in the
/// block around them: the function forwards exactly as its flat copy
/// does. In it: a store in a block stays known after it, a loop whose
/// body stores before a `break` nested in a block does not exit at its
/// top (its local is not the phi after it), and what follows a block that
/// returns is out of reach.
#[test]
fn nested_blocks_forward_as_flat_ones() {
    let text = |nested: bool| {
        let mut m = Module::default();
        let (f32t, inp, out) = float_in_out(&mut m);
        let mut fb = FunctionBuilder::new(&mut m, "main");
        let x = fb.local("x", f32t, false);
        let k = fb.local("k", f32t, false);
        let i = fb.global(inp);
        let o = fb.global(out);
        // Builds the statements `f` adds, in a block of their own when
        // `nested`.
        let part = |fb: &mut FunctionBuilder, f: &dyn Fn(&mut FunctionBuilder)| {
            if nested {
                let b = fb.block(f);
                fb.push(Statement::Block(b));
            } else {
                f(fb);
            }
        };
        let v = fb.load(i);
        fb.store(x, v);
        part(&mut fb, &|fb| {
            let xv = fb.load(x);
            let one = fb.f32(1.0);
            let x1 = fb.binary(Add, xv, one);
            fb.store(x, x1);
            part(fb, &|fb| {
                let xv = fb.load(x);
                fb.store(k, xv);
            });
        });
        fb.loop_(
            |fb| {
                part(fb, &|fb| {
                    let xv = fb.load(x);
                    let two = fb.f32(2.0);
                    let x2 = fb.binary(Multiply, xv, two);
                    fb.store(x, x2);
                    let nine = fb.f32(9.0);
                    let c = fb.binary(Greater, x2, nine);
                    fb.if_(c, |fb| fb.push(Statement::Break), |_| {});
                });
            },
            |_| None,
        );
        part(&mut fb, &|fb| {
            let xv = fb.load(x);
            let kv = fb.load(k);
            let s = fb.binary(Add, xv, kv);
            fb.store(o, s);
            fb.ret(None, None);
        });
        let kv = fb.load(k);
        fb.store(o, kv);
        let f = fb.finish();
        let text = run_main(&mut m, f, forward);
        fn_text(&text, "main").to_string()
    };
    let (nested, flat) = (text(true), text(false));
    assert_eq!(nested, flat);
    // After the loop, $x is loaded (the body stored it before leaving).
    assert!(flat.contains("= load $x"), "{flat}");
    assert!(!flat.contains("= load $k"), "{flat}");
    assert_eq!(flat.matches("store @out").count(), 1, "{flat}");
}
