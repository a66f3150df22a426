//! Library profiles and the ray tracing stages: entry points, payloads,
//! attributes, callable data, built-ins, TraceRay/ReportHit/CallShader and
//! the any-hit terminators.

use super::{Spv, compile, compile_error};
use spirv::{BuiltIn, Capability, Decoration, ExecutionModel as EM, Op, StorageClass as SC};

const SCENE: &str = "
RaytracingAccelerationStructure scene : register(t3, space1);
RWStructuredBuffer<float4> results : register(u0);
struct Payload { float4 color; float dist; };
struct Attribs { float2 uv; };
";

fn lib(body: &str) -> String {
    format!("{SCENE}{body}")
}

const RAYGEN: &str = r#"
[shader("raygeneration")]
void gen() {
    uint2 px = DispatchRaysIndex().xy;
    uint2 size = DispatchRaysDimensions().xy;
    RayDesc r;
    r.Origin = float3(px, 0);
    r.Direction = float3(0, 0, -1);
    r.TMin = 0.001;
    r.TMax = 100.0;
    Payload p = { float4(0, 0, 0, 0), -1.0 };
    TraceRay(scene, RAY_FLAG_FORCE_OPAQUE, 0xff, 0, 1, 0, r, p);
    results[px.y * size.x + px.x] = float4(p.color.xyz, p.dist);
}
"#;

const MISS: &str = r#"
[shader("miss")]
void sky(inout Payload p) { p.color = float4(0.2, 0.3, 0.9, 1); p.dist = -1; }
"#;

const CLOSEST: &str = r#"
[shader("closesthit")]
void hit(inout Payload p, in BuiltInTriangleIntersectionAttributes a) {
    p.color = float4(1 - a.barycentrics.x - a.barycentrics.y, a.barycentrics, PrimitiveIndex());
    p.dist = RayTCurrent() + InstanceID();
}
"#;

#[test]
fn a_library_compiles_every_shader_entry_and_ignores_e() {
    let src = lib(&format!(
        "{RAYGEN}{MISS}{CLOSEST}
[shader(\"compute\")] [numthreads(4, 1, 1)]
void clear(uint3 id : SV_DispatchThreadID) {{ results[id.x] = 0; }}
"
    ));
    let spv = compile(&src, &["-T", "lib_6_3", "-E", "nothing_by_that_name"]);
    let models: Vec<(EM, String)> = spv
        .entry_points()
        .into_iter()
        .map(|(m, n, _)| (m, n))
        .collect();
    assert_eq!(
        models,
        vec![
            (EM::RayGenerationKHR, "gen".to_string()),
            (EM::MissKHR, "sky".to_string()),
            (EM::ClosestHitKHR, "hit".to_string()),
            (EM::GLCompute, "clear".to_string()),
        ]
    );
    assert!(spv.has_capability(Capability::RayTracingKHR));
    assert!(spv.has_extension("SPV_KHR_ray_tracing"));
    // The compute entry keeps its own interface and execution mode.
    assert_eq!(spv.all(Op::ExecutionMode).len(), 1);
}

#[test]
fn trace_ray_passes_a_payload_variable_per_call_site() {
    let src = lib(&format!(
        "{}\n[shader(\"raygeneration\")] void twice() {{
            RayDesc r = {{ float3(0, 0, 0), 0.0, float3(0, 0, 1), 10.0 }};
            Payload a = (Payload)0; Payload b = (Payload)0;
            TraceRay(scene, 0, 0xff, 0, 1, 0, r, a);
            TraceRay(scene, 0, 0x0f, 1, 2, 3, r, b);
            results[0] = a.color + b.color;
        }}",
        ""
    ));
    let spv = compile(&src, &["-T", "lib_6_3"]);
    let traces = spv.all(Op::TraceRayKHR);
    assert_eq!(traces.len(), 2);
    let payloads: Vec<u32> = traces
        .iter()
        .map(|t| t.operands[10].unwrap_id_ref())
        .collect();
    assert_ne!(payloads[0], payloads[1], "one payload variable per call");
    for &p in &payloads {
        assert_eq!(spv.storage_of(p), SC::RayPayloadKHR);
    }
    // Mask, SBT offset, stride and miss index of the second call.
    let ops = &traces[1].operands;
    let consts: Vec<u32> = (2..6)
        .map(|i| spv.u32_const(ops[i].unwrap_id_ref()))
        .collect();
    assert_eq!(consts, vec![0x0f, 1, 2, 3]);
    // Both payloads are in the entry point's interface (SPIR-V 1.4+).
    let (_, _, iface) = &spv.entry_points()[0];
    assert!(payloads.iter().all(|p| iface.contains(p)));
}

