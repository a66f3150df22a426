//! Forms seen in the shaders of engines that build with DXC, once refused
//! by hlslc (issue 24, "Real code still refused").

use super::*;

/// `const` after the type, as C++ allows it (`float const sigma`), on
/// locals, globals and parameters: the same as before the type.
#[test]
fn const_after_the_type_is_const() {
    let src = "RWStructuredBuffer<uint> o : register(u0);\n\
        static float const scale = 3.0f;\n\
        uint twice(uint const x) { return x * 2; }\n\
        [numthreads(1,1,1)] void main() {\n\
          float const sigma = 2.0f;\n\
          uint const n = 5, m = 7;\n\
          o[0] = uint(sigma * scale) + twice(n) + m;\n\
        }";
    assert_eq!(run_outputs(src, 1), vec![6 + 10 + 7]);
    // It is `const`: assigning to it is an error.
    fails_with(
        "RWStructuredBuffer<uint> o; [numthreads(1,1,1)] void main() { uint const n = 1; n = 2; o[0] = n; }",
        "E0408",
    );
}

/// A struct of resources built by member functions that return modified
/// copies, with one resource field assigned on one branch only: once the
/// calls are inlined each use names one buffer (the branch not taken
/// leaves the field unassigned, and the read of it is on the other
/// branch), as DXC's legalisation finds it.
#[test]
fn builder_methods_returning_copies_of_a_struct_of_buffers() {
    let src = "RWStructuredBuffer<float4> o : register(u0);\n\
        [[vk::binding(1)]] StructuredBuffer<float> depthBuf;\n\
        [[vk::binding(2)]] StructuredBuffer<float4> bounceBuf;\n\
        [[vk::binding(3)]] cbuffer C { uint n; uint c; };\n\
        struct Marcher {\n\
          uint steps; StructuredBuffer<float> depth; StructuredBuffer<float4> bounce;\n\
          static Marcher create(uint s) { Marcher m; m.steps = s; return m; }\n\
          Marcher withDepth(StructuredBuffer<float> t) { Marcher m = this; m.depth = t; return m; }\n\
          Marcher withBounce(StructuredBuffer<float4> t) { Marcher m = this; m.bounce = t; return m; }\n\
          float4 run(bool useBounce) {\n\
            float d = depth[0];\n\
            if (useBounce) return bounce[0] * d;\n\
            return d * steps;\n\
          }\n\
        };\n\
        [numthreads(1,1,1)] void main() {\n\
          Marcher m = Marcher::create(n).withDepth(depthBuf);\n\
          if (c) m = m.withBounce(bounceBuf);\n\
          o[0] = m.run(c != 0) * 2 + n;\n\
          o[1] = m.run(false);\n\
        }";
    let floats = |v: &[f32]| v.iter().flat_map(|f| f.to_le_bytes()).collect::<Vec<u8>>();
    let words = |v: &[u32]| v.iter().flat_map(|f| f.to_le_bytes()).collect::<Vec<u8>>();
    let r = run_on_vulkan(
        src,
        TargetEnv::Vulkan1_0,
        vec![
            Resource::storage(0, 0, vec![0u8; 32]),
            Resource::storage(0, 1, floats(&[0.5])),
            Resource::storage(0, 2, floats(&[1.0, 2.0, 3.0, 4.0])),
            Resource::uniform(0, 3, words(&[3, 1, 0, 0])),
        ],
    );
    let got: Vec<f32> = vk::to_u32s(&r[0].data).into_iter().map(f32::from_bits).collect();
    assert_eq!(got, vec![4.0, 5.0, 6.0, 7.0, 1.5, 1.5, 1.5, 1.5]);
}
