//! `vk::RawBufferLoad`/`vk::RawBufferStore`: device addresses lowered to
//! `PhysicalStorageBuffer` pointers (SPV_KHR_physical_storage_buffer),
//! with the `Aligned` operand on every access.

use super::*;

const RAW: &str = r#"
struct S { float a; float3 v; int arr[2]; bool b; };
uint64_t Address;
RWStructuredBuffer<float4> o;
[numthreads(1, 1, 1)]
void main() {
  float x = vk::RawBufferLoad<float>(Address);
  double y = vk::RawBufferLoad<double>(Address + 16, 8);
  bool z = vk::RawBufferLoad<bool>(Address + 32);
  uint v = vk::RawBufferLoad(Address + 4);
  S s = vk::RawBufferLoad<S>(Address + 64, 16);
  o[0] = float4(x, (float)y, z, v) + s.v.xyzz + s.arr[1];
  vk::RawBufferStore<float2>(Address + 128, float2(x, 1), 8);
  vk::RawBufferStore<S>(Address + 256, s);
  vk::RawBufferStore<bool>(Address + 512, z);
}
"#;

fn disassembly(src: &str, env: TargetEnv) -> String {
    common::spirv_dis(&compile_valid_words(src, env))
}

#[test]
fn raw_buffer_accesses_use_device_pointers() {
    let text = disassembly(RAW, TargetEnv::Vulkan1_0);
    for line in [
        "OpCapability PhysicalStorageBufferAddresses",
        "OpExtension \"SPV_KHR_physical_storage_buffer\"",
        "OpMemoryModel PhysicalStorageBuffer64 GLSL450",
        "OpTypePointer PhysicalStorageBuffer %float",
        "OpConvertUToPtr %_ptr_PhysicalStorageBuffer_double",
        "OpLoad %double",
        "OpMemberDecorate %S 1 Offset 4",
        "OpMemberDecorate %S 2 Offset 16",
        "OpMemberDecorate %S 3 Offset 24",
    ] {
        assert!(text.contains(line), "missing `{line}`:\n{text}");
    }
    let loads: Vec<&str> = text
        .lines()
        .filter(|l| l.contains("OpLoad") && l.contains("Aligned"))
        .collect();
    // float (4), double (8), bool as uint (4), uint (4), S (16).
    assert_eq!(loads.len(), 5, "{text}");
    assert!(
        loads
            .iter()
            .any(|l| l.contains("%double") && l.ends_with("Aligned 8"))
    );
    assert!(
        loads
            .iter()
            .any(|l| l.contains("%S ") && l.ends_with("Aligned 16"))
    );
    // A bool is stored as a uint: read back with a comparison, written
    // with a select.
    assert!(text.contains("OpINotEqual %bool"), "{text}");
    assert!(text.contains("OpSelect %uint"), "{text}");
    let stores: Vec<&str> = text
        .lines()
        .filter(|l| l.contains("OpStore") && l.contains("Aligned"))
        .collect();
    assert_eq!(stores.len(), 3, "{text}");
    assert!(stores.iter().any(|l| l.ends_with("Aligned 8")), "{text}");
}

#[test]
fn logical_addressing_without_device_addresses() {
    let text = disassembly(
        "RWStructuredBuffer<uint> o; [numthreads(1,1,1)] void main() { o[0] = 1; }",
        TargetEnv::Vulkan1_0,
    );
    assert!(text.contains("OpMemoryModel Logical GLSL450"), "{text}");
    assert!(!text.contains("PhysicalStorageBuffer"), "{text}");
}

#[test]
fn extension_is_core_from_spirv_1_5() {
    let text = disassembly(RAW, TargetEnv::Vulkan1_2);
    assert!(text.contains("OpCapability PhysicalStorageBufferAddresses"));
    assert!(text.contains("OpMemoryModel PhysicalStorageBuffer64 GLSL450"));
    assert!(!text.contains("SPV_KHR_physical_storage_buffer"), "{text}");
}

#[test]
fn matrices_and_arrays_through_device_addresses() {
    let src = r#"
uint64_t Address;
RWStructuredBuffer<float> o;
[numthreads(1, 1, 1)]
void main() {
  float2x3 m = vk::RawBufferLoad<float2x3>(Address);
  int4 a[2] = vk::RawBufferLoad<int4[2]>(Address + 32, 16);
  vk::RawBufferStore<float2x3>(Address + 64, m * 2);
  o[0] = m._m12 + a[1].w;
}
"#;
    let text = disassembly(src, TargetEnv::Vulkan1_2);
    assert!(
        text.contains("OpTypePointer PhysicalStorageBuffer %mat2v3float"),
        "{text}"
    );
    assert!(text.contains("Aligned 16"), "{text}");
}

#[test]
fn raw_buffer_errors() {
    let wrap = |body: &str| {
        format!(
            "uint64_t A; RWStructuredBuffer<uint> o; Texture2D t;\n\
             [numthreads(1,1,1)] void main() {{ {body} }}"
        )
    };
    let t = fails_with(&wrap("o[0] = vk::RawBufferLoad<uint>(A, 6);"), "E0309");
    assert!(t.contains("alignment 6 is not a power of two"), "{t}");
    let t = fails_with(&wrap("o[0] = vk::RawBufferLoad<uint>(A, -16);"), "E0702");
    assert!(t.contains("constant unsigned integer"), "{t}");
    let t = fails_with(
        &wrap("uint n = 4; o[0] = vk::RawBufferLoad<uint>(A, n);"),
        "E0702",
    );
    assert!(t.contains("constant"), "{t}");
    let t = fails_with(&wrap("vk::RawBufferStore<Texture2D>(A, t);"), "E0304");
    assert!(t.contains("cannot access a value of type"), "{t}");
    fails_with(&wrap("o[0] = vk::RawBufferLoad<uint>();"), "E0311");
    fails_with(&wrap("vk::RawBufferStore<uint>(A);"), "E0311");
}
