//! Each test breaks one invariant of a valid module and checks that the
//! validator names it.

use super::*;
use crate::ir::build::{FunctionBuilder, add_compute_entry, add_global};

/// A valid module: `fn main()` in a compute entry point, with a float local,
/// a loop and an if. Returns the module and handles tests mutate.
fn sample() -> Module {
    let mut m = Module::default();
    let float = m.scalar_type(Scalar::F32);
    let out = add_global(
        &mut m,
        "out",
        AddressSpace::Storage { writable: true },
        float,
    );
    let mut fb = FunctionBuilder::new(&mut m, "main");
    let x = fb.local("x", float, false);
    let one = fb.f32(1.0);
    fb.store(x, one);
    fb.loop_(
        |fb| {
            let v = fb.load(x);
            let two = fb.f32(2.0);
            let w = fb.binary(BinaryOperator::Multiply, v, two);
            fb.store(x, w);
        },
        |fb| {
            let v = fb.load(x);
            let lim = fb.f32(100.0);
            Some(fb.binary(BinaryOperator::Greater, v, lim))
        },
    );
    let v = fb.load(x);
    let g = fb.global(out);
    fb.store(g, v);
    let f = fb.finish();
    add_compute_entry(&mut m, "main", f);
    m
}

fn errors(m: &Module) -> String {
    match validate(m) {
        Ok(()) => String::new(),
        Err(e) => errors_to_string(&e),
    }
}

fn main_fn(m: &mut Module) -> &mut Function {
    let h = m.entry_points[0].function;
    &mut m.functions[h]
}

/// The first expression of `f` for which `pick` holds.
fn find_expr(f: &Function, pick: impl Fn(&Expression) -> bool) -> Handle<Expression> {
    f.expressions
        .iter()
        .find(|(_, e)| pick(e))
        .map(|(h, _)| h)
        .expect("an expression the sample has")
}

/// The product in the sample's loop body.
fn product(f: &Function) -> Handle<Expression> {
    find_expr(f, |e| {
        matches!(
            e,
            Expression::Binary {
                op: BinaryOperator::Multiply,
                ..
            }
        )
    })
}

#[test]
fn sample_is_valid() {
    assert_eq!(errors(&sample()), "");
}

#[test]
fn use_before_emit() {
    let mut m = sample();
    let f = main_fn(&mut m);
    // Move the final Store before the Emit of the value it stores.
    let store = f.body.pop().expect("store");
    let n = f.body.len();
    f.body.insert(n - 1, store);
    assert!(
        errors(&m).contains("is used before it is emitted"),
        "{}",
        errors(&m)
    );
}

#[test]
fn use_out_of_scope() {
    let mut m = sample();
    let f = main_fn(&mut m);
    // Store the loop body's product after the loop.
    let product = product(f);
    let x = find_expr(f, |e| matches!(e, Expression::LocalVariable(_)));
    f.body.push(Statement::Store {
        pointer: x,
        value: product,
    });
    assert!(errors(&m).contains("outside the block where it is emitted"));
}

#[test]
fn continuing_cannot_see_the_loop_body() {
    let mut m = sample();
    let f = main_fn(&mut m);
    let product = product(f);
    let ptr = find_expr(f, |e| matches!(e, Expression::LocalVariable(_)));
    for s in f.body.iter_mut() {
        if let Statement::Loop { continuing, .. } = s {
            continuing.push(Statement::Store {
                pointer: ptr,
                value: product,
            });
        }
    }
    assert!(errors(&m).contains("outside the block where it is emitted"));
}

#[test]
fn emitted_twice_never_emitted_and_trivial_emitted() {
    let mut m = sample();
    let f = main_fn(&mut m);
    // Emit everything once more at the end: duplicates and trivial ones.
    let len = f.expressions.len();
    f.body.push(Statement::Emit(Range::new(0, len)));
    let e = errors(&m);
    assert!(e.contains("is emitted more than once"), "{e}");
    assert!(
        e.contains("needs no evaluation but stands in an emit range"),
        "{e}"
    );

    let mut m = sample();
    let f = main_fn(&mut m);
    f.body.retain(|s| !matches!(s, Statement::Emit(_)));
    assert!(errors(&m).contains("is never emitted"));
}

