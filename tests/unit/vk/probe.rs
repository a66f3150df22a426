//! A compute shader built into the test binary as SPIR-V words, so that
//! the NVIDIA machine can check its Vulkan set-up without spirv-tools
//! (`cargo run --example vk_probe`). `selftest::probe_words_match_assembly`
//! keeps the words equal to what spirv-as makes of [`DOUBLE_ASM`].

use super::{Resource, Runner, f32_bytes, to_f32s};

/// SPIR-V assembly (target env `vulkan1.1`, SPIR-V 1.3) of the probe.
pub const DOUBLE_ASM: &str = r#"; out[i] = in[i] * 2.0, one invocation per element, 64 per workgroup.
; in: set 0 binding 0, out: set 0 binding 1 (float arrays).
               OpCapability Shader
               OpMemoryModel Logical GLSL450
               OpEntryPoint GLCompute %main "main" %gid
               OpExecutionMode %main LocalSize 64 1 1
               OpDecorate %gid BuiltIn GlobalInvocationId
               OpDecorate %floats ArrayStride 4
               OpMemberDecorate %Floats 0 Offset 0
               OpDecorate %Floats Block
               OpDecorate %in DescriptorSet 0
               OpDecorate %in Binding 0
               OpDecorate %in NonWritable
               OpDecorate %out DescriptorSet 0
               OpDecorate %out Binding 1
       %void = OpTypeVoid
    %fn_void = OpTypeFunction %void
      %float = OpTypeFloat 32
       %uint = OpTypeInt 32 0
     %v3uint = OpTypeVector %uint 3
     %floats = OpTypeRuntimeArray %float
     %Floats = OpTypeStruct %floats
 %ptr_Floats = OpTypePointer StorageBuffer %Floats
  %ptr_float = OpTypePointer StorageBuffer %float
 %ptr_v3uint = OpTypePointer Input %v3uint
        %gid = OpVariable %ptr_v3uint Input
         %in = OpVariable %ptr_Floats StorageBuffer
        %out = OpVariable %ptr_Floats StorageBuffer
     %uint_0 = OpConstant %uint 0
    %float_2 = OpConstant %float 2
       %main = OpFunction %void None %fn_void
      %entry = OpLabel
         %id = OpLoad %v3uint %gid
          %i = OpCompositeExtract %uint %id 0
      %p_src = OpAccessChain %ptr_float %in %uint_0 %i
          %x = OpLoad %float %p_src
          %y = OpFMul %float %x %float_2
      %p_dst = OpAccessChain %ptr_float %out %uint_0 %i
               OpStore %p_dst %y
               OpReturn
               OpFunctionEnd
"#;

/// `spirv-as --target-env vulkan1.1` of [`DOUBLE_ASM`].
pub const DOUBLE_WORDS: [u32; 153] = [
    0x07230203, 0x00010300, 0x00070000, 0x00000018, 0x00000000, 0x00020011, 0x00000001, 0x0003000e,
    0x00000000, 0x00000001, 0x0006000f, 0x00000005, 0x00000001, 0x6e69616d, 0x00000000, 0x00000002,
    0x00060010, 0x00000001, 0x00000011, 0x00000040, 0x00000001, 0x00000001, 0x00040047, 0x00000002,
    0x0000000b, 0x0000001c, 0x00040047, 0x00000003, 0x00000006, 0x00000004, 0x00050048, 0x00000004,
    0x00000000, 0x00000023, 0x00000000, 0x00030047, 0x00000004, 0x00000002, 0x00040047, 0x00000005,
    0x00000022, 0x00000000, 0x00040047, 0x00000005, 0x00000021, 0x00000000, 0x00030047, 0x00000005,
    0x00000018, 0x00040047, 0x00000006, 0x00000022, 0x00000000, 0x00040047, 0x00000006, 0x00000021,
    0x00000001, 0x00020013, 0x00000007, 0x00030021, 0x00000008, 0x00000007, 0x00030016, 0x00000009,
    0x00000020, 0x00040015, 0x0000000a, 0x00000020, 0x00000000, 0x00040017, 0x0000000b, 0x0000000a,
    0x00000003, 0x0003001d, 0x00000003, 0x00000009, 0x0003001e, 0x00000004, 0x00000003, 0x00040020,
    0x0000000c, 0x0000000c, 0x00000004, 0x00040020, 0x0000000d, 0x0000000c, 0x00000009, 0x00040020,
    0x0000000e, 0x00000001, 0x0000000b, 0x0004003b, 0x0000000e, 0x00000002, 0x00000001, 0x0004003b,
    0x0000000c, 0x00000005, 0x0000000c, 0x0004003b, 0x0000000c, 0x00000006, 0x0000000c, 0x0004002b,
    0x0000000a, 0x0000000f, 0x00000000, 0x0004002b, 0x00000009, 0x00000010, 0x40000000, 0x00050036,
    0x00000007, 0x00000001, 0x00000000, 0x00000008, 0x000200f8, 0x00000011, 0x0004003d, 0x0000000b,
    0x00000012, 0x00000002, 0x00050051, 0x0000000a, 0x00000013, 0x00000012, 0x00000000, 0x00060041,
    0x0000000d, 0x00000014, 0x00000005, 0x0000000f, 0x00000013, 0x0004003d, 0x00000009, 0x00000015,
    0x00000014, 0x00050085, 0x00000009, 0x00000016, 0x00000015, 0x00000010, 0x00060041, 0x0000000d,
    0x00000017, 0x00000006, 0x0000000f, 0x00000013, 0x0003003e, 0x00000017, 0x00000016, 0x000100fd,
    0x00010038,
];

/// Runs the probe over `n` elements (a multiple of 64) and checks every
/// result; returns how many elements were checked.
pub fn run_double(runner: &Runner, n: usize) -> Result<usize, String> {
    if n == 0 || !n.is_multiple_of(64) {
        return Err(format!(
            "{n} is not a positive multiple of the workgroup size 64"
        ));
    }
    let input: Vec<f32> = (0..n).map(|i| i as f32 * 0.75 - 100.0).collect();
    let mut resources = [
        Resource::storage(0, 0, f32_bytes(&input)),
        // NaN everywhere: an element the shader did not write stays NaN.
        Resource::storage(0, 1, f32_bytes(&vec![f32::NAN; n])),
    ];
    runner.run_compute(
        &DOUBLE_WORDS,
        "main",
        &mut resources,
        &[],
        [(n / 64) as u32, 1, 1],
    )?;
    let output = to_f32s(&resources[1].data);
    for (i, (x, y)) in input.iter().zip(&output).enumerate() {
        if y.to_bits() != (x * 2.0).to_bits() {
            return Err(format!("element {i}: {x} * 2 gave {y}"));
        }
    }
    // The input buffer comes back too, unchanged.
    if to_f32s(&resources[0].data) != input {
        return Err("the input buffer changed".into());
    }
    Ok(n)
}
