use super::{Policy, inline_calls, remove_uncalled, run};
use crate::ir::build::{FunctionBuilder, add_compute_entry, add_global};
use crate::ir::display::module_to_string;
use crate::ir::*;
use crate::passes::test_util::{check_valid, fn_text};
use BinaryOperator::*;

/// `float sq(float x) { return x * x; }` and
/// `float pos2(float x) { if (x < 0) return 0; return x * 2; }`,
/// `void inc(out float r, float x) { r = x + 1; }`, called from `main`.
fn module(precise_result: bool) -> Module {
    let mut m = Module::default();
    let f32t = m.scalar_type(Scalar::F32);
    let ptr = m.ty(TypeInner::Pointer {
        base: f32t,
        space: AddressSpace::Function,
    });
    let out = add_global(&mut m, "out", AddressSpace::Private, f32t);
    let mut fb = FunctionBuilder::new(&mut m, "sq");
    let x = fb.argument("x", f32t);
    let v = fb.binary(Multiply, x, x);
    fb.ret(Some(v), Some(f32t));
    let sq = fb.finish();
    m.functions[sq].result.as_mut().expect("result").precise = precise_result;
    let mut fb = FunctionBuilder::new(&mut m, "pos2");
    let x = fb.argument("x", f32t);
    let zero = fb.f32(0.0);
    let neg = fb.binary(Less, x, zero);
    fb.if_(neg, |fb| fb.ret(Some(zero), Some(f32t)), |_| {});
    let two = fb.f32(2.0);
    let v = fb.binary(Multiply, x, two);
    fb.ret(Some(v), Some(f32t));
    let pos2 = fb.finish();
    let mut fb = FunctionBuilder::new(&mut m, "inc");
    let r = fb.argument("r", ptr);
    let x = fb.argument("x", f32t);
    let one = fb.f32(1.0);
    let v = fb.binary(Add, x, one);
    fb.store(r, v);
    let inc = fb.finish();
    let mut fb = FunctionBuilder::new(&mut m, "main");
    let t = fb.local("t", f32t, false);
    let o = fb.global(out);
    let a = fb.load(o);
    let s = fb.call(sq, &[a]).expect("result");
    let p = fb.call(pos2, &[s]).expect("result");
    fb.call(inc, &[t, p]);
    let tv = fb.load(t);
    fb.store(o, tv);
    let main = fb.finish();
    add_compute_entry(&mut m, "main", main);
    check_valid(&m);
    m
}

#[test]
fn inlines_simple_bodies_early_returns_and_out_arguments() {
    let mut m = module(false);
    run(&mut m, Policy::All, Default::default());
    check_valid(&m);
    crate::passes::dce::run(&mut m);
    check_valid(&m);
    let text = module_to_string(&m);
    let expected = "\
global @out:float Private
entry \"main\" compute fn main numthreads(1, 1, 1)

fn main() {
    local $t:float
    local $pos2.result:float
    %6:float = load @out
    %7:float = mul %6, %6
    {
        %8:bool = lt %7, 0.0f32
        if %8 {
            store $pos2.result, 0.0f32
        } else {
            %9:float = mul %7, 2.0f32
            store $pos2.result, %9
        }
    }
    %10:float = load $pos2.result
    %11:float = add %10, 1.0f32
    store $t, %11
    %12:float = load $t
    store @out, %12
}
";
    assert_eq!(text, expected);
}

#[test]
fn a_precise_result_survives_inlining() {
    let mut m = module(true);
    run(&mut m, Policy::All, Default::default());
    check_valid(&m);
    crate::passes::precise::run(&mut m);
    check_valid(&m);
    let text = module_to_string(&m);
    let main = fn_text(&text, "main");
    assert!(main.contains("local $sq.result:float precise"), "{main}");
    assert!(main.contains("= precise mul"), "{main}");
    assert!(!main.contains("call"), "{main}");
}

