//! Inline ray queries (`RayQuery<FLAGS>`) in compute, pixel, geometry and
//! library stages → SPV_KHR_ray_query.

use super::{compile, compile_error};
use spirv::{Capability, Op, StorageClass as SC};

const PRELUDE: &str = "
RaytracingAccelerationStructure scene : register(t0);
RWStructuredBuffer<float4> results : register(u0);
RayDesc down() {
    RayDesc r;
    r.Origin = float3(0, 0, 1);
    r.Direction = float3(0, 0, -1);
    r.TMin = 0.0;
    r.TMax = 100.0;
    return r;
}
";

fn shader(body: &str) -> String {
    format!("{PRELUDE}[numthreads(1, 1, 1)] void main() {{ {body} }}")
}

#[test]
fn a_query_is_a_function_variable_and_its_flags_are_ored() {
    let src = shader(
        "RayQuery<RAY_FLAG_FORCE_OPAQUE | RAY_FLAG_ACCEPT_FIRST_HIT_AND_END_SEARCH> q;
         q.TraceRayInline(scene, RAY_FLAG_CULL_BACK_FACING_TRIANGLES, 0xff, down());
         while (q.Proceed()) {}
         results[0] = q.CommittedStatus() == COMMITTED_TRIANGLE_HIT ? q.CommittedRayT() : -1.0;",
    );
    let spv = compile(&src, &["-T", "cs_6_5"]);
    assert!(spv.has_capability(Capability::RayQueryKHR));
    assert!(spv.has_extension("SPV_KHR_ray_query"));
    assert!(!spv.has_capability(Capability::RayTracingKHR));
    let queries = spv.variables_in(SC::Function);
    let init = spv.all(Op::RayQueryInitializeKHR);
    assert_eq!(init.len(), 1);
    let q = init[0].operands[0].unwrap_id_ref();
    assert!(queries.contains(&q));
    assert_eq!(
        spv.def(spv.def(q).result_type.unwrap_or_default())
            .class
            .opcode,
        Op::TypePointer
    );
    // 0x10 from the call, 0x1 | 0x4 from the template.
    assert_eq!(spv.u32_const(init[0].operands[2].unwrap_id_ref()), 0x15);
    assert_eq!(spv.u32_const(init[0].operands[3].unwrap_id_ref()), 0xff);
    let proceed = spv.all(Op::RayQueryProceedKHR);
    assert_eq!(proceed.len(), 1);
    assert_eq!(proceed[0].operands[0].unwrap_id_ref(), q);
    // CommittedStatus and CommittedRayT read the committed intersection.
    let status = spv.all(Op::RayQueryGetIntersectionTypeKHR);
    assert_eq!(spv.u32_const(status[0].operands[1].unwrap_id_ref()), 1);
    let t = spv.all(Op::RayQueryGetIntersectionTKHR);
    assert_eq!(spv.u32_const(t[0].operands[1].unwrap_id_ref()), 1);
}

