//! Output size (issue 25): what the writer and the passes do so that the
//! SPIR-V of `-O3` is no larger than spirv-opt's, each module validated.

use super::*;

/// Compiles a compute shader `main` at `-O3` for Vulkan 1.1, validates it
/// and returns its disassembly.
fn dis(src: &str) -> String {
    dis_with(src, &[])
}

/// [`dis`] with more options.
fn dis_with(src: &str, extra: &[&str]) -> String {
    let mut args = vec![
        "-T",
        "cs_6_0",
        "-E",
        "main",
        "-O3",
        "-fspv-target-env=vulkan1.1",
    ];
    args.extend(extra);
    let o = Options::from_args(args).unwrap();
    common::spirv_dis(&compile_valid_words_with(src, &o))
}

fn count(d: &str, op: &str) -> usize {
    d.lines()
        .filter(|l| l.split_whitespace().any(|w| w == op))
        .count()
}

/// The `OpVariable`s of functions.
fn function_variables(d: &str) -> usize {
    d.lines()
        .filter(|l| l.contains("OpVariable") && l.ends_with(" Function"))
        .count()
}

#[test]
fn one_access_chain_serves_the_uses_it_dominates() {
    // The counter is reached twice in straight code, then in both
    // branches of an `if`: one chain before the `if` serves all.
    let d = dis("RWStructuredBuffer<uint> b;\n\
                 [numthreads(1, 1, 1)] void main(uint3 id : SV_DispatchThreadID) {\n\
                   uint x; InterlockedAdd(b[id.x], 1, x);\n\
                   uint y; InterlockedAdd(b[id.x], 2, y);\n\
                   if (x > y) b[id.x] = 3; else b[id.x] = 4;\n\
                 }");
    assert_eq!(count(&d, "OpAccessChain"), 1, "{d}");
    // A chain written first inside a branch is not reused after it.
    let d = dis("RWStructuredBuffer<uint> b;\n\
                 [numthreads(1, 1, 1)] void main(uint3 id : SV_DispatchThreadID) {\n\
                   if (id.y > 3) b[id.x] = 3;\n\
                   b[id.x] = 4;\n\
                 }");
    assert_eq!(count(&d, "OpAccessChain"), 2, "{d}");
}

#[test]
fn vectors_and_matrices_times_scalars_scale() {
    let d = dis("RWStructuredBuffer<float4> b;\n\
                 RWStructuredBuffer<float2x2> m;\n\
                 [numthreads(1, 1, 1)] void main(uint3 id : SV_DispatchThreadID) {\n\
                   float s = b[1].x;\n\
                   b[0] = b[2] * s;\n\
                   precise float4 p = s * b[3];\n\
                   b[4] = p;\n\
                   m[0] = m[1] * s;\n\
                   b[5] = b[6] * s + b[7];\n\
                 }");
    assert_eq!(count(&d, "OpVectorTimesScalar"), 2, "{d}");
    assert_eq!(count(&d, "OpMatrixTimesScalar"), 1, "{d}");
    assert_eq!(count(&d, "NoContraction"), 1, "{d}");
    assert!(d.contains("Fma"), "{d}");
    // The splat that the fma needs is the only construct.
    assert_eq!(count(&d, "OpCompositeConstruct"), 1, "{d}");
}

#[test]
fn shift_amounts_masked_in_range_are_not_masked_again() {
    // HLSL masks a shift amount to the width; one already masked by a
    // constant below the width needs no second mask.
    let d = dis("RWStructuredBuffer<uint> b;\n\
                 [numthreads(1, 1, 1)] void main(uint3 id : SV_DispatchThreadID) {\n\
                   b[0] = b[1] >> (id.x & 31);\n\
                   b[2] = b[3] << (id.y & 16);\n\
                   b[4] = b[5] << id.z;\n\
                 }");
    // One `&` each for the first two, and the mask of the third.
    assert_eq!(count(&d, "OpBitwiseAnd"), 3, "{d}");
}

/// Loops, `if`s and `switch`es that only compute locals and statics that
/// nothing observable reads: their conditions read the shader's inputs,
/// but what they decide does not matter.
const NO_EFFECT: &str = "RWStructuredBuffer<uint> b;\n\
    static int a, c;\n\
    [numthreads(1, 1, 1)] void main(uint3 id : SV_DispatchThreadID) {\n\
      int s = 0;\n\
      for (int i = 0; i < (int)id.x; ++i) {\n\
        if (a < 27) { ++a; continue; }\n\
        s += a;\n\
      }\n\
      switch (id.y) { case 1: c = s; break; default: c = 2; }\n\
      do { c += 3; } while (c < (int)id.z);\n\
      float x = id.x * 2.0f;\n\
      b[0] = (uint)x;\n\
    }";

#[test]
fn control_flow_that_decides_nothing_observable_goes() {
    let d = dis(NO_EFFECT);
    for op in ["OpLoopMerge", "OpSwitch", "OpSelectionMerge"] {
        assert_eq!(count(&d, op), 0, "{op}: {d}");
    }
    assert_eq!(function_variables(&d), 0, "{d}");
    // A loop whose work reaches the output stays, with its conditions.
    let d = dis("RWStructuredBuffer<uint> b;\n\
                 [numthreads(1, 1, 1)] void main(uint3 id : SV_DispatchThreadID) {\n\
                   uint s = 0;\n\
                   for (uint i = 0; i < id.x; ++i) { if (i == id.y) break; s += i; }\n\
                   b[0] = s;\n\
                 }");
    assert_eq!(count(&d, "OpLoopMerge"), 1, "{d}");
    assert_eq!(count(&d, "OpSelectionMerge"), 2, "{d}");
}

