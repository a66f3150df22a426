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
    def("__HLSL_VERSION", decimal(options.hlsl_version));
    def("__DXC_VERSION_MAJOR", decimal(DXC_VERSION.0));
    def("__DXC_VERSION_MINOR", decimal(DXC_VERSION.1));
    def("__DXC_VERSION_RELEASE", decimal(DXC_VERSION.2));
    def("__DXC_VERSION_COMMITS", decimal(DXC_VERSION.3));
    def("__spirv__", "1".into());
    let (major, minor) = options.target_env.spirv_version();
    def("__SPIRV_MAJOR_VERSION__", decimal(major.into()));
    def("__SPIRV_MINOR_VERSION__", decimal(minor.into()));
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
        def(name, decimal(stage.dxc_stage_number()));
    }
    if let Some(p) = options.profile {
        def("__SHADER_TARGET_STAGE", decimal(p.stage.dxc_stage_number()));
        def("__SHADER_TARGET_MAJOR", decimal(p.major));
        def("__SHADER_TARGET_MINOR", decimal(p.minor));
    }
    m
}

/// `n` in decimal, without the formatting machinery (this runs for every
/// compilation, two dozen times).
fn decimal(mut n: u32) -> String {
    let mut digits = [0u8; 10];
    let mut i = digits.len();
    loop {
        i -= 1;
        digits[i] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    digits[i..].iter().map(|&d| char::from(d)).collect()
}

#[cfg(test)]
mod tests {
    #[test]
    fn decimal_spells_numbers() {
        for n in [0, 7, 10, 2021, 2505, u32::MAX] {
            assert_eq!(super::decimal(n), n.to_string());
        }
    }
}
