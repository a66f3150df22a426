//! Tests of the runner itself, with compute shaders written here in SPIR-V
//! assembly (assembled by spirv-as, validated by spirv-val before running).

use super::probe::{DOUBLE_ASM, DOUBLE_WORDS, run_double};
use super::*;
use crate::tests::common::{spirv_as, spirv_dis, spirv_val};
use ash::vk;

/// Assembles and validates a test shader.
fn module(text: &str, env: &str) -> Vec<u32> {
    let words = spirv_as(text, env);
    if let Err(e) = spirv_val(&words, env) {
        panic!("test shader is invalid: {e}");
    }
    words
}

/// A private runner, for tests that count objects or break the device.
fn private_runner() -> Runner {
    Runner::new().unwrap_or_else(|e| {
        panic!("Vulkan is not available: {e}\nTo run the Vulkan tests, {INSTALL_HINT}.")
    })
}

/// Prints what the tests run on (`--nocapture` shows it) and checks the
/// device selection rule.
#[test]
fn device_report() {
    let runner = shared();
    let info = runner.info();
    println!("{}", info.report());
    match std::env::var(DEVICE_VAR).ok().filter(|s| !s.is_empty()) {
        Some(wanted) => assert!(
            info.name.to_lowercase().contains(&wanted.to_lowercase()),
            "{DEVICE_VAR}={wanted} but the runner chose {}",
            info.name
        ),
        None => {
            if info.all_devices.iter().any(|d| d.contains("llvmpipe")) {
                assert!(
                    info.is_lavapipe(),
                    "lavapipe is present but {} was chosen",
                    info.name
                );
            }
        }
    }
    assert!(info.api_version >= vk::API_VERSION_1_2);
    assert!(info.subgroup_size() >= 1);
    assert!(info.max_spirv_version >= (1, 5));
}

#[test]
fn probe_words_match_assembly() {
    assert_eq!(spirv_as(DOUBLE_ASM, "vulkan1.1"), DOUBLE_WORDS.to_vec());
    spirv_val(&DOUBLE_WORDS, "vulkan1.1").unwrap();
}

/// out[i] = in[i] * 2 over 1024 floats in storage buffers.
#[test]
fn doubles_1024_floats() {
    assert_eq!(run_double(&shared(), 1024), Ok(1024));
}

#[test]
fn spirv_tools_helpers() {
    let words = module(DOUBLE_ASM, "vulkan1.1");
    let text = spirv_dis(&words);
    // Friendly names come from the types and built-ins (there is no OpName).
    assert!(
        text.contains("OpEntryPoint GLCompute %1 \"main\" %gl_GlobalInvocationID"),
        "{text}"
    );
    assert!(
        text.contains("OpExecutionMode %1 LocalSize 64 1 1"),
        "{text}"
    );
    assert!(text.contains("OpFMul %float"), "{text}");
    // Assembles, but is invalid: an integer constant used as a float operand.
    let bad = DOUBLE_ASM.replace(
        "%y = OpFMul %float %x %float_2",
        "%y = OpFMul %float %x %uint_0",
    );
    let err = spirv_val(&spirv_as(&bad, "vulkan1.1"), "vulkan1.1").unwrap_err();
    assert!(err.contains("OpFMul"), "{err}");
}

/// A cbuffer-style uniform block and push constants, with a branch on a
/// uniform value: out[i] = i < count ? in[i] * scale + bias : fill.
const UNIFORM_PUSH_ASM: &str = r#"
               OpCapability Shader
               OpMemoryModel Logical GLSL450
               OpEntryPoint GLCompute %main "main" %gid
               OpExecutionMode %main LocalSize 32 1 1
               OpDecorate %gid BuiltIn GlobalInvocationId
               OpDecorate %floats ArrayStride 4
               OpMemberDecorate %Floats 0 Offset 0
               OpDecorate %Floats Block
               OpMemberDecorate %Params 0 Offset 0
               OpMemberDecorate %Params 1 Offset 4
               OpDecorate %Params Block
               OpMemberDecorate %Push 0 Offset 0
               OpMemberDecorate %Push 1 Offset 4
               OpDecorate %Push Block
               OpDecorate %in DescriptorSet 0
               OpDecorate %in Binding 0
               OpDecorate %out DescriptorSet 0
               OpDecorate %out Binding 1
               OpDecorate %params DescriptorSet 0
               OpDecorate %params Binding 2
       %void = OpTypeVoid
    %fn_void = OpTypeFunction %void
       %bool = OpTypeBool
      %float = OpTypeFloat 32
       %uint = OpTypeInt 32 0
        %int = OpTypeInt 32 1
     %v3uint = OpTypeVector %uint 3
     %floats = OpTypeRuntimeArray %float
     %Floats = OpTypeStruct %floats
     %Params = OpTypeStruct %float %uint
       %Push = OpTypeStruct %float %float
 %ptr_Floats = OpTypePointer StorageBuffer %Floats
  %ptr_float = OpTypePointer StorageBuffer %float
 %ptr_Params = OpTypePointer Uniform %Params