#[test]
fn hit_and_miss_entries_read_incoming_payload_and_attributes() {
    let spv = compile(&lib(&format!("{MISS}{CLOSEST}")), &["-T", "lib_6_3"]);
    let eps = spv.entry_points();
    let incoming = spv.variables_in(SC::IncomingRayPayloadKHR);
    let attributes = spv.variables_in(SC::HitAttributeKHR);
    assert_eq!(incoming.len(), 2, "one incoming payload per entry");
    assert_eq!(attributes.len(), 1);
    assert!(eps[0].2.contains(&incoming[0]));
    assert!(eps[1].2.contains(&incoming[1]) && eps[1].2.contains(&attributes[0]));
    // The payload is written back.
    let stores_to_incoming = spv
        .all(Op::Store)
        .into_iter()
        .filter(|s| incoming.contains(&s.operands[0].unwrap_id_ref()))
        .count();
    assert_eq!(stores_to_incoming, 2);
    for b in [
        BuiltIn::PrimitiveId,
        BuiltIn::RayTmaxKHR,
        BuiltIn::InstanceCustomIndexKHR,
    ] {
        let v = spv
            .builtin(b)
            .unwrap_or_else(|| panic!("no {b:?} variable"));
        assert!(eps[1].2.contains(&v), "{b:?} in the closest-hit interface");
    }
}

