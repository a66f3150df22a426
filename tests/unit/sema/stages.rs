//! Geometry, hull and domain shaders compiled from HLSL: the execution
//! modes, built-ins and decorations in the validated disassembly.

use crate::diag::{DiagnosticFormat, render_to_string};
use crate::tests::common;

/// Compiles `main` for `profile` and `env`, validates it and returns the
/// disassembly.
fn asm_for(profile: &str, env: &str, src: &str) -> String {
    let mut o = common::options_for(profile);
    o.entry = "main".into();
    o.target_env = crate::options::TargetEnv::parse(env).expect("target environment");
    let (loader, path) = common::single_file(src);
    let c = crate::compile(&path, &loader, &o);
    let text = render_to_string(&c.diagnostics.list, &c.source_map, DiagnosticFormat::Human);
    let Some(a) = c.artifact.filter(|_| !c.diagnostics.has_errors()) else {
        panic!("compile failed:\n{text}");
    };
    let flags: &[&str] = if env == "vulkan1.0" {
        &["--relax-block-layout"]
    } else {
        &[]
    };
    if let Err(e) = common::spirv_val_with(&a.spirv, env, flags) {
        panic!("invalid SPIR-V: {e}\n{}", common::spirv_dis(&a.spirv));
    }
    common::spirv_dis(&a.spirv)
}

fn asm(profile: &str, src: &str) -> String {
    asm_for(profile, "vulkan1.0", src)
}

fn has_all(asm: &str, wants: &[&str]) {
    for w in wants {
        assert!(asm.contains(w), "missing `{w}` in:\n{asm}");
    }
}

fn count(asm: &str, what: &str) -> usize {
    asm.lines()
        .filter(|l| l.trim_start().starts_with(what) || l.contains(&format!("= {what}")))
        .count()
}

const GS_VERTEX: &str = "struct V { float4 pos : SV_Position; float3 color : COLOR; };\n";

#[test]
fn geometry_attributes_and_primitives_are_execution_modes() {
    let src = format!(
        "{GS_VERTEX}[maxvertexcount(6)] [instance(2)]\n\
         void main(triangle V tri[3], uint id : SV_GSInstanceID, inout TriangleStream<V> s) {{\n\
           for (uint i = 0; i < 3; ++i) {{ V v = tri[i]; v.pos.x += id; s.Append(v); }}\n\
           s.RestartStrip();\n\
         }}"
    );
    let a = asm("gs_6_0", &src);
    has_all(
        &a,
        &[
            "OpCapability Geometry",
            "OpEntryPoint Geometry %main",
            "OpExecutionMode %main Invocations 2",
            "OpExecutionMode %main Triangles",
            "OpExecutionMode %main OutputTriangleStrip",
            "OpExecutionMode %main OutputVertices 6",
            "BuiltIn InvocationId",
            // One array per field: Position built-in and the COLOR location.
            "= OpVariable %_ptr_Input__arr_v4float_uint_3 Input",
            "%in_var_COLOR = OpVariable %_ptr_Input__arr_v3float_uint_3 Input",
            "%out_var_COLOR = OpVariable %_ptr_Output_v3float Output",
            "OpEmitVertex",
            "OpEndPrimitive",
        ],
    );
    assert!(!a.contains("OpEmitStreamVertex"), "{a}");
    // Without [instance], one invocation.
    let src = format!(
        "{GS_VERTEX}[maxvertexcount(1)] void main(point V p[1], inout PointStream<V> s) {{ s.Append(p[0]); }}"
    );
    let a = asm("gs_6_0", &src);
    has_all(
        &a,
        &[
            "OpExecutionMode %main Invocations 1",
            "OpExecutionMode %main InputPoints",
            "OpExecutionMode %main OutputPoints",
            "OpExecutionMode %main OutputVertices 1",
        ],
    );
    for (prim, n, mode) in [
        ("line", 2, "InputLines"),
        ("lineadj", 4, "InputLinesAdjacency"),
        ("triangleadj", 6, "InputTrianglesAdjacency"),
    ] {
        let src = format!(
            "{GS_VERTEX}[maxvertexcount(2)] void main({prim} V p[{n}], inout LineStream<V> s) {{\n\
               s.Append(p[0]); s.Append(p[{n} - 1]);\n\
             }}"
        );
        let a = asm("gs_6_0", &src);
        has_all(
            &a,
            &[
                &format!("OpExecutionMode %main {mode}"),
                "OpExecutionMode %main OutputLineStrip",
                &format!("%_arr_v4float_uint_{n}"),
            ],
        );
    }
}