%ptr_u_float = OpTypePointer Uniform %float
 %ptr_u_uint = OpTypePointer Uniform %uint
   %ptr_Push = OpTypePointer PushConstant %Push
%ptr_p_float = OpTypePointer PushConstant %float
 %ptr_v3uint = OpTypePointer Input %v3uint
        %gid = OpVariable %ptr_v3uint Input
         %in = OpVariable %ptr_Floats StorageBuffer
        %out = OpVariable %ptr_Floats StorageBuffer
     %params = OpVariable %ptr_Params Uniform
       %push = OpVariable %ptr_Push PushConstant
      %int_0 = OpConstant %int 0
      %int_1 = OpConstant %int 1
       %main = OpFunction %void None %fn_void
      %entry = OpLabel
         %id = OpLoad %v3uint %gid
          %i = OpCompositeExtract %uint %id 0
    %p_count = OpAccessChain %ptr_u_uint %params %int_1
      %count = OpLoad %uint %p_count
     %inside = OpULessThan %bool %i %count
      %p_dst = OpAccessChain %ptr_float %out %int_0 %i
               OpSelectionMerge %merge None
               OpBranchConditional %inside %then %else
       %then = OpLabel
      %p_src = OpAccessChain %ptr_float %in %int_0 %i
          %x = OpLoad %float %p_src
    %p_scale = OpAccessChain %ptr_u_float %params %int_0
      %scale = OpLoad %float %p_scale
     %p_bias = OpAccessChain %ptr_p_float %push %int_0
       %bias = OpLoad %float %p_bias
     %scaled = OpFMul %float %x %scale
          %y = OpFAdd %float %scaled %bias
               OpStore %p_dst %y
               OpBranch %merge
       %else = OpLabel
     %p_fill = OpAccessChain %ptr_p_float %push %int_1
       %fill = OpLoad %float %p_fill
               OpStore %p_dst %fill
               OpBranch %merge
      %merge = OpLabel
               OpReturn
               OpFunctionEnd
"#;

#[test]
fn uniform_buffer_and_push_constants() {
    let words = module(UNIFORM_PUSH_ASM, "vulkan1.1");
    let n = 128;
    // Integers times 3 plus 0.25 are exact, fused or not (NVIDIA fuses).
    let input: Vec<f32> = (0..n).map(|i| i as f32 - 20.0).collect();
    let mut params = f32_bytes(&[3.0]);
    params.extend(u32_bytes(&[100]));
    let push = f32_bytes(&[0.25, -7.5]);
    let mut res = [
        Resource::storage(0, 0, f32_bytes(&input)),
        Resource::storage(0, 1, vec![0; 4 * n]),
        Resource::uniform(0, 2, params),
    ];
    shared()
        .run_compute(&words, "main", &mut res, &push, [4, 1, 1])
        .unwrap();
    let out = to_f32s(&res[1].data);
    for i in 0..n {
        let want = if i < 100 { input[i] * 3.0 + 0.25 } else { -7.5 };
        assert_eq!(out[i], want, "element {i}");
    }
}

