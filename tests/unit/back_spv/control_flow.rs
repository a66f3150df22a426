//! Structured control flow: loops with break, continue and break_if; nested
//! ifs returning early; switch with fall-through and default; out
//! parameters.

use super::*;
use crate::ir::{BinaryOperator as B, LoopControl, SelectionControl, SwitchCase, SwitchValue};
use crate::options::Stage;

/// A compute shader whose body is built by `body`, storing the `int` it
/// returns into `RWStructuredBuffer<int> out[0]`. `body` gets the builder,
/// the int type, a pointer-to-int(Function) type, and the bool type.
fn int_kernel(
    body: impl FnOnce(
        &mut ModuleBuilder,
        &mut FunctionBuilder,
        Handle<Type>,
        Handle<Type>,
        Handle<Type>,
    ) -> Handle<Expression>,
) -> ir::Module {
    let mut mb = ModuleBuilder::new();
    let int = mb.i32();
    let bool_ty = mb.bool();
    let int_ptr = mb.ptr(int, AddressSpace::Function);
    let block = mb.structured_buffer("type.RWStructuredBuffer.int", int, 4);
    let storage = AddressSpace::Storage { writable: true };
    let out = mb.resource("out", storage, block, 0, 0);
    let block_ptr = mb.ptr(block, storage);
    let arr_ty = match mb.m.types[block].inner {
        TypeInner::Struct { ref members, .. } => members[0].ty,
        _ => unreachable!(),
    };
    let arr_ptr = mb.ptr(arr_ty, storage);
    let elem_ptr = mb.ptr(int, storage);
    let mut f = FunctionBuilder::new("main");
    let result = body(&mut mb, &mut f, int, int_ptr, bool_ty);
    let gout = f.global(out, block_ptr);
    let arr = f.index(gout, 0, arr_ptr);
    let dst = f.index(arr, 0, elem_ptr);
    f.store(dst, result);
    let main = mb.add_function(f);
    mb.entry("main", Stage::Compute, main, [1, 1, 1]);
    mb.m
}

/// ```hlsl
/// int s = 0; int i = 0;
/// [loop] for (;;) {            // continuing: i += 1; break if i > 100
///     if (i >= 10) break;
///     if (i == 3) continue;
///     s += i;
/// }
/// ```
pub fn loop_module() -> ir::Module {
    int_kernel(|_, f, int, int_ptr, bool_ty| {
        let s = f.local("s", int, int_ptr);
        let i = f.local("i", int, int_ptr);
        let zero = f.lit(Literal::I32(0), int);
        let one = f.lit(Literal::I32(1), int);
        let three = f.lit(Literal::I32(3), int);
        let ten = f.lit(Literal::I32(10), int);
        let hundred = f.lit(Literal::I32(100), int);
        f.store(s, zero);
        f.store(i, zero);
        f.open();
        {
            let iv = f.load(i, int);
            let done = f.binary(B::GreaterEqual, iv, ten, bool_ty);
            f.open();
            f.stmt(Statement::Break);
            let accept = f.close();
            f.stmt(Statement::If {
                condition: done,
                accept,
                reject: vec![],
                control: SelectionControl::None,
            });
            let skip = f.binary(B::Equal, iv, three, bool_ty);
            f.open();
            f.stmt(Statement::Continue);
            let accept = f.close();
            f.stmt(Statement::If {
                condition: skip,
                accept,
                reject: vec![],
                control: SelectionControl::DontFlatten,
            });
            let sv = f.load(s, int);
            let sum = f.binary(B::Add, sv, iv, int);
            f.store(s, sum);
        }
        let body = f.close();
        f.open();
        let iv = f.load(i, int);
        let next = f.binary(B::Add, iv, one, int);
        f.store(i, next);
        let stop = f.binary(B::Greater, next, hundred, bool_ty);
        let continuing = f.close();
        f.stmt(Statement::Loop {
            body,
            continuing,
            break_if: Some(stop),
            control: LoopControl::DontUnroll,
        });
        f.load(s, int)
    })
}

