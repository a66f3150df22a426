//! const_fold on hand-built IR, checked through the text form.

use crate::diag::Diagnostics;
use crate::ir::build::{FunctionBuilder, add_compute_entry, add_global};
use crate::ir::display::module_to_string;
use crate::ir::*;
use crate::passes::const_fold::{FoldOptions, run};
use crate::passes::test_util::{check_valid, fn_text};
use crate::span::{Loc, Span};
use BinaryOperator::*;

fn fold(m: &mut Module, fold_branches: bool) -> (String, Diagnostics) {
    check_valid(m);
    let mut d = Diagnostics::new();
    let o = FoldOptions {
        fold_branches,
        ..FoldOptions::default()
    };
    run(m, &o, &mut d);
    check_valid(m);
    (module_to_string(m), d)
}

/// out = (1.0 + 2.0) * x; out = float2(1, 2) * 2.0 (as a vector); a
/// constant select, swizzle and access into a non-constant compose.
#[test]
fn folds_scalars_vectors_and_structure() {
    let mut m = Module::default();
    let f32t = m.scalar_type(Scalar::F32);
    let v2 = m.vector_type(2, Scalar::F32);
    let v3 = m.vector_type(3, Scalar::F32);
    let out = add_global(&mut m, "out", AddressSpace::Private, f32t);
    let out2 = add_global(&mut m, "out2", AddressSpace::Private, v2);
    let mut fb = FunctionBuilder::new(&mut m, "main");
    let o = fb.global(out);
    let x = fb.load(o);
    let one = fb.f32(1.0);
    let two = fb.f32(2.0);
    let three = fb.binary(Add, one, two);
    let prod = fb.binary(Multiply, three, x);
    fb.store(o, prod);
    let v = fb.compose(v2, &[one, two]);
    let vv = fb.binary(Multiply, v, two);
    let o2 = fb.global(out2);
    fb.store(o2, vv);
    let t = fb.bool(true);
    let sel = fb.select(t, x, one);
    fb.store(o, sel);
    let sw = fb.swizzle(vv, &[1]);
    fb.store(o, sw);
    let c3 = fb.compose(v3, &[one, x, two]);
    let y = fb.access_index(c3, 1);
    fb.store(o, y);
    let f = fb.finish();
    add_compute_entry(&mut m, "main", f);
    let (text, d) = fold(&mut m, true);
    assert!(d.is_empty());
    let main = fn_text(&text, "main");
    assert!(main.contains("= mul 3.0f32, %"), "{main}");
    assert!(main.contains(":float2 = compose 2.0f32, 4.0f32"), "{main}");
    // select(true, x, 1) → x; swizzle of the folded vector → 4.0; the
    // access of compose(1, x, 2) → x.
    assert!(main.contains("store @out, 4.0f32"), "{main}");
    assert!(!main.contains("select"), "{main}");
    assert!(!main.contains("access"), "{main}");
    let load = crate::passes::test_util::line_of(main, "%");
    let x = &load[..load.find(':').expect("%N:")];
    assert!(load.ends_with("= load @out"), "{main}");
    assert_eq!(
        main.matches(&format!("store @out, {x}\n")).count(),
        2,
        "{main}"
    );
    assert!(!main.contains("add"), "{main}");
}

/// `if (1 < 2) { A } else { B }` keeps only A at -O1+, both at -O0.
#[test]
fn constant_branches() {
    let build = || {
        let mut m = Module::default();
        let f32t = m.scalar_type(Scalar::F32);
        let out = add_global(&mut m, "out", AddressSpace::Private, f32t);
        let mut fb = FunctionBuilder::new(&mut m, "main");
        let a = fb.i32(1);
        let b = fb.i32(2);
        let c = fb.binary(Less, a, b);
        let o = fb.global(out);
        fb.if_(
            c,
            |fb| {
                let v = fb.f32(10.0);
                fb.store(o, v)
            },
            |fb| {
                let v = fb.f32(20.0);
                fb.store(o, v)
            },
        );
        fb.finish();
        m
    };
    let (text, _) = fold(&mut build(), true);
    assert!(text.contains("store @out, 10.0f32"), "{text}");
    assert!(!text.contains("20.0f32"), "{text}");
    assert!(!text.contains("if "), "{text}");
    let (text, _) = fold(&mut build(), false);
    assert!(text.contains("if true {"), "{text}");
    assert!(text.contains("20.0f32"), "{text}");
}

