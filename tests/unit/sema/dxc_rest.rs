//! Methods, intrinsics and language forms DXC accepts that came late:
//! `GetSamplePosition`, the `EvaluateAttribute*` intrinsics, scalar
//! overloads, and the sema fixes of issue 23.

use super::*;
use crate::tests::common::Spv;
use rspirv::dr::Operand;
use spirv::{Capability, Op};

/// Compiles `src` with `profile`, validates it for Vulkan 1.0 and 1.2, and
/// reads the 1.2 module back.
fn spv_for(src: &str, profile: &str) -> Spv {
    let mut o = common::options_for(profile);
    o.target_env = TargetEnv::Vulkan1_0;
    compile_valid_words_with(src, &o);
    o.target_env = TargetEnv::Vulkan1_2;
    let words = compile_valid_words_with(src, &o);
    Spv {
        module: rspirv::dr::load_words(&words).expect("rspirv reads the module"),
    }
}

impl Spv {
    /// The value of a 32-bit float constant (or a null one).
    fn f32_or_null(&self, id: u32) -> f32 {
        let c = self.def(id);
        match (c.class.opcode, c.operands.first()) {
            (Op::Constant, Some(Operand::LiteralBit32(b))) => f32::from_bits(*b),
            (Op::ConstantNull, _) => 0.0,
            other => panic!("not a float constant: {other:?}"),
        }
    }

    /// The `OpName` of `id`, if it has one.
    fn name_of(&self, id: u32) -> Option<String> {
        self.module
            .debug_names
            .iter()
            .find(|i| i.class.opcode == Op::Name && i.operands[0].unwrap_id_ref() == id)
            .map(|i| i.operands[1].unwrap_literal_string().to_string())
    }

    /// The `float2` constants of the composite constant arrays, one list
    /// per array.
    fn float2_tables(&self) -> Vec<Vec<(f32, f32)>> {
        self.all(Op::ConstantComposite)
            .into_iter()
            .filter(|c| self.def(c.result_type.expect("typed")).class.opcode == Op::TypeArray)
            .map(|c| {
                c.operands
                    .iter()
                    .map(|e| {
                        let v = self.def(e.unwrap_id_ref());
                        (
                            self.f32_or_null(v.operands[0].unwrap_id_ref()),
                            self.f32_or_null(v.operands[1].unwrap_id_ref()),
                        )
                    })
                    .collect()
            })
            .collect()
    }
}

#[test]
fn get_sample_position_looks_up_the_standard_pattern_of_the_sample_count() {
    for tex in [
        "Texture2DMS<float4>",
        "Texture2DMSArray<float>",
        "vk::SampledTexture2DMS<float4>",
    ] {
        let spv = spv_for(
            &format!(
                "{tex} t;\n\
                 float4 main(int i : INDEX) : SV_Target {{ return t.GetSamplePosition(i).xyxy; }}"
            ),
            "ps_6_0",
        );
        // The count comes from the image, and picks one of four tables.
        assert_eq!(spv.all(Op::ImageQuerySamples).len(), 1, "{tex}");
        assert!(spv.has_capability(Capability::ImageQuery));
        let mut sizes: Vec<usize> = spv.float2_tables().iter().map(Vec::len).collect();
        sizes.sort();
        assert_eq!(sizes, vec![2, 4, 8, 16], "{tex}");
        let tables = spv.float2_tables();
        let t4 = tables.iter().find(|t| t.len() == 4).expect("4 samples");
        assert_eq!(
            t4,
            &vec![
                (-0.125, -0.375),
                (0.375, -0.125),
                (-0.375, 0.125),
                (0.125, 0.375)
            ]
        );
        let t16 = tables.iter().find(|t| t.len() == 16).expect("16 samples");
        assert_eq!(t16[12], (-0.5, 0.0));
        assert_eq!(t16[15], (-0.4375, -0.5));
        // One comparison per known count.
        assert_eq!(spv.all(Op::IEqual).len(), 4, "{tex}");
    }
    // Single-sampled textures have no sample positions.
    let e = fails_with(
        "Texture2D<float4> t; RWStructuredBuffer<float2> o;\n\
         [numthreads(1,1,1)] void main() { o[0] = t.GetSamplePosition(0); }",
        "E0608",
    );
    assert!(e.contains("GetSamplePosition"), "{e}");
}