#[test]
fn loop_with_break_continue_and_break_if() {
    let m = loop_module();
    for env in [TargetEnv::Vulkan1_0, TargetEnv::Vulkan1_2] {
        let w = write_valid(&m, env);
        let merges = w.all(Op::LoopMerge);
        assert_eq!(merges.len(), 1);
        assert_eq!(
            merges[0].operands[2],
            Operand::LoopControl(spirv::LoopControl::DONT_UNROLL)
        );
        let (merge, cont) = (
            merges[0].operands[0].unwrap_id_ref(),
            merges[0].operands[1].unwrap_id_ref(),
        );
        // break_if: the back edge is a conditional branch to merge or header.
        let back = w
            .all(Op::BranchConditional)
            .into_iter()
            .find(|b| b.operands[1] == Operand::IdRef(merge))
            .expect("a conditional back edge");
        let header = back.operands[2].unwrap_id_ref();
        assert_ne!(header, cont);
        // `break` and `continue` branch to the merge and continue blocks.
        let branches: Vec<u32> = w
            .all(Op::Branch)
            .iter()
            .map(|b| b.operands[0].unwrap_id_ref())
            .collect();
        assert!(branches.contains(&merge), "break");
        assert!(
            branches.iter().filter(|&&t| t == cont).count() >= 2,
            "continue and fall-through"
        );
        let sel = w.all(Op::SelectionMerge);
        assert_eq!(sel.len(), 2);
        assert!(
            sel.iter().any(|s| s.operands[1]
                == Operand::SelectionControl(spirv::SelectionControl::DONT_FLATTEN))
        );
        // The locals sit at the top of the first block.
        let first = &w.module.functions[0].blocks[0];
        assert_eq!(first.instructions[0].class.opcode, Op::Variable);
        assert_eq!(first.instructions[1].class.opcode, Op::Variable);
    }
}

/// ```hlsl
/// int classify(int x) {
///     if (x > 0) { if (x > 10) return 2; else return 1; }
///     return 0;
///     x = 5;          // dead code after return: dropped
/// }
/// ```
pub fn classify_module() -> ir::Module {
    {
        let mut mb = ModuleBuilder::new();
        let int = mb.i32();
        let bool_ty = mb.bool();
        let mut g = FunctionBuilder::new("classify");
        g.body.function.arguments.push(ir::FunctionArgument {
            name: Some("x".into()),
            ty: int,
            precise: false,
            spirv_decorations: Vec::new(),
        });
        g.body.function.result = Some(ir::FunctionResult {
            ty: int,
            precise: false,
        });
        let x = g.add(Expression::FunctionArgument(0), int);
        let zero = g.lit(Literal::I32(0), int);
        let one = g.lit(Literal::I32(1), int);
        let two = g.lit(Literal::I32(2), int);
        let ten = g.lit(Literal::I32(10), int);
        let pos = g.binary(B::Greater, x, zero, bool_ty);
        g.open();
        let big = g.binary(B::Greater, x, ten, bool_ty);
        g.open();
        g.stmt(Statement::Return { value: Some(two) });
        let a = g.close();
        g.open();
        g.stmt(Statement::Return { value: Some(one) });
        let r = g.close();
        g.stmt(Statement::If {
            condition: big,
            accept: a,
            reject: r,
            control: SelectionControl::Flatten,
        });
        let outer = g.close();
        g.stmt(Statement::If {
            condition: pos,
            accept: outer,
            reject: vec![],
            control: SelectionControl::None,
        });
        g.stmt(Statement::Return { value: Some(zero) });
        g.stmt(Statement::Kill);
        let classify = mb.add_function(g);

        let int_ptr = mb.ptr(int, AddressSpace::Function);
        let block = mb.structured_buffer("type.RWStructuredBuffer.int", int, 4);
        let storage = AddressSpace::Storage { writable: true };
        let out = mb.resource("out", storage, block, 0, 0);
        let block_ptr = mb.ptr(block, storage);
        let arr_ty = match mb.m.types[block].inner {
            TypeInner::Struct { ref members, .. } => members[0].ty,
            _ => unreachable!(),
        };
        let arr_ptr = mb.ptr(arr_ty, storage);
        let elem_ptr = mb.ptr(int, storage);
        let _ = int_ptr;
        let mut f = FunctionBuilder::new("main");
        let gout = f.global(out, block_ptr);
        let arr = f.index(gout, 0, arr_ptr);
        let src = f.index(arr, 1, elem_ptr);
        let v = f.load(src, int);
        let res = f.add(Expression::CallResult(classify), int);
        f.stmt(Statement::Call {
            function: classify,
            arguments: vec![v],
            result: Some(res),
        });
        let dst = f.index(arr, 0, elem_ptr);
        f.store(dst, res);
        let main = mb.add_function(f);
        mb.entry("main", Stage::Compute, main, [1, 1, 1]);
        mb.m
    }
}