/// Buffers in sets 0 and 2 (set 1 unused: it gets an empty layout), in a
/// SPIR-V 1.6 module whose entry point lists every global it uses:
/// out[i] = a[i] + 2 * b[i].
const TWO_SETS_ASM: &str = r#"
               OpCapability Shader
               OpMemoryModel Logical GLSL450
               OpEntryPoint GLCompute %main "main" %gid %a %b %out
               OpExecutionMode %main LocalSize 64 1 1
               OpDecorate %gid BuiltIn GlobalInvocationId
               OpDecorate %uints ArrayStride 4
               OpMemberDecorate %Uints 0 Offset 0
               OpDecorate %Uints Block
               OpDecorate %out DescriptorSet 0
               OpDecorate %out Binding 0
               OpDecorate %a DescriptorSet 0
               OpDecorate %a Binding 1
               OpDecorate %a NonWritable
               OpDecorate %b DescriptorSet 2
               OpDecorate %b Binding 0
               OpDecorate %b NonWritable
       %void = OpTypeVoid
    %fn_void = OpTypeFunction %void
       %uint = OpTypeInt 32 0
     %v3uint = OpTypeVector %uint 3
      %uints = OpTypeRuntimeArray %uint
      %Uints = OpTypeStruct %uints
  %ptr_Uints = OpTypePointer StorageBuffer %Uints
   %ptr_uint = OpTypePointer StorageBuffer %uint
 %ptr_v3uint = OpTypePointer Input %v3uint
        %gid = OpVariable %ptr_v3uint Input
          %a = OpVariable %ptr_Uints StorageBuffer
          %b = OpVariable %ptr_Uints StorageBuffer
        %out = OpVariable %ptr_Uints StorageBuffer
     %uint_0 = OpConstant %uint 0
     %uint_1 = OpConstant %uint 1
       %main = OpFunction %void None %fn_void
      %entry = OpLabel
         %id = OpLoad %v3uint %gid
          %i = OpCompositeExtract %uint %id 0
        %p_a = OpAccessChain %ptr_uint %a %uint_0 %i
         %va = OpLoad %uint %p_a
        %p_b = OpAccessChain %ptr_uint %b %uint_0 %i
         %vb = OpLoad %uint %p_b
        %vb2 = OpShiftLeftLogical %uint %vb %uint_1
        %sum = OpIAdd %uint %va %vb2
      %p_out = OpAccessChain %ptr_uint %out %uint_0 %i
               OpStore %p_out %sum
               OpReturn
               OpFunctionEnd
"#;

#[test]
fn two_descriptor_sets() {
    let words = module(TWO_SETS_ASM, "vulkan1.3");
    let n = 256u32;
    let a: Vec<u32> = (0..n).map(|i| i * 1000).collect();
    let b: Vec<u32> = (0..n).map(|i| i + 7).collect();
    // Given in an order unlike the sets', to check placement by (set, binding).
    let mut res = [
        Resource::storage(2, 0, u32_bytes(&b)),
        Resource::storage(0, 0, vec![0xff; 4 * n as usize]),
        Resource::storage(0, 1, u32_bytes(&a)),
    ];
    shared()
        .run_compute(&words, "main", &mut res, &[], [n / 64, 1, 1])
        .unwrap();
    let out = to_u32s(&res[1].data);
    let want: Vec<u32> = (0..n).map(|i| i * 1000 + 2 * (i + 7)).collect();
    assert_eq!(out, want);
}

/// A storage image, a sampled image with a separate sampler, and storage
/// and uniform texel buffers, on an 8x8 grid:
/// img = 2 * img + sample(tex, centre of texel); tbuf[i] += ubuf[i].
const IMAGES_ASM: &str = r#"
               OpCapability Shader
               OpCapability ImageBuffer
               OpCapability SampledBuffer
               OpMemoryModel Logical GLSL450
               OpEntryPoint GLCompute %main "main" %gid
               OpExecutionMode %main LocalSize 4 4 1
               OpDecorate %gid BuiltIn GlobalInvocationId
               OpDecorate %img DescriptorSet 0
               OpDecorate %img Binding 0
               OpDecorate %tex DescriptorSet 0
               OpDecorate %tex Binding 1
               OpDecorate %smp DescriptorSet 0
               OpDecorate %smp Binding 2
               OpDecorate %tbuf DescriptorSet 0
               OpDecorate %tbuf Binding 3
               OpDecorate %ubuf DescriptorSet 0
               OpDecorate %ubuf Binding 4
       %void = OpTypeVoid
    %fn_void = OpTypeFunction %void
      %float = OpTypeFloat 32
       %uint = OpTypeInt 32 0
        %int = OpTypeInt 32 1
     %v2int = OpTypeVector %int 2
   %v2float = OpTypeVector %float 2
   %v4float = OpTypeVector %float 4
     %v3uint = OpTypeVector %uint 3
     %v4uint = OpTypeVector %uint 4
   %StorageF = OpTypeImage %float 2D 0 0 0 2 R32f
   %SampledF = OpTypeImage %float 2D 0 0 0 1 Unknown
    %Sampler = OpTypeSampler
   %Combined = OpTypeSampledImage %SampledF
    %TexelRW = OpTypeImage %uint Buffer 0 0 0 2 R32ui
     %TexelR = OpTypeImage %uint Buffer 0 0 0 1 R32ui