#[test]
fn scalar_forms_of_matrix_and_bit_intrinsics_compute_what_dxc_does() {
    // `firstbithigh`/`firstbitlow` of a float take it as an `int`;
    // `transpose` of a `float1x1` is itself; `asuint` of a `double2x2`
    // splits each element, and so does that of a `double2x1` (whose rows
    // are scalars).
    let src = "RWStructuredBuffer<uint> o : register(u0);\n\
        [numthreads(1,1,1)] void main() {\n\
          float f = 40.7; float n = -3.0;\n\
          o[0] = firstbithigh(f); o[1] = firstbitlow(f); o[2] = firstbithigh(n);\n\
          float1x1 t = 2.5; float1x1 tt = transpose(t); o[3] = uint(tt * 2);\n\
          double2x2 d = double2x2(1.0, -2.0, 0.5, 3.0); uint2x2 lo, hi;\n\
          asuint(d, lo, hi);\n\
          o[4] = hi._m00; o[5] = hi._m01; o[6] = hi._m10; o[7] = hi._m11; o[8] = lo._m11 | lo._m00;\n\
          double2x1 e = double2x1(-4.0, 0.25); uint2x1 elo, ehi;\n\
          asuint(e, elo, ehi); o[9] = ehi._m00; o[10] = ehi._m10; o[11] = elo._m00 | elo._m10;\n\
        }";
    let got = run_outputs(src, 12);
    let bits = |x: f64| x.to_bits();
    assert_eq!(&got[..4], &[5, 3, 1, 5]);
    assert_eq!(
        &got[4..8],
        &[
            (bits(1.0) >> 32) as u32,
            (bits(-2.0) >> 32) as u32,
            (bits(0.5) >> 32) as u32,
            (bits(3.0) >> 32) as u32
        ]
    );
    assert_eq!(got[8], 0);
    assert_eq!(
        &got[9..],
        &[(bits(-4.0) >> 32) as u32, (bits(0.25) >> 32) as u32, 0]
    );
    // Vectors have no transpose.
    fails_with(
        "RWStructuredBuffer<float4> o; [numthreads(1,1,1)] void main() { o[0] = transpose(float4(1, 2, 3, 4)); }",
        "E0309",
    );
}

#[test]
fn one_component_vectors_and_matrices_index_and_select_their_element() {
    // A `float1` indexed by a variable, an Nx1 matrix's row indexed, a
    // `float1x1`'s element selectors read and written.
    let src = "RWStructuredBuffer<float> o : register(u0);\n\
        [numthreads(1,1,1)] void main() {\n\
          uint i = uint(o[5]);\n\
          float1 a = 7; a[i] = a[i] + 1; o[0] = a[i] + (a + a)[i];\n\
          float4x1 m = float4x1(1, 2, 3, 4); m[2][0] = 9; o[1] = m[i + 2][0] + m[3][i];\n\
          float1x1 s = 5; s._11 = s._m00 * 2; float2 v = s._11_11; o[2] = v.x + v.y;\n\
        }";
    assert_eq!(
        run_float_outputs(src, 6),
        vec![24.0, 13.0, 20.0, 0.0, 0.0, 0.0]
    );
    // A constant index past the one component is still an error.
    fails_with(
        "RWStructuredBuffer<float> o; [numthreads(1,1,1)] void main() { float1 a = 1; o[0] = a[1]; }",
        "E0308",
    );
    fails_with(
        "RWStructuredBuffer<float> o; [numthreads(1,1,1)] void main() { float1x1 a = 1; o[0] = a._m01; }",
        "E0306",
    );
}