#[test]
fn nested_ifs_with_early_return() {
    let m = classify_module();
    for env in [TargetEnv::Vulkan1_0, TargetEnv::Vulkan1_2] {
        let w = write_valid(&m, env);
        // The inner if's merge is unreachable.
        assert_eq!(w.count(Op::Unreachable), 1);
        assert_eq!(w.count(Op::ReturnValue), 3);
        assert_eq!(w.count(Op::Kill), 0, "code after return is dropped");
        assert_eq!(w.count(Op::FunctionCall), 1);
        assert!(
            w.all(Op::SelectionMerge)
                .iter()
                .any(|s| s.operands[1]
                    == Operand::SelectionControl(spirv::SelectionControl::FLATTEN))
        );
        w.assert_text("OpName %");
        assert!(w.text.contains("\"classify\""));
    }
}

/// ```hlsl
/// int a = 0;
/// switch (x) {
///     case 0: a = 1;            // falls through
///     case 1: a += 2; break;
///     case 5: a = 9;            // falls into default
///     default: a += 7;
/// }
/// ```
pub fn switch_module(selector: i32) -> ir::Module {
    int_kernel(|_, f, int, int_ptr, _| {
        let a = f.local("a", int, int_ptr);
        let x = f.local("x", int, int_ptr);
        let zero = f.lit(Literal::I32(0), int);
        let one = f.lit(Literal::I32(1), int);
        let two = f.lit(Literal::I32(2), int);
        let seven = f.lit(Literal::I32(7), int);
        let nine = f.lit(Literal::I32(9), int);
        let selector = f.lit(Literal::I32(selector), int);
        f.store(a, zero);
        f.store(x, selector);
        let sel = f.load(x, int);
        let mut cases = Vec::new();
        f.open();
        f.store(a, one);
        cases.push(SwitchCase {
            value: SwitchValue::I32(0),
            body: f.close(),
            fall_through: true,
        });
        f.open();
        let av = f.load(a, int);
        let s = f.binary(B::Add, av, two, int);
        f.store(a, s);
        f.stmt(Statement::Break);
        cases.push(SwitchCase {
            value: SwitchValue::I32(1),
            body: f.close(),
            fall_through: false,
        });
        f.open();
        f.store(a, nine);
        cases.push(SwitchCase {
            value: SwitchValue::I32(5),
            body: f.close(),
            fall_through: true,
        });
        f.open();
        let av = f.load(a, int);
        let s = f.binary(B::Add, av, seven, int);
        f.store(a, s);
        cases.push(SwitchCase {
            value: SwitchValue::Default,
            body: f.close(),
            fall_through: false,
        });
        f.stmt(Statement::Switch {
            selector: sel,
            cases,
        });
        f.load(a, int)
    })
}