%ptr_StorageF = OpTypePointer UniformConstant %StorageF
%ptr_SampledF = OpTypePointer UniformConstant %SampledF
%ptr_Sampler = OpTypePointer UniformConstant %Sampler
%ptr_TexelRW = OpTypePointer UniformConstant %TexelRW
 %ptr_TexelR = OpTypePointer UniformConstant %TexelR
 %ptr_v3uint = OpTypePointer Input %v3uint
        %gid = OpVariable %ptr_v3uint Input
        %img = OpVariable %ptr_StorageF UniformConstant
        %tex = OpVariable %ptr_SampledF UniformConstant
        %smp = OpVariable %ptr_Sampler UniformConstant
       %tbuf = OpVariable %ptr_TexelRW UniformConstant
       %ubuf = OpVariable %ptr_TexelR UniformConstant
    %float_0 = OpConstant %float 0
  %float_0_5 = OpConstant %float 0.5
%float_0_125 = OpConstant %float 0.125
    %float_2 = OpConstant %float 2
     %uint_8 = OpConstant %uint 8
       %main = OpFunction %void None %fn_void
      %entry = OpLabel
         %id = OpLoad %v3uint %gid
          %x = OpCompositeExtract %uint %id 0
          %y = OpCompositeExtract %uint %id 1
         %xi = OpBitcast %int %x
         %yi = OpBitcast %int %y
      %coord = OpCompositeConstruct %v2int %xi %yi
     %image = OpLoad %StorageF %img
        %old = OpImageRead %v4float %image %coord
         %v = OpCompositeExtract %float %old 0
         %xf = OpConvertUToF %float %x
         %yf = OpConvertUToF %float %y
        %xc = OpFAdd %float %xf %float_0_5
        %yc = OpFAdd %float %yf %float_0_5
         %u = OpFMul %float %xc %float_0_125
        %vv = OpFMul %float %yc %float_0_125
        %uv = OpCompositeConstruct %v2float %u %vv
    %texture = OpLoad %SampledF %tex
    %sampler = OpLoad %Sampler %smp
   %combined = OpSampledImage %Combined %texture %sampler
     %sample = OpImageSampleExplicitLod %v4float %combined %uv Lod %float_0
          %t = OpCompositeExtract %float %sample 0
         %v2 = OpFMul %float %v %float_2
          %r = OpFAdd %float %v2 %t
         %rv = OpCompositeConstruct %v4float %r %r %r %r
               OpImageWrite %image %coord %rv
        %row = OpIMul %uint %y %uint_8
         %ix = OpIAdd %uint %row %x
        %ixi = OpBitcast %int %ix
     %ubuf_v = OpLoad %TexelR %ubuf
        %uf4 = OpImageFetch %v4uint %ubuf_v %ixi
         %uu = OpCompositeExtract %uint %uf4 0
     %tbuf_v = OpLoad %TexelRW %tbuf
        %tr4 = OpImageRead %v4uint %tbuf_v %ixi
         %tt = OpCompositeExtract %uint %tr4 0
        %sum = OpIAdd %uint %uu %tt
        %sv4 = OpCompositeConstruct %v4uint %sum %sum %sum %sum
               OpImageWrite %tbuf_v %ixi %sv4
               OpReturn
               OpFunctionEnd
"#;

#[test]
fn images_samplers_and_texel_buffers() {
    let words = module(IMAGES_ASM, "vulkan1.1");
    let n = 64usize;
    let img: Vec<f32> = (0..n).map(|i| i as f32 * 0.5).collect();
    let tex: Vec<f32> = (0..n).map(|i| 100.0 + i as f32).collect();
    let ubuf: Vec<u32> = (0..n as u32).map(|i| i * 3).collect();
    let tbuf: Vec<u32> = (0..n as u32).map(|i| i * 1000).collect();
    let r32f = |w, h| ImageDesc::d2(vk::Format::R32_SFLOAT, w, h);
    let mut res = [
        Resource::storage_image(0, 0, r32f(8, 8), f32_bytes(&img)),
        Resource::sampled_image(0, 1, r32f(8, 8), f32_bytes(&tex)),
        Resource::sampler(0, 2, SamplerDesc::default()),
        Resource::storage_texel(0, 3, vk::Format::R32_UINT, u32_bytes(&tbuf)),
        Resource::uniform_texel(0, 4, vk::Format::R32_UINT, u32_bytes(&ubuf)),
    ];
    shared()
        .run_compute(&words, "main", &mut res, &[], [2, 2, 1])
        .unwrap();
    let img_out = to_f32s(&res[0].data);
    let want_img: Vec<f32> = (0..n).map(|i| 100.0 + 2.0 * i as f32).collect();
    assert_eq!(img_out, want_img);
    let want_tbuf: Vec<u32> = (0..n as u32).map(|i| i * 1003).collect();
    assert_eq!(to_u32s(&res[3].data), want_tbuf);
    // Inputs only: the sampled image is not read back.
    assert_eq!(to_f32s(&res[1].data), tex);
}