#[test]
fn operand_types_are_checked() {
    let mut m = sample();
    let int = m.scalar_type(Scalar::I32);
    let f = main_fn(&mut m);
    let lit = f.add_expression(Expression::Literal(Literal::I32(1)), int);
    let _ = lit;
    for (_, e) in f.expressions.iter_mut() {
        if let Expression::Binary {
            op: BinaryOperator::Multiply,
            right,
            ..
        } = e
        {
            // The literal comes after the multiply: two errors, order and type.
            *right = lit;
        }
    }
    let e = errors(&m);
    assert!(e.contains("does not come before it"), "{e}");

    // A float + int with correct order.
    let mut m = Module::default();
    let float = m.scalar_type(Scalar::F32);
    let mut fb = FunctionBuilder::new(&mut m, "f");
    let a = fb.f32(1.0);
    let b = fb.i32(1);
    let s = fb.binary(BinaryOperator::Add, a, b);
    fb.ret(Some(s), Some(float));
    fb.finish();
    assert!(errors(&m).contains("Add of operands of different types"));
}

#[test]
fn store_into_input_and_wrong_value_type() {
    let mut m = sample();
    let int = m.scalar_type(Scalar::I32);
    let float = m.scalar_type(Scalar::F32);
    let input = add_global(&mut m, "in", AddressSpace::Input, float);
    let mut fb = FunctionBuilder::new(&mut m, "f");
    let p = fb.global(input);
    let one = fb.f32(1.0);
    fb.store(p, one);
    let x = fb.local("x", float, false);
    let i = fb.i32(1);
    fb.store(x, i);
    fb.finish();
    let e = errors(&m);
    assert!(e.contains("store into read-only Input memory"), "{e}");
    assert!(
        e.contains("stored value differs from the pointee type"),
        "{e}"
    );
    let _ = int;
}

#[test]
fn break_continue_and_switch_rules() {
    let mut m = sample();
    let f = main_fn(&mut m);
    f.body.push(Statement::Break);
    for s in f.body.iter_mut() {
        if let Statement::Loop { continuing, .. } = s {
            continuing.push(Statement::Continue);
        }
    }
    let e = errors(&m);
    assert!(
        e.contains("`break` outside a loop body or switch case"),
        "{e}"
    );
    assert!(e.contains("`continue` outside a loop body"), "{e}");

    let mut m = Module::default();
    let mut fb = FunctionBuilder::new(&mut m, "f");
    let sel = fb.i32(3);
    let case = |value| SwitchCase {
        value,
        body: vec![Statement::Break],
        fall_through: false,
    };
    fb.push(Statement::Switch {
        selector: sel,
        cases: vec![
            case(SwitchValue::I32(1)),
            case(SwitchValue::I32(1)),
            case(SwitchValue::U32(2)),
        ],
    });
    fb.finish();
    let e = errors(&m);
    assert!(e.contains("switch has 0 default cases, not one"), "{e}");
    assert!(e.contains("duplicate switch case 1"), "{e}");
    assert!(e.contains("unsigned case value in a signed switch"), "{e}");
    assert!(!e.contains("`break`"), "{e}");
}

#[test]
fn entry_points_and_calls() {
    let mut m = sample();
    let float = m.scalar_type(Scalar::F32);
    let mut fb = FunctionBuilder::new(&mut m, "g");
    let a = fb.argument("a", float);
    fb.ret(Some(a), Some(float));
    let g = fb.finish();
    let mut fb = FunctionBuilder::new(&mut m, "caller");
    let one = fb.f32(1.0);
    let r = fb.call(g, &[one, one]).expect("result");
    fb.ret(Some(r), Some(float));
    let caller = fb.finish();
    add_compute_entry(&mut m, "bad", caller);
    let e = errors(&m);
    assert!(e.contains("call of g with 2 arguments, expects 1"), "{e}");
    assert!(
        e.contains("entry point bad: fn caller must have no arguments and no result"),
        "{e}"
    );
}