#[test]
fn float_switch_selectors_truncate_to_int() {
    // DXC converts a float selector to `int` (OpConvertFToS): 2.7 picks
    // `case 2`, -1.5 picks `case -1`.
    let src = "RWStructuredBuffer<uint> o : register(u0);\n\
        uint pick(float sel) {\n\
          switch (sel) { case 2: return 20; case -1: return 10; default: return 99; }\n\
        }\n\
        [numthreads(1,1,1)] void main() {\n\
          float base = float(o[3]);\n\
          o[0] = pick(base + 2.7); o[1] = pick(base - 1.5); o[2] = pick(base + 3.0);\n\
        }";
    assert_eq!(run_outputs(src, 4), vec![20, 10, 99, 0]);
    // Vectors are no selectors.
    fails_with(
        "RWStructuredBuffer<uint> o; [numthreads(1,1,1)] void main() { switch (float2(1, 2)) { default: o[0] = 1; } }",
        "E0304",
    );
}

#[test]
fn assignments_name_their_left_operand() {
    // `(d += c) = (b -= a)`: the compound assignment to `d` happens, then `d`
    // is overwritten with the new `b`; `(x = 1) += 2` leaves 3 in `x`.
    let src = r#"
RWStructuredBuffer<int> o;
[numthreads(1, 1, 1)] void main() {
    int a = o[4] + 2, b = o[4] + 10, c = o[4] + 5, d = o[4] + 1;
    (d += c) = (b -= a);
    int x;
    (x = 1) += 2;
    int y = (x *= 2) + 1;
    o[0] = b; o[1] = d; o[2] = x; o[3] = y;
}"#;
    assert_eq!(run_outputs(src, 5), vec![8, 8, 6, 7, 0]);
}

#[test]
fn a_constructed_ray_query_is_a_fresh_query() {
    // DXC's rayquery_init_expr: `RayQuery<F>()` initialises nothing; copying a
    // query copies the object.
    let src = r#"
RaytracingAccelerationStructure as;
RWStructuredBuffer<uint> o;
[numthreads(1, 1, 1)] void main() {
    RayQuery<0> q0;
    RayQuery<0> q1 = RayQuery<0>();
    RayQuery<0> q2 = q0;
    RayDesc r = { float3(0, 0, 0), 0.0, float3(1, 0, 0), 10.0 };
    q1.TraceRayInline(as, 0, 0xff, r);
    q1.Proceed();
    o[0] = q1.CommittedStatus() + q2.CommittedStatus();
}"#;
    let mut o = common::options_for("cs_6_5");
    o.target_env = TargetEnv::Vulkan1_2;
    let spv = Spv {
        module: rspirv::dr::load_words(compile_valid_words_with(src, &o)).expect("rspirv reads it"),
    };
    // q1 is declared and traced, never stored to; q2 is a copy of q0.
    let stores = spv.all(Op::Store);
    let vars: Vec<_> = spv
        .all(Op::Variable)
        .into_iter()
        .filter(|v| spv.name_of(v.result_id.expect("id")).is_some_and(|n| n.starts_with('q')))
        .map(|v| v.result_id.expect("id"))
        .collect();
    assert_eq!(vars.len(), 3, "three query variables");
    let stored: Vec<_> = stores.iter().map(|s| s.operands[0].unwrap_id_ref()).filter(|p| vars.contains(p)).collect();
    assert_eq!(stored.len(), 1, "only the copy is stored: {stored:?}");
    assert_eq!(spv.name_of(stored[0]).as_deref(), Some("q2"));
}

#[test]
fn case_labels_inside_a_block_of_the_switch_body_are_its_labels() {
    // As in C: `case 6: { case 7: … }` jumps into the block.
    let src = r#"
RWStructuredBuffer<int> o;
[numthreads(1, 1, 1)] void main() {
    for (int i = 0; i < 4; ++i) {
        int r = 0;
        switch (i + 5) {
        case 5:
            r = 50;
            break;
        case 6: {
            r += 60;
        case 7:
            r += 7;
            break;
        }
        default:
            r = -1;
        }
        o[i] = r;
    }
}"#;
    assert_eq!(run_outputs(src, 4), vec![50, 67, 7, u32::MAX]);
}