#[test]
fn switch_with_fall_through_and_default() {
    let m = switch_module(2);
    for env in [TargetEnv::Vulkan1_0, TargetEnv::Vulkan1_2] {
        let w = write_valid(&m, env);
        let sw = w.all(Op::Switch);
        assert_eq!(sw.len(), 1);
        let ops = &sw[0].operands;
        // selector, default, then (literal, label) for 0, 1, 5.
        assert_eq!(ops.len(), 2 + 2 * 3);
        let literals: Vec<&Operand> = ops[2..].iter().step_by(2).collect();
        assert_eq!(
            literals,
            vec![
                &Operand::LiteralBit32(0),
                &Operand::LiteralBit32(1),
                &Operand::LiteralBit32(5)
            ]
        );
        let label = |i: usize| ops[3 + 2 * i].unwrap_id_ref();
        let default = ops[1].unwrap_id_ref();
        // Case 0 falls into case 1; case 5 falls into default.
        let block_of = |l: u32| {
            w.module.functions[0]
                .blocks
                .iter()
                .find(|b| b.label.as_ref().and_then(|i| i.result_id) == Some(l))
                .expect("a block")
        };
        let last = |l: u32| block_of(l).instructions.last().unwrap().clone();
        assert_eq!(last(label(0)).operands[0], Operand::IdRef(label(1)));
        assert_eq!(last(label(2)).operands[0], Operand::IdRef(default));
    }
}

/// `void g(out float r, inout float q) { r = 1; q = q * 2; }` called with
/// two locals.
#[test]
fn out_and_inout_parameters_are_pointers() {
    let mut mb = ModuleBuilder::new();
    let f32_ty = mb.f32();
    let fptr = mb.ptr(f32_ty, AddressSpace::Function);
    let mut g = FunctionBuilder::new("g");
    for name in ["r", "q"] {
        g.body.function.arguments.push(ir::FunctionArgument {
            name: Some(name.into()),
            ty: fptr,
            precise: false,
            spirv_decorations: Vec::new(),
        });
    }
    let r = g.add(Expression::FunctionArgument(0), fptr);
    let q = g.add(Expression::FunctionArgument(1), fptr);
    let one = g.lit(lit_f32(1.0), f32_ty);
    let two = g.lit(lit_f32(2.0), f32_ty);
    g.store(r, one);
    let qv = g.load(q, f32_ty);
    let d = g.binary(B::Multiply, qv, two, f32_ty);
    g.store(q, d);
    let gh = mb.add_function(g);

    let block = mb.structured_buffer("type.RWStructuredBuffer.float", f32_ty, 4);
    let storage = AddressSpace::Storage { writable: true };
    let out = mb.resource("out", storage, block, 0, 0);
    let block_ptr = mb.ptr(block, storage);
    let arr_ty = match mb.m.types[block].inner {
        TypeInner::Struct { ref members, .. } => members[0].ty,
        _ => unreachable!(),
    };
    let arr_ptr = mb.ptr(arr_ty, storage);
    let elem_ptr = mb.ptr(f32_ty, storage);
    let private = mb.global("priv", AddressSpace::Private, f32_ty);
    let private_ptr = mb.ptr(f32_ty, AddressSpace::Private);
    let mut f = FunctionBuilder::new("main");
    let a = f.local("a", f32_ty, fptr);
    let b = f.local("b", f32_ty, fptr);
    f.body.function.local_variables[ir::Handle::from_index(1)].init =
        Some(two_const(&mut f, f32_ty));
    f.stmt(Statement::Call {
        function: gh,
        arguments: vec![a, b],
        result: None,
    });
    let av = f.load(a, f32_ty);
    let bv = f.load(b, f32_ty);
    let s = f.binary(B::Add, av, bv, f32_ty);
    let gout = f.global(out, block_ptr);
    let arr = f.index(gout, 0, arr_ptr);
    let dst = f.index(arr, 0, elem_ptr);
    f.store(dst, s);
    // g(out[1], priv): a buffer element and a Private global are copied
    // in and out through Function temporaries.
    let e1 = f.index(arr, 1, elem_ptr);
    let gpriv = f.global(private, private_ptr);
    f.stmt(Statement::Call {
        function: gh,
        arguments: vec![e1, gpriv],
        result: None,
    });
    let main = mb.add_function(f);
    mb.entry("main", Stage::Compute, main, [1, 1, 1]);

    for env in [TargetEnv::Vulkan1_0, TargetEnv::Vulkan1_2] {
        let w = write_valid(&mb.m, env);
        let params = &w.module.functions[0].parameters;
        assert_eq!(params.len(), 2, "g is written first (arena order)");
        let ptr_ty = params[0].result_type.unwrap();
        let ptr = w.def(ptr_ty);
        assert_eq!(ptr.class.opcode, Op::TypePointer);
        assert_eq!(
            ptr.operands[0],
            Operand::StorageClass(spirv::StorageClass::Function)
        );
        let calls = w.all(Op::FunctionCall);
        assert_eq!(calls.len(), 2);
        let call = calls[0];
        // The second call passes two new Function variables.
        for arg in &calls[1].operands[1..] {
            let var = w.def(arg.unwrap_id_ref());
            assert_eq!(var.class.opcode, Op::Variable);
            assert_eq!(
                var.operands[0],
                Operand::StorageClass(spirv::StorageClass::Function)
            );
        }
        let vars: Vec<u32> = w.module.functions[1].blocks[0]
            .instructions
            .iter()
            .filter(|i| i.class.opcode == Op::Variable)
            .map(|i| i.result_id.unwrap())
            .collect();
        assert_eq!(vars.len(), 4, "a, b and two temporaries");
        assert_eq!(
            call.operands[1..],
            [Operand::IdRef(vars[0]), Operand::IdRef(vars[1])]
        );
        // `b` has a constant initialiser on its OpVariable.
        let b_var = w.def(vars[1]);
        assert_eq!(b_var.operands.len(), 2);
    }
}

