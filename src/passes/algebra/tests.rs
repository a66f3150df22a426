use crate::ir::build::{FunctionBuilder, add_global};
use crate::ir::display::module_to_string;
use crate::ir::*;
use crate::passes::test_util::check_valid;
use BinaryOperator::*;

/// The pass over every function (the pipeline runs it inside `forward`).
fn run(m: &mut Module) {
    let handles: Vec<Handle<Function>> = m.functions.handles().collect();
    for h in handles {
        super::run_function(m, h);
    }
}

/// Builds `out = f(x)` for each `f`, with `x` loaded from `out`, runs the
/// pass (and dce, to drop what was replaced), and returns the text.
type Case<'a> = &'a dyn Fn(&mut FunctionBuilder, Handle<Expression>) -> Handle<Expression>;

fn simplify(scalar: Scalar, cases: &[Case]) -> String {
    let mut m = Module::default();
    let t = m.scalar_type(scalar);
    let out = add_global(&mut m, "out", AddressSpace::Private, t);
    let mut fb = FunctionBuilder::new(&mut m, "main");
    let o = fb.global(out);
    let x = fb.load(o);
    for case in cases {
        let v = case(&mut fb, x);
        fb.store(o, v);
    }
    fb.finish();
    check_valid(&m);
    run(&mut m);
    check_valid(&m);
    crate::passes::dce::run(&mut m);
    check_valid(&m);
    // Name the loaded `x` `%x` so the checks do not depend on numbering.
    let text = module_to_string(&m);
    let load = crate::passes::test_util::line_of(&text, "%");
    let x = load[..load.find(':').expect("%N:")].to_string();
    assert!(load.ends_with("= load @out"), "{text}");
    text.replace(&format!("{x},"), "%x,")
        .replace(&format!("{x}\n"), "%x\n")
        .replace(&format!("{x}:"), "%x:")
}

fn set_precise(fb: &mut FunctionBuilder, h: Handle<Expression>) -> Handle<Expression> {
    if let Expression::Binary { precise, .. } = &mut fb.body.function.expressions[h] {
        *precise = true;
    }
    h
}

fn lines(text: &str) -> Vec<&str> {
    text.lines().map(str::trim).collect()
}

#[test]
fn float_identities_only_when_exact() {
    let text = simplify(
        Scalar::F32,
        &[
            &|fb, x| {
                let one = fb.f32(1.0);
                fb.binary(Multiply, x, one)
            },
            &|fb, x| {
                let nz = fb.f32(-0.0);
                fb.binary(Add, x, nz)
            },
            &|fb, x| {
                let z = fb.f32(0.0);
                fb.binary(Add, x, z)
            },
            &|fb, x| {
                let z = fb.f32(0.0);
                fb.binary(Multiply, x, z)
            },
            &|fb, x| fb.binary(Subtract, x, x),
            &|fb, x| {
                let two = fb.f32(2.0);
                fb.binary(Multiply, two, x)
            },
            &|fb, x| {
                let one = fb.f32(1.0);
                let a = fb.binary(Add, x, one);
                let two = fb.f32(2.0);
                fb.binary(Add, a, two)
            },
        ],
    );
    let l = lines(&text);
    // x * 1 and x + (-0.0) are x itself.
    assert_eq!(
        l.iter().filter(|s| **s == "store @out, %x").count(),
        2,
        "{text}"
    );
    // x + 0.0, x * 0.0 and x - x stay; 2 * x becomes x * 2.
    assert!(text.contains("= add %x, 0.0f32"), "{text}");
    assert!(text.contains("= mul %x, 0.0f32"), "{text}");
    assert!(text.contains("= sub %x, %x"), "{text}");
    assert!(text.contains("= mul %x, 2.0f32"), "{text}");
    // Floats are not reassociated.
    assert!(text.contains("= add %x, 1.0f32"), "{text}");
    assert!(
        text.contains(", 2.0f32") && !text.contains("3.0f32"),
        "{text}"
    );
}

#[test]
fn division_by_constants() {
    let text = simplify(
        Scalar::F32,
        &[
            &|fb, x| {
                let c = fb.f32(4.0);
                fb.binary(Divide, x, c)
            },
            &|fb, x| {
                let c = fb.f32(3.0);
                fb.binary(Divide, x, c)
            },
            &|fb, x| {
                let c = fb.f32(4.0);
                let d = fb.binary(Divide, x, c);
                set_precise(fb, d)
            },
            &|fb, x| {
                let c = fb.f32(3.0);
                let d = fb.binary(Divide, x, c);
                set_precise(fb, d)
            },
            &|fb, x| {
                // 1 / 2^127 is normal, 1 / 2^-127 (a denormal divisor) is not
                // even representable: neither side of the edge is rewritten
                // wrongly.
                let c = fb.f32(f32::MAX);
                fb.binary(Divide, x, c)
            },
            &|fb, x| {
                let one = fb.f32(1.0);
                let m = fb.binary(Multiply, x, one);
                set_precise(fb, m)
            },
        ],
    );
    assert!(text.contains("= mul %x, 0.25f32\n"), "{text}");
    assert!(text.contains("= mul %x, 0.33333334f32\n"), "{text}");
    assert!(text.contains("= precise mul %x, 0.25f32"), "{text}");
    assert!(text.contains("= precise div %x, 3.0f32"), "{text}");
    // 1 / FLT_MAX is a denormal: kept as a division.
    assert!(text.contains("= div %x, 3.4028235e38f32"), "{text}");
    assert!(text.contains("= precise mul %x, 1.0f32"), "{text}");
}

#[test]
fn integer_rules() {
    let text = simplify(
        Scalar::I32,
        &[
            &|fb, x| {
                let one = fb.i32(1);
                let a = fb.binary(Add, x, one);
                let two = fb.i32(2);
                fb.binary(Add, a, two)
            },
            &|fb, x| {
                let c = fb.i32(8);
                fb.binary(Multiply, x, c)
            },
            &|fb, x| {
                let c = fb.i32(4);
                fb.binary(Divide, x, c)
            },
            &|fb, x| fb.binary(Subtract, x, x),
            &|fb, x| {
                let z = fb.i32(0);
                fb.binary(Add, z, x)
            },
        ],
    );
    assert!(text.contains("= add %x, 3i32"), "{text}");
    assert!(text.contains("= shl %x, 3i32"), "{text}");
    // Signed division rounds toward zero: not a shift.
    assert!(text.contains("= div %x, 4i32"), "{text}");
    assert!(text.contains("store @out, 0i32"), "{text}");
    assert!(text.contains("store @out, %x\n"), "{text}");
    let text = simplify(
        Scalar::U32,
        &[
            &|fb, x| {
                let c = fb.u32(4);
                fb.binary(Divide, x, c)
            },
            &|fb, x| {
                let c = fb.u32(8);
                fb.binary(Modulo, x, c)
            },
        ],
    );
    assert!(text.contains("= shr %x, 2u32"), "{text}");
    assert!(text.contains("= and %x, 7u32"), "{text}");
}