#[test]
fn debug_information_keeps_no_code_alive() {
    let plain = dis(NO_EFFECT);
    for debug in ["-fspv-debug=vulkan", "-Zi"] {
        let d = dis_with(NO_EFFECT, &[debug]);
        for op in ["OpLoopMerge", "OpSwitch", "OpSelectionMerge"] {
            assert_eq!(count(&d, op), count(&plain, op), "{debug} {op}: {d}");
        }
        assert_eq!(function_variables(&d), 0, "{debug}: {d}");
        // The local `x`, forwarded, is described by the value it held.
        assert!(d.contains("DebugValue"), "{debug}: {d}");
        assert!(!d.contains("DebugDeclare"), "{debug}: {d}");
    }
}

#[test]
fn debug_scopes_and_lines_without_code_go() {
    // `bump`, inlined, leaves no code: no scope of it, and no line for
    // its call; the store keeps its line.
    let d = dis_with(
        "RWStructuredBuffer<uint> b;\n\
         static int g;\n\
         void bump() { g += 1; }\n\
         [numthreads(1, 1, 1)] void main(uint3 id : SV_DispatchThreadID) {\n\
           bump();\n\
           b[0] = id.x;\n\
         }",
        &["-fspv-debug=vulkan"],
    );
    assert!(!d.contains("\"bump\""), "{d}");
    assert_eq!(count(&d, "DebugInlinedAt"), 1, "{d}");
    assert_eq!(count(&d, "DebugLine"), 1, "{d}");
}

#[test]
fn a_switch_on_a_constant_is_the_cases_it_runs() {
    let d = dis("RWStructuredBuffer<uint> b;\n\
                 [numthreads(1, 1, 1)] void main(uint3 id : SV_DispatchThreadID) {\n\
                   int k = 2;\n\
                   switch (k) {\n\
                     case 1: b[0] = 1; break;\n\
                     case 2: b[0] = 2;\n\
                     case 3: b[1] = id.x; break;\n\
                     default: b[2] = 3;\n\
                   }\n\
                   switch (k + 5) { case 1: b[3] = 1; break; }\n\
                 }");
    assert_eq!(count(&d, "OpSwitch"), 0, "{d}");
    assert_eq!(count(&d, "OpStore"), 2, "{d}");
    // A `break` in the middle of the case keeps the switch.
    let d = dis("RWStructuredBuffer<uint> b;\n\
                 [numthreads(1, 1, 1)] void main(uint3 id : SV_DispatchThreadID) {\n\
                   int k = 2;\n\
                   switch (k) {\n\
                     case 2: if (id.x > 3) break; b[4] = 4; break;\n\
                     default: b[5] = 5;\n\
                   }\n\
                 }");
    assert_eq!(count(&d, "OpSwitch"), 1, "{d}");
}

#[test]
fn calls_without_effect_whose_result_is_unused_go() {
    // `f` returns from inside a loop (so it is not inlined); its result
    // is unused and it writes nothing but its locals.
    let d = dis("RWStructuredBuffer<uint> b;\n\
                 uint f(uint n) {\n\
                   uint s = 0;\n\
                   for (uint i = 0; i < n; ++i) { if (i * i > n) return s; s += i; }\n\
                   return s;\n\
                 }\n\
                 [numthreads(1, 1, 1)] void main(uint3 id : SV_DispatchThreadID) {\n\
                   uint unused = f(id.x);\n\
                   b[0] = f(id.y);\n\
                 }");
    assert_eq!(count(&d, "OpFunctionCall"), 1, "{d}");
}

#[test]
fn early_returns_of_inlined_functions_are_branches() {
    // Each return ends a branch: no one-trip loop, and the result is
    // merged from the branches (no local).
    let d = dis("RWStructuredBuffer<uint> b;\n\
                 uint pick(uint x) {\n\
                   if (x > 8) { if (x > 16) return 2; return x * 3; }\n\
                   uint y = x + 1;\n\
                   if (y == 4) return 7;\n\
                   return y;\n\
                 }\n\
                 [numthreads(1, 1, 1)] void main(uint3 id : SV_DispatchThreadID) {\n\
                   b[0] = pick(id.x);\n\
                 }");
    assert_eq!(count(&d, "OpLoopMerge"), 0, "{d}");
    assert_eq!(count(&d, "OpFunctionCall"), 0, "{d}");
    assert_eq!(function_variables(&d), 0, "{d}");
    // An unsigned value is never below zero: the branch goes.
    let d = dis("RWStructuredBuffer<uint> b;\n\
                 [numthreads(1, 1, 1)] void main(uint3 id : SV_DispatchThreadID) {\n\
                   if (id.x < 0) b[0] = 1;\n\
                   if (0 <= id.y) b[1] = 2;\n\
                 }");
    assert_eq!(count(&d, "OpSelectionMerge"), 0, "{d}");
    assert_eq!(count(&d, "OpStore"), 1, "{d}");
}
