//! Division and addition of IEEE special values: on the GPU, and folded at
//! compile time.
//!
//! Every pair of −inf, −F, −denorm, −0, +0, +denorm, +F, +inf and NaN
//! (F = 1.5, denorm = 2^-127) is divided and added, plainly and into
//! `precise` variables:
//!
//! - on the device, from buffer inputs (so nothing is folded), compiled
//!   with and without `-Gis` and at -O0 and -O3; the results must be what
//!   Vulkan allows (the rule below);
//! - with literal operands, folded by the compiler: the IR after
//!   `const_fold` must hold the exact IEEE 754 binary32 result (bit for bit;
//!   any NaN for NaN), at -O0 and -O3, plain and precise; run on the device,
//!   the stored constants come back unchanged.
//!
//! # What Vulkan allows (Vulkan 1.3, "Precision and Operation of SPIR-V
//! # Instructions"), and D3D's `div`
//!
//! - OpFAdd is correctly rounded. OpFDiv has an error of at most 2.5 ULP
//!   for |y| in [2^-126, 2^126]; outside that range Vulkan gives no bound.
//!   HLSL's `/` may also be computed as x * (1 / y) (D3D's `div`,
//!   HLSL-SEMANTICS.md): we accept that, with each step rounded, for |y|
//!   outside the range (inside it, 2.5 ULP covers it).
//! - Dividing a non-zero by a zero gives the IEEE infinity of the right
//!   sign.
//! - Denormal inputs and results may be flushed to zero of the same sign
//!   (no DenormPreserve/DenormFlushToZero mode is declared): every
//!   denormal operand is tried as itself and flushed, every denormal result
//!   as itself and flushed.
//! - Infinities, NaNs and the sign of zero follow IEEE 754 only when the
//!   entry point declares `SignedZeroInfNanPreserve` (`-Gis`); without it
//!   the driver may assume they do not occur. So the full rule is asserted
//!   for `-Gis` builds (on devices that support the mode for 32-bit floats,
//!   as lavapipe and NVIDIA do); without `-Gis` only pairs whose operands
//!   and IEEE result are finite are asserted, with the sign of a zero
//!   ignored, and the rest is printed.
//! - A NaN result may be any NaN.
//!
//! The table of device results is printed (`--nocapture`). On a machine
//! without spirv-tools (the GPU machine), `HLSLC_NO_SPIRV_TOOLS=1` skips
//! spirv-val for these modules:
//!
//! ```sh
//! HLSLC_VK_DEVICE=NVIDIA HLSLC_NO_SPIRV_TOOLS=1 ./hlslc-<hash> tests::runtime_ieee --nocapture
//! ```

use crate::diag::{DiagnosticFormat, Diagnostics, render_to_string};
use crate::ir::{Expression, Literal, Statement};
use crate::options::TargetEnv;
use crate::tests::common;
use crate::tests::vk::{self, Resource};

const F: f32 = 1.5;
const DENORM: u32 = 0x0040_0000; // 2^-127