/// A combined image sampler over a 4x4 image with 3 mip levels: each
/// invocation k samples the centre at LOD k and stores it.
const MIPS_ASM: &str = r#"
               OpCapability Shader
               OpMemoryModel Logical GLSL450
               OpEntryPoint GLCompute %main "main" %gid
               OpExecutionMode %main LocalSize 3 1 1
               OpDecorate %gid BuiltIn GlobalInvocationId
               OpDecorate %floats ArrayStride 4
               OpMemberDecorate %Floats 0 Offset 0
               OpDecorate %Floats Block
               OpDecorate %tex DescriptorSet 0
               OpDecorate %tex Binding 0
               OpDecorate %out DescriptorSet 0
               OpDecorate %out Binding 1
       %void = OpTypeVoid
    %fn_void = OpTypeFunction %void
      %float = OpTypeFloat 32
       %uint = OpTypeInt 32 0
     %v3uint = OpTypeVector %uint 3
   %v2float = OpTypeVector %float 2
   %v4float = OpTypeVector %float 4
     %floats = OpTypeRuntimeArray %float
     %Floats = OpTypeStruct %floats
      %Image = OpTypeImage %float 2D 0 0 0 1 Unknown
   %Combined = OpTypeSampledImage %Image
%ptr_Combined = OpTypePointer UniformConstant %Combined
 %ptr_Floats = OpTypePointer StorageBuffer %Floats
  %ptr_float = OpTypePointer StorageBuffer %float
 %ptr_v3uint = OpTypePointer Input %v3uint
        %gid = OpVariable %ptr_v3uint Input
        %tex = OpVariable %ptr_Combined UniformConstant
        %out = OpVariable %ptr_Floats StorageBuffer
     %uint_0 = OpConstant %uint 0
  %float_0_5 = OpConstant %float 0.5
     %centre = OpConstantComposite %v2float %float_0_5 %float_0_5
       %main = OpFunction %void None %fn_void
      %entry = OpLabel
         %id = OpLoad %v3uint %gid
          %k = OpCompositeExtract %uint %id 0
        %lod = OpConvertUToF %float %k
          %s = OpLoad %Combined %tex
          %c = OpImageSampleExplicitLod %v4float %s %centre Lod %lod
          %r = OpCompositeExtract %float %c 0
          %p = OpAccessChain %ptr_float %out %uint_0 %k
               OpStore %p %r
               OpReturn
               OpFunctionEnd
"#;

#[test]
fn combined_image_sampler_with_mips() {
    let words = module(MIPS_ASM, "vulkan1.1");
    let desc = ImageDesc {
        mip_levels: 3,
        ..ImageDesc::d2(vk::Format::R32_SFLOAT, 4, 4)
    };
    // Mip 0: 16 texels of 10, mip 1: 4 of 20, mip 2: one of 30.
    let mut texels = vec![10.0f32; 16];
    texels.extend([20.0; 4]);
    texels.push(30.0);
    assert_eq!(desc.total_bytes(), Some(4 * 21));
    let mut res = [
        Resource::combined(0, 0, desc, SamplerDesc::default(), f32_bytes(&texels)),
        Resource::storage(0, 1, vec![0; 12]),
    ];
    shared()
        .run_compute(&words, "main", &mut res, &[], [1, 1, 1])
        .unwrap();
    assert_eq!(to_f32s(&res[1].data), [10.0, 20.0, 30.0]);
}

/// A descriptor array of three storage buffers, indexed with constants,
/// and a specialization constant: out[i] = (a0[i] + a1[i] + a2[i]) * K,
/// K = SpecId 7, default 1.
const ARRAY_SPEC_ASM: &str = r#"
               OpCapability Shader
               OpMemoryModel Logical GLSL450
               OpEntryPoint GLCompute %main "main" %gid
               OpExecutionMode %main LocalSize 16 1 1
               OpDecorate %gid BuiltIn GlobalInvocationId
               OpDecorate %K SpecId 7
               OpDecorate %uints ArrayStride 4
               OpMemberDecorate %Uints 0 Offset 0
               OpDecorate %Uints Block
               OpDecorate %bufs DescriptorSet 0
               OpDecorate %bufs Binding 0
               OpDecorate %out DescriptorSet 0
               OpDecorate %out Binding 1
       %void = OpTypeVoid
    %fn_void = OpTypeFunction %void
       %uint = OpTypeInt 32 0
     %v3uint = OpTypeVector %uint 3
      %uints = OpTypeRuntimeArray %uint
      %Uints = OpTypeStruct %uints
     %uint_0 = OpConstant %uint 0
     %uint_1 = OpConstant %uint 1
     %uint_2 = OpConstant %uint 2
     %uint_3 = OpConstant %uint 3
          %K = OpSpecConstant %uint 1
  %Uints_x_3 = OpTypeArray %Uints %uint_3