fn two_const(f: &mut FunctionBuilder, f32_ty: Handle<Type>) -> Handle<Expression> {
    f.lit(lit_f32(2.0), f32_ty)
}
/// `RWStructuredBuffer<int> out; [numthreads(1,1,1)] void main() { int a = 0; out[0] = a; }`
pub fn simple_kernel() -> ir::Module {
    int_kernel(|_, f, int, int_ptr, _| {
        let a = f.local("a", int, int_ptr);
        let zero = f.lit(Literal::I32(0), int);
        f.store(a, zero);
        f.load(a, int)
    })
}

/// Loops that never reach their continue target or merge:
/// `for (;;) { if (s > 3) break; s = 5; return; }` and
/// `for (;;) { return; }`, and a switch whose cases all return.
#[test]
fn loops_and_switches_with_unreachable_parts() {
    let m = int_kernel(|_, f, int, int_ptr, bool_ty| {
        let s = f.local("s", int, int_ptr);
        let three = f.lit(Literal::I32(3), int);
        let five = f.lit(Literal::I32(5), int);
        f.store(s, three);
        f.open();
        {
            let sv = f.load(s, int);
            let big = f.binary(B::Greater, sv, three, bool_ty);
            f.open();
            f.stmt(Statement::Break);
            let accept = f.close();
            f.stmt(Statement::If {
                condition: big,
                accept,
                reject: vec![],
                control: SelectionControl::None,
            });
            f.store(s, five);
            f.stmt(Statement::Return { value: None });
        }
        let body = f.close();
        f.stmt(Statement::Loop {
            body,
            continuing: vec![],
            break_if: None,
            control: LoopControl::Unroll(Some(4)),
        });
        // A switch whose every case returns: its merge is unreachable.
        let sel = f.load(s, int);
        f.open();
        f.stmt(Statement::Return { value: None });
        let ret_a = f.close();
        f.open();
        f.stmt(Statement::Return { value: None });
        let ret_b = f.close();
        f.stmt(Statement::Switch {
            selector: sel,
            cases: vec![
                SwitchCase {
                    value: SwitchValue::I32(1),
                    body: ret_a,
                    fall_through: false,
                },
                SwitchCase {
                    value: SwitchValue::Default,
                    body: ret_b,
                    fall_through: false,
                },
            ],
        });
        // Dead: never written.
        f.load(s, int)
    });
    for env in [TargetEnv::Vulkan1_0, TargetEnv::Vulkan1_3] {
        let w = write_valid(&m, env);
        assert_eq!(
            w.all(Op::LoopMerge)[0].operands[2],
            Operand::LoopControl(spirv::LoopControl::UNROLL)
        );
        // The switch merge is unreachable, and nothing after it is written.
        assert_eq!(w.count(Op::Unreachable), 1);
        assert_eq!(w.count(Op::Return), 3);
        assert_eq!(w.count(Op::Store), 2, "the final store to `out` is dead");
    }
}
