//! Types defined by calls of `[[vk::ext_type_def(id, opcode)]]` functions
//! and named `vk::ext_type<id>`: in globals declared before the defining
//! call is seen, in locals, and in the parameters and results of
//! `vk::ext_instruction` functions. Every module validates.

use super::{compile_valid_words_with, options};
use crate::options::TargetEnv;
use crate::tests::common;

use super::inline_spirv::assert_has;

fn asm_for(src: &str, profile: &str) -> String {
    let mut o = options();
    o.profile = crate::options::Profile::parse(profile);
    o.target_env = TargetEnv::Vulkan1_3;
    common::spirv_dis(&compile_valid_words_with(src, &o))
}

const INTEGERS: &str = r#"
[[vk::ext_type_def(0, /* OpTypeInt */ 21)]]
void defineInt([[vk::ext_literal]] uint width, [[vk::ext_literal]] uint signedness);
[[vk::ext_type_def(1, /* OpTypeVector */ 23)]]
void defineVector([[vk::ext_reference]] vk::ext_type<0> component, [[vk::ext_literal]] uint count);
[[vk::ext_type_def(2, /* OpTypeArray */ 28)]]
void defineArray([[vk::ext_reference]] vk::ext_type<0> element, uint length);
[[vk::ext_type_def(3, /* OpTypeInt */ 21)]]
void defineByte([[vk::ext_literal]] uint width, [[vk::ext_literal]] uint signedness);

vk::ext_type<1> offsets;
[[vk::ext_instruction(/* OpIAdd */ 128)]]
vk::ext_type<0> add(vk::ext_type<0> a, vk::ext_type<0> b);
[[vk::ext_instruction(/* OpCompositeConstruct */ 80)]]
vk::ext_type<2> gather(vk::ext_type<0> a, vk::ext_type<0> b, vk::ext_type<0> c, vk::ext_type<0> d);
[[vk::ext_instruction(/* OpCompositeExtract */ 81)]]
vk::ext_type<0> pick(vk::ext_type<2> a, [[vk::ext_literal]] uint i);
[[vk::ext_instruction(/* OpUConvert */ 113)]] vk::ext_type<3> narrow(uint x);
[[vk::ext_instruction(/* OpUConvert */ 113)]] uint widen(vk::ext_type<3> x);
RWStructuredBuffer<int> buf;
[numthreads(1, 1, 1)]
void main() {
    if (buf[0] > 0) {
        defineVector(offsets.x, 3);
    }
    defineInt(32, 1);
    defineArray(offsets.x, 4);
    defineByte(8, 0);
    vk::ext_type<0> x = add(offsets.y, buf[1]);
    vk::ext_type<2> all = gather(x, offsets.x, offsets.z, 7);
    buf[2] = pick(all, 3);
    vk::ext_type<3> b = narrow(buf[3]);
    buf[4] = widen(b);
}
"#;

#[test]
fn defined_integer_and_vector_types_are_those_types() {
    let a = asm_for(INTEGERS, "cs_6_0");
    assert_has(
        &a,
        &[
            "%int = OpTypeInt 32 1",
            "%v3int = OpTypeVector %int 3",
            // A global of a defined vector type is a `$Globals` member.
            "%type__Globals = OpTypeStruct %v3int",
            "= OpIAdd %int %",
            // A non-literal integer operand is the id of a constant.
            "= OpTypeArray %int %uint_4",
            "= OpCompositeConstruct %_arr_int_uint_4 %",
            "%uchar = OpTypeInt 8 0",
            "= OpUConvert %uchar %",
        ],
    );
    assert_eq!(a.matches("OpTypeInt 32 1").count(), 1, "{a}");
}

const RAY_QUERY: &str = r#"
[[vk::ext_capability(/* RayQueryKHR */ 4472)]]
[[vk::ext_extension("SPV_KHR_ray_query")]]
[[vk::ext_type_def(10, /* OpTypeRayQueryKHR */ 4472)]]
void defineRayQuery();
[[vk::ext_capability(/* StorageImageExtendedFormats */ 49)]]
[[vk::ext_type_def(11, /* OpTypeAccelerationStructureKHR */ 5341)]]
void defineScene();

vk::ext_type<11> scene : register(t3, space1);