%ptr_Uints_x_3 = OpTypePointer StorageBuffer %Uints_x_3
  %ptr_Uints = OpTypePointer StorageBuffer %Uints
   %ptr_uint = OpTypePointer StorageBuffer %uint
 %ptr_v3uint = OpTypePointer Input %v3uint
        %gid = OpVariable %ptr_v3uint Input
       %bufs = OpVariable %ptr_Uints_x_3 StorageBuffer
        %out = OpVariable %ptr_Uints StorageBuffer
       %main = OpFunction %void None %fn_void
      %entry = OpLabel
         %id = OpLoad %v3uint %gid
          %i = OpCompositeExtract %uint %id 0
         %p0 = OpAccessChain %ptr_uint %bufs %uint_0 %uint_0 %i
         %p1 = OpAccessChain %ptr_uint %bufs %uint_1 %uint_0 %i
         %p2 = OpAccessChain %ptr_uint %bufs %uint_2 %uint_0 %i
         %v0 = OpLoad %uint %p0
         %v1 = OpLoad %uint %p1
         %v2 = OpLoad %uint %p2
        %s01 = OpIAdd %uint %v0 %v1
          %s = OpIAdd %uint %s01 %v2
          %r = OpIMul %uint %s %K
         %po = OpAccessChain %ptr_uint %out %uint_0 %i
               OpStore %po %r
               OpReturn
               OpFunctionEnd
"#;

#[test]
fn descriptor_array_and_specialization() {
    let words = module(ARRAY_SPEC_ASM, "vulkan1.1");
    let n = 32u32;
    let buf = |k: u32| u32_bytes(&(0..n).map(|i| i + 100 * k).collect::<Vec<_>>());
    let mut res = vec![
        Resource::storage(0, 1, vec![0; 4 * n as usize]),
        Resource::storage(0, 0, buf(2)).at(2),
        Resource::storage(0, 0, buf(0)).at(0),
        Resource::storage(0, 0, buf(1)).at(1),
    ];
    let options = ComputeOptions {
        spec_constants: vec![(7, 5u32.to_le_bytes().to_vec())],
        ..Default::default()
    };
    shared()
        .run_compute_with(&words, "main", &mut res, &[], [2, 1, 1], &options)
        .unwrap();
    let want: Vec<u32> = (0..n).map(|i| (3 * i + 300) * 5).collect();
    assert_eq!(to_u32s(&res[0].data), want);
    // Without the specialization the default K = 1 applies.
    shared()
        .run_compute(&words, "main", &mut res, &[], [2, 1, 1])
        .unwrap();
    let want: Vec<u32> = (0..n).map(|i| 3 * i + 300).collect();
    assert_eq!(to_u32s(&res[0].data), want);
    // An array element left out is an error, not undefined behaviour.
    res.pop();
    let err = shared()
        .run_compute(&words, "main", &mut res, &[], [2, 1, 1])
        .unwrap_err();
    assert!(err.contains("element 1 was not given"), "{err}");
}

/// Hundreds of dispatches in one process leave no Vulkan object behind.
#[test]
fn many_dispatches_leak_nothing() {
    let runner = private_runner();
    for round in 0..200 {
        assert_eq!(
            run_double(&runner, 64 * (1 + round % 4)),
            Ok(64 * (1 + round % 4)),
            "round {round}"
        );
        assert_eq!(runner.live_objects(), 0, "objects left after round {round}");
    }
    assert!(runner.broken().is_none());
    drop(runner); // destroys the device and instance: must not crash
}