/// The special values, in order, with their names and HLSL spellings.
fn values() -> [(&'static str, f32, &'static str); 9] {
    [
        ("-inf", f32::NEG_INFINITY, "asfloat(0xff800000u)"),
        ("-F", -F, "-1.5f"),
        ("-den", -f32::from_bits(DENORM), "asfloat(0x80400000u)"),
        ("-0", -0.0, "-0.0f"),
        ("+0", 0.0, "0.0f"),
        ("+den", f32::from_bits(DENORM), "asfloat(0x00400000u)"),
        ("+F", F, "1.5f"),
        ("+inf", f32::INFINITY, "asfloat(0x7f800000u)"),
        ("NaN", f32::NAN, "asfloat(0x7fc00000u)"),
    ]
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Op {
    Div,
    Add,
}

/// `v` as itself and, when denormal, flushed to zero of its sign.
fn flush_variants(v: f32) -> Vec<f32> {
    if v.is_subnormal() {
        vec![v, if v.is_sign_negative() { -0.0 } else { 0.0 }]
    } else {
        vec![v]
    }
}

/// One acceptable result: exactly these bits (any NaN for NaN), or within
/// `ulps` of `value`.
#[derive(Clone, Copy, Debug)]
struct Allowed {
    value: f32,
    ulps: f64,
}

/// The size of one unit in the last place at `v` (the denormal step at 0).
fn ulp(v: f32) -> f64 {
    let a = v.abs();
    if a == 0.0 || a.is_subnormal() {
        return f64::from(f32::from_bits(1));
    }
    let next = f32::from_bits(a.to_bits() + 1);
    f64::from(next) - f64::from(a)
}

impl Allowed {
    fn accepts(&self, got: f32, strict: bool) -> bool {
        let want = self.value;
        if want.is_nan() || got.is_nan() {
            return want.is_nan() && got.is_nan();
        }
        if want.to_bits() == got.to_bits() {
            return true;
        }
        if !strict && want == 0.0 && got == 0.0 {
            // Without SignedZeroInfNanPreserve the sign of a zero is free.
            return true;
        }
        if self.ulps == 0.0 || want.is_infinite() || got.is_infinite() {
            return false;
        }
        (strict || want != 0.0)
            && want.is_sign_negative() == got.is_sign_negative()
            && (f64::from(got) - f64::from(want)).abs() <= self.ulps * ulp(want)
    }
}

/// Whether |y| is in [2^-126, 2^126], where OpFDiv has its 2.5 ULP bound.
fn in_div_range(y: f32) -> bool {
    let a = y.abs();
    (2f32.powi(-126)..=2f32.powi(126)).contains(&a)
}

/// Every result Vulkan (and D3D's `div`) allows for `x op y`.
fn allowed(op: Op, x: f32, y: f32) -> Vec<Allowed> {
    let mut out = Vec::new();
    let mut push = |v: f32, ulps: f64| {
        for r in flush_variants(v) {
            out.push(Allowed { value: r, ulps });
        }
    };
    for &x in &flush_variants(x) {
        for &y in &flush_variants(y) {
            match op {
                Op::Add => push(x + y, 0.0),
                Op::Div => {
                    if y == 0.0 && x != 0.0 && !x.is_nan() {
                        let negative = x.is_sign_negative() != y.is_sign_negative();
                        push(
                            if negative {
                                f32::NEG_INFINITY
                            } else {
                                f32::INFINITY
                            },
                            0.0,
                        );
                    } else if in_div_range(y) && x.is_finite() {
                        push(x / y, 2.5);
                    } else {
                        // Outside Vulkan's range: the IEEE quotient, or
                        // x * (1 / y) as D3D allows (the reciprocal itself
                        // possibly flushed).
                        push(x / y, 0.0);
                        for &r in &flush_variants(1.0 / y) {
                            push(x * r, 0.0);
                        }
                    }
                }
            }
        }
    }
    out
}

/// The IEEE 754 binary32 result, exactly.
fn ieee(op: Op, x: f32, y: f32) -> f32 {
    match op {
        Op::Div => x / y,
        Op::Add => x + y,
    }
}

fn name(v: f32) -> String {
    let b = v.to_bits();
    if v.is_nan() {
        return "NaN".into();
    }
    for (n, x, _) in values() {
        if x.to_bits() == b {
            return n.into();
        }
    }
    match b {
        0x3f80_0000 => "+1".into(),
        0xbf80_0000 => "-1".into(),
        0x0080_0000 => "+2^-126".into(),
        0x8080_0000 => "-2^-126".into(),
        _ => format!("{v:e}"),
    }
}

/// The device kernel: pair `i` reads `inputs[2i]`, `inputs[2i+1]` and
/// writes x / y, x + y and the same into precise variables.
const KERNEL: &str = r#"
StructuredBuffer<float> inputs : register(t0);
RWStructuredBuffer<float> outputs : register(u1);

[numthreads(81, 1, 1)]
void main(uint3 id : SV_DispatchThreadID) {
    uint i = id.x;
    float x = inputs[2 * i];
    float y = inputs[2 * i + 1];
    outputs[4 * i + 0] = x / y;
    outputs[4 * i + 1] = x + y;
    precise float q = x / y;
    precise float s = x + y;
    outputs[4 * i + 2] = q;
    outputs[4 * i + 3] = s;
}
"#;

fn options(level: u8, strict: bool) -> crate::Options {
    let mut o = common::options_for("cs_6_0");
    o.opt_level = level;
    o.ieee_strict = strict;
    o.target_env = TargetEnv::Vulkan1_1;
    o
}

fn compile(src: &str, o: &crate::Options) -> Vec<u32> {
    let (loader, path) = common::single_file(src);
    let c = crate::compile(&path, &loader, o);
    let text = render_to_string(&c.diagnostics.list, &c.source_map, DiagnosticFormat::Short);
    let Some(a) = c.artifact.filter(|_| !c.diagnostics.has_errors()) else {
        panic!("does not compile:\n{text}");
    };
    // `HLSLC_NO_SPIRV_TOOLS=1` runs without spirv-val (on the GPU machine,
    // which has no spirv-tools; the same modules are validated here).
    if std::env::var_os("HLSLC_NO_SPIRV_TOOLS").is_none()
        && let Err(e) = common::spirv_val(&a.spirv, "vulkan1.1")
    {
        panic!(
            "invalid SPIR-V: {e}\n{}",
            crate::back::spv::disassemble(&a.spirv)
        );
    }
    a.spirv
}

/// The constant each `OpStore` into element `k` of the buffer named
/// `outputs` stores, following stores into function variables (precise
/// locals at -O0), read from the SPIR-V words.
fn spirv_constants(words: &[u32], n: usize) -> Vec<Option<u32>> {
    use rspirv::dr::Operand;
    use spirv::Op;
    let m = rspirv::dr::load_words(words).expect("rspirv reads the module");
    let defs: std::collections::HashMap<u32, &rspirv::dr::Instruction> = m
        .all_inst_iter()
        .filter_map(|i| i.result_id.map(|id| (id, i)))
        .collect();
    let stores: Vec<&rspirv::dr::Instruction> = m
        .all_inst_iter()
        .filter(|i| i.class.opcode == Op::Store)
        .collect();
    let outputs = m
        .debug_names
        .iter()
        .find(|i| matches!(&i.operands[1], Operand::LiteralString(s) if s == "outputs"))
        .map(|i| i.operands[0].unwrap_id_ref());
    let constant = |id: u32| match defs.get(&id) {
        Some(i) if i.class.opcode == Op::Constant => match i.operands[0] {
            Operand::LiteralBit32(v) => Some(v),
            _ => None,
        },
        _ => None,
    };
    // A value: a constant, or a load of a variable whose store is one.
    let value = |mut id: u32| {
        for _ in 0..4 {
            if let Some(v) = constant(id) {
                return Some(v);
            }
            let load = defs.get(&id).filter(|i| i.class.opcode == Op::Load)?;
            let var = load.operands[0].unwrap_id_ref();
            let store = stores
                .iter()
                .find(|s| s.operands[0].unwrap_id_ref() == var)?;
            id = store.operands[1].unwrap_id_ref();
        }
        None
    };
    let mut out = vec![None; 4 * n * n];
    for s in &stores {
        let Some(chain) = defs.get(&s.operands[0].unwrap_id_ref()) else {
            continue;
        };
        if chain.class.opcode != Op::AccessChain
            || Some(chain.operands[0].unwrap_id_ref()) != outputs
            || chain.operands.len() != 3
        {
            continue;
        }
        if let Some(k) = constant(chain.operands[2].unwrap_id_ref())
            && let Some(slot) = out.get_mut(k as usize)
        {
            *slot = value(s.operands[1].unwrap_id_ref());
        }
    }
    out
}

/// A 9 x 9 table of `cell(x, y)`, rows x, columns y.
fn grid(title: &str, cell: impl Fn(usize, usize) -> String) -> String {
    let vals = values();
    let mut s = format!("{title}\n{:>6} |", "x \\ y");
    for (n, _, _) in vals {
        s += &format!(" {n:>9}");
    }
    s.push('\n');
    for (i, (n, _, _)) in vals.iter().enumerate() {
        s += &format!("{n:>6} |");
        for j in 0..vals.len() {
            s += &format!(" {:>9}", cell(i, j));
        }
        s.push('\n');
    }
    s
}

#[test]
fn special_values_on_the_device_follow_vulkan_rules() {
    let vals = values();
    let n = vals.len();
    let mut inputs = Vec::with_capacity(2 * n * n);
    for (_, x, _) in vals {
        for (_, y, _) in vals {
            inputs.extend([x, y]);
        }
    }
    let runner = vk::shared();
    let info = runner.info().clone();
    let szinp = vk::on(
        info.properties12
            .shader_signed_zero_inf_nan_preserve_float32,
    );
    let mut report = format!(
        "runtime_ieee on {} ({:?}); SignedZeroInfNanPreserve for fp32: {szinp}\n",
        info.name, info.driver_id
    );
    let mut failures = Vec::new();
    for strict in [true, false] {
        if strict && !szinp {
            report += "-Gis builds skipped: the device cannot preserve signed zeros, infinities and NaNs\n";
            continue;
        }
        for level in [0u8, 3] {
            let words = compile(KERNEL, &options(level, strict));
            let mut res = [
                Resource::storage(0, 0, vk::f32_bytes(&inputs)),
                Resource::storage(0, 1, vec![0u8; 4 * 4 * n * n]),
            ];
            if let Err(e) = runner.run_compute(&words, "main", &mut res, &[], [1, 1, 1]) {
                panic!("dispatch failed: {e}");
            }
            let out = vk::to_f32s(&res[1].data);
            let build = format!("-O{level}{}", if strict { " -Gis" } else { "" });
            let mut deviations = 0;
            for (k, (op, precise)) in [
                (Op::Div, false),
                (Op::Add, false),
                (Op::Div, true),
                (Op::Add, true),
            ]
            .into_iter()
            .enumerate()
            {
                for i in 0..n {
                    for j in 0..n {
                        let (x, y) = (vals[i].1, vals[j].1);
                        let got = out[4 * (i * n + j) + k];
                        let want = ieee(op, x, y);
                        if !(got.to_bits() == want.to_bits() || got.is_nan() && want.is_nan()) {
                            deviations += 1;
                        }
                        // Without -Gis only finite operands and results are
                        // constrained.
                        let checked = strict
                            || (x.is_finite()
                                && y.is_finite()
                                && want.is_finite()
                                && !(op == Op::Div && y == 0.0));
                        if checked && !allowed(op, x, y).iter().any(|a| a.accepts(got, strict)) {
                            failures.push(format!(
                                "{build}: {}{} {} {} = {} (0x{:08x}); IEEE: {}",
                                if precise { "precise " } else { "" },
                                vals[i].0,
                                if op == Op::Div { "/" } else { "+" },
                                vals[j].0,
                                name(got),
                                got.to_bits(),
                                name(want)
                            ));
                        }
                    }
                }
                if level == 3 && !precise {
                    let title = format!(
                        "{build}: x {} y on the device",
                        if op == Op::Div { "/" } else { "+" }
                    );
                    report += &grid(&title, |i, j| name(out[4 * (i * n + j) + k]));
                }
            }
            report += &format!(
                "{build}: {deviations} of {} results differ from IEEE 754 in bits (NaN: any NaN)\n",
                4 * n * n
            );
        }
    }
    println!("{report}");
    assert!(failures.is_empty(), "{}\n{report}", failures.join("\n"));
}

/// The kernel with literal operands: `outputs[4k + m]` for pair k, with m =
/// 0 div, 1 add, 2 precise div, 3 precise add.
fn literal_kernel() -> String {
    let vals = values();
    let mut s = String::from(
        "RWStructuredBuffer<float> outputs : register(u0);\n\n[numthreads(1, 1, 1)]\nvoid main() {\n",
    );
    let mut k = 0;
    for (_, _, x) in vals {
        for (_, _, y) in vals {
            s += &format!("    outputs[{}] = ({x}) / ({y});\n", 4 * k);
            s += &format!("    outputs[{}] = ({x}) + ({y});\n", 4 * k + 1);
            s += &format!("    precise float q{k} = ({x}) / ({y});\n");
            s += &format!("    outputs[{}] = q{k};\n", 4 * k + 2);
            s += &format!("    precise float s{k} = ({x}) + ({y});\n");
            s += &format!("    outputs[{}] = s{k};\n", 4 * k + 3);
            k += 1;
        }
    }
    s + "}\n"
}

/// The constant stored into each `outputs[i]` of every function, after the
/// pipeline stopped at the pass that folds: `const_fold` at -O0, `forward`
/// from -O1 (`const_fold` leaves it the functions it folds as well).
fn folded_stores(src: &str, level: u8) -> Vec<Option<u32>> {
    let (loader, path) = common::single_file(src);
    let mut o = options(level, false);
    let folds = if level == 0 { "const_fold" } else { "forward" };
    o.ir_after_pass = Some(folds.into());
    let (c, module) = crate::compile_to_ir(&path, &loader, &o);
    let Some(mut m) = module else {
        panic!(
            "does not compile:\n{}",
            render_to_string(&c.diagnostics.list, &c.source_map, DiagnosticFormat::Short)
        );
    };
    let mut d = Diagnostics::new();
    crate::passes::run(&mut m, &o.pipeline_options(), &mut d);
    assert!(!d.has_errors(), "{:?}", d.list);
    let n = values().len();
    let mut out = vec![None; 4 * n * n];
    for (_, f) in m.functions.iter() {
        // Precise values go through their locals: the literal stored there.
        let mut local_values = std::collections::HashMap::new();
        crate::ir::visit::walk_statements(&f.body, |s| {
            if let Statement::Store { pointer, value } = *s
                && let Expression::LocalVariable(l) = f.expressions[pointer]
                && let Expression::Literal(Literal::F32(bits)) = f.expressions[value]
            {
                local_values.insert(l, bits);
            }
        });
        let literal = |value| match f.expressions[value] {
            Expression::Literal(Literal::F32(bits)) => Some(bits),
            Expression::Load { pointer } => match f.expressions[pointer] {
                Expression::LocalVariable(l) => local_values.get(&l).copied(),
                _ => None,
            },
            _ => None,
        };
        crate::ir::visit::walk_statements(&f.body, |s| {
            let Statement::Store { pointer, value } = *s else {
                return;
            };
            let index = match f.expressions[pointer] {
                Expression::Access { index, .. } => match f.expressions[index] {
                    Expression::Literal(Literal::I32(i)) => i as usize,
                    Expression::Literal(Literal::U32(i)) => i as usize,
                    _ => return,
                },
                _ => return,
            };
            if let (Some(slot), Some(bits)) = (out.get_mut(index), literal(value)) {
                *slot = Some(bits);
            }
        });
    }
    out
}

#[test]
fn special_values_fold_to_the_exact_ieee_result() {
    let vals = values();
    let n = vals.len();
    let src = literal_kernel();
    let runner = vk::shared();
    for level in [0u8, 3] {
        let folded = folded_stores(&src, level);
        let mut failures = Vec::new();
        for i in 0..n {
            for j in 0..n {
                for (m, op) in [Op::Div, Op::Add, Op::Div, Op::Add].into_iter().enumerate() {
                    let k = 4 * (i * n + j) + m;
                    let want = ieee(op, vals[i].1, vals[j].1);
                    let ok = folded[k].is_some_and(|b| {
                        let got = f32::from_bits(b);
                        b == want.to_bits() || got.is_nan() && want.is_nan()
                    });
                    if !ok {
                        failures.push(format!(
                            "-O{level}: outputs[{k}] ({}{} {} {}) folded to {:?}, IEEE: {} (0x{:08x})",
                            if m >= 2 { "precise " } else { "" },
                            vals[i].0,
                            if op == Op::Div { "/" } else { "+" },
                            vals[j].0,
                            folded[k].map(|b| format!("0x{b:08x}")),
                            name(want),
                            want.to_bits()
                        ));
                    }
                }
            }
        }
        assert!(failures.is_empty(), "{}", failures.join("\n"));
        // The SPIR-V carries exactly these constants.
        let words = compile(&src, &options(level, true));
        let constants = spirv_constants(&words, n);
        for (k, (got, want)) in constants.iter().zip(&folded).enumerate() {
            let same = match (got, want) {
                (Some(g), Some(w)) => {
                    g == w || f32::from_bits(*g).is_nan() && f32::from_bits(*w).is_nan()
                }
                _ => false,
            };
            assert!(
                same,
                "-O{level}: SPIR-V stores {got:x?} into outputs[{k}], folded {want:x?}"
            );
        }
        // And the device stores them: bit for bit (any NaN for a NaN; a
        // denormal may come back as zero of its sign on a device that
        // flushes, NVIDIA).
        let mut res = [Resource::storage(0, 0, vec![0u8; 4 * 4 * n * n])];
        if let Err(e) = runner.run_compute(&words, "main", &mut res, &[], [1, 1, 1]) {
            panic!("dispatch failed: {e}");
        }
        let out = vk::to_u32s(&res[0].data);
        for (k, (&got, want)) in out.iter().zip(&folded).enumerate() {
            let want = want.unwrap_or(0);
            let (g, w) = (f32::from_bits(got), f32::from_bits(want));
            let same = got == want
                || g.is_nan() && w.is_nan()
                || w.is_subnormal() && g == 0.0 && g.is_sign_negative() == w.is_sign_negative();
            assert!(
                same,
                "-O{level}: outputs[{k}] = 0x{got:08x}, folded 0x{want:08x}"
            );
        }
        if level == 0 {
            let table = grid("folded x / y", |i, j| {
                name(f32::from_bits(folded[4 * (i * n + j)].unwrap_or(0)))
            }) + &grid("folded x + y", |i, j| {
                name(f32::from_bits(folded[4 * (i * n + j) + 1].unwrap_or(0)))
            });
            println!("{table}");
        }
    }
}

/// The rule itself, on cases whose answers are known.
#[test]
fn the_rule_accepts_what_vulkan_allows_and_nothing_else() {
    let ok = |op, x: f32, y: f32, got: f32| allowed(op, x, y).iter().any(|a| a.accepts(got, true));
    let den = f32::from_bits(DENORM);
    // Exact and 2.5 ULP.
    assert!(ok(Op::Div, 3.0, 1.5, 2.0));
    assert!(ok(Op::Div, 3.0, 1.5, f32::from_bits(2.0f32.to_bits() + 2)));
    assert!(!ok(Op::Div, 3.0, 1.5, f32::from_bits(2.0f32.to_bits() + 3)));
    assert!(!ok(Op::Add, 3.0, 1.5, f32::from_bits(4.5f32.to_bits() + 1)));
    // x / 0 is an infinity of the right sign, also for a flushed denormal
    // divisor; 0 / 0 is NaN.
    assert!(ok(Op::Div, -1.5, 0.0, f32::NEG_INFINITY));
    assert!(!ok(Op::Div, -1.5, 0.0, f32::INFINITY));
    assert!(ok(Op::Div, 1.5, -den, f32::NEG_INFINITY));
    assert!(ok(Op::Div, 0.0, 0.0, f32::NAN));
    assert!(!ok(Op::Div, 0.0, 0.0, 0.0));
    // Signed zeros count under -Gis; flushing keeps the sign.
    assert!(!ok(Op::Add, -0.0, 0.0, -0.0));
    assert!(ok(Op::Add, -den, -0.0, -0.0));
    assert!(!ok(Op::Add, -den, -0.0, 0.0));
    // -den + +0: -den, or flushed before (-0 + +0 = +0) or after (-0).
    assert!(ok(Op::Add, -den, 0.0, 0.0) && ok(Op::Add, -den, 0.0, -0.0));
    // F / inf: +-0 either way; inf / F: inf.
    assert!(ok(Op::Div, 1.5, f32::INFINITY, 0.0));
    assert!(!ok(Op::Div, 1.5, f32::INFINITY, -0.0));
    assert!(ok(Op::Div, f32::INFINITY, 1.5, f32::INFINITY));
    // 0 / denorm: 0 (1 / 2^-127 = 2^127 is finite, so x * (1 / y) is 0
    // too), or NaN when the divisor is flushed (0 / 0); never infinite.
    assert!(ok(Op::Div, 0.0, den, 0.0));
    assert!(ok(Op::Div, 0.0, den, f32::NAN));
    assert!(!ok(Op::Div, 0.0, den, f32::INFINITY));
}
