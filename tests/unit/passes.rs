//! Pass file tests (cranelift filetests style): `tests/in/passes/NAME.hlsl`
//! is compiled, the pass pipeline stops after the pass its header names, and
//! the IR text (`ir::display`) is matched against the case's directives.
//!
//! Header, the first line: `// pass: NAME [flags]`, any of `hlslc`'s flags
//! (`-O0`, `-T vs_6_0`, `-denorm ftz`, …; defaults: -O3, cs_6_0, main). Directives, anywhere in the file, matched in order:
//! - `// check: PAT` — a later line contains PAT;
//! - `// nextln: PAT` — the line right after the previous match contains PAT;
//! - `// sameln: PAT` — the previous match's line contains PAT;
//! - `// not: PAT` — no line between the previous and the next match (or
//!   the end) contains PAT.
//!
//! In a pattern, `%_` stands for any expression name (`%` and digits);
//! everything else is literal text.

use crate::Options;
use crate::diag::{DiagnosticFormat, render_to_string};
use crate::tests::common;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Check,
    Nextln,
    Sameln,
    Not,
}

#[derive(Debug)]
struct Directive {
    kind: Kind,
    pattern: String,
    /// 1-based line in the case file.
    line: usize,
}

fn parse_directives(text: &str) -> Vec<Directive> {
    let mut out = Vec::new();
    for (i, l) in text.lines().enumerate() {
        let l = l.trim_start();
        for (prefix, kind) in [
            ("// check:", Kind::Check),
            ("// nextln:", Kind::Nextln),
            ("// sameln:", Kind::Sameln),
            ("// not:", Kind::Not),
        ] {
            if let Some(p) = l.strip_prefix(prefix) {
                out.push(Directive {
                    kind,
                    pattern: p.trim().to_string(),
                    line: i + 1,
                });
            }
        }
    }
    out
}

/// Whether `line` contains `pattern` (`%_` matches `%` and digits).
fn line_matches(line: &str, pattern: &str) -> bool {
    let parts: Vec<&str> = pattern.split("%_").collect();
    (0..=line.len()).any(|start| line.is_char_boundary(start) && match_at(&line[start..], &parts))
}

fn match_at(s: &str, parts: &[&str]) -> bool {
    let Some((first, rest)) = parts.split_first() else {
        return true;
    };
    let Some(s) = s.strip_prefix(first) else {
        return false;
    };
    if rest.is_empty() {
        return true;
    }
    // A `%_` follows: `%` and at least one digit, then the rest.
    let Some(digits) = s.strip_prefix('%') else {
        return false;
    };
    let n = digits.chars().take_while(|c| c.is_ascii_digit()).count();
    (1..=n).rev().any(|k| match_at(&digits[k..], rest))
}

/// Matches `output` against `directives`; the error says which directive
/// failed and shows the output.
fn check(output: &str, directives: &[Directive]) -> Result<(), String> {
    let lines: Vec<&str> = output.lines().collect();
    let mut cur: Option<usize> = None;
    let mut nots: Vec<&Directive> = Vec::new();
    let fail = |d: &Directive, what: &str| {
        Err(format!(
            "line {}: `{:?}: {}` {what}\n--- output ---\n{output}",
            d.line, d.kind, d.pattern
        ))
    };
    let no_nots = |nots: &mut Vec<&Directive>, from: usize, to: usize| -> Result<(), String> {
        for n in nots.drain(..) {
            if let Some(i) = (from..to).find(|&i| line_matches(lines[i], &n.pattern)) {
                return Err(format!(
                    "line {}: `not: {}` matched output line {}: {}\n--- output ---\n{output}",
                    n.line,
                    n.pattern,
                    i + 1,
                    lines[i]
                ));
            }
        }
        Ok(())
    };
    for d in directives {
        let from = cur.map_or(0, |c| c + 1);
        match d.kind {
            Kind::Not => nots.push(d),
            Kind::Check => {
                let Some(i) = (from..lines.len()).find(|&i| line_matches(lines[i], &d.pattern))
                else {
                    return fail(d, "found no match");
                };
                no_nots(&mut nots, from, i)?;
                cur = Some(i);
            }
            Kind::Nextln => {
                if from >= lines.len() || !line_matches(lines[from], &d.pattern) {
                    return fail(d, "does not match the next line");
                }
                no_nots(&mut nots, from, from)?;
                cur = Some(from);
            }
            Kind::Sameln => match cur {
                Some(c) if line_matches(lines[c], &d.pattern) => {}
                _ => return fail(d, "does not match the previous match's line"),
            },
        }
    }
    no_nots(&mut nots, cur.map_or(0, |c| c + 1), lines.len())
}

