//! The macros DXC predefines for a compilation (with `-spirv`).

use super::Stage;

/// The DXC release whose `__DXC_VERSION_*` macros hlslc reports: 1.8.2505.0,
/// the May 2025 release, whose HLSL (2021 by default) hlslc follows. Shaders
/// test these to work around old compilers' bugs, so a recent release is the
/// honest answer.
pub(super) const DXC_VERSION: (u32, u32, u32, u32) = (1, 8, 2505, 0);

/// The macros DXC predefines for the options' profile and flags, with
/// `-spirv` (always on in hlslc). See DXC's wiki page "Predefined Version
/// Macros" and `docs/SPIR-V.rst` ("`__spirv__`", "`__SPIRV_MAJOR_VERSION__`").
pub(super) fn predefined_macros(options: &super::Options) -> Vec<(String, String)> {
    let mut m: Vec<(String, String)> = Vec::new();
    let mut def = |name: &str, value: String| m.push((name.to_string(), value));
    def("__hlsl_dx_compiler", "1".into());
    def("__HLSL_VERSION", options.hlsl_version.to_string());
    def("__DXC_VERSION_MAJOR", DXC_VERSION.0.to_string());
    def("__DXC_VERSION_MINOR", DXC_VERSION.1.to_string());
    def("__DXC_VERSION_RELEASE", DXC_VERSION.2.to_string());
    def("__DXC_VERSION_COMMITS", DXC_VERSION.3.to_string());
    def("__spirv__", "1".into());
    let (major, minor) = options.target_env.spirv_version();
    def("__SPIRV_MAJOR_VERSION__", major.to_string());
    def("__SPIRV_MINOR_VERSION__", minor.to_string());
    if options.enable_16bit_types {
        def("__HLSL_ENABLE_16_BIT", "1".into());
    }
    for (name, stage) in [
        ("__SHADER_STAGE_VERTEX", Stage::Vertex),
        ("__SHADER_STAGE_PIXEL", Stage::Pixel),
        ("__SHADER_STAGE_GEOMETRY", Stage::Geometry),
        ("__SHADER_STAGE_HULL", Stage::Hull),
        ("__SHADER_STAGE_DOMAIN", Stage::Domain),
        ("__SHADER_STAGE_COMPUTE", Stage::Compute),
        ("__SHADER_STAGE_AMPLIFICATION", Stage::Amplification),
        ("__SHADER_STAGE_MESH", Stage::Mesh),
        ("__SHADER_STAGE_LIBRARY", Stage::Library),
    ] {
        def(name, stage.dxc_stage_number().to_string());
    }
    if let Some(p) = options.profile {
        def(
            "__SHADER_TARGET_STAGE",
            p.stage.dxc_stage_number().to_string(),
        );
        def("__SHADER_TARGET_MAJOR", p.major.to_string());
        def("__SHADER_TARGET_MINOR", p.minor.to_string());
    }
    m
}
