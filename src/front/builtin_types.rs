//! The names of HLSL's built-in types, as data.
//!
//! The parser's token adapter classifies an identifier as a type name when it
//! is one of these (or a user type): C-style casts `(float3)x`, template
//! arguments `Texture2D<float4>` and declarations `float4 x;` cannot be told
//! apart from expressions otherwise (the "lexer hack", see DESIGN.md).
//!
//! Scalars come with their vector (`float4`) and matrix (`float3x4`) forms,
//! generated from [`SCALARS`]. Object types (textures, buffers, samplers,
//! patches, streams, ray tracing and work-graph records) are listed in
//! [`OBJECTS`]. Types that live in the `vk::` namespace (DXC's SPIR-V
//! extensions) are in [`VK_TYPES`] and only classified after `vk::`.

use crate::intern::Symbol;
use rustc_hash::FxHashSet;
use std::sync::OnceLock;

/// Scalar type spellings that also have vector `T1`..`T4` and matrix
/// `T1x1`..`T4x4` forms.
pub const SCALARS: &[&str] = &[
    "bool",
    "int",
    "uint",
    "dword",
    "half",
    "float",
    "double",
    "min16float",
    "min10float",
    "min16int",
    "min12int",
    "min16uint",
    "int16_t",
    "uint16_t",
    "int32_t",
    "uint32_t",
    "int64_t",
    "uint64_t",
    "float16_t",
    "float32_t",
    "float64_t",
];

/// Type names without vector/matrix forms.
pub const OTHER_TYPES: &[&str] = &[
    "void",
    "vector",
    "matrix",
    "string",
    // HLSL 2021: the type of the initialiser.
    "auto",
    // SM 6.6 packed 8-bit vectors.
    "uint8_t4_packed",
    "int8_t4_packed",
];

/// HLSL object types (resources, samplers, patches, streams, ray tracing,
/// work graphs) and the effects-era sampler/texture keywords.
pub const OBJECTS: &[&str] = &[
    // Textures
    "Texture1D",
    "Texture1DArray",
    "Texture2D",
    "Texture2DArray",
    "Texture2DMS",
    "Texture2DMSArray",
    "Texture3D",
    "TextureCube",
    "TextureCubeArray",
    "RWTexture1D",
    "RWTexture1DArray",
    "RWTexture2D",
    "RWTexture2DArray",
    "RWTexture2DMS",
    "RWTexture2DMSArray",
    "RWTexture3D",
    "RasterizerOrderedTexture1D",
    "RasterizerOrderedTexture1DArray",
    "RasterizerOrderedTexture2D",
    "RasterizerOrderedTexture2DArray",
    "RasterizerOrderedTexture3D",
    "FeedbackTexture2D",
    "FeedbackTexture2DArray",
    "SAMPLER_FEEDBACK_MIN_MIP",
    "SAMPLER_FEEDBACK_MIP_REGION_USED",
    // Buffers
    "Buffer",
    "RWBuffer",
    "RasterizerOrderedBuffer",
    "StructuredBuffer",
    "RWStructuredBuffer",
    "RasterizerOrderedStructuredBuffer",
    "AppendStructuredBuffer",
    "ConsumeStructuredBuffer",
    "ByteAddressBuffer",
    "RWByteAddressBuffer",
    "RasterizerOrderedByteAddressBuffer",
    "ConstantBuffer",
    "TextureBuffer",
    // Samplers (and the effects-era spellings)
    "SamplerState",
    "SamplerComparisonState",
    "sampler",
    "sampler1D",
    "sampler2D",
    "sampler3D",
    "samplerCUBE",
    "sampler_state",
    "texture",
    "texture1D",
    "texture2D",
    "texture3D",
    "textureCUBE",
    // Tessellation and geometry
    "InputPatch",
    "OutputPatch",
    "PointStream",
    "LineStream",
    "TriangleStream",
    // Ray tracing
    "RaytracingAccelerationStructure",
    "RayDesc",
    "RayQuery",
    "BuiltInTriangleIntersectionAttributes",
    // Input attachments (Vulkan subpass inputs)
    "SubpassInput",
    "SubpassInputMS",
    // Work graphs
    "DispatchNodeInputRecord",
    "RWDispatchNodeInputRecord",
    "GroupNodeInputRecords",
    "RWGroupNodeInputRecords",
    "ThreadNodeInputRecord",
    "RWThreadNodeInputRecord",
    "EmptyNodeInput",
    "NodeOutput",
    "NodeOutputArray",
    "EmptyNodeOutput",
    "EmptyNodeOutputArray",
    "GroupNodeOutputRecords",
    "ThreadNodeOutputRecords",
];

