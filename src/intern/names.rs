//! The built-in names the interner numbers before any other, as data:
//! shared by the crate (`crate::intern::builtins`) and the build script,
//! which lays out their part of the interner's hash table at compile time
//! (see [`hash`]). Plain Rust with no dependencies, so both can include it.

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

/// The spelling of each token kind, in the order of the lexer's `Token`
/// enum (`crate::front::lexer`, whose tests check it): the kinds always
/// spelled the same (keywords, punctuation) thus have a symbol without
/// interning, which the lexer gives every such token. A kind spelled in
/// many ways (identifiers, literals) holds a placeholder instead: its name
/// after a NUL, which no token spells.
pub const TOKEN_SPELLINGS: &[&str] = &[
    "\n",
    "#",
    "##",
    "\0Ident",
    "\0IntLit",
    "\0FloatLit",
    "\0PpNumber",
    "\0StringLit",
    "\0CharLit",
    "static",
    "uniform",
    "extern",
    "groupshared",
    "globallycoherent",
    "precise",
    "nointerpolation",
    "noperspective",
    "linear",
    "centroid",
    "sample",
    "volatile",
    "shared",
    "const",
    "row_major",
    "column_major",
    "snorm",
    "unorm",
    "in",
    "out",
    "inout",
    "inline",
    "export",
    "unsigned",
    "signed",
    "point",
    "line",
    "triangle",
    "lineadj",
    "triangleadj",
    "vertices",
    "indices",
    "primitives",
    "payload",
    "struct",
    "class",
    "interface",
    "cbuffer",
    "tbuffer",
    "typedef",
    "enum",
    "namespace",
    "using",
    "template",
    "typename",
    "register",
    "packoffset",
    "sizeof",
    "true",
    "false",
    "this",
    "operator",
    "\0Technique",
    "pass",
    "if",
    "else",
    "for",
    "while",
    "do",
    "switch",
    "case",
    "default",
    "break",
    "continue",
    "discard",
    "return",
    "(",
    ")",
    "[",
    "]",
    "{",
    "}",
    ";",
    ",",
    ".",
    ":",
    "::",
    "?",
    "=",
    "+=",
    "-=",
    "*=",
    "/=",
    "%=",
    "&=",
    "|=",
    "^=",
    "<<=",
    ">>=",
    "||",
    "&&",
    "|",
    "^",
    "&",
    "==",
    "!=",
    "<",
    ">",
    "<=",
    ">=",
    "<<",
    ">>",
    "+",
    "-",
    "*",
    "/",
    "%",
    "!",
    "~",
    "++",
    "--",
    "->",
    "...",
    "\0Stray",
    "\0TypeName",
    "\0NamespaceName",
    "\0TemplateName",
    "\0Pragma",
    "\0Eof",
];

/// Names every compile's preprocessor interns: its operator `defined` and
/// `__VA_ARGS__`, its built-in macros, and the macros DXC predefines (those
/// `options::predefined` writes). Each is an identifier, so that a symbol of
/// this range needs no look at its text to be known as one, and none is
/// added to the interner's table at run time (tests in `builtins` check
/// both).
pub const PREPROCESSOR_NAMES: &[&str] = &[
    "defined",
    "__VA_ARGS__",
    "__FILE__",
    "__LINE__",
    "__COUNTER__",
    "_Pragma",
    "__has_feature",
    "__hlsl_dx_compiler",
    "__HLSL_VERSION",
    "__DXC_VERSION_MAJOR",
    "__DXC_VERSION_MINOR",
    "__DXC_VERSION_RELEASE",
    "__DXC_VERSION_COMMITS",
    "__spirv__",
    "__SPIRV_MAJOR_VERSION__",
    "__SPIRV_MINOR_VERSION__",
    "__HLSL_ENABLE_16_BIT",
    "__SHADER_STAGE_VERTEX",
    "__SHADER_STAGE_PIXEL",
    "__SHADER_STAGE_GEOMETRY",
    "__SHADER_STAGE_HULL",
    "__SHADER_STAGE_DOMAIN",
    "__SHADER_STAGE_COMPUTE",
    "__SHADER_STAGE_AMPLIFICATION",
    "__SHADER_STAGE_MESH",
    "__SHADER_STAGE_LIBRARY",
    "__SHADER_TARGET_STAGE",
    "__SHADER_TARGET_MAJOR",
    "__SHADER_TARGET_MINOR",
];

/// The built-in names in the order the interner (`crate::intern`) numbers them before
/// anything else, so that each class is a range of symbol indices and
/// classifying an identifier is a comparison, not a lookup. Building hash
/// sets of these names at start-up (formatting every vector and matrix
/// spelling) cost about 0.2 ms of every process, as much as lexing and
/// parsing a small shader.
///
/// Types first (the [`SCALARS`] with their vector and matrix forms, then
/// [`OTHER_TYPES`] and [`OBJECTS`]), then [`VK_TYPES`], then `vk`, `dx`,
/// then [`VK_NAMESPACES`], then the [`TOKEN_SPELLINGS`], then the
/// [`PREPROCESSOR_NAMES`]. Calls `f` with each name's text.
#[cfg_attr(not(test), allow(dead_code))] // The build script's; tests check it.
pub fn for_each_preinterned(mut f: impl FnMut(&str)) {
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
    for s in TOKEN_SPELLINGS.iter().chain(PREPROCESSOR_NAMES) {
        f(s);
    }
}

/// The interner's hash of a name: FxHash-style over 8-byte words (the last
/// few bytes read as one overlapping word), seeded with the length. The
/// build script places the pre-interned names with it, and the interner
/// probes with it: both must use this one function.
pub fn hash(s: &[u8]) -> u64 {
    const K: u64 = 0xf135_7aea_2e62_a9c5;
    let word = |b: &[u8], at: usize| {
        let mut w = [0u8; 8];
        w.copy_from_slice(&b[at..at + 8]);
        u64::from_le_bytes(w)
    };
    let half = |b: &[u8], at: usize| {
        let mut w = [0u8; 4];
        w.copy_from_slice(&b[at..at + 4]);
        u64::from(u32::from_le_bytes(w))
    };
    let n = s.len();
    let mut h = (n as u64).wrapping_mul(K);
    let mut at = 0;
    while n - at > 8 {
        h = (h.rotate_left(26) ^ word(s, at)).wrapping_mul(K);
        at += 8;
    }
    // The last 1 to 8 bytes (overlapping earlier ones when there are any).
    let last = if n >= 8 {
        word(s, n - 8)
    } else if n >= 4 {
        half(s, 0) | (half(s, n - 4) << 32)
    } else if n > 0 {
        u64::from(s[0]) | (u64::from(s[n / 2]) << 8) | (u64::from(s[n - 1]) << 16)
    } else {
        0
    };
    (h.rotate_left(26) ^ last).wrapping_mul(K)
}