/// `main` calling `spin`, a loop that leaves at once, `calls` times.
fn calls_of_spin(calls: usize) -> Module {
    let mut m = Module::default();
    let mut fb = FunctionBuilder::new(&mut m, "spin");
    fb.loop_(|fb| fb.push(Statement::Break), |_| None);
    let spin = fb.finish();
    let mut fb = FunctionBuilder::new(&mut m, "main");
    for _ in 0..calls {
        fb.call(spin, &[]);
    }
    let main = fb.finish();
    add_compute_entry(&mut m, "main", main);
    m
}

#[test]
fn small_policy_skips_loops() {
    // Two call sites: a function called once is inlined whatever it holds.
    let mut m = calls_of_spin(2);
    let mut small = m.clone();
    run(&mut small, Policy::Small, Default::default());
    check_valid(&small);
    assert!(fn_text(&module_to_string(&small), "main").contains("call spin()"));
    run(&mut m, Policy::All, Default::default());
    check_valid(&m);
    let text = module_to_string(&m);
    assert!(!fn_text(&text, "main").contains("call"), "{text}");
    assert!(fn_text(&text, "main").contains("loop {"), "{text}");
}

/// A function with a loop called from one place is inlined under the
/// small policy: the copy replaces the original, the code does not grow.
#[test]
fn small_policy_inlines_a_single_call_site() {
    let mut m = calls_of_spin(1);
    run(&mut m, Policy::Small, Default::default());
    check_valid(&m);
    let text = module_to_string(&m);
    assert!(!fn_text(&text, "main").contains("call"), "{text}");
    assert!(fn_text(&text, "main").contains("loop {"), "{text}");
}

/// `float inner(float x) { return x * x; }`,
/// `float outer(float x) { return inner(x); }`, `out = outer(out)`: inlining
/// `outer` inlines `inner` into the copy, and the store takes the product
/// (through the chain outer's result → inner's result → the multiply).
#[test]
fn inlines_through_a_chain_of_results() {
    let mut m = Module::default();
    let f32t = m.scalar_type(Scalar::F32);
    let out = add_global(&mut m, "out", AddressSpace::Private, f32t);
    let mut fb = FunctionBuilder::new(&mut m, "inner");
    let x = fb.argument("x", f32t);
    let v = fb.binary(Multiply, x, x);
    fb.ret(Some(v), Some(f32t));
    let inner = fb.finish();
    let mut fb = FunctionBuilder::new(&mut m, "outer");
    let x = fb.argument("x", f32t);
    let v = fb.call(inner, &[x]).expect("result");
    fb.ret(Some(v), Some(f32t));
    let outer = fb.finish();
    let mut fb = FunctionBuilder::new(&mut m, "main");
    let o = fb.global(out);
    let a = fb.load(o);
    let r = fb.call(outer, &[a]).expect("result");
    fb.store(o, r);
    let main = fb.finish();
    add_compute_entry(&mut m, "main", main);
    check_valid(&m);
    run(&mut m, Policy::All, Default::default());
    check_valid(&m);
    // Both callees vanish with the inlining.
    assert_eq!(m.functions.len(), 1, "{}", module_to_string(&m));
    let f = &m.functions[m.entry_points[0].function];
    let mut stored = None;
    crate::ir::visit::walk_statements(&f.body, |s| {
        if let Statement::Store { value, .. } = s {
            stored = Some(*value);
        }
    });
    let stored = stored.expect("a store");
    assert!(
        matches!(f.expressions[stored], Expression::Binary { op: Multiply, .. }),
        "{}",
        module_to_string(&m)
    );
}

