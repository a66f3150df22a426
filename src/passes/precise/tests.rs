use super::run;
use crate::ir::build::{FunctionBuilder, add_global};
use crate::ir::display::module_to_string;
use crate::ir::*;
use crate::passes::test_util::{check_valid, fn_text, line_of, run_main};
use BinaryOperator::*;

fn float(m: &mut Module) -> Handle<Type> {
    m.scalar_type(Scalar::F32)
}

/// `precise float p = a * b + c; out0 = p;` next to the same computation
/// written again into a plain local: only the first is marked.
#[test]
fn only_the_contributing_twin_is_marked() {
    let mut m = Module::default();
    let f32t = float(&mut m);
    let input = add_global(&mut m, "inp", AddressSpace::Private, f32t);
    let mut fb = FunctionBuilder::new(&mut m, "main");
    let p = fb.local("p", f32t, true);
    let q = fb.local("q", f32t, false);
    let g = fb.global(input);
    let a = fb.load(g);
    let mul1 = fb.binary(Multiply, a, a);
    let add1 = fb.binary(Add, mul1, a);
    fb.store(p, add1);
    let mul2 = fb.binary(Multiply, a, a);
    let add2 = fb.binary(Add, mul2, a);
    fb.store(q, add2);
    let f = fb.finish();
    let text = run_main(&mut m, f, run);
    assert!(line_of(&text, &format!("%{}:", mul1.index())).contains("= precise mul"));
    assert!(line_of(&text, &format!("%{}:", add1.index())).contains("= precise add"));
    assert!(!line_of(&text, &format!("%{}:", mul2.index())).contains("precise"));
    assert!(!line_of(&text, &format!("%{}:", add2.index())).contains("precise"));
}

/// `float t = a * b; precise float p = t + 1; float u = p * 2;`: the load of
/// `t` reaches the multiply; the use of `p` afterwards stays fast.
#[test]
fn slices_through_locals_but_not_forward() {
    let mut m = Module::default();
    let f32t = float(&mut m);
    let out = add_global(&mut m, "out", AddressSpace::Private, f32t);
    let mut fb = FunctionBuilder::new(&mut m, "main");
    let t = fb.local("t", f32t, false);
    let p = fb.local("p", f32t, true);
    let two = fb.f32(2.0);
    let mul = fb.binary(Multiply, two, two);
    fb.store(t, mul);
    let tv = fb.load(t);
    let one = fb.f32(1.0);
    let add = fb.binary(Add, tv, one);
    fb.store(p, add);
    let pv = fb.load(p);
    let after = fb.binary(Multiply, pv, two);
    let o = fb.global(out);
    fb.store(o, after);
    let f = fb.finish();
    let text = run_main(&mut m, f, run);
    assert!(line_of(&text, &format!("%{}:", mul.index())).contains("precise mul"));
    assert!(line_of(&text, &format!("%{}:", add.index())).contains("precise add"));
    assert!(!line_of(&text, &format!("%{}:", after.index())).contains("precise"));
}

/// A precise value computed by a call: the callee is specialised, the
/// plain call keeps the plain callee, and the argument's computation in
/// the caller is marked (it reaches the precise result through the callee).
#[test]
fn calls_get_precise_specialisations() {
    let mut m = Module::default();
    let f32t = float(&mut m);
    let out = add_global(&mut m, "out", AddressSpace::Output, f32t);
    m.globals[out].precise = true;
    let out2 = add_global(&mut m, "out2", AddressSpace::Output, f32t);
    // float sq1(float x) { return x * x + 1; }
    let mut fb = FunctionBuilder::new(&mut m, "sq1");
    let x = fb.argument("x", f32t);
    let xx = fb.binary(Multiply, x, x);
    let one = fb.f32(1.0);
    let r = fb.binary(Add, xx, one);
    fb.ret(Some(r), Some(f32t));
    let sq1 = fb.finish();
    // out = sq1(a * 2); out2 = sq1(a * 3);
    let mut fb = FunctionBuilder::new(&mut m, "main");
    let a = fb.local("a", f32t, false);
    let av = fb.load(a);
    let two = fb.f32(2.0);
    let arg1 = fb.binary(Multiply, av, two);
    let r1 = fb.call(sq1, &[arg1]).expect("result");
    let o = fb.global(out);
    fb.store(o, r1);
    let three = fb.f32(3.0);
    let arg2 = fb.binary(Multiply, av, three);
    let r2 = fb.call(sq1, &[arg2]).expect("result");
    let o2 = fb.global(out2);
    fb.store(o2, r2);
    let f = fb.finish();
    let text = run_main(&mut m, f, run);
    assert!(
        text.contains("fn sq1.precise(%x:float) -> float precise {"),
        "{text}"
    );
    assert!(text.contains("= call sq1.precise(%"), "{text}");
    assert!(text.contains("= call sq1(%"), "{text}");
    // The plain callee is untouched; the specialisation is marked.
    let plain = &text[text.find("fn sq1(").expect("sq1")..];
    let plain = &plain[..plain.find("\n}\n").expect("end")];
    assert!(!plain.contains("precise"), "{plain}");
    let special = &text[text.find("fn sq1.precise(").expect("variant")..];
    assert!(special.contains("= precise mul %x, %x"), "{special}");
    assert!(special.contains("= precise add"), "{special}");
    // In the caller: the argument of the precise call only.
    let main = fn_text(&text, "main");
    assert!(line_of(main, &format!("%{}:", arg1.index())).contains("precise mul"));
    assert!(!line_of(main, &format!("%{}:", arg2.index())).contains("precise"));
}

