//! Constructs seen in the shaders of public engines that hlslc rejected or
//! miscompiled: forward-declared structs, binary literals, the sizes of
//! structs with 64-bit members and of 64-bit enums. Values are checked on
//! Vulkan (lavapipe by default).

use super::*;

#[test]
fn forward_declared_struct_named_in_a_signature_before_its_definition() {
    let src = "struct GbufferData;\n\
               float3 shade(GbufferData g);\n\
               struct GbufferData { float3 albedo; float rough; };\n\
               RWStructuredBuffer<float> o;\n\
               [numthreads(1,1,1)] void main() {\n\
                 GbufferData g; g.albedo = float3(1, 2, 3); g.rough = 0.5;\n\
                 float3 c = shade(g); o[0] = c.x; o[1] = c.y; o[2] = c.z;\n\
               }\n\
               struct GbufferData;\n\
               float3 shade(GbufferData g) { return g.albedo * g.rough; }";
    assert_eq!(run_float_outputs(src, 3), vec![0.5, 1.0, 1.5]);
}

#[test]
fn forward_declared_struct_never_defined_is_an_error() {
    let t = fails_with(
        "struct Missing;\n[numthreads(1,1,1)] void main() { Missing m; }",
        "E0302",
    );
    assert!(
        t.contains("struct `Missing` is declared but never defined"),
        "{t}"
    );
}

#[test]
fn binary_integer_literals() {
    let src = "RWStructuredBuffer<uint> o;\n\
               #if 0b11 == 3\n\
               #define PP 7\n\
               #else\n\
               #define PP 0\n\
               #endif\n\
               [numthreads(1,1,1)] void main() {\n\
                 o[0] = 0b01u; o[1] = 0B1010; o[2] = 0b1u << 31; o[3] = PP;\n\
                 int neg = -0b11; o[4] = (uint)neg;\n\
               }";
    assert_eq!(
        run_outputs(src, 5),
        vec![1, 10, 0x8000_0000, 7, (-3i32) as u32]
    );
}

#[test]
fn sizeof_pads_structs_to_their_alignment_and_enums_keep_their_size() {
    let src = "struct S { uint64_t a; int b; };\n\
               struct T { int a; double b; };\n\
               struct N { int x; S s; };\n\
               enum E : uint64_t { Big = 1 };\n\
               enum F { Small };\n\
               RWStructuredBuffer<uint> o;\n\
               [numthreads(1,1,1)] void main() {\n\
                 S three[3];\n\
                 o[0] = sizeof(S); o[1] = sizeof(three); o[2] = sizeof(E);\n\
                 o[3] = sizeof(T); o[4] = sizeof(N); o[5] = sizeof(F);\n\
                 o[6] = sizeof(float3); o[7] = sizeof(three[0]);\n\
               }";
    assert_eq!(run_outputs(src, 8), vec![16, 48, 8, 16, 24, 4, 12, 16]);
}

#[test]
fn groupshared_budget_counts_padded_structs() {
    // 2100 × 16 bytes is over 32 KB; packed (12 bytes each) it was not.
    let t = fails_with(
        "struct S { uint64_t a; int b; };\n\
         groupshared S cache[2100];\n\
         RWStructuredBuffer<uint> o;\n\
         [numthreads(1,1,1)] void main() { cache[0].b = 1; o[0] = cache[0].b; }",
        "E0405",
    );
    assert!(t.contains("33600 bytes"), "{t}");
}

#[test]
fn byte_address_load_and_store_of_64_bit_enums_and_padded_structs() {
    let src = "enum E : uint64_t { Lo = 2, Hi = 0x100000000 };\n\
               struct S { uint64_t a; int b; };\n\
               RWByteAddressBuffer b;\n\
               [numthreads(1,1,1)] void main() {\n\
                 E e = (E)(Hi + Lo);\n\
                 b.Store<E>(0, e);\n\
                 E back = b.Load<E>(0);\n\
                 b.Store<uint64_t>(8, (uint64_t)back + 1);\n\
                 S pair[2];\n\
                 pair[0].a = 5; pair[0].b = 6; pair[1].a = 7; pair[1].b = 8;\n\
                 b.Store(16, pair);\n\
               }";
    let mut got = Vec::new();
    for env in [TargetEnv::Vulkan1_0, TargetEnv::Vulkan1_2] {
        let r = run_on_vulkan(src, env, vec![Resource::storage(0, 0, vec![0u8; 4 * 16])]);
        got = vk::to_u32s(&r[0].data);
        // The enum is 8 bytes (low word first); each S is 16, its tail padded.
        assert_eq!(
            got,
            vec![2, 1, 3, 1, 5, 0, 6, 0, 7, 0, 8, 0, 0, 0, 0, 0],
            "{env:?}"
        );
    }
    assert_eq!(got.len(), 16);
}