#[test]
fn every_getter_and_action_has_its_instruction() {
    let src = shader(
        "RayQuery<RAY_FLAG_NONE> q;
         q.TraceRayInline(scene, 0, 0xff, down());
         float4 acc = 0;
         while (q.Proceed()) {
             if (q.CandidateType() == CANDIDATE_NON_OPAQUE_TRIANGLE) {
                 float3x4 m = q.CandidateObjectToWorld3x4();
                 float4x3 n = q.CandidateWorldToObject4x3();
                 acc += m[0] + float4(n[0], q.CandidateTriangleRayT());
                 acc.xy += q.CandidateTriangleBarycentrics();
                 acc.x += q.CandidateTriangleFrontFace() ? 1 : 0;
                 acc.x += q.CandidateInstanceIndex() + q.CandidateInstanceID()
                     + q.CandidateInstanceContributionToHitGroupIndex()
                     + q.CandidateGeometryIndex() + q.CandidatePrimitiveIndex();
                 acc.xyz += q.CandidateObjectRayOrigin() + q.CandidateObjectRayDirection();
                 q.CommitNonOpaqueTriangleHit();
             } else {
                 if (q.CandidateProceduralPrimitiveNonOpaque()) q.Abort();
                 q.CommitProceduralPrimitiveHit(0.5);
             }
         }
         acc.xyz += q.WorldRayOrigin() + q.WorldRayDirection();
         acc.w += q.RayTMin() + q.RayFlags();
         acc += q.CommittedObjectToWorld3x4()[1] + float4(q.CommittedWorldToObject4x3()[2], 0);
         acc.xy += q.CommittedTriangleBarycentrics();
         acc.x += q.CommittedTriangleFrontFace() ? 1 : 0;
         acc.x += q.CommittedInstanceIndex() + q.CommittedInstanceID()
             + q.CommittedInstanceContributionToHitGroupIndex()
             + q.CommittedGeometryIndex() + q.CommittedPrimitiveIndex();
         acc.xyz += q.CommittedObjectRayOrigin() + q.CommittedObjectRayDirection();
         results[0] = acc;",
    );
    let spv = compile(&src, &["-T", "cs_6_5"]);
    for op in [
        Op::RayQueryConfirmIntersectionKHR,
        Op::RayQueryGenerateIntersectionKHR,
        Op::RayQueryTerminateKHR,
        Op::RayQueryGetIntersectionCandidateAABBOpaqueKHR,
        Op::RayQueryGetWorldRayOriginKHR,
        Op::RayQueryGetWorldRayDirectionKHR,
        Op::RayQueryGetRayTMinKHR,
        Op::RayQueryGetRayFlagsKHR,
    ] {
        assert_eq!(spv.all(op).len(), 1, "{op:?}");
    }
    for op in [
        Op::RayQueryGetIntersectionObjectToWorldKHR,
        Op::RayQueryGetIntersectionWorldToObjectKHR,
        Op::RayQueryGetIntersectionBarycentricsKHR,
        Op::RayQueryGetIntersectionFrontFaceKHR,
        Op::RayQueryGetIntersectionInstanceIdKHR,
        Op::RayQueryGetIntersectionInstanceCustomIndexKHR,
        Op::RayQueryGetIntersectionInstanceShaderBindingTableRecordOffsetKHR,
        Op::RayQueryGetIntersectionGeometryIndexKHR,
        Op::RayQueryGetIntersectionPrimitiveIndexKHR,
        Op::RayQueryGetIntersectionObjectRayOriginKHR,
        Op::RayQueryGetIntersectionObjectRayDirectionKHR,
    ] {
        // Once for the candidate (0), once for the committed hit (1).
        let mut sides: Vec<u32> = spv
            .all(op)
            .iter()
            .map(|i| spv.u32_const(i.operands[1].unwrap_id_ref()))
            .collect();
        sides.sort();
        assert_eq!(sides, vec![0, 1], "{op:?}");
    }
    // The 3x4 forms are the 4x3 values transposed.
    assert_eq!(spv.all(Op::Transpose).len(), 2);
    // NonOpaque is the negation of SPIR-V's "opaque".
    let opaque = spv.all(Op::RayQueryGetIntersectionCandidateAABBOpaqueKHR)[0]
        .result_id
        .unwrap_or_default();
    assert!(
        spv.all(Op::LogicalNot)
            .iter()
            .any(|n| n.operands[0].unwrap_id_ref() == opaque)
    );
}

#[test]
fn a_query_passed_to_a_function_is_the_same_query() {
    let src = format!(
        "{PRELUDE}
void start(RayQuery<RAY_FLAG_FORCE_OPAQUE> q, uint extra) {{
    q.TraceRayInline(scene, extra, 0xff, down());
}}
[numthreads(1, 1, 1)] void main() {{
    RayQuery<RAY_FLAG_FORCE_OPAQUE> q;
    start(q, RAY_FLAG_FORCE_NON_OPAQUE);
    q.Proceed();
    results[0] = q.CommittedStatus();
}}"
    );
    for level in ["-O0", "-O3"] {
        let spv = compile(&src, &["-T", "cs_6_5", level]);
        let init = spv.all(Op::RayQueryInitializeKHR);
        let proceed = spv.all(Op::RayQueryProceedKHR);
        assert_eq!((init.len(), proceed.len()), (1, 1));
        if level == "-O3" {
            // Inlined: the function's query is main's.
            assert_eq!(
                init[0].operands[0].unwrap_id_ref(),
                proceed[0].operands[0].unwrap_id_ref()
            );
        }
    }
}

#[test]
fn queries_work_in_graphics_and_ray_tracing_stages() {
    let ps = format!(
        "{PRELUDE}
float4 main(float4 p : SV_Position) : SV_Target {{
    RayQuery<RAY_FLAG_SKIP_PROCEDURAL_PRIMITIVES> q;
    q.TraceRayInline(scene, 0, 0xff, down());
    q.Proceed();
    return q.CommittedStatus();
}}"
    );
    let spv = compile(&ps, &["-T", "ps_6_5"]);
    assert_eq!(spv.all(Op::RayQueryInitializeKHR).len(), 1);
    assert!(spv.has_capability(Capability::RayTraversalPrimitiveCullingKHR));
    let lib = format!(
        "{PRELUDE}
struct Payload {{ float4 c; }};
[shader(\"miss\")] void sky(inout Payload p) {{
    RayQuery<0> q;
    q.TraceRayInline(scene, 0, 0xff, down());
    p.c = q.Proceed() ? 1 : 0;
}}"
    );
    let spv = compile(&lib, &["-T", "lib_6_5"]);
    assert!(spv.has_capability(Capability::RayQueryKHR));
    assert!(spv.has_capability(Capability::RayTracingKHR));
}

#[test]
fn a_query_needs_its_flags() {
    let e = compile_error(&shader("RayQuery q;"), &["-T", "cs_6_5"]);
    assert!(e.contains("E0312"), "{e}");
}