/// `void g(out float r, float x) { r = x * 3; }` called with a precise
/// local: g is specialised with a precise `out` argument.
#[test]
fn out_arguments_into_precise_variables() {
    let mut m = Module::default();
    let f32t = float(&mut m);
    let ptr = m.ty(TypeInner::Pointer {
        base: f32t,
        space: AddressSpace::Function,
    });
    let mut fb = FunctionBuilder::new(&mut m, "g");
    let r = fb.argument("r", ptr);
    let x = fb.argument("x", f32t);
    let three = fb.f32(3.0);
    let v = fb.binary(Multiply, x, three);
    fb.store(r, v);
    let g = fb.finish();
    let mut fb = FunctionBuilder::new(&mut m, "main");
    let p = fb.local("p", f32t, true);
    let q = fb.local("q", f32t, false);
    let one = fb.f32(1.0);
    let arg = fb.binary(Add, one, one);
    fb.call(g, &[p, arg]);
    let arg2 = fb.binary(Subtract, one, one);
    fb.call(g, &[q, arg2]);
    let f = fb.finish();
    let text = run_main(&mut m, f, run);
    assert!(
        text.contains("fn g.precise.out0(%r:ptr<Function, float> precise, %x:float) {"),
        "{text}"
    );
    assert!(text.contains("call g.precise.out0($p, %"), "{text}");
    assert!(text.contains("call g($q, %"), "{text}");
    let main = fn_text(&text, "main");
    assert!(line_of(main, &format!("%{}:", arg.index())).contains("precise add"));
    assert!(!line_of(main, &format!("%{}:", arg2.index())).contains("precise"));
}

/// struct S { float a; precise float b; }: a store through `s.b` is a
/// root, one through `s.a` is not; a whole-struct store of a `Compose`
/// marks only the part that lands in `b`.
#[test]
fn precise_struct_members() {
    let mut m = Module::default();
    let f32t = float(&mut m);
    let member = |name: &str, precise| StructMember {
        name: Some(name.into()),
        ty: f32t,
        offset: None,
        matrix_layout: None,
        precise,
        binding: None,
        decorations: Vec::new(),
    };
    let s_ty = m.types.insert(Type {
        name: Some("S".into()),
        inner: TypeInner::Struct {
            members: vec![member("a", false), member("b", true)],
            size: 0,
        },
    });
    let mut fb = FunctionBuilder::new(&mut m, "main");
    let s = fb.local("s", s_ty, false);
    let t = fb.local("t", s_ty, false);
    let two = fb.f32(2.0);
    let x = fb.binary(Multiply, two, two);
    let y = fb.binary(Add, two, two);
    let sa = fb.access_index(s, 0);
    fb.store(sa, x);
    let sb = fb.access_index(s, 1);
    fb.store(sb, y);
    let u = fb.binary(Subtract, two, two);
    let w = fb.binary(Divide, two, two);
    let whole = fb.compose(s_ty, &[u, w]);
    fb.store(t, whole);
    let f = fb.finish();
    let text = run_main(&mut m, f, run);
    assert!(!line_of(&text, &format!("%{}:", x.index())).contains("precise"));
    assert!(line_of(&text, &format!("%{}:", y.index())).contains("precise add"));
    assert!(!line_of(&text, &format!("%{}:", u.index())).contains("precise"));
    assert!(line_of(&text, &format!("%{}:", w.index())).contains("precise div"));
}

/// A function declared `precise float f()` marks its returned value; a
/// nested call inside it is specialised in turn (h → g → f).
#[test]
fn declared_precise_result_and_call_chains() {
    let mut m = Module::default();
    let f32t = float(&mut m);
    let mut fb = FunctionBuilder::new(&mut m, "f");
    let x = fb.argument("x", f32t);
    let v = fb.binary(Multiply, x, x);
    fb.ret(Some(v), Some(f32t));
    let f = fb.finish();
    let mut fb = FunctionBuilder::new(&mut m, "g");
    let x = fb.argument("x", f32t);
    let r = fb.call(f, &[x]).expect("result");
    let v = fb.binary(Add, r, x);
    fb.ret(Some(v), Some(f32t));
    let g = fb.finish();
    let mut fb = FunctionBuilder::new(&mut m, "h");
    let x = fb.argument("x", f32t);
    let r = fb.call(g, &[x]).expect("result");
    let v = fb.binary(Subtract, r, x);
    fb.ret(Some(v), Some(f32t));
    let h = fb.finish();
    if let Some(r) = m.functions[h].result.as_mut() {
        r.precise = true;
    }
    run(&mut m);
    check_valid(&m);
    let text = module_to_string(&m);
    assert!(
        text.contains("fn g.precise(%x:float) -> float precise"),
        "{text}"
    );
    assert!(
        text.contains("fn f.precise(%x:float) -> float precise"),
        "{text}"
    );
    let hs = &text[text.find("fn h(").expect("h")..];
    assert!(hs.contains("call g.precise(%x)"), "{hs}");
    assert!(hs.contains("precise sub"), "{hs}");
    let gs = &text[text.find("fn g.precise(").expect("g.precise")..];
    assert!(gs.contains("call f.precise(%x)"), "{gs}");
    assert!(gs.contains("precise add"), "{gs}");
    // The originals are left alone.
    let plain_g = &text[text.find("fn g(").expect("g")..text.find("fn h(").expect("h")];
    assert!(!plain_g.contains("precise"), "{plain_g}");
}
