//! The spellings reflection uses: HLSL type names, `vk::image_format`
//! formats, stages and target environments.

use crate::ir::{AddressSpace, ImageDim, ImageFormat, Scalar};

pub(super) fn scalar_name(s: Scalar) -> &'static str {
    s.hlsl_name()
}

/// The `[[vk::image_format("…")]]` spelling of a format.
pub(super) fn format_name(f: ImageFormat) -> &'static str {
    use ImageFormat as F;
    match f {
        F::Unknown => "unknown",
        F::Rgba32f => "rgba32f",
        F::Rgba16f => "rgba16f",
        F::R32f => "r32f",
        F::Rgba8 => "rgba8",
        F::Rgba8Snorm => "rgba8snorm",
        F::Rg32f => "rg32f",
        F::Rg16f => "rg16f",
        F::R11fG11fB10f => "r11g11b10f",
        F::R16f => "r16f",
        F::Rgba16 => "rgba16",
        F::Rgb10A2 => "rgb10a2",
        F::Rg16 => "rg16",
        F::Rg8 => "rg8",
        F::R16 => "r16",
        F::R8 => "r8",
        F::Rgba16Snorm => "rgba16snorm",
        F::Rg16Snorm => "rg16snorm",
        F::Rg8Snorm => "rg8snorm",
        F::R16Snorm => "r16snorm",
        F::R8Snorm => "r8snorm",
        F::Rgba32i => "rgba32i",
        F::Rgba16i => "rgba16i",
        F::Rgba8i => "rgba8i",
        F::R32i => "r32i",
        F::Rg32i => "rg32i",
        F::Rg16i => "rg16i",
        F::Rg8i => "rg8i",
        F::R16i => "r16i",
        F::R8i => "r8i",
        F::Rgba32ui => "rgba32ui",
        F::Rgba16ui => "rgba16ui",
        F::Rgba8ui => "rgba8ui",
        F::R32ui => "r32ui",
        F::Rgb10a2ui => "rgb10a2ui",
        F::Rg32ui => "rg32ui",
        F::Rg16ui => "rg16ui",
        F::Rg8ui => "rg8ui",
        F::R16ui => "r16ui",
        F::R8ui => "r8ui",
        F::R64ui => "r64ui",
        F::R64i => "r64i",
    }
}

pub(super) fn dim_name(d: ImageDim) -> &'static str {
    match d {
        ImageDim::D1 => "1d",
        ImageDim::D2 => "2d",
        ImageDim::D3 => "3d",
        ImageDim::Cube => "cube",
        ImageDim::Buffer => "buffer",
        ImageDim::SubpassData => "subpass_data",
    }
}

/// The HLSL name of a texture type, e.g. `RWTexture2DArray<float>` (the
/// IR keeps the texel's scalar type, not its component count).
pub(super) fn image_hlsl_type(
    dim: ImageDim,
    arrayed: bool,
    ms: bool,
    sampled: Scalar,
    storage: bool,
) -> String {
    let base = match dim {
        ImageDim::D1 => "Texture1D",
        ImageDim::D2 => "Texture2D",
        ImageDim::D3 => "Texture3D",
        ImageDim::Cube => "TextureCube",
        ImageDim::Buffer => "Buffer",
        ImageDim::SubpassData => "SubpassInput",
    };
    format!(
        "{}{base}{}{}<{}>",
        if storage { "RW" } else { "" },
        if ms { "MS" } else { "" },
        if arrayed { "Array" } else { "" },
        scalar_name(sampled)
    )
}

/// The HLSL type of a buffer from the struct name sema gives its block,
/// which follows DXC's convention (`type.RWStructuredBuffer.Particle`,
/// `type.ByteAddressBuffer`, `type.ConstantBuffer.Camera`); a plain
/// `type.NAME` is a `cbuffer NAME`.
pub(super) fn buffer_hlsl_type(block_name: Option<&str>, space: AddressSpace) -> Option<String> {
    const KINDS: &[&str] = &[
        "StructuredBuffer",
        "RWStructuredBuffer",
        "AppendStructuredBuffer",
        "ConsumeStructuredBuffer",
        "RasterizerOrderedStructuredBuffer",
        "ByteAddressBuffer",
        "RWByteAddressBuffer",
        "RasterizerOrderedByteAddressBuffer",
        "ConstantBuffer",
        "TextureBuffer",
    ];
    let rest = block_name?.strip_prefix("type.")?;
    let (kind, arg) = match rest.split_once('.') {
        Some((k, a)) => (k, Some(a)),
        None => (rest, None),
    };
    if KINDS.contains(&kind) {
        return Some(match arg {
            Some(a) => format!("{kind}<{a}>"),
            None => kind.to_string(),
        });
    }
    match (space, kind, arg) {
        (AddressSpace::Uniform, "$Globals", None) => Some("$Globals".to_string()),
        (AddressSpace::Uniform, _, None) => Some("cbuffer".to_string()),
        // `[[vk::push_constant]] S pc;`: the struct's name.
        (AddressSpace::PushConstant, "PushConstant", Some(s)) => Some(s.to_string()),
        _ => None,
    }
}