/// `x / 0` between integer constants: an error with the expression's span,
/// and the division stays.
#[test]
fn integer_division_by_zero_is_reported() {
    let mut m = Module::default();
    let int = m.scalar_type(Scalar::I32);
    let out = add_global(&mut m, "out", AddressSpace::Private, int);
    let mut fb = FunctionBuilder::new(&mut m, "main");
    let a = fb.i32(7);
    let z = fb.i32(0);
    let d = fb.binary(Modulo, a, z);
    fb.body
        .function
        .set_expr_span(d, Span::new(Loc(10), Loc(15)));
    let o = fb.global(out);
    fb.store(o, d);
    fb.finish();
    let (text, diags) = fold(&mut m, true);
    assert!(text.contains("= mod 7i32, 0i32"), "{text}");
    assert_eq!(diags.list.len(), 1);
    let e = &diags.list[0];
    assert!(e.is_error());
    assert_eq!(e.code.0, "E0701");
    assert_eq!(e.message, "integer remainder by zero");
    assert_eq!(e.primary_span(), Some(Span::new(Loc(10), Loc(15))));
}

/// A precise float `%` stays; a precise `+` folds (it is exact IEEE).
#[test]
fn precise_rules() {
    let mut m = Module::default();
    let f32t = m.scalar_type(Scalar::F32);
    let out = add_global(&mut m, "out", AddressSpace::Private, f32t);
    let mut fb = FunctionBuilder::new(&mut m, "main");
    let a = fb.f32(7.5);
    let b = fb.f32(2.0);
    let r = fb.binary(Modulo, a, b);
    let s = fb.binary(Add, a, b);
    for h in [r, s] {
        if let Expression::Binary { precise, .. } = &mut fb.body.function.expressions[h] {
            *precise = true;
        }
    }
    let o = fb.global(out);
    fb.store(o, r);
    fb.store(o, s);
    fb.finish();
    let (text, _) = fold(&mut m, true);
    assert!(text.contains("= precise mod 7.5f32, 2.0f32"), "{text}");
    assert!(text.contains("store @out, 9.5f32"), "{text}");
}

/// From -O1 `forward` folds what this pass would (one rebuild, not two):
/// a function with foldable arithmetic only is left to it, unchanged
/// here and folded there; one whose `if` condition or integer divisor
/// may fold (to a branch taken, to a division by zero) is folded here,
/// the error reported.
#[test]
fn folding_left_to_forward() {
    use crate::passes::{const_fold::run_before_forward, forward};
    // out = (1 + 2) * x; then `if` / `%` of `cond` when given.
    let build = |cond: Option<BinaryOperator>| {
        let mut m = Module::default();
        let int = m.scalar_type(Scalar::I32);
        let inp = add_global(&mut m, "inp", AddressSpace::Uniform, int);
        let out = add_global(&mut m, "out", AddressSpace::Private, int);
        let mut fb = FunctionBuilder::new(&mut m, "main");
        let o = fb.global(out);
        let i = fb.global(inp);
        let x = fb.load(i);
        let (one, two) = (fb.i32(1), fb.i32(2));
        let three = fb.binary(Add, one, two);
        let prod = fb.binary(Multiply, three, x);
        fb.store(o, prod);
        match cond {
            Some(Modulo) => {
                let zero = fb.binary(Subtract, two, two);
                let r = fb.binary(Modulo, three, zero);
                fb.store(o, r);
            }
            Some(op) => {
                let c = fb.binary(op, one, two);
                fb.if_(c, |fb| fb.store(o, one), |fb| fb.store(o, two));
            }
            None => {}
        }
        let f = fb.finish();
        add_compute_entry(&mut m, "main", f);
        m
    };
    let o = FoldOptions {
        fold_branches: true,
        ..FoldOptions::default()
    };
    let mut m = build(None);
    let mut d = Diagnostics::new();
    assert_eq!(run_before_forward(&mut m, &o, &mut d), [true]);
    let text = module_to_string(&m);
    assert!(text.contains("= add 1i32, 2i32"), "{text}");
    forward::run(&mut m, &o, false, &[true]);
    check_valid(&m);
    let text = module_to_string(&m);
    assert!(text.contains("= mul 3i32, %"), "{text}");
    assert!(!text.contains("add"), "{text}");

    let mut m = build(Some(Less));
    assert_eq!(run_before_forward(&mut m, &o, &mut d), [false]);
    let text = module_to_string(&m);
    assert!(!text.contains("if "), "{text}");
    assert!(d.is_empty());

    let mut m = build(Some(Modulo));
    assert_eq!(run_before_forward(&mut m, &o, &mut d), [false]);
    assert_eq!(d.list.len(), 1);
    assert_eq!(d.list[0].message, "integer remainder by zero");
}