#[test]
fn nested_structs_and_arrays_in_stream_vertices_are_flattened() {
    let src = "struct Inner { float2 uv : TEXCOORD0; float w[2] : WEIGHTS; };\n\
               struct Out { float4 pos : SV_Position; Inner inner; uint prim : SV_PrimitiveID; };\n\
               struct In { float4 pos : SV_Position; Inner inner; };\n\
               [maxvertexcount(3)]\n\
               void main(triangle In v[3], uint prim : SV_PrimitiveID, inout TriangleStream<Out> s) {\n\
                 for (int i = 0; i < 3; ++i) { Out o; o.pos = v[i].pos; o.inner = v[i].inner; o.prim = prim; s.Append(o); }\n\
               }";
    let a = asm("gs_6_0", src);
    has_all(
        &a,
        &[
            "%in_var_TEXCOORD0 = OpVariable %_ptr_Input__arr_v2float_uint_3 Input",
            "%in_var_WEIGHTS = OpVariable %_ptr_Input__arr__arr_float_uint_2_uint_3 Input",
            "%out_var_WEIGHTS = OpVariable %_ptr_Output__arr_float_uint_2 Output",
            "OpDecorate %in_var_TEXCOORD0 Location 0",
            "OpDecorate %in_var_WEIGHTS Location 1",
            "OpDecorate %out_var_TEXCOORD0 Location 0",
            "OpDecorate %out_var_WEIGHTS Location 1",
        ],
    );
    // SV_PrimitiveID is an input and an output built-in.
    assert_eq!(
        a.matches("BuiltIn PrimitiveId").count(),
        2,
        "an input and an output PrimitiveId:\n{a}"
    );
}

#[test]
fn several_streams_emit_to_their_numbers() {
    let src = "struct A { float4 pos : SV_Position; float4 c : COLOR; };\n\
               struct B { float4 data : DATA; };\n\
               [maxvertexcount(2)]\n\
               void main(point A p[1], inout PointStream<A> s0, inout PointStream<B> s1) {\n\
                 B b; b.data = p[0].c;\n\
                 s0.Append(p[0]); s1.Append(b); s0.RestartStrip(); s1.RestartStrip();\n\
               }";
    let a = asm("gs_6_0", src);
    has_all(
        &a,
        &[
            "OpCapability GeometryStreams",
            "OpEmitStreamVertex %uint_0",
            "OpEmitStreamVertex %uint_1",
            "OpEndStreamPrimitive %uint_0",
            "OpEndStreamPrimitive %uint_1",
        ],
    );
    assert!(!a.contains("OpEmitVertex"), "{a}");
    // Each stream's outputs have their own locations.
    has_all(
        &a,
        &[
            "OpDecorate %out_var_COLOR Location 0",
            "OpDecorate %out_var_DATA Location 1",
        ],
    );
}