/// Bad requests come back as errors, and leave nothing behind.
#[test]
fn errors_are_reported() {
    let runner = private_runner();
    let good = || {
        [
            Resource::storage(0, 0, vec![0; 256]),
            Resource::storage(0, 1, vec![0; 256]),
        ]
    };
    let expect_err =
        |spirv: &[u32], entry: &str, res: &mut [Resource], push: &[u8], groups, needle: &str| {
            let err = runner
                .run_compute(spirv, entry, res, push, groups)
                .unwrap_err();
            assert!(err.contains(needle), "expected `{needle}` in: {err}");
            assert_eq!(runner.live_objects(), 0, "after: {err}");
        };
    let mut swapped = DOUBLE_WORDS;
    swapped[0] = swapped[0].swap_bytes();
    expect_err(&swapped, "main", &mut good(), &[], [1, 1, 1], "byte order");
    expect_err(&[0; 8], "main", &mut good(), &[], [1, 1, 1], "magic");
    expect_err(
        &DOUBLE_WORDS[..3],
        "main",
        &mut good(),
        &[],
        [1, 1, 1],
        "header",
    );
    // A header, then an OpCapability claiming 255 words.
    let truncated = [0x0723_0203, 0x0001_0300, 0, 10, 0, 0x00ff_0011, 1];
    expect_err(&truncated, "main", &mut good(), &[], [1, 1, 1], "malformed");
    expect_err(
        &DOUBLE_WORDS,
        "mian",
        &mut good(),
        &[],
        [1, 1, 1],
        "no GLCompute entry point named `mian`",
    );
    expect_err(
        &DOUBLE_WORDS,
        "main",
        &mut good()[..1],
        &[],
        [1, 1, 1],
        "no resource was given there",
    );
    let mut wrong_type = [
        Resource::storage(0, 0, vec![0; 256]),
        Resource::uniform(0, 1, vec![0; 256]),
    ];
    expect_err(
        &DOUBLE_WORDS,
        "main",
        &mut wrong_type,
        &[],
        [1, 1, 1],
        "the shader declares STORAGE_BUFFER",
    );
    let mut empty = [
        Resource::storage(0, 0, vec![0; 256]),
        Resource::storage(0, 1, vec![]),
    ];
    expect_err(
        &DOUBLE_WORDS,
        "main",
        &mut empty,
        &[],
        [1, 1, 1],
        "empty buffer",
    );
    let mut twice = [good()[0].clone(), good()[0].clone(), good()[1].clone()];
    expect_err(
        &DOUBLE_WORDS,
        "main",
        &mut twice,
        &[],
        [1, 1, 1],
        "given twice",
    );
    expect_err(
        &DOUBLE_WORDS,
        "main",
        &mut good(),
        &[1, 2, 3],
        [1, 1, 1],
        "multiple of 4",
    );
    expect_err(
        &DOUBLE_WORDS,
        "main",
        &mut good(),
        &[],
        [u32::MAX, 1, 1],
        "maxComputeWorkGroupCount",
    );
    let uniform_push = module(UNIFORM_PUSH_ASM, "vulkan1.1");
    let mut three = [
        good()[0].clone(),
        good()[1].clone(),
        Resource::uniform(0, 2, vec![0; 16]),
    ];
    expect_err(
        &uniform_push,
        "main",
        &mut three,
        &[],
        [1, 1, 1],
        "push-constant block",
    );
    let mut bad_image = [Resource::storage_image(
        0,
        0,
        ImageDesc::d2(vk::Format::R32_SFLOAT, 4, 4),
        vec![0; 60],
    )];
    expect_err(
        &DOUBLE_WORDS,
        "main",
        &mut bad_image,
        &[],
        [1, 1, 1],
        "holds 64",
    );
    // The runner still works afterwards.
    assert_eq!(run_double(&runner, 64), Ok(64));
    assert_eq!(runner.live_objects(), 0);
}