#[test]
fn system_values_load_their_builtins_and_3x4_transposes() {
    let src = lib(r#"
[shader("closesthit")]
void hit(inout Payload p, in Attribs a) {
    float3x4 o2w = ObjectToWorld3x4();
    float4x3 w2o = WorldToObject4x3();
    p.color = o2w[0] + float4(w2o[3], 0) + float4(WorldRayOrigin() + WorldRayDirection()
        + ObjectRayOrigin() + ObjectRayDirection(), RayTMin());
    p.dist = RayFlags() + InstanceIndex() + GeometryIndex() + HitKind()
        + DispatchRaysIndex().x + DispatchRaysDimensions().y;
}
"#);
    let spv = compile(&src, &["-T", "lib_6_3", "-O0"]);
    for b in [
        BuiltIn::ObjectToWorldKHR,
        BuiltIn::WorldToObjectKHR,
        BuiltIn::WorldRayOriginKHR,
        BuiltIn::WorldRayDirectionKHR,
        BuiltIn::ObjectRayOriginKHR,
        BuiltIn::ObjectRayDirectionKHR,
        BuiltIn::RayTminKHR,
        BuiltIn::IncomingRayFlagsKHR,
        BuiltIn::InstanceId,
        BuiltIn::RayGeometryIndexKHR,
        BuiltIn::HitKindKHR,
        BuiltIn::LaunchIdKHR,
        BuiltIn::LaunchSizeKHR,
    ] {
        assert!(spv.builtin(b).is_some(), "no {b:?} variable");
    }
    // The matrices are 4 columns of 3 (HLSL float4x3); the 3x4 form is
    // transposed, the 4x3 one read as it is.
    let o2w = spv.builtin(BuiltIn::ObjectToWorldKHR).unwrap_or_default();
    let load = spv
        .all(Op::Load)
        .into_iter()
        .find(|l| l.operands[0].unwrap_id_ref() == o2w)
        .cloned()
        .expect("ObjectToWorld is loaded");
    let mat = spv.def(load.result_type.unwrap_or_default());
    assert_eq!(mat.class.opcode, Op::TypeMatrix);
    assert_eq!(mat.operands[1], rspirv::dr::Operand::LiteralBit32(4));
    let transposes = spv.all(Op::Transpose);
    assert_eq!(transposes.len(), 1);
    assert_eq!(
        transposes[0].operands[0].unwrap_id_ref(),
        load.result_id.unwrap_or_default()
    );
}

#[test]
fn the_acceleration_structure_is_a_descriptor() {
    let spv = compile(&lib(RAYGEN), &["-T", "lib_6_3"]);
    let ty = spv.all(Op::TypeAccelerationStructureKHR);
    assert_eq!(ty.len(), 1);
    let var = spv
        .variables_in(SC::UniformConstant)
        .into_iter()
        .next()
        .expect("the acceleration structure variable");
    let decorations: Vec<(Decoration, u32)> = spv
        .all(Op::Decorate)
        .into_iter()
        .filter(|d| d.operands[0].unwrap_id_ref() == var)
        .filter_map(|d| match (&d.operands[1], d.operands.get(2)) {
            (rspirv::dr::Operand::Decoration(x), Some(rspirv::dr::Operand::LiteralBit32(v))) => {
                Some((*x, *v))
            }
            _ => None,
        })
        .collect();
    assert!(decorations.contains(&(Decoration::DescriptorSet, 1)));
    assert!(decorations.contains(&(Decoration::Binding, 3)));
}

#[test]
fn intersection_reports_hits_through_one_attribute_variable() {
    let src = lib(r#"
Attribs make(float u) { Attribs a; a.uv = float2(u, 0); return a; }
[shader("intersection")]
void sphere() {
    Attribs a = { float2(0.5, 0.5) };
    if (ReportHit(1.0, 0, a)) { ReportHit(2.0, 1u, make(RayTCurrent())); }
}
"#);
    let spv = compile(&src, &["-T", "lib_6_3"]);
    let reports = spv.all(Op::ReportIntersectionKHR);
    assert_eq!(reports.len(), 2);
    let attrs = spv.variables_in(SC::HitAttributeKHR);
    assert_eq!(attrs.len(), 1, "one variable for the attribute type");
    let stores = spv
        .all(Op::Store)
        .into_iter()
        .filter(|s| s.operands[0].unwrap_id_ref() == attrs[0])
        .count();
    assert_eq!(stores, 2, "each ReportHit stores its attributes first");
}

#[test]
fn any_hit_terminators_end_their_blocks() {
    let src = lib(r#"
[shader("anyhit")]
void filter(inout Payload p, in Attribs a) {
    if (a.uv.x > 0.5) IgnoreHit();
    if (a.uv.y > 0.5) { p.dist = 1; AcceptHitAndEndSearch(); }
    p.dist = 2;
}
"#);
    let spv = compile(&src, &["-T", "lib_6_3"]);
    assert_eq!(spv.all(Op::IgnoreIntersectionKHR).len(), 1);
    assert_eq!(spv.all(Op::TerminateRayKHR).len(), 1);
    // Each is the last instruction of its block.
    for f in &spv.module.functions {
        for b in &f.blocks {
            for (i, inst) in b.instructions.iter().enumerate() {
                if matches!(
                    inst.class.opcode,
                    Op::IgnoreIntersectionKHR | Op::TerminateRayKHR
                ) {
                    assert_eq!(i + 1, b.instructions.len());
                }
            }
        }
    }
}

/// `IgnoreHit` and `AcceptHitAndEndSearch` end the invocation, so the
/// wrapper's copy of the payload back into IncomingRayPayloadKHR never
/// runs after them: what the shader wrote before one must be stored there
/// first, in the terminator's own block.
#[test]
fn payload_writes_before_a_terminator_are_kept() {
    let src = lib(r#"
[shader("anyhit")]
void filter(inout Payload p, in Attribs a) {
    p.dist = a.uv.x;
    if (a.uv.x > 0.5) { p.color = 1; IgnoreHit(); }
    if (a.uv.y > 0.5) { p.dist = 3; AcceptHitAndEndSearch(); }
}
"#);
    for opt in ["-O0", "-O3"] {
        let spv = compile(&src, &["-T", "lib_6_3", opt]);
        let incoming = spv.variables_in(SC::IncomingRayPayloadKHR);
        assert_eq!(incoming.len(), 1, "{opt}");
        let mut ends = 0;
        for b in spv.module.functions.iter().flat_map(|f| &f.blocks) {
            let Some(last) = b.instructions.last() else {
                continue;
            };
            if !matches!(
                last.class.opcode,
                Op::IgnoreIntersectionKHR | Op::TerminateRayKHR
            ) {
                continue;
            }
            ends += 1;
            let stored = b.instructions.iter().any(|i| {
                i.class.opcode == Op::Store && i.operands[0].unwrap_id_ref() == incoming[0]
            });
            assert!(
                stored,
                "{opt}: no store to the incoming payload before {:?}",
                last.class.opcode
            );
        }
        assert_eq!(ends, 2, "{opt}");
    }
}

#[test]
fn call_shader_passes_callable_data() {
    let src = lib(r#"
struct Data { float4 v; };
[shader("callable")]
void shade(inout Data d) { d.v *= 2; }
[shader("raygeneration")]
void gen() {
    Data d = { float4(1, 2, 3, 4) };
    CallShader(7, d);
    results[0] = d.v;
}
"#);
    let spv = compile(&src, &["-T", "lib_6_3"]);
    let calls = spv.all(Op::ExecuteCallableKHR);
    assert_eq!(calls.len(), 1);
    assert_eq!(spv.u32_const(calls[0].operands[0].unwrap_id_ref()), 7);
    assert_eq!(
        spv.storage_of(calls[0].operands[1].unwrap_id_ref()),
        SC::CallableDataKHR
    );
    assert_eq!(spv.variables_in(SC::IncomingCallableDataKHR).len(), 1);
    assert_eq!(spv.entry_points()[0].0, EM::CallableKHR);
}

#[test]
fn nv_ray_tracing_names_payloads_by_location() {
    let args = [
        "-T",
        "lib_6_3",
        "-fspv-extension=SPV_NV_ray_tracing",
        "-fspv-target-env=vulkan1.0",
    ];
    let spv = compile(&lib(&format!("{RAYGEN}{CLOSEST}")), &args);
    assert!(spv.has_capability(Capability::RayTracingNV));
    assert!(spv.has_extension("SPV_NV_ray_tracing"));
    assert!(!spv.has_extension("SPV_KHR_ray_tracing"));
    let traces = spv.all(Op::TraceNV);
    assert_eq!(traces.len(), 1);
    // The payload operand is the location of the RayPayloadNV variable.
    let loc = spv.u32_const(traces[0].operands[10].unwrap_id_ref());
    let payload = spv.variables_in(SC::RayPayloadKHR)[0];
    let decorated = spv.all(Op::Decorate).into_iter().any(|d| {
        d.operands[0].unwrap_id_ref() == payload
            && d.operands[1] == rspirv::dr::Operand::Decoration(Decoration::Location)
            && d.operands[2] == rspirv::dr::Operand::LiteralBit32(loc)
    });
    assert!(decorated, "payload decorated Location {loc}");
}

#[test]
fn khr_ray_tracing_needs_spirv_1_4() {
    let src = lib(RAYGEN);
    let e = compile_error(&src, &["-T", "lib_6_3", "-fspv-target-env=vulkan1.1"]);
    assert!(e.contains("E0801") && e.contains("SPIR-V 1.4"), "{e}");
    let spv: Spv = compile(
        &src,
        &["-T", "lib_6_3", "-fspv-target-env=vulkan1.1spirv1.4"],
    );
    assert_eq!(spv.all(Op::TraceRayKHR).len(), 1);
}