#[test]
fn layer_and_viewport_outputs_need_their_capabilities() {
    let gs = format!(
        "{GS_VERTEX}struct O {{ float4 pos : SV_Position; uint layer : SV_RenderTargetArrayIndex; uint vp : SV_ViewportArrayIndex; }};\n\
         [maxvertexcount(3)] void main(triangle V t[3], inout TriangleStream<O> s) {{\n\
           for (int i = 0; i < 3; ++i) {{ O o; o.pos = t[i].pos; o.layer = 1; o.vp = 0; s.Append(o); }}\n\
         }}"
    );
    let a = asm("gs_6_0", &gs);
    has_all(
        &a,
        &[
            "BuiltIn Layer",
            "BuiltIn ViewportIndex",
            "OpCapability MultiViewport",
        ],
    );
    assert!(!a.contains("ShaderViewportIndexLayerEXT"), "{a}");
    let vs = "struct O { float4 pos : SV_Position; uint layer : SV_RenderTargetArrayIndex; uint vp : SV_ViewportArrayIndex; };\n\
              O main(uint id : SV_VertexID) { O o; o.pos = 0; o.layer = id; o.vp = id; return o; }";
    // Below SPIR-V 1.5 vertex and domain shaders need the EXT extension.
    let a = asm_for("vs_6_0", "vulkan1.1", vs);
    has_all(
        &a,
        &[
            "OpCapability ShaderViewportIndexLayerEXT",
            "OpExtension \"SPV_EXT_shader_viewport_index_layer\"",
            "BuiltIn Layer",
        ],
    );
    // Vulkan 1.2 (SPIR-V 1.5) has them in core.
    let a = asm_for("vs_6_0", "vulkan1.2", vs);
    has_all(
        &a,
        &[
            "OpCapability ShaderLayer",
            "OpCapability ShaderViewportIndex",
        ],
    );
    assert!(!a.contains("SPV_EXT_shader_viewport_index_layer"), "{a}");
    let ds = "struct P { float e[3] : SV_TessFactor; float i : SV_InsideTessFactor; };\n\
              struct C { float4 pos : POS; };\n\
              struct O { float4 pos : SV_Position; uint layer : SV_RenderTargetArrayIndex; };\n\
              [domain(\"tri\")] O main(P p, float3 uvw : SV_DomainLocation, const OutputPatch<C, 3> c) {\n\
                O o; o.pos = c[0].pos * uvw.x; o.layer = 1; return o;\n\
              }";
    let a = asm_for("ds_6_0", "vulkan1.1", ds);
    has_all(
        &a,
        &["OpCapability ShaderViewportIndexLayerEXT", "BuiltIn Layer"],
    );
}

#[test]
fn clip_and_cull_distances_are_per_vertex_arrays_of_inputs() {
    let src = "struct V { float4 pos : SV_Position; float2 clip : SV_ClipDistance0; float cull : SV_CullDistance1; };\n\
               struct O { float4 pos : SV_Position; float clip : SV_ClipDistance; };\n\
               [maxvertexcount(3)] void main(triangle V t[3], inout TriangleStream<O> s) {\n\
                 for (int i = 0; i < 3; ++i) { O o; o.pos = t[i].pos; o.clip = t[i].clip.y + t[i].cull; s.Append(o); }\n\
               }";
    let a = asm("gs_6_0", src);
    has_all(
        &a,
        &[
            "OpCapability ClipDistance",
            "OpCapability CullDistance",
            "%_ptr_Input__arr__arr_float_uint_2_uint_3",
            "%_ptr_Input__arr__arr_float_uint_1_uint_3",
            "%_ptr_Output__arr_float_uint_1",
        ],
    );
}

const HS: &str = "struct CP { float3 pos : POSITION; float2 uv : TEXCOORD; };\n\
    struct Patch { float edges[3] : SV_TessFactor; float inside : SV_InsideTessFactor; float3 center : CENTER; };\n\
    Patch constants(InputPatch<CP, 3> ip, OutputPatch<CP, 3> op, uint id : SV_PrimitiveID) {\n\
      Patch p; p.edges[0] = 1; p.edges[1] = 2; p.edges[2] = 3; p.inside = id;\n\
      p.center = (op[0].pos + op[1].pos + op[2].pos + ip[0].pos) / 4; return p;\n\
    }\n\
    [domain(\"tri\")] [partitioning(\"integer\")] [outputtopology(\"triangle_cw\")]\n\
    [outputcontrolpoints(3)] [patchconstantfunc(\"constants\")] [maxtessfactor(16)]\n\
    CP main(InputPatch<CP, 3> ip, uint i : SV_OutputControlPointID) { return ip[i]; }";