/// A loop of `n` (push constant) dependent multiplies per invocation, to
/// make a dispatch outlast a short timeout.
const SLOW_ASM: &str = r#"
               OpCapability Shader
               OpMemoryModel Logical GLSL450
               OpEntryPoint GLCompute %main "main" %gid
               OpExecutionMode %main LocalSize 64 1 1
               OpDecorate %gid BuiltIn GlobalInvocationId
               OpDecorate %floats ArrayStride 4
               OpMemberDecorate %Floats 0 Offset 0
               OpDecorate %Floats Block
               OpMemberDecorate %Push 0 Offset 0
               OpDecorate %Push Block
               OpDecorate %out DescriptorSet 0
               OpDecorate %out Binding 0
       %void = OpTypeVoid
    %fn_void = OpTypeFunction %void
       %bool = OpTypeBool
      %float = OpTypeFloat 32
       %uint = OpTypeInt 32 0
     %v3uint = OpTypeVector %uint 3
     %floats = OpTypeRuntimeArray %float
     %Floats = OpTypeStruct %floats
       %Push = OpTypeStruct %uint
 %ptr_Floats = OpTypePointer StorageBuffer %Floats
  %ptr_float = OpTypePointer StorageBuffer %float
   %ptr_Push = OpTypePointer PushConstant %Push
 %ptr_p_uint = OpTypePointer PushConstant %uint
 %ptr_v3uint = OpTypePointer Input %v3uint
        %gid = OpVariable %ptr_v3uint Input
        %out = OpVariable %ptr_Floats StorageBuffer
       %push = OpVariable %ptr_Push PushConstant
     %uint_0 = OpConstant %uint 0
     %uint_1 = OpConstant %uint 1
    %float_1 = OpConstant %float 1
   %float_k = OpConstant %float 1.0001
       %main = OpFunction %void None %fn_void
      %entry = OpLabel
         %id = OpLoad %v3uint %gid
          %i = OpCompositeExtract %uint %id 0
        %p_n = OpAccessChain %ptr_p_uint %push %uint_0
          %n = OpLoad %uint %p_n
               OpBranch %header
     %header = OpLabel
          %k = OpPhi %uint %uint_0 %entry %k1 %body
        %acc = OpPhi %float %float_1 %entry %acc1 %body
       %more = OpULessThan %bool %k %n
               OpLoopMerge %done %body None
               OpBranchConditional %more %body %done
       %body = OpLabel
       %acc1 = OpFMul %float %acc %float_k
         %k1 = OpIAdd %uint %k %uint_1
               OpBranch %header
       %done = OpLabel
          %p = OpAccessChain %ptr_float %out %uint_0 %i
               OpStore %p %acc
               OpReturn
               OpFunctionEnd
"#;

/// A dispatch that outlasts its timeout is an error, not a hang, and the
/// runner says it is unusable from then on.
#[test]
fn timeout_is_an_error() {
    let words = module(SLOW_ASM, "vulkan1.1");
    let runner = private_runner();
    // Short work first: the shader itself is fine.
    let mut res = [Resource::storage(0, 0, vec![0; 4 * 64])];
    runner
        .run_compute(&words, "main", &mut res, &u32_bytes(&[3]), [1, 1, 1])
        .unwrap();
    let want = 1.0001f32 * 1.0001 * 1.0001;
    assert!(to_f32s(&res[0].data).iter().all(|&v| v == want));
    // 256 workgroups x 64 invocations x 4M dependent multiplies (lavapipe
    // stops at 65535 iterations) take far longer than 1 ms anywhere.
    let options = ComputeOptions {
        timeout: std::time::Duration::from_millis(1),
        ..Default::default()
    };
    let mut res = [Resource::storage(0, 0, vec![0; 4 * 64 * 256])];
    let err = runner
        .run_compute_with(
            &words,
            "main",
            &mut res,
            &u32_bytes(&[4_000_000]),
            [256, 1, 1],
            &options,
        )
        .unwrap_err();
    assert!(err.contains("did not finish"), "{err}");
    assert!(runner.broken().is_some());
    let err = runner
        .run_compute(&words, "main", &mut res, &u32_bytes(&[3]), [1, 1, 1])
        .unwrap_err();
    assert!(err.contains("unusable"), "{err}");
}

/// SPIR-V 1.0 style storage buffers (Uniform storage class + BufferBlock),
/// what DXC emits for `-fspv-target-env=vulkan1.0`, are storage buffers too.
#[test]
fn buffer_block_storage_buffers() {
    let text = DOUBLE_ASM
        .replace("OpDecorate %Floats Block", "OpDecorate %Floats BufferBlock")
        .replace("StorageBuffer", "Uniform");
    let words = module(&text, "vulkan1.0");
    let input: Vec<f32> = (0..64).map(|i| i as f32).collect();
    let mut res = [
        Resource::storage(0, 0, f32_bytes(&input)),
        Resource::storage(0, 1, vec![0; 256]),
    ];
    shared()
        .run_compute(&words, "main", &mut res, &[], [1, 1, 1])
        .unwrap();
    let want: Vec<f32> = input.iter().map(|x| x * 2.0).collect();
    assert_eq!(to_f32s(&res[1].data), want);
    res[1] = Resource::uniform(0, 1, vec![0; 256]);
    let err = shared()
        .run_compute(&words, "main", &mut res, &[], [1, 1, 1])
        .unwrap_err();
    assert!(err.contains("declares STORAGE_BUFFER"), "{err}");
}