/// Types spelled `vk::NAME` (DXC's Vulkan-specific extensions).
pub const VK_TYPES: &[&str] = &[
    "SpirvType",
    "SpirvOpaqueType",
    "BufferPointer",
    "Literal",
    "integral_constant",
    "WorkgroupSpirvPointer",
    "ext_type",
    "ext_result_id",
    "SampledTexture1D",
    "SampledTexture1DArray",
    "SampledTexture2D",
    "SampledTexture2DArray",
    "SampledTexture2DMS",
    "SampledTexture2DMSArray",
    "SampledTexture3D",
    "SampledTextureCUBE",
    "SampledTextureCUBEArray",
    // vk::khr::
    "CooperativeMatrix",
    "CooperativeMatrixA",
    "CooperativeMatrixB",
    "CooperativeMatrixAccumulator",
    // vk::util::
    "ConversionSelector",
];

/// Namespaces that exist without a declaration: `vk` (and its `khr` and
/// `util` sub-namespaces) and `dx`.
pub const BUILTIN_NAMESPACES: &[&str] = &["vk", "dx"];

/// Sub-namespaces of `vk`.
pub const VK_NAMESPACES: &[&str] = &["khr", "util"];

struct Sets {
    types: FxHashSet<Symbol>,
    vk_types: FxHashSet<Symbol>,
    namespaces: FxHashSet<Symbol>,
    vk_namespaces: FxHashSet<Symbol>,
    vk: Symbol,
}

fn sets() -> &'static Sets {
    static SETS: OnceLock<Sets> = OnceLock::new();
    SETS.get_or_init(|| {
        let mut types = FxHashSet::default();
        for s in SCALARS {
            types.insert(Symbol::intern(s));
            for n in 1..=4 {
                types.insert(Symbol::intern(&format!("{s}{n}")));
                for m in 1..=4 {
                    types.insert(Symbol::intern(&format!("{s}{n}x{m}")));
                }
            }
        }
        for s in OTHER_TYPES.iter().chain(OBJECTS) {
            types.insert(Symbol::intern(s));
        }
        let set = |l: &[&str]| l.iter().map(|s| Symbol::intern(s)).collect();
        Sets {
            types,
            vk_types: set(VK_TYPES),
            namespaces: set(BUILTIN_NAMESPACES),
            vk_namespaces: set(VK_NAMESPACES),
            vk: Symbol::intern("vk"),
        }
    })
}

/// Is `name` a built-in type spelling (`float4`, `Texture2D`, `uint16_t3x2`)?
pub fn is_builtin_type(name: Symbol) -> bool {
    sets().types.contains(&name)
}

/// Is `name` a type of the `vk::` namespace (or one of its sub-namespaces)?
pub fn is_vk_type(name: Symbol) -> bool {
    sets().vk_types.contains(&name)
}

/// Is `name` a namespace that needs no declaration (`vk`, `dx`)?
pub fn is_builtin_namespace(name: Symbol) -> bool {
    sets().namespaces.contains(&name)
}

/// Is `name` a sub-namespace of `vk` (`khr`, `util`)?
pub fn is_vk_namespace(name: Symbol) -> bool {
    sets().vk_namespaces.contains(&name)
}

/// The symbol `vk`.
pub fn vk_symbol() -> Symbol {
    sets().vk
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scalar_vector_and_matrix_forms_are_types() {
        for name in [
            "float",
            "float4",
            "uint2x3",
            "min16float4",
            "float16_t2",
            "dword",
        ] {
            assert!(is_builtin_type(Symbol::intern(name)), "{name}");
        }
        for name in ["float5", "float4x5", "foo", "vk", "SpirvType"] {
            assert!(!is_builtin_type(Symbol::intern(name)), "{name}");
        }
        assert!(is_vk_type(Symbol::intern("SpirvType")));
        assert!(is_builtin_namespace(Symbol::intern("vk")));
    }
}