#[test]
fn hull_shader_modes_outputs_and_patch_constant_function() {
    let a = asm("hs_6_0", HS);
    has_all(
        &a,
        &[
            "OpCapability Tessellation",
            "OpEntryPoint TessellationControl %main",
            "OpExecutionMode %main Triangles",
            "OpExecutionMode %main SpacingEqual",
            "OpExecutionMode %main VertexOrderCw",
            "OpExecutionMode %main OutputVertices 3",
            "OpDecorate %gl_InvocationID BuiltIn InvocationId",
            "OpDecorate %gl_TessLevelOuter BuiltIn TessLevelOuter",
            "OpDecorate %gl_TessLevelOuter Patch",
            "OpDecorate %gl_TessLevelInner BuiltIn TessLevelInner",
            "OpDecorate %gl_TessLevelInner Patch",
            "OpDecorate %out_var_CENTER Patch",
            "%gl_TessLevelOuter = OpVariable %_ptr_Output__arr_float_uint_4 Output",
            "%gl_TessLevelInner = OpVariable %_ptr_Output__arr_float_uint_2 Output",
            // Control points: one element per invocation.
            "%out_var_POSITION = OpVariable %_ptr_Output__arr_v3float_uint_3 Output",
            // Execution barrier, Invocation memory scope, no semantics.
            "OpControlBarrier %uint_2 %uint_4 %uint_0",
        ],
    );
    assert!(!a.contains("OpDecorate %out_var_POSITION Patch"), "{a}");
    // Alphabetical locations over control points and patch constants:
    // CENTER 0, POSITION 1, TEXCOORD 2.
    has_all(
        &a,
        &[
            "OpDecorate %out_var_CENTER Location 0",
            "OpDecorate %out_var_POSITION Location 1",
            "OpDecorate %out_var_TEXCOORD Location 2",
            "OpDecorate %in_var_POSITION Location 0",
            "OpDecorate %in_var_TEXCOORD Location 1",
        ],
    );
    // The patch-constant function runs under `InvocationId == 0` and reads
    // the output patch back from the Output variable.
    let body = &a[a.find("OpControlBarrier").expect("barrier")..];
    assert!(body.contains("OpIEqual %bool"), "{a}");
    assert!(
        body.contains("OpLoad %_arr_v3float_uint_3 %out_var_POSITION"),
        "the output patch is read from the outputs:\n{a}"
    );
    // Three edge factors and one inside factor are written.
    assert_eq!(
        a.matches("%_ptr_Output_float %gl_TessLevelOuter").count(),
        3,
        "{a}"
    );
    assert_eq!(
        a.matches("%_ptr_Output_float %gl_TessLevelInner").count(),
        1,
        "{a}"
    );
}

#[test]
fn hull_partitioning_and_topologies() {
    for (attr, mode) in [
        (
            "[partitioning(\"fractional_even\")]",
            "SpacingFractionalEven",
        ),
        ("[partitioning(\"fractional_odd\")]", "SpacingFractionalOdd"),
        ("[outputtopology(\"triangle_ccw\")]", "VertexOrderCcw"),
        ("[outputtopology(\"point\")]", "PointMode"),
    ] {
        let src = format!(
            "struct CP {{ float4 pos : POS; }};\n\
             struct P {{ float e[4] : SV_TessFactor; float i[2] : SV_InsideTessFactor; }};\n\
             P pc() {{ P p = (P)1; return p; }}\n\
             [domain(\"quad\")] {attr} [outputcontrolpoints(4)] [patchconstantfunc(\"pc\")]\n\
             CP main(InputPatch<CP, 4> ip, uint i : SV_OutputControlPointID) {{ return ip[i]; }}"
        );
        let a = asm("hs_6_0", &src);
        has_all(
            &a,
            &[
                "OpExecutionMode %main Quads",
                &format!("OpExecutionMode %main {mode}"),
            ],
        );
        assert_eq!(
            a.matches("%_ptr_Output_float %gl_TessLevelOuter").count(),
            4,
            "{a}"
        );
        assert_eq!(
            a.matches("%_ptr_Output_float %gl_TessLevelInner").count(),
            2,
            "{a}"
        );
    }
    let src = "struct CP { float4 pos : POS; };\n\
               struct P { float e[2] : SV_TessFactor; };\n\
               P pc() { P p = (P)1; return p; }\n\
               [domain(\"isoline\")] [partitioning(\"integer\")] [outputtopology(\"line\")] [outputcontrolpoints(2)] [patchconstantfunc(\"pc\")]\n\
               CP main(InputPatch<CP, 2> ip, uint i : SV_OutputControlPointID) { return ip[i]; }";
    let a = asm("hs_6_0", src);
    has_all(&a, &["OpExecutionMode %main Isolines"]);
    assert_eq!(
        a.matches("%_ptr_Output_float %gl_TessLevelOuter").count(),
        2,
        "{a}"
    );
    assert!(!a.contains("TessLevelInner"), "{a}");
}