[[vk::ext_instruction(/* OpRayQueryInitializeKHR */ 4473)]]
void traceInit([[vk::ext_reference]] vk::ext_type<10> q, vk::ext_type<11> as, uint flags,
               uint mask, float3 origin, float tmin, float3 dir, float tmax);
[[vk::ext_instruction(/* OpRayQueryProceedKHR */ 4477)]]
bool proceed([[vk::ext_reference]] vk::ext_type<10> q);
[[vk::ext_instruction(/* OpRayQueryTerminateKHR */ 4474)]]
void terminate([[vk::ext_reference]] vk::ext_type<10> q);
RWStructuredBuffer<uint> hits;
[numthreads(8, 1, 1)]
void main(uint3 id : SV_DispatchThreadID) {
    defineScene();
    defineRayQuery();
    vk::ext_type<10> q;
    traceInit(q, scene, 0, 0xff, float3(id), 0.0, float3(0, 0, 1), 100.0);
    uint steps = 0;
    while (proceed(q)) {
        steps++;
    }
    terminate(q);
    hits[id.x] = steps;
}
"#;

#[test]
fn defined_ray_query_and_acceleration_structure_types() {
    let a = asm_for(RAY_QUERY, "cs_6_5");
    assert_has(
        &a,
        &[
            "OpCapability RayQueryKHR",
            // The capabilities of the defining function apply.
            "OpCapability StorageImageExtendedFormats",
            "OpExtension \"SPV_KHR_ray_query\"",
            "OpDecorate %scene DescriptorSet 1",
            "OpDecorate %scene Binding 3",
            "= OpTypeAccelerationStructureKHR",
            "%scene = OpVariable %_ptr_UniformConstant_",
            "= OpTypeRayQueryKHR",
            "OpRayQueryInitializeKHR %q %",
            "= OpRayQueryProceedKHR %bool %q",
            "OpRayQueryTerminateKHR %q",
        ],
    );
}

#[test]
fn one_id_defined_twice_the_same_way_is_one_type() {
    let a = asm_for(
        r#"
        [[vk::ext_type_def(5, /* OpTypeFloat */ 22)]]
        void defineFloat([[vk::ext_literal]] uint width);
        RWStructuredBuffer<float> buf;
        [numthreads(1, 1, 1)]
        void main() {
            defineFloat(32);
            defineFloat(16 + 16);
            vk::ext_type<5> f = buf[0];
            buf[1] = f * 2;
        }"#,
        "cs_6_0",
    );
    assert_eq!(a.matches("OpTypeFloat 32").count(), 1, "{a}");
}

/// `vk::SpirvOpaqueType<OpTypeAccelerationStructureKHR>` is the
/// acceleration structure: a global of it is a descriptor (it was a `uint`
/// member of `$Globals`, and `OpRayQueryInitializeKHR` got that `uint`).
/// A global of another opaque type cannot be a uniform (E0304).
#[test]
fn opaque_acceleration_structure_globals_are_descriptors() {
    let src = r#"
RWStructuredBuffer<uint> o;
typedef vk::SpirvOpaqueType</* OpTypeRayQueryKHR */ 4472> RQ;
typedef vk::SpirvOpaqueType</* OpTypeAccelerationStructureKHR */ 5341> AS;
AS scene : register(t0);
[[vk::ext_capability(/* RayQueryKHR */ 4472)]]
[[vk::ext_extension("SPV_KHR_ray_query")]]
[[vk::ext_instruction(/* OpRayQueryInitializeKHR */ 4473)]]
void init([[vk::ext_reference]] RQ q, AS a, uint flags, uint mask, float3 o, float tmin, float3 d, float tmax);
[numthreads(1, 1, 1)]
void main() { RQ q; init(q, scene, 0, 0xff, 0, 0, float3(0, 0, 1), 10); o[0] = 1; }
"#;
    let a = asm_for(src, "cs_6_5");
    assert_has(
        &a,
        &[
            "%scene = OpVariable %_ptr_UniformConstant_",
            "OpDecorate %scene Binding",
            "OpRayQueryInitializeKHR %q %",
        ],
    );
    assert!(!a.contains("$Globals"), "{a}");
    super::fails_with(
        "typedef vk::SpirvOpaqueType<4472> RQ; RQ g; RWStructuredBuffer<uint> o;\n\
         [numthreads(1, 1, 1)] void main() { o[0] = 1; }",
        "E0304",
    );
}