/// Options from a `// pass:` header; the pass name.
fn options_from_header(text: &str) -> Result<(Options, String), String> {
    let header = text
        .lines()
        .next()
        .and_then(|l| l.strip_prefix("// pass:"))
        .ok_or("the first line must be `// pass: NAME [flags]`")?;
    let mut it = header.split_whitespace();
    let pass = it.next().ok_or("no pass named")?.to_string();
    // The defaults, then the header's flags, read by the library's parser
    // (which knows the pass names).
    let mut args = vec!["-T", "cs_6_0", "--ir-after", pass.as_str()];
    args.extend(it);
    let o = common::options_from_args(&args)?;
    Ok((o, pass))
}

/// Every `tests/in/passes/*.hlsl` case, compiled with `compile` and
/// `--emit ir --ir-after PASS`.
#[test]
fn pass_file_tests() {
    let dir = common::root().join("tests/in/passes");
    let mut cases: Vec<_> = std::fs::read_dir(&dir)
        .expect("tests/in/passes exists")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "hlsl"))
        .collect();
    cases.sort();
    assert!(!cases.is_empty());
    let loader = common::RootedLoader;
    let mut failures = Vec::new();
    for case in &cases {
        let rel = case.strip_prefix(common::root()).expect("case under root");
        let text = std::fs::read_to_string(case).expect("readable case");
        let result = options_from_header(&text).and_then(|(options, _)| {
            let c = crate::compile(rel, &loader, &options);
            if c.has_errors() {
                return Err(render_to_string(
                    &c.diagnostics.list,
                    &c.source_map,
                    DiagnosticFormat::Short,
                ));
            }
            let ir = c
                .artifact
                .and_then(|a| a.ir_text)
                .ok_or("compile produced no IR text")?;
            check(&ir, &parse_directives(&text))
        });
        if let Err(e) = result {
            failures.push(format!("{}: {e}", rel.display()));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// The engine and `stop_after` on IR built by hand (these run today).
mod engine {
    use super::*;
    use crate::diag::Diagnostics;
    use crate::ir::build::{FunctionBuilder, add_compute_entry, add_global};
    use crate::ir::{AddressSpace, BinaryOperator, Module, Scalar};
    use crate::passes::{PipelineOptions, pipeline_with};

    /// `precise float p = x * x + x; out = p; out = x * x + x;`
    fn ir_after(pass: &str, level: u8) -> String {
        let mut m = Module::default();
        let f32t = m.scalar_type(Scalar::F32);
        let inp = add_global(&mut m, "inp", AddressSpace::Input, f32t);
        let out = add_global(&mut m, "out", AddressSpace::Output, f32t);
        let mut fb = FunctionBuilder::new(&mut m, "main");
        let p = fb.local("p", f32t, true);
        let i = fb.global(inp);
        let x = fb.load(i);
        let o = fb.global(out);
        let mul = fb.binary(BinaryOperator::Multiply, x, x);
        let add = fb.binary(BinaryOperator::Add, mul, x);
        fb.store(p, add);
        let pv = fb.load(p);
        fb.store(o, pv);
        let mul2 = fb.binary(BinaryOperator::Multiply, x, x);
        let add2 = fb.binary(BinaryOperator::Add, mul2, x);
        fb.store(o, add2);
        let f = fb.finish();
        add_compute_entry(&mut m, "main", f);
        let mut d = Diagnostics::new();
        let o = PipelineOptions {
            stop_after: Some(pass.to_string()),
            verify: true,
            ..PipelineOptions::new(level)
        };
        pipeline_with(&mut m, &o, &mut d);
        assert!(d.is_empty(), "{:?}", d.list);
        crate::ir::display::module_to_string(&m)
    }

    const CASE: &str = "\
// pass: fuse_mad -O1
// check: fn main() {
// nextln: local $p:float precise
// check: %_:float = precise mul %_, %_
// nextln: = precise add
// sameln: %_:float
// not: fma
// check: store $p, %_
// check: = fma %_, %_, %_
// not: precise
";

    #[test]
    fn directives_match_ir_after_a_pass() {
        let text = ir_after("fuse_mad", 1);
        check(&text, &parse_directives(CASE)).unwrap_or_else(|e| panic!("{e}"));
        // Before fuse_mad there is no fma: the same directives fail.
        let text = ir_after("precise", 1);
        let e = check(&text, &parse_directives(CASE)).expect_err("no fma before fuse_mad");
        assert!(
            e.contains("`Check: = fma %_, %_, %_` found no match"),
            "{e}"
        );
    }

    #[test]
    fn failures_name_the_directive() {
        let text = "a %1 = b\nc\nd %22 e\n";
        let run = |d: &str| check(text, &parse_directives(d));
        assert!(run("// check: %_ = b\n// nextln: c\n// check: d %_ e").is_ok());
        assert!(run("// check: b\n// not: c\n// check: d").is_err());
        assert!(run("// check: b\n// not: zzz\n// check: d").is_ok());
        assert!(run("// check: c\n// nextln: a").is_err());
        assert!(run("// check: d\n// check: a").is_err());
        assert!(run("// check: a\n// sameln: = b").is_ok());
        assert!(run("// check: %_ e\n// not: a").is_ok());
        assert!(run("// check: a\n// not: e").is_err());
        assert!(!line_matches("% = x", "%_ = x"));
        assert!(line_matches("%12 = x", "%_ = x"));
        let e = run("// check: q").expect_err("missing");
        assert!(e.starts_with("line 1: `Check: q` found no match"), "{e}");
    }

    #[test]
    fn headers() {
        let (o, pass) = options_from_header("// pass: cse -O2 -T ps_6_0 -Gis\n").expect("valid");
        assert_eq!(pass, "cse");
        assert_eq!(o.opt_level, 2);
        assert!(o.ieee_strict);
        assert_eq!(o.ir_after_pass.as_deref(), Some("cse"));
        assert!(options_from_header("// pass: nonsense\n").is_err());
        assert!(options_from_header("float x;\n").is_err());
    }

    /// Every case file has a valid header and at least one directive.
    #[test]
    fn case_files_are_well_formed() {
        let dir = common::root().join("tests/in/passes");
        for e in std::fs::read_dir(&dir).expect("tests/in/passes exists") {
            let p = e.expect("entry").path();
            if p.extension().is_none_or(|e| e != "hlsl") {
                continue;
            }
            let text = std::fs::read_to_string(&p).expect("readable");
            options_from_header(&text).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
            assert!(!parse_directives(&text).is_empty(), "{}", p.display());
        }
    }
}

/// The precise pass end to end: IR → passes → SPIR-V → a Vulkan driver.
mod runtime {
    use crate::diag::Diagnostics;
    use crate::ir::{
        self, AddressSpace, BinaryOperator as B, Expression, FunctionArgument, FunctionResult,
        Statement, TypeInner,
    };
    use crate::options::{Stage, TargetEnv};
    use crate::tests::back_spv::{FunctionBuilder, ModuleBuilder, write_valid};
    use crate::tests::vk::{self, Resource};

    /// DXC's issue 8423, done right: `float mad3(a, b, c) { return a * b +
    /// c; }` called for a `precise` local and for a plain value. After the
    /// -O1 pipeline the precise call goes to `mad3.precise`, whose multiply
    /// and add carry NoContraction, while the plain `mad3` is fused into an
    /// fma. With a = b = 1 + 2^-12, c = -(1 + 2^-11) separate rounding gives
    /// +0 and a fused multiply-add +2^-24 (VULKAN-NOTES.md). lavapipe never
    /// fuses (both +0); on NVIDIA (`HLSLC_VK_DEVICE=NVIDIA`) the plain one is
    /// fused, and the precise one must still be +0.
    #[test]
    fn precise_reaches_into_called_functions() {
        let mut mb = ModuleBuilder::new();
        let f32_ty = mb.f32();
        let fptr = mb.ptr(f32_ty, AddressSpace::Function);
        let block = mb.structured_buffer("type.RWStructuredBuffer.float", f32_ty, 4);
        let storage = AddressSpace::Storage { writable: true };
        let buf = mb.resource("data", storage, block, 0, 0);
        let block_ptr = mb.ptr(block, storage);
        let arr_ty = match mb.m.types[block].inner {
            TypeInner::Struct { ref members, .. } => members[0].ty,
            _ => unreachable!("a buffer block is a struct"),
        };
        let arr_ptr = mb.ptr(arr_ty, storage);
        let elem_ptr = mb.ptr(f32_ty, storage);

        let mut g = FunctionBuilder::new("mad3");
        let mut args = Vec::new();
        for (i, name) in ["a", "b", "c"].iter().enumerate() {
            g.body.function.arguments.push(FunctionArgument {
                name: Some(name.to_string()),
                ty: f32_ty,
                precise: false,
                spirv_decorations: Vec::new(),
            });
            args.push(g.add(Expression::FunctionArgument(i as u32), f32_ty));
        }
        g.body.function.result = Some(FunctionResult {
            ty: f32_ty,
            precise: false,
        });
        let ab = g.binary(B::Multiply, args[0], args[1], f32_ty);
        let r = g.binary(B::Add, ab, args[2], f32_ty);
        g.stmt(Statement::Return { value: Some(r) });
        let mad3 = mb.add_function(g);

        let mut f = FunctionBuilder::new("main");
        let p = f.local("p", f32_ty, fptr);
        f.body.function.local_variables[ir::Handle::from_index(0)].precise = true;
        let gb = f.global(buf, block_ptr);
        let arr = f.index(gb, 0, arr_ptr);
        let call = |f: &mut FunctionBuilder, first: u32| {
            let mut vals = Vec::new();
            for i in 0..3 {
                let e = f.index(arr, first + i, elem_ptr);
                vals.push(f.load(e, f32_ty));
            }
            let r = f.add(Expression::CallResult(mad3), f32_ty);
            f.stmt(Statement::Call {
                function: mad3,
                arguments: vals,
                result: Some(r),
            });
            r
        };
        let precise = call(&mut f, 0);
        f.store(p, precise);
        let pv = f.load(p, f32_ty);
        let d6 = f.index(arr, 6, elem_ptr);
        f.store(d6, pv);
        let plain = call(&mut f, 3);
        let d7 = f.index(arr, 7, elem_ptr);
        f.store(d7, plain);
        let main = mb.add_function(f);
        mb.entry("main", Stage::Compute, main, [1, 1, 1]);

        let mut m = mb.m;
        let mut d = Diagnostics::new();
        crate::passes::pipeline(&mut m, 1, &mut d);
        assert!(d.is_empty(), "{:?}", d.list);
        let text = crate::ir::display::module_to_string(&m);
        assert!(
            text.contains("fn mad3.precise(%a:float, %b:float, %c:float) -> float precise"),
            "{text}"
        );
        assert!(text.contains("= precise mul %a, %b"), "{text}");
        assert!(text.contains("= fma %a, %b, %c"), "{text}");

        let w = write_valid(&m, TargetEnv::Vulkan1_0);
        assert_eq!(
            w.decorated(spirv::Decoration::NoContraction).len(),
            2,
            "{}",
            w.text
        );
        let a = 1.0 + 2f32.powi(-12);
        let c = -(1.0 + 2f32.powi(-11));
        let data = [a, a, c, a, a, c, 1.0, 1.0];
        let mut res = [Resource::storage(0, 0, vk::f32_bytes(&data))];
        let runner = vk::shared();
        if let Err(e) = runner.run_compute(&w.words, "main", &mut res, &[], [1, 1, 1]) {
            panic!("dispatch failed: {e}\n{}", w.text);
        }
        let out = vk::to_f32s(&res[0].data);
        assert_eq!(
            out[6].to_bits(),
            0,
            "the precise call is separately rounded"
        );
        assert!(
            out[7] == 0.0 || out[7] == 2f32.powi(-24),
            "the plain call is rounded twice or fused: {}",
            out[7]
        );
        eprintln!(
            "precise_reaches_into_called_functions on {}: precise {:e}, plain {:e}",
            runner.info().report().lines().next().unwrap_or("?"),
            out[6],
            out[7]
        );
    }
}

/// `[unroll]` loops compute the same results unrolled (at every level) as
/// the loops that stay loops, on Vulkan.
#[test]
fn unrolled_loops_compute_what_the_loops_do() {
    let src = r#"
RWStructuredBuffer<int> o;
[numthreads(1, 1, 1)] void main() {
    int acc = 0;
    [unroll] for (int i = 0; i < 4; ++i) { acc += i * 10; o[i] = acc; }
    [unroll] for (uint j = 10; j > 7; j -= 1) o[4 + (10 - j)] = j;
    int k;
    [unroll] for (k = 0; k != 6; k += 2) {
        [unroll] for (int m = 0; m < 2; ++m) o[7 + k + m] = k * 100 + m;
    }
    o[13] = k;
    int n = o[20] + 3, s = 0;
    [unroll] for (int q = 0; q < n; ++q) s += q;
    o[14] = s;
    int t = 0;
    [unroll] for (int w = 0; w < 10; ++w) { if (w == 4) break; t += w; }
    o[15] = t;
    [unroll(2)] for (int z = 0; z < 3; ++z) o[16] += z + 1;
}"#;
    let want = [0, 10, 30, 60, 10, 9, 8, 0, 1, 200, 201, 400, 401, 6, 3, 6, 6];
    for level in [0, 3] {
        let mut o = common::options_for("cs_6_0");
        o.opt_level = level;
        let words = crate::tests::sema::compile_valid_words_with(src, &o);
        let mut res = [crate::tests::vk::Resource::storage(0, 0, vec![0u8; 4 * 21])];
        if let Err(e) = crate::tests::vk::shared().run_compute(&words, "main", &mut res, &[], [1, 1, 1]) {
            panic!("dispatch failed at -O{level}: {e}\n{}", common::spirv_dis(&words));
        }
        let got: Vec<i32> = crate::tests::vk::to_u32s(&res[0].data)
            .into_iter()
            .map(|w| w as i32)
            .collect();
        assert_eq!(&got[..17], &want, "-O{level}");
        // Only the loops that cannot be unrolled are left: the one with a
        // bound read at run time, the one that breaks, the one longer than
        // its `[unroll(2)]`.
        let dis = common::spirv_dis(&words);
        assert_eq!(dis.matches("OpLoopMerge").count(), 3, "-O{level}:\n{dis}");
    }
}

/// A function that reads a texture at an offset from its parameters is
/// inlined at every level (large, called from several places, from an
/// unrolled loop), so that the offsets are constants.
#[test]
fn offsets_from_parameters_are_inlined_at_every_level() {
    let src = r#"
SamplerState s;
Texture2D<float4> t;
float4 tap(float2 uv, int dx, float w) {
    float4 c = t.Sample(s, uv, int2(dx, -dx));
    float4 d = c * w + c.wzyx * (1 - w);
    d = d * d + sin(d) * cos(d) + sqrt(abs(d)) + exp2(d) + log2(abs(d) + 1);
    return d * w;
}
float4 main(float2 uv : UV) : SV_Target {
    float4 r = tap(uv, 3, 0.5) + tap(uv, -2, 0.25);
    [unroll] for (int i = 0; i < 3; ++i)
        r += tap(uv, i, 0.1);
    return r;
}"#;
    for level in [0, 1, 3] {
        let mut o = common::options_for("ps_6_0");
        o.opt_level = level;
        let words = crate::tests::sema::compile_valid_words_with(src, &o);
        let dis = common::spirv_dis(&words);
        assert_eq!(dis.matches("ConstOffset").count(), 5, "-O{level}:\n{dis}");
        assert!(!dis.contains(" Offset "), "-O{level}:\n{dis}");
    }
}