#[test]
fn domain_shader_reads_tess_coord_patch_constants_and_factors() {
    let src = "struct CP { float3 pos : POSITION; float2 uv : TEXCOORD; };\n\
               struct Patch { float edges[4] : SV_TessFactor; float inside[2] : SV_InsideTessFactor; float3 center : CENTER; };\n\
               [domain(\"quad\")]\n\
               float4 main(Patch p, float2 uv : SV_DomainLocation, const OutputPatch<CP, 4> cp, uint id : SV_PrimitiveID) : SV_Position {\n\
                 float3 a = lerp(cp[0].pos, cp[1].pos, uv.x);\n\
                 return float4(a + p.center, p.edges[3] + p.inside[1] + id + cp[2].uv.y);\n\
               }";
    let a = asm("ds_6_0", src);
    has_all(
        &a,
        &[
            "OpEntryPoint TessellationEvaluation %main",
            "OpExecutionMode %main Quads",
            "OpDecorate %gl_TessCoord BuiltIn TessCoord",
            "%gl_TessCoord = OpVariable %_ptr_Input_v3float Input",
            "OpDecorate %gl_TessLevelOuter BuiltIn TessLevelOuter",
            "OpDecorate %gl_TessLevelOuter Patch",
            "OpDecorate %gl_TessLevelInner Patch",
            "OpDecorate %in_var_CENTER Patch",
            "%gl_TessLevelOuter = OpVariable %_ptr_Input__arr_float_uint_4 Input",
            "%in_var_POSITION = OpVariable %_ptr_Input__arr_v3float_uint_4 Input",
            "OpDecorate %gl_PrimitiveID BuiltIn PrimitiveId",
            // The same alphabetical locations as the hull shader's outputs.
            "OpDecorate %in_var_CENTER Location 0",
            "OpDecorate %in_var_POSITION Location 1",
            "OpDecorate %in_var_TEXCOORD Location 2",
        ],
    );
    assert!(!a.contains("OpDecorate %in_var_POSITION Patch"), "{a}");
    let tri = "struct CP { float3 pos : POSITION; };\n\
               struct Patch { float edges[3] : SV_TessFactor; float inside : SV_InsideTessFactor; };\n\
               [domain(\"tri\")] float4 main(Patch p, float3 uvw : SV_DomainLocation, const OutputPatch<CP, 3> cp) : SV_Position {\n\
                 return float4(cp[0].pos * uvw.x + cp[1].pos * uvw.y + cp[2].pos * uvw.z, 1);\n\
               }";
    let a = asm("ds_6_0", tri);
    has_all(
        &a,
        &["OpExecutionMode %main Triangles", "BuiltIn TessCoord"],
    );
}

#[test]
fn geometry_shader_functions_do_not_stop_other_entry_points() {
    // The vertex entry of a file that also holds a geometry shader.
    let src = format!(
        "{GS_VERTEX}V main(float4 p : POSITION) {{ V v; v.pos = p; v.color = 1; return v; }}\n\
         [maxvertexcount(3)] void gsmain(triangle V t[3], inout TriangleStream<V> s) {{ s.Append(t[0]); }}\n\
         struct CP {{ float4 pos : POS; }};\n\
         struct P {{ float e[3] : SV_TessFactor; float i : SV_InsideTessFactor; }};\n\
         P pc(InputPatch<CP, 3> ip) {{ P p = (P)ip[0].pos.x; return p; }}"
    );
    let a = asm("vs_6_0", &src);
    assert_eq!(count(&a, "OpEntryPoint"), 1, "{a}");
}