#[test]
fn constructors_take_the_components_of_arrays_and_structs() {
    // `float4(arr)` and `int4(s, 4)` flatten their arguments in order, as
    // initializer lists do.
    let src = r#"
struct P { int a; int2 b; };
RWStructuredBuffer<int> o;
[numthreads(1, 1, 1)] void main() {
    int arr[4] = { o[20] + 1, 2, 3, 4 };
    P s = { 5, int2(6, 7) };
    int4 x = int4(arr);
    int4 y = int4(s, 8);
    int2x2 m = int2x2(arr);
    o[0] = x.x; o[1] = x.w; o[2] = y.x; o[3] = y.y; o[4] = y.z; o[5] = y.w;
    o[6] = m[1][0];
}"#;
    assert_eq!(run_outputs(src, 7), vec![1, 4, 5, 6, 7, 8, 3]);
}

#[test]
fn a_variable_is_in_scope_in_its_own_initializer() {
    // C++'s point of declaration, which DXC follows and engines rely on:
    // `RayDesc r = r = make();` assigns the new variable.
    let src = r#"
struct R { int a; int b; };
R make(int v) { R r = { v, v * 2 }; return r; }
RWStructuredBuffer<int> o;
[numthreads(1, 1, 1)] void main() {
    R r = r = make(o[10] + 3);
    int n = n = 7;
    int k = (k = 4) + 1;
    o[0] = r.a; o[1] = r.b; o[2] = n; o[3] = k;
}"#;
    assert_eq!(run_outputs(src, 4), vec![3, 6, 7, 5]);
}

#[test]
fn derivatives_in_dead_code_are_neither_needed_nor_recorded() {
    // DXC's vertex_shader_derivative_in_branch with COND=false: the branch
    // is removed before the stage rule applies; code after a return too.
    let vs = r#"
float4 main(float4 p : POSITION) : SV_Position {
    float4 r = p;
    if (false) { r += ddx(p); }
    return r;
    r = ddy(p);
}"#;
    let mut o = common::options_for("vs_6_0");
    o.target_env = TargetEnv::Vulkan1_3;
    let dis = common::spirv_dis(&compile_valid_words_with(vs, &o));
    assert!(!dis.contains("OpDPd"), "{dis}");
    // A compute shader whose only derivative is dead declares no
    // derivative group.
    let cs = r#"
RWStructuredBuffer<float> o;
[numthreads(4, 4, 1)] void main(uint i : SV_GroupIndex) {
    float v = o[i];
    if (false) { v = ddx(v); }
    o[i] = v;
}"#;
    let mut o = common::options_for("cs_6_6");
    o.target_env = TargetEnv::Vulkan1_3;
    let dis = common::spirv_dis(&compile_valid_words_with(cs, &o));
    assert!(!dis.contains("DerivativeGroup"), "{dis}");
    // A live one still needs the stage.
    let live = vs.replace("if (false)", "if (p.x > 0)");
    let (text, failed) = diagnose_with(&live, &common::options_for("vs_6_0"));
    assert!(failed && text.contains("error[E0507]"), "{text}");
}

#[test]
fn derivatives_of_16_and_64_bit_floats_are_taken_in_32_bits() {
    let src = r#"
float4 main(float4 p : SV_Position) : SV_Target {
    half2 h = (half2)p.xy;
    half2 d = ddx(h) + ddy_fine(h) + fwidth(h);
    double2 w = (double2)p.zw;
    double2 dw = ddx(w) + fwidth(w);
    return float4(d, ddx_coarse((half)p.z), (float)dw.y);
}"#;
    let mut o = common::options_for("ps_6_2");
    o.enable_16bit_types = true;
    o.target_env = TargetEnv::Vulkan1_1;
    let dis = common::spirv_dis(&compile_valid_words_with(src, &o));
    assert!(dis.contains("OpDPdx %v2float"), "{dis}");
    assert!(!dis.contains("OpDPdx %v2half"), "{dis}");
    assert!(!dis.contains("OpDPdx %v2double"), "{dis}");
    assert!(dis.contains("OpFConvert %v2double"), "{dis}");
}
