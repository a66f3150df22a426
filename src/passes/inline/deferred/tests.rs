use super::unroll_deferring;
use crate::diag::DiagnosticFormat;
use crate::ir::display::module_to_string;
use crate::ir::*;
use crate::passes::inline::{self, Policy};
use crate::passes::test_util::check_valid;
use crate::passes::unroll;
use std::path::Path;

/// The module sema makes of compute shader `src` (`-Zi` when `debug`).
fn lowered(src: &str, debug: bool) -> Module {
    let mut files = crate::MemoryLoader::new();
    files.add("t.hlsl", src);
    let mut args = vec!["-T", "cs_6_0", "-E", "main"];
    if debug {
        args.push("-Zi");
    }
    let options = crate::Options::from_args(args).expect("options");
    let (c, m) = crate::compile_to_ir(Path::new("t.hlsl"), &files, &options);
    m.unwrap_or_else(|| panic!("{}", c.render(DiagnosticFormat::Human)))
}

/// `unroll` then `inline` under the small policy, with and without the
/// unrolling deferred to `inline`, with and without debug information
/// (`-Zi`), on `m` as `patch` leaves it: the same module each time.
/// Returns how many functions were deferred without debug information.
fn agree_patched(src: &str, patch: impl Fn(&mut Module)) -> usize {
    let mut deferred = 0;
    for debug in [true, false] {
        let mut m = lowered(src, debug);
        patch(&mut m);
        check_valid(&m);
        let mut plain = m.clone();
        unroll::run(&mut plain);
        inline::run(&mut plain, Policy::Small, Default::default());
        let mut fused = m;
        let d = unroll_deferring(&mut fused, Policy::Small);
        deferred = fused.functions.iter().filter(|(h, _)| d.get(*h).is_some()).count();
        inline::run(&mut fused, Policy::Small, d);
        check_valid(&fused);
        let text = module_to_string(&fused);
        assert_eq!(text, module_to_string(&plain), "debug {debug}:\n{src}");
        // Spans and debug statements too.
        assert!(fused.functions == plain.functions, "debug {debug}:\n{text}");
    }
    deferred
}

fn agree(src: &str) -> usize {
    agree_patched(src, |_| {})
}

const PRELUDE: &str = "
RWStructuredBuffer<float4> o;
Texture2D<float4> t;
groupshared float g;
int2 Off(int a, int b) { return int2(a, b) * 2; }
float4 Tap(int x) { return t.Load(int3(Off(x, 1), 0)); }
float Early(float x) { if (x > 1) return 2; return x; }
void Bump(inout float v) { [unroll] for (int i = 0; i < 2; ++i) v += i; }
float4 Sum(int x) { float4 r = o[x]; [unroll] for (int k = 1; k < 3; ++k) r += o[x + k]; return r; }
";

/// `main` (inlined into the entry wrapper, which calls it once) with
/// `body` after `uint n = id.x; float4 s = Tap(n);`.
fn shader(body: &str) -> String {
    format!(
        "{PRELUDE}[numthreads(4, 1, 1)] void main(uint3 id : SV_DispatchThreadID) {{
    uint n = id.x;
    float4 s = Tap(n);
    {body}
    o[n] = s;
}}"
    )
}

#[test]
fn a_function_inlined_into_its_one_caller_is_unrolled_in_the_copy() {
    // Counter values asked for twice (3), and ones the function has
    // already (2, 5); loops inside a loop that stays.
    let bodies = [
        "[unroll] for (int i = 1; i <= 3; ++i) s += o[n + i] * i;",
        "[unroll] for (int i = 1; i <= 3; ++i) s += o[n + i] * i;
         [unroll] for (uint j = 5; j > 2; --j) s.x += j * 2;",
        "for (uint a = 0; a < n; ++a) { [unroll] for (int i = 0; i < 2; ++i) s += o[a + i]; }",
        "[unroll(2)] for (int i = 0; i < 2; ++i) { if (s.x > i) s.y += 1; else s.z -= i; }",
        // The copies spliced, unrolled first, for a callee that returns early.
        "s.x = Early(s.y); [unroll] for (int i = 0; i < 2; ++i) s += i;",
    ];
    for body in bodies {
        assert_eq!(agree(&shader(body)), 1, "{body}");
    }
    // Two: `main` and `Sum`, called once (from `main`).
    assert_eq!(agree(&shader("s += Sum(n); [unroll] for (int i = 0; i < 2; ++i) s += i;")), 2);
}

#[test]
fn what_the_copy_cannot_unroll_is_unrolled_first() {
    let bodies = [
        // A call in the copies: one statement, several calls.
        "[unroll] for (int i = 0; i < 2; ++i) s += Tap(i);",
        // One call, two once unrolled: `Sum` is not inlined under the
        // policy for a single call site.
        "[unroll] for (int i = 0; i < 2; ++i) s += Sum(i);",
        // Nested loops to unroll.
        "[unroll] for (int i = 0; i < 2; ++i) { [unroll] for (int j = 0; j < 2; ++j) s += i * j; }",
        // No copy at all.
        "[unroll] for (int i = 0; i < 0; ++i) s += i;",
        // A return in the loop: not inlined before it is unrolled.
        "[unroll] for (int i = 0; i < 2; ++i) { if (s.x > i) return; s += i; }",
    ];
    for body in bodies {
        assert_eq!(agree(&shader(body)), 0, "{body}");
    }
}

/// A deferred function whose call stays (its argument made to point into
/// workgroup memory, which the inliner leaves to the backend) is unrolled
/// on its own at the end of `inline`.
#[test]
fn a_deferred_function_still_called_is_unrolled() {
    let src = shader("Bump(g); s.x += g;");
    // `Bump(g)` straight on `g`, not on sema's copy of it.
    let patch = |m: &mut Module| {
        let bump = m.functions.iter().find(|(_, f)| f.name == "Bump").map(|(h, _)| h);
        let gv = m.globals.iter().find(|(_, v)| v.name.as_deref() == Some("g")).map(|(h, _)| h);
        for (_, f) in m.functions.iter_mut() {
            let g = f.expressions.iter().find_map(|(h, e)| match e {
                Expression::GlobalVariable(v) if Some(*v) == gv => Some(h),
                _ => None,
            });
            crate::ir::visit::walk_statements_mut(&mut f.body, |s| {
                if let (Statement::Call { function, arguments, .. }, Some(g)) = (s, g)
                    && Some(*function) == bump
                {
                    arguments[0] = g;
                }
            });
        }
    };
    assert_eq!(agree_patched(&src, patch), 1);
    let mut m = lowered(&src, false);
    patch(&mut m);
    let d = unroll_deferring(&mut m, Policy::Small);
    inline::run(&mut m, Policy::Small, d);
    let text = module_to_string(&m);
    assert!(text.contains("call Bump(@g)"), "{text}");
    assert!(!text.contains("loop"), "{text}");
}