#[test]
fn several_streams_decorate_their_outputs() {
    let src = "struct A { float4 pos : SV_Position; float4 c : COLOR; };\n\
               struct B { float4 data : DATA; };\n\
               [maxvertexcount(2)]\n\
               void main(point A p[1], inout PointStream<A> s0, inout PointStream<B> s1) {\n\
                 B b; b.data = p[0].c; s0.Append(p[0]); s1.Append(b);\n\
               }";
    let a = asm("gs_6_0", src);
    has_all(
        &a,
        &[
            "OpDecorate %gl_Position Stream 0",
            "OpDecorate %out_var_COLOR Stream 0",
            "OpDecorate %out_var_DATA Stream 1",
        ],
    );
    // One stream: no Stream decorations.
    let one = format!(
        "{GS_VERTEX}[maxvertexcount(1)] void main(point V p[1], inout PointStream<V> s) {{ s.Append(p[0]); }}"
    );
    assert!(!asm("gs_6_0", &one).contains(" Stream "), "one stream");
}

/// Reflection of `main` compiled for `profile`.
fn reflect(profile: &str, src: &str) -> crate::reflect::Reflection {
    let mut o = common::options_for(profile);
    o.entry = "main".into();
    o.reflect = true;
    let (loader, path) = common::single_file(src);
    let c = crate::compile(&path, &loader, &o);
    let text = render_to_string(&c.diagnostics.list, &c.source_map, DiagnosticFormat::Human);
    c.artifact
        .and_then(|a| a.reflection)
        .unwrap_or_else(|| panic!("no reflection:\n{text}"))
}

#[test]
fn reflection_and_ir_show_the_stages() {
    let r = reflect("hs_6_0", HS);
    let ep = &r.entry_points[0];
    assert_eq!(ep.stage, "hull");
    assert_eq!(ep.patch_constant_function.as_deref(), Some("constants"));
    for m in [
        "Triangles",
        "SpacingEqual",
        "VertexOrderCw",
        "OutputVertices 3",
    ] {
        assert!(
            ep.execution_modes.iter().any(|x| x == m),
            "{m}: {:?}",
            ep.execution_modes
        );
    }
    let out = |n: &str| {
        ep.outputs
            .iter()
            .find(|v| v.name.as_deref() == Some(n))
            .unwrap_or_else(|| panic!("no output {n}"))
    };
    assert!(out("out.var.CENTER").patch);
    assert!(out("gl_TessLevelOuter").patch);
    assert!(!out("out.var.POSITION").patch);
    assert_eq!(out("out.var.POSITION").type_name, "float3[3]");
    let src = "struct A { float4 pos : SV_Position; };\n\
               struct B { float4 data : DATA; };\n\
               [maxvertexcount(2)]\n\
               void main(point A p[1], inout PointStream<A> s0, inout PointStream<B> s1) {\n\
                 B b; b.data = p[0].pos; s0.Append(p[0]); s1.Append(b);\n\
               }";
    let r = reflect("gs_6_0", src);
    let ep = &r.entry_points[0];
    assert_eq!(
        ep.streams,
        vec![
            vec!["gl_Position".to_string()],
            vec!["out.var.DATA".to_string()]
        ]
    );
    assert!(
        ep.execution_modes.iter().any(|m| m == "OutputPoints"),
        "{:?}",
        ep.execution_modes
    );
    // The IR dump names the modes, the streams and the patch-constant
    // function.
    let mut o = common::options_for("gs_6_0");
    o.entry = "main".into();
    let (loader, path) = common::single_file(src);
    let (_, m) = crate::compile_to_ir(&path, &loader, &o);
    let text = crate::ir::display::module_to_string(&m.expect("lowered"));
    assert!(
        text.contains("modes(Invocations 1, InputPoints, OutputPoints, OutputVertices 2)"),
        "{text}"
    );
    assert!(text.contains("stream1(@out.var.DATA)"), "{text}");
    assert!(text.contains("emit_vertex stream 1"), "{text}");
    let mut o = common::options_for("hs_6_0");
    o.entry = "main".into();
    let (loader, path) = common::single_file(HS);
    let (_, m) = crate::compile_to_ir(&path, &loader, &o);
    let text = crate::ir::display::module_to_string(&m.expect("lowered"));
    assert!(text.contains("patch_constant constants"), "{text}");
    assert!(text.contains("location(0) patch"), "{text}");
}

