//! The macros DXC predefines for a compilation (with `-spirv`).

use super::Stage;
use crate::intern::Symbol;
use crate::intern::builtins::preprocessor_symbol;

/// The DXC release whose `__DXC_VERSION_*` macros hlslc reports: 1.8.2505.0,
/// the May 2025 release, whose HLSL (2021 by default) hlslc follows. Shaders
/// test these to work around old compilers' bugs, so a recent release is the
/// honest answer.
pub(super) const DXC_VERSION: (u32, u32, u32, u32) = (1, 8, 2505, 0);

/// The macros DXC predefines for the options' profile and flags, with
/// `-spirv` (always on in hlslc). See DXC's wiki page "Predefined Version
/// Macros" and `docs/SPIR-V.rst` ("`__spirv__`", "`__SPIRV_MAJOR_VERSION__`").
/// Each is a number, and each name one of the pre-interned
/// [`PREPROCESSOR_NAMES`](crate::intern::builtins::PREPROCESSOR_NAMES),
/// whose symbols are constants: nothing is formatted or hashed here (this
/// runs for every compilation).
pub(super) fn predefined_macros(options: &super::Options) -> Vec<(Symbol, u32)> {
    /// The symbol of a predefined macro's name, found at compile time.
    macro_rules! name {
        ($s:literal) => {
            const { preprocessor_symbol($s) }
        };
    }
    let mut m: Vec<(Symbol, u32)> = Vec::with_capacity(24);
    m.push((name!("__hlsl_dx_compiler"), 1));
    m.push((name!("__HLSL_VERSION"), options.hlsl_version));
    m.push((name!("__DXC_VERSION_MAJOR"), DXC_VERSION.0));
    m.push((name!("__DXC_VERSION_MINOR"), DXC_VERSION.1));
    m.push((name!("__DXC_VERSION_RELEASE"), DXC_VERSION.2));
    m.push((name!("__DXC_VERSION_COMMITS"), DXC_VERSION.3));
    m.push((name!("__spirv__"), 1));
    let (major, minor) = options.target_env.spirv_version();
    m.push((name!("__SPIRV_MAJOR_VERSION__"), major.into()));
    m.push((name!("__SPIRV_MINOR_VERSION__"), minor.into()));
    if options.enable_16bit_types {
        m.push((name!("__HLSL_ENABLE_16_BIT"), 1));
    }
    for (name, stage) in [
        (name!("__SHADER_STAGE_VERTEX"), Stage::Vertex),
        (name!("__SHADER_STAGE_PIXEL"), Stage::Pixel),
        (name!("__SHADER_STAGE_GEOMETRY"), Stage::Geometry),
        (name!("__SHADER_STAGE_HULL"), Stage::Hull),
        (name!("__SHADER_STAGE_DOMAIN"), Stage::Domain),
        (name!("__SHADER_STAGE_COMPUTE"), Stage::Compute),
        (name!("__SHADER_STAGE_AMPLIFICATION"), Stage::Amplification),
        (name!("__SHADER_STAGE_MESH"), Stage::Mesh),
        (name!("__SHADER_STAGE_LIBRARY"), Stage::Library),
    ] {
        m.push((name, stage.dxc_stage_number()));
    }
    if let Some(p) = options.profile {
        m.push((name!("__SHADER_TARGET_STAGE"), p.stage.dxc_stage_number()));
        m.push((name!("__SHADER_TARGET_MAJOR"), p.major));
        m.push((name!("__SHADER_TARGET_MINOR"), p.minor));
    }
    m
}

