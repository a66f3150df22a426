//! The attributes hlslc knows: HLSL's own (`[numthreads(…)]`, matched
//! without regard to case, as DXC does) and the `vk::` ones of DXC's
//! SPIR-V mapping (`docs/SPIR-V.rst`, "Vulkan specific attributes"),
//! matched exactly.
//!
//! The parser warns about a name that is in neither list (a misspelt
//! `[unrol]` would otherwise be dropped without a word); sema reports the
//! known ones whose effect hlslc does not produce yet as errors, because
//! ignoring them would give SPIR-V that means something else.

use crate::front::ast;
use crate::ir::Stage;

/// What hlslc does with a known attribute.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Support {
    /// Implemented, or read where its construct is compiled (the geometry
    /// and tessellation attributes belong to stages that check them).
    Yes,
    /// Has no meaning for Vulkan SPIR-V; accepted without effect (D3D root
    /// signatures, D3D-only hints).
    NoEffect,
    /// Not representable in SPIR-V for Vulkan: a warning, as DXC gives.
    Warn(&'static str),
    /// Changes the SPIR-V, and hlslc does not implement it yet: an error.
    NotYet,
    /// As `NotYet` in that stage; elsewhere it asks for nothing.
    NotYetIn(Stage),
}

/// HLSL's attributes, lower case.
const HLSL: &[(&str, Support)] = &[
    ("numthreads", Support::Yes),
    ("shader", Support::Yes),
    ("domain", Support::Yes),
    ("partitioning", Support::Yes),
    ("outputtopology", Support::Yes),
    ("outputcontrolpoints", Support::Yes),
    ("patchconstantfunc", Support::Yes),
    ("maxtessfactor", Support::Yes),
    ("maxvertexcount", Support::Yes),
    ("instance", Support::Yes),
    ("earlydepthstencil", Support::Yes),
    ("unroll", Support::Yes),
    ("loop", Support::Yes),
    ("fastopt", Support::Yes),
    ("branch", Support::Yes),
    ("flatten", Support::Yes),
    ("allow_uav_condition", Support::NoEffect),
    ("forcecase", Support::NoEffect),
    ("call", Support::NoEffect),
    // A hint; hlslc decides inlining itself (and must inline some calls).
    ("noinline", Support::NoEffect),
    ("rootsignature", Support::NoEffect),
    ("clipplanes", Support::NoEffect),
    (
        "wavesize",
        Support::Warn(
            "the wave size cannot be set in SPIR-V for Vulkan; the application chooses it (VK_EXT_subgroup_size_control)",
        ),
    ),
    // Helper lanes exist in pixel shaders only (elsewhere DXC emits
    // nothing). There: MaximallyReconvergesKHR + RequireFullQuadsKHR
    // (SPV_KHR_quad_control), newer than the spirv-tools the tests
    // validate with.
    ("waveopsincludehelperlanes", Support::NotYetIn(Stage::Pixel)),
    // Work graphs (SM 6.8): SPV_AMDX_shader_enqueue (sema/entry/node.rs).
    ("nodelaunch", Support::Yes),
    ("nodeisprogramentry", Support::Yes),
    ("nodeid", Support::Yes),
    (
        "nodelocalrootargumentstableindex",
        Support::Warn("Vulkan has no local root arguments"),
    ),
    ("nodeshareinputof", Support::Yes),
    ("nodedispatchgrid", Support::Yes),
    ("nodemaxdispatchgrid", Support::Yes),
    ("nodemaxrecursiondepth", Support::Yes),
    (
        "nodemaxinputrecordspergraphentryrecord",
        Support::Warn("SPV_AMDX_shader_enqueue has no limit on the records of a graph entry"),
    ),
    ("maxrecords", Support::Yes),
    ("maxrecordssharedwith", Support::Yes),
    ("nodearraysize", Support::Yes),
    ("allowsparsenodes", Support::Yes),
    ("unboundedsparsenodes", Support::Yes),
    ("nodetrackrwinputsharing", Support::Yes),
];

/// The `vk::` attributes, without the namespace.
const VK: &[(&str, Support)] = &[
    ("binding", Support::Yes),
    ("counter_binding", Support::Yes),
    ("location", Support::Yes),
    ("push_constant", Support::Yes),
    ("offset", Support::Yes),
    ("builtin", Support::Yes),
    ("constant_id", Support::Yes),
    ("image_format", Support::Yes),
    ("post_depth_coverage", Support::Yes),
    ("combinedImageSampler", Support::NotYet),
    ("index", Support::Yes),
    ("input_attachment_index", Support::NotYet),
    ("shader_record_nv", Support::Yes),
    ("shader_record_ext", Support::Yes),
    ("early_and_late_tests", Support::Yes),
    ("depth_unchanged", Support::Yes),
    ("stencil_ref_unchanged_front", Support::Yes),
    ("stencil_ref_greater_equal_front", Support::Yes),
    ("stencil_ref_less_equal_front", Support::Yes),
    ("stencil_ref_unchanged_back", Support::Yes),
    ("stencil_ref_greater_equal_back", Support::Yes),
    ("stencil_ref_less_equal_back", Support::Yes),
    ("aliased_pointer", Support::NotYet),
    ("spvexecutionmode", Support::NotYet),
    ("ext_instruction", Support::NotYet),
    ("ext_execution_mode", Support::NotYet),
    ("ext_execution_mode_id", Support::NotYet),
    ("ext_extension", Support::NotYet),
    ("ext_capability", Support::NotYet),
    ("ext_decorate", Support::NotYet),
    ("ext_decorate_id", Support::NotYet),
    ("ext_decorate_string", Support::NotYet),
    ("ext_reference", Support::NotYet),
    ("ext_literal", Support::NotYet),
    ("ext_storage_class", Support::NotYet),
    ("ext_type_def", Support::NotYet),
    ("ext_builtin_input", Support::Yes),
    ("ext_builtin_output", Support::Yes),
];

/// How hlslc treats the attribute `a`; `None` for an unknown one.
pub fn support(a: &ast::Attribute) -> Option<Support> {
    let segs = &a.name.segments;
    match segs.as_slice() {
        [name] => {
            let n = name.name.as_str();
            HLSL.iter()
                .find(|(k, _)| k.eq_ignore_ascii_case(n))
                .map(|&(_, s)| s)
        }
        [ns, name] if ns.name.as_str() == "vk" => {
            let n = name.name.as_str();
            VK.iter().find(|(k, _)| *k == n).map(|&(_, s)| s)
        }
        _ => None,
    }
}

/// The known attribute closest to an unknown one's spelling, written as
/// the user would write it, for a "did you mean" note.
pub fn suggestion(a: &ast::Attribute) -> Option<String> {
    let segs = &a.name.segments;
    let (candidates, prefix, name): (&[(&str, Support)], &str, &str) = match segs.as_slice() {
        [name] => (HLSL, "", name.name.as_str()),
        [ns, name] if ns.name.as_str() == "vk" => (VK, "vk::", name.name.as_str()),
        _ => return None,
    };
    crate::diag::suggest::closest(name, candidates.iter().map(|(k, _)| *k))
        .map(|k| format!("{prefix}{k}"))
}

/// The attribute's name as written (`vk::binding`).
pub fn display_name(a: &ast::Attribute) -> String {
    a.name
        .segments
        .iter()
        .map(|s| s.name.as_str())
        .collect::<Vec<_>>()
        .join("::")
}