/// `may_fold`, the check before each fold, never turns away an expression
/// that `fold` would fold: over operations with constant operands on
/// either side, on both, on none, in vectors and composes, every
/// expression it turns away folds to nothing.
#[test]
fn the_check_before_folding_turns_away_only_what_does_not_fold() {
    use crate::passes::const_fold::{Fold, Folder, may_fold};
    use crate::passes::rewrite::{Cx, Emitted, Rewrite, rebuild_function};

    struct Check<'f> {
        folder: Folder<'f>,
        turned_away: usize,
        folded: usize,
    }
    impl Rewrite for Check<'_> {
        fn expression(&mut self, cx: &mut Cx, e: Emitted) -> Option<Handle<Expression>> {
            if !may_fold(cx, &e.expr) {
                self.turned_away += 1;
                let fold = self.folder.fold(cx, &e.expr, e.span);
                assert!(matches!(fold, Fold::None), "{:?} would fold", e.expr);
            }
            match self.folder.try_fold(cx, &e.expr, e.ty, e.span) {
                Some(h) => {
                    self.folded += 1;
                    Some(h)
                }
                None => Some(cx.keep(e)),
            }
        }
    }

    let mut m = Module::default();
    let f32t = m.scalar_type(Scalar::F32);
    let v2 = m.vector_type(2, Scalar::F32);
    let out = add_global(&mut m, "out", AddressSpace::Private, f32t);
    let out2 = add_global(&mut m, "out2", AddressSpace::Private, v2);
    let mut fb = FunctionBuilder::new(&mut m, "main");
    let o = fb.global(out);
    let o2 = fb.global(out2);
    let x = fb.load(o);
    let xv = fb.load(o2);
    let two = fb.f32(2.0);
    let t = fb.bool(true);
    let constant_v = fb.compose(v2, &[two, two]);
    let mixed_v = fb.compose(v2, &[x, two]);
    let mut values = Vec::new();
    for (a, b) in [(x, two), (two, x), (two, two), (x, x)] {
        values.push(fb.binary(Add, a, b));
        values.push(fb.binary(Less, a, b));
    }
    for v in [constant_v, mixed_v, xv] {
        let s = fb.swizzle(v, &[1, 0]);
        values.push(fb.binary(Multiply, s, v));
        values.push(fb.access_index(v, 1));
        let c = fb.cast(v, ScalarKind::Sint, Some(4));
        values.push(fb.cast(c, ScalarKind::Float, Some(4)));
    }
    for v in [x, two] {
        values.push(fb.unary(UnaryOperator::Negate, v));
        let sel = fb.select(t, v, x);
        let less = fb.binary(Less, v, two);
        values.push(fb.select(less, sel, v));
    }
    for v in values {
        if fb.ty_of(v) == f32t {
            fb.store(o, v);
        } else if fb.ty_of(v) == v2 {
            fb.store(o2, v);
        }
    }
    let f = fb.finish();
    add_compute_entry(&mut m, "main", f);
    check_valid(&m);
    let options = FoldOptions::default();
    let mut d = Diagnostics::new();
    let mut check = Check {
        folder: Folder::new(&options, &mut d),
        turned_away: 0,
        folded: 0,
    };
    rebuild_function(&mut m, f, &mut check);
    assert!(check.turned_away >= 10, "{}", check.turned_away);
    assert!(check.folded >= 10, "{}", check.folded);
    check_valid(&m);
}