/// What `body_shape` and `returns_outside_breakables` find in one walk
/// each is what their definitions say, for returns at every depth: simple
/// when no statement but the last holds a `return` and the last holds
/// none or is one; inlinable when no `return` stands in a loop or switch,
/// however deep.
#[test]
fn body_shapes_and_returns_in_loops_and_switches() {
    use super::{body_shape, contains_return, returns_outside_breakables};
    let c = Handle::from_index(0);
    let ret = || Statement::Return { value: None };
    let if_ = |accept: Block, reject: Block| Statement::If {
        condition: c,
        accept,
        reject,
        control: SelectionControl::None,
    };
    let loop_ = |body: Block, continuing: Block| Statement::Loop {
        body,
        continuing,
        break_if: None,
        control: LoopControl::None,
    };
    let switch = |body: Block| Statement::Switch {
        selector: c,
        cases: vec![SwitchCase {
            value: SwitchValue::Default,
            body,
            fall_through: false,
        }],
    };
    let kill = || Statement::Kill;
    // Each body with whether it is simple and whether its returns stand
    // outside loops and switches.
    let bodies: Vec<(Block, bool, bool)> = vec![
        (vec![], true, true),
        (vec![kill(), ret()], true, true),
        (vec![ret(), kill()], false, true),
        (vec![ret(), ret()], false, true),
        (vec![if_(vec![ret()], vec![]), ret()], false, true),
        (vec![if_(vec![], vec![kill()]), ret()], true, true),
        (vec![Statement::Block(vec![ret()])], false, true),
        (vec![kill(), if_(vec![ret()], vec![])], false, true),
        (
            vec![loop_(vec![Statement::Break], vec![]), ret()],
            true,
            true,
        ),
        (
            vec![loop_(vec![if_(vec![ret()], vec![])], vec![])],
            false,
            false,
        ),
        (vec![loop_(vec![], vec![ret()])], false, false),
        (
            vec![if_(
                vec![],
                vec![loop_(vec![loop_(vec![ret()], vec![])], vec![])],
            )],
            false,
            false,
        ),
        (
            vec![Statement::Block(vec![switch(vec![Statement::Block(
                vec![ret()],
            )])])],
            false,
            false,
        ),
        (
            vec![switch(vec![loop_(vec![Statement::Break], vec![])]), ret()],
            true,
            true,
        ),
    ];
    for (body, simple, outside) in bodies {
        let n = body.len();
        let defined = body.iter().enumerate().all(|(i, s)| {
            !contains_return(s) || (i + 1 == n && matches!(s, Statement::Return { .. }))
        });
        assert_eq!(defined, simple, "{body:?}");
        let f = Function {
            body: body.clone(),
            ..Function::default()
        };
        assert_eq!(body_shape(&f), (simple, false), "{body:?}");
        assert_eq!(returns_outside_breakables(&body), outside, "{body:?}");
    }
    let f = Function {
        body: vec![if_(vec![Statement::Debug(DebugInfo::End)], vec![]), ret()],
        ..Function::default()
    };
    assert_eq!(body_shape(&f), (true, true));
}

/// Every module of the samples and the pass and debug tests, as every
/// pass leaves it, with and without debug information, inlined under
/// each policy: a rebuilt caller that calls nothing holds no
/// `CallResult`, and dropping the functions no longer called gives the
/// same module whether such callers are searched for calls to renumber
/// or not.
#[test]
fn rebuilt_callers_that_call_nothing_have_nothing_to_renumber() {
    use crate::ir::visit::walk_statements;
    let (mut quiet, mut dropped) = (0, 0);
    crate::passes::dce::liveness_tests::each_module_after(
        &["samples", "tests/in/passes", "tests/in/debug"],
        |m| {
            for policy in [Policy::Small, Policy::All] {
                let mut told = m.clone();
                let rebuilt = inline_calls(&mut told, policy, &mut Default::default());
                for (h, f) in told.functions.iter() {
                    let mut calls = false;
                    walk_statements(&f.body, |s| calls |= matches!(s, Statement::Call { .. }));
                    if rebuilt[h.index()] && !calls {
                        quiet += 1;
                        let results = f.expressions.iter();
                        let mut results = results.filter(|(_, e)| matches!(e, Expression::CallResult(_)));
                        assert!(results.next().is_none(), "{:?}", f.name);
                    }
                }
                let n = told.functions.len();
                let mut searched = told.clone();
                remove_uncalled(&mut searched, Default::default(), true, &[]);
                remove_uncalled(&mut told, Default::default(), true, &rebuilt);
                check_valid(&told);
                dropped += n - told.functions.len();
                assert_eq!(module_to_string(&told), module_to_string(&searched));
                let pairs = told.functions.iter().zip(searched.functions.iter());
                for ((_, a), (_, b)) in pairs {
                    assert!(a == b, "{:?}", a.name);
                }
            }
        },
    );
    assert!(quiet > 100 && dropped > 100, "{quiet} quiet, {dropped} dropped");
}