#[test]
fn call_result_must_follow_its_call() {
    let mut m = Module::default();
    let float = m.scalar_type(Scalar::F32);
    let mut fb = FunctionBuilder::new(&mut m, "g");
    let one = fb.f32(1.0);
    fb.ret(Some(one), Some(float));
    let g = fb.finish();
    let mut fb = FunctionBuilder::new(&mut m, "h");
    let r = fb.call(g, &[]).expect("result");
    fb.ret(Some(r), Some(float));
    let h = fb.finish();
    assert_eq!(errors(&m), "");
    // Swap the call and the return.
    m.functions[h].body.swap(0, 1);
    assert!(errors(&m).contains("is used before it is emitted"));
}

#[test]
fn local_initialisers_need_no_emit_but_must_be_constant() {
    let mut m = Module::default();
    let f32t = m.scalar_type(Scalar::F32);
    let v2 = m.vector_type(2, Scalar::F32);
    let mut fb = FunctionBuilder::new(&mut m, "f");
    let v = fb.local("v", v2, false);
    let one = fb
        .body
        .add_outside(Expression::Literal(Literal::f32(1.0)), f32t);
    let init = fb.body.add_outside(
        Expression::Compose {
            ty: v2,
            components: vec![one, one],
        },
        v2,
    );
    let _ = v; // declares the local
    let l = fb
        .body
        .function
        .local_variables
        .handles()
        .next()
        .expect("local");
    fb.body.function.local_variables[l].init = Some(init);
    let h = fb.finish();
    assert_eq!(errors(&m), "");
    let text = crate::ir::display::module_to_string(&m);
    assert!(
        text.contains("local $v:float2 = compose(1.0f32, 1.0f32)"),
        "{text}"
    );
    // A load is not a constant initialiser.
    let g = add_global(&mut m, "g", AddressSpace::Private, v2);
    let gp = {
        let pty = m.ty(TypeInner::Pointer {
            base: v2,
            space: AddressSpace::Private,
        });
        m.functions[h].add_expression(Expression::GlobalVariable(g), pty)
    };
    let f = &mut m.functions[h];
    let load = f.add_expression(Expression::Load { pointer: gp }, v2);
    f.local_variables[l].init = Some(load);
    assert!(
        errors(&m).contains("local initialiser must be built of literals"),
        "{}",
        errors(&m)
    );
}

/// `sample()` after `forward`: its loop carries `x` in a phi.
fn with_phis() -> Module {
    let mut m = sample();
    let fold = crate::passes::const_fold::FoldOptions::default();
    crate::passes::forward::run(&mut m, &fold, false, &[]);
    assert_eq!(errors(&m), "");
    m
}

#[test]
fn carry_must_precede_its_loop() {
    let mut m = with_phis();
    let f = main_fn(&mut m);
    let at = f
        .body
        .iter()
        .position(|s| matches!(s, Statement::Carry { .. }))
        .expect("forward carries `x` around the loop");
    let carry = f.body.remove(at);
    let after_loop = f
        .body
        .iter()
        .position(|s| matches!(s, Statement::Loop { .. }))
        .expect("the loop")
        + 1;
    f.body.insert(after_loop, carry);
    assert!(errors(&m).contains("is not followed by its loop"), "{}", errors(&m));
}

#[test]
fn merge_must_follow_an_if() {
    let mut m = with_phis();
    let f = main_fn(&mut m);
    let one = find_expr(f, |e| matches!(e, Expression::Literal(_)));
    let ty = f.expr_type(one);
    let phi = f.add_expression(Expression::Phi, ty);
    f.body.insert(
        0,
        Statement::Merge {
            result: phi,
            accept: Some(one),
            reject: Some(one),
        },
    );
    assert!(errors(&m).contains("does not follow an `if`"), "{}", errors(&m));
}
