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

use super::Symbol;

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

/// The built-in names in the order [`crate::intern`] interns them before
/// anything else, so that each class is a range of symbol indices and
/// classifying an identifier is a comparison, not a lookup. Building hash
/// sets of these names at start-up (formatting every vector and matrix
/// spelling) cost about 0.2 ms of every process, as much as lexing and
/// parsing a small shader.
///
/// Types first (the [`SCALARS`] with their vector and matrix forms, then
/// [`OTHER_TYPES`] and [`OBJECTS`]), then [`VK_TYPES`], then `vk`, `dx`,
/// then [`VK_NAMESPACES`]. Calls `f` with each name's text.
pub(crate) fn for_each_preinterned(mut f: impl FnMut(&str)) {
    let mut buf = String::with_capacity(32);
    for s in SCALARS {
        f(s);
        for n in 1..=4u8 {
            buf.clear();
            buf.push_str(s);
            buf.push(char::from(b'0' + n));
            f(&buf);
            for m in 1..=4u8 {
                buf.truncate(s.len() + 1);
                buf.push('x');
                buf.push(char::from(b'0' + m));
                f(&buf);
            }
        }
    }
    for s in OTHER_TYPES.iter().chain(OBJECTS).chain(VK_TYPES) {
        f(s);
    }
    for s in BUILTIN_NAMESPACES.iter().chain(VK_NAMESPACES) {
        f(s);
    }
}

/// How many names each class of [`for_each_preinterned`] has: the end of
/// each class's index range.
const TYPES_END: u32 = (SCALARS.len() * 21 + OTHER_TYPES.len() + OBJECTS.len()) as u32;
const VK_TYPES_END: u32 = TYPES_END + VK_TYPES.len() as u32;
const NAMESPACES_END: u32 = VK_TYPES_END + BUILTIN_NAMESPACES.len() as u32;
const VK_NAMESPACES_END: u32 = NAMESPACES_END + VK_NAMESPACES.len() as u32;

// A `Symbol` exists only once the interner's table does, and the table is
// created with the pre-interned names: no check is needed below.

/// Is `name` a built-in type spelling (`float4`, `Texture2D`, `uint16_t3x2`)?
pub fn is_builtin_type(name: Symbol) -> bool {
    name.index() < TYPES_END
}

/// Is `name` a type of the `vk::` namespace (or one of its sub-namespaces)?
pub fn is_vk_type(name: Symbol) -> bool {
    (TYPES_END..VK_TYPES_END).contains(&name.index())
}

/// Is `name` a namespace that needs no declaration (`vk`, `dx`)?
pub fn is_builtin_namespace(name: Symbol) -> bool {
    (VK_TYPES_END..NAMESPACES_END).contains(&name.index())
}

/// Is `name` a sub-namespace of `vk` (`khr`, `util`)?
pub fn is_vk_namespace(name: Symbol) -> bool {
    (NAMESPACES_END..VK_NAMESPACES_END).contains(&name.index())
}

/// The symbol `vk` (the first of [`BUILTIN_NAMESPACES`]).
pub fn vk_symbol() -> Symbol {
    Symbol::preinterned(VK_TYPES_END)
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
        assert!(is_vk_type(Symbol::intern("ConversionSelector")));
        assert!(!is_vk_type(Symbol::intern("float4")));
        assert!(is_builtin_namespace(Symbol::intern("vk")));
        assert!(is_builtin_namespace(Symbol::intern("dx")));
        assert!(!is_builtin_namespace(Symbol::intern("khr")));
        assert!(is_vk_namespace(Symbol::intern("khr")));
        assert!(is_vk_namespace(Symbol::intern("util")));
        assert!(!is_vk_namespace(Symbol::intern("vk")));
        assert_eq!(vk_symbol().as_str(), "vk");
    }

    /// The ranges rest on every pre-interned name being new when interned.
    #[test]
    fn preinterned_names_are_distinct() {
        let mut seen = std::collections::HashSet::new();
        let mut n = 0;
        for_each_preinterned(|s| {
            assert!(seen.insert(s.to_string()), "{s} twice");
            n += 1;
        });
        assert_eq!(n, VK_NAMESPACES_END);
        assert!(is_builtin_type(Symbol::intern("float4x4")));
        assert!(is_builtin_type(Symbol::intern("GroupNodeOutputRecords")));
    }
}