#[test]
fn point_size_output_of_geometry_shaders() {
    let src = "struct P { float4 pos : SV_Position; [[vk::builtin(\"PointSize\")]] float size : PSIZE; };\n\
               [maxvertexcount(1)] void main(point P p[1], inout PointStream<P> s) { P o = p[0]; o.size = 2; s.Append(o); }";
    let a = asm("gs_6_0", src);
    has_all(
        &a,
        &[
            "OpCapability GeometryPointSize",
            "OpDecorate %gl_PointSize BuiltIn PointSize",
            "%gl_PointSize = OpVariable %_ptr_Output_float Output",
        ],
    );
}

#[test]
fn wide_64_bit_vectors_take_two_automatic_locations() {
    // A double3/double4 takes two locations, a double3x3 two per row: the
    // next automatic location comes after them (spirv-val rejects overlap).
    let src = "struct In { double4 a : A; float b : B; double3x3 m : M; float c : C; double2 d : D; float e : E; };\n\
               float4 main(In i) : SV_Position { return float4((float)i.a.x + i.b + (float)i.m[0][0] + i.c, (float)i.d.x, i.e, 1); }";
    let a = asm("vs_6_0", src);
    has_all(
        &a,
        &[
            "OpDecorate %in_var_A Location 0",
            "OpDecorate %in_var_B Location 2",
            "OpDecorate %in_var_M Location 3",
            "OpDecorate %in_var_C Location 9",
            "OpDecorate %in_var_D Location 10",
            "OpDecorate %in_var_E Location 11",
        ],
    );
}

#[test]
fn a_vertex_shader_position_may_be_wrapped_in_one_member_struct_or_array() {
    for decl in [
        "struct P { float4 x; };\nP main() : SV_Position { return (P)0; }",
        "struct P { float4 x[1]; };\nP main() : SV_Position { return (P)0; }",
        "void main(out min16float4 p : SV_Position) { p = 0; }",
    ] {
        let a = asm("vs_6_2", decl);
        has_all(&a, &["BuiltIn Position"]);
    }
}

/// `[[vk::builtin("…")]]` on an entry parameter or a field of one makes
/// that input the built-in (it was a location variable with the
/// semantic's name, read as a vertex attribute): the draw parameters with
/// their capability, `HelperInvocation` as a `bool`.
#[test]
fn vk_builtin_inputs_are_those_built_ins() {
    let vs = asm(
        "vs_6_0",
        "struct I { [[vk::builtin(\"BaseInstance\")]] int bi : BI; float4 p : P; };\n\
         float4 main([[vk::builtin(\"BaseVertex\")]] int bv : BV,\n\
                     [[vk::builtin(\"DrawIndex\")]] uint di : DI, I i) : SV_Position {\n\
           return i.p + bv + di + i.bi;\n\
         }",
    );
    has_all(
        &vs,
        &[
            "OpCapability DrawParameters",
            "OpDecorate %in_var_BV BuiltIn BaseVertex",
            "OpDecorate %in_var_DI BuiltIn DrawIndex",
            "OpDecorate %in_var_BI BuiltIn BaseInstance",
            "OpDecorate %in_var_P Location 0",
        ],
    );
    for b in ["BV", "DI", "BI"] {
        assert!(!vs.contains(&format!("%in_var_{b} Location")), "{vs}");
    }
    // `HelperInvocation` stays a `bool` (a `bool` location variable is a
    // `uint`), in Vulkan 1.0 and 1.3.
    let src = "float4 main([[vk::builtin(\"HelperInvocation\")]] bool h : H) : SV_Target {\n\
                 return h ? 1 : 0;\n\
               }";
    for env in ["vulkan1.0", "vulkan1.3"] {
        let ps = asm_for("ps_6_0", env, src);
        has_all(
            &ps,
            &[
                "OpDecorate %gl_HelperInvocation BuiltIn HelperInvocation",
                "%gl_HelperInvocation = OpVariable %_ptr_Input_bool Input",
            ],
        );
    }
}
