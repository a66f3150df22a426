//! The attributes hlslc knows, parsed once: HLSL's own (`[numthreads(…)]`,
//! matched without regard to case, as DXC does) and the `vk::` ones of
//! DXC's SPIR-V mapping (`docs/SPIR-V.rst`, "Vulkan specific attributes"),
//! matched exactly.
//!
//! The parser looks every attribute up here once ([`lookup`]): a known one
//! gets its [`Attr`] (what sema matches on, never the spelling) and its
//! arguments checked against the registry's count and kinds (a string
//! literal where a name or format is written); an unknown name is a
//! warning that names it (a misspelt `[unrol]` would otherwise be dropped
//! without a word). Sema reports the known ones whose effect hlslc does
//! not produce yet as errors, because ignoring them would give SPIR-V that
//! means something else.

use crate::front::ast;

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
}

/// The arguments an attribute takes: how many, and which are string
/// literals (the others are expressions sema evaluates).
#[derive(Clone, Copy, Debug)]
pub struct Args {
    /// At least this many.
    pub min: u8,
    /// At most this many.
    pub max: u8,
    /// Bit `i` set: argument `i` is a string literal.
    pub strings: u8,
}

const fn args(min: u8, max: u8) -> Args {
    Args {
        min,
        max,
        strings: 0,
    }
}
const NONE: Args = args(0, 0);
const ONE: Args = args(1, 1);
const STRING: Args = Args {
    min: 1,
    max: 1,
    strings: 1,
};
/// Any number of arguments of any kind (checked by the code that reads them).
const ANY: Args = args(0, u8::MAX);

macro_rules! registry {
    ($( $(#[$doc:meta])* $kind:ident = $ns:ident $name:literal, $support:expr, $args:expr; )*) => {
        /// A known attribute, by what it means. Sema matches on these.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum Attr {
            $( $(#[$doc])* $kind, )*
        }

        /// Every known attribute: its namespace and spelling (as
        /// Microsoft's and DXC's documentation write it; HLSL's match in
        /// any case), what it is, how hlslc supports it, its arguments.
        const REGISTRY: &[(Ns, &str, Attr, Support, Args)] = &[
            $( (Ns::$ns, $name, Attr::$kind, $support, $args), )*
        ];
    };
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Ns {
    Hlsl,
    Vk,
}

/// Why `[WaveSize]` is ignored.
const NO_WAVE_SIZE: &str = "the wave size cannot be set in SPIR-V for Vulkan; the application chooses it (VK_EXT_subgroup_size_control)";

registry! {
    NumThreads = Hlsl "numthreads", Support::Yes, args(3, 3);
    Shader = Hlsl "shader", Support::Yes, STRING;
    Domain = Hlsl "domain", Support::Yes, STRING;
    Partitioning = Hlsl "partitioning", Support::Yes, STRING;
    OutputTopology = Hlsl "outputtopology", Support::Yes, STRING;
    OutputControlPoints = Hlsl "outputcontrolpoints", Support::Yes, ONE;
    PatchConstantFunc = Hlsl "patchconstantfunc", Support::Yes, STRING;
    MaxTessFactor = Hlsl "maxtessfactor", Support::Yes, ONE;
    MaxVertexCount = Hlsl "maxvertexcount", Support::Yes, ONE;
    Instance = Hlsl "instance", Support::Yes, ONE;
    EarlyDepthStencil = Hlsl "earlydepthstencil", Support::Yes, NONE;
    Unroll = Hlsl "unroll", Support::Yes, args(0, 1);
    Loop = Hlsl "loop", Support::Yes, NONE;
    FastOpt = Hlsl "fastopt", Support::Yes, NONE;
    Branch = Hlsl "branch", Support::Yes, NONE;
    Flatten = Hlsl "flatten", Support::Yes, NONE;
    AllowUavCondition = Hlsl "allow_uav_condition", Support::NoEffect, NONE;
    ForceCase = Hlsl "forcecase", Support::NoEffect, NONE;
    Call = Hlsl "call", Support::NoEffect, NONE;
    /// A hint; hlslc decides inlining itself (and must inline some calls).
    NoInline = Hlsl "noinline", Support::NoEffect, NONE;
    RootSignature = Hlsl "RootSignature", Support::NoEffect, ANY;
    ClipPlanes = Hlsl "clipplanes", Support::NoEffect, args(1, 6);
    WaveSize = Hlsl "WaveSize", Support::Warn(NO_WAVE_SIZE), args(1, 3);
    /// Helper lanes exist in pixel shaders only (elsewhere DXC emits
    /// nothing). There: MaximallyReconvergesKHR + RequireFullQuadsKHR
    /// (SPV_KHR_quad_control).
    WaveOpsIncludeHelperLanes = Hlsl "WaveOpsIncludeHelperLanes", Support::Yes, NONE;
    // Work graphs (SM 6.8): SPV_AMDX_shader_enqueue (sema/entry/node.rs).
    NodeLaunch = Hlsl "NodeLaunch", Support::Yes, STRING;
    NodeIsProgramEntry = Hlsl "NodeIsProgramEntry", Support::Yes, NONE;
    NodeId = Hlsl "NodeID", Support::Yes, Args { min: 1, max: 2, strings: 1 };
    NodeLocalRootArgumentsTableIndex = Hlsl "NodeLocalRootArgumentsTableIndex",
        Support::Warn("Vulkan has no local root arguments"), ONE;
    NodeShareInputOf = Hlsl "NodeShareInputOf", Support::Yes, Args { min: 1, max: 2, strings: 1 };
    NodeDispatchGrid = Hlsl "NodeDispatchGrid", Support::Yes, args(3, 3);
    NodeMaxDispatchGrid = Hlsl "NodeMaxDispatchGrid", Support::Yes, args(3, 3);
    NodeMaxRecursionDepth = Hlsl "NodeMaxRecursionDepth", Support::Yes, ONE;
    NodeMaxInputRecordsPerGraphEntryRecord = Hlsl "NodeMaxInputRecordsPerGraphEntryRecord",
        Support::Warn("SPV_AMDX_shader_enqueue has no limit on the records of a graph entry"), ANY;
    MaxRecords = Hlsl "MaxRecords", Support::Yes, ONE;
    MaxRecordsSharedWith = Hlsl "MaxRecordsSharedWith", Support::Yes, ONE;
    NodeArraySize = Hlsl "NodeArraySize", Support::Yes, ONE;
    AllowSparseNodes = Hlsl "AllowSparseNodes", Support::Yes, NONE;
    UnboundedSparseNodes = Hlsl "UnboundedSparseNodes", Support::Yes, NONE;
    NodeTrackRwInputSharing = Hlsl "NodeTrackRWInputSharing", Support::Yes, NONE;

    VkBinding = Vk "binding", Support::Yes, args(1, 2);
    VkCounterBinding = Vk "counter_binding", Support::Yes, ONE;
    VkLocation = Vk "location", Support::Yes, ONE;
    VkPushConstant = Vk "push_constant", Support::Yes, NONE;
    VkOffset = Vk "offset", Support::Yes, ONE;
    VkBuiltin = Vk "builtin", Support::Yes, STRING;
    VkConstantId = Vk "constant_id", Support::Yes, ONE;
    VkImageFormat = Vk "image_format", Support::Yes, STRING;
    VkPostDepthCoverage = Vk "post_depth_coverage", Support::Yes, NONE;
    VkCombinedImageSampler = Vk "combinedImageSampler", Support::Yes, NONE;
    VkIndex = Vk "index", Support::Yes, ONE;
    VkInputAttachmentIndex = Vk "input_attachment_index", Support::Yes, ONE;
    VkShaderRecordNv = Vk "shader_record_nv", Support::Yes, NONE;
    VkShaderRecordExt = Vk "shader_record_ext", Support::Yes, NONE;
    VkEarlyAndLateTests = Vk "early_and_late_tests", Support::Yes, NONE;
    VkDepthUnchanged = Vk "depth_unchanged", Support::Yes, NONE;
    VkStencilRefUnchangedFront = Vk "stencil_ref_unchanged_front", Support::Yes, NONE;
    VkStencilRefGreaterEqualFront = Vk "stencil_ref_greater_equal_front", Support::Yes, NONE;
    VkStencilRefLessEqualFront = Vk "stencil_ref_less_equal_front", Support::Yes, NONE;
    VkStencilRefUnchangedBack = Vk "stencil_ref_unchanged_back", Support::Yes, NONE;
    VkStencilRefGreaterEqualBack = Vk "stencil_ref_greater_equal_back", Support::Yes, NONE;
    VkStencilRefLessEqualBack = Vk "stencil_ref_less_equal_back", Support::Yes, NONE;
    VkAliasedPointer = Vk "aliased_pointer", Support::Yes, NONE;
    VkSpvExecutionMode = Vk "spvexecutionmode", Support::Yes, ANY;
    VkExtInstruction = Vk "ext_instruction", Support::Yes, Args { min: 1, max: 2, strings: 2 };
    VkExtExecutionMode = Vk "ext_execution_mode", Support::NotYet, ANY;
    VkExtExecutionModeId = Vk "ext_execution_mode_id", Support::NotYet, ANY;
    VkExtExtension = Vk "ext_extension", Support::Yes, STRING;
    VkExtCapability = Vk "ext_capability", Support::Yes, ONE;
    VkExtDecorate = Vk "ext_decorate", Support::Yes, ANY;
    VkExtDecorateId = Vk "ext_decorate_id", Support::Yes, ANY;
    VkExtDecorateString = Vk "ext_decorate_string", Support::Yes, ANY;
    VkExtReference = Vk "ext_reference", Support::Yes, NONE;
    VkExtLiteral = Vk "ext_literal", Support::Yes, NONE;
    VkExtStorageClass = Vk "ext_storage_class", Support::Yes, ONE;
    VkExtTypeDef = Vk "ext_type_def", Support::Yes, args(2, 2);
    VkExtBuiltinInput = Vk "ext_builtin_input", Support::Yes, ONE;
    VkExtBuiltinOutput = Vk "ext_builtin_output", Support::Yes, ONE;
}

impl Attr {
    /// How hlslc supports it.
    pub fn support(self) -> Support {
        REGISTRY[self as usize].3
    }

    /// The spelling diagnostics use: `numthreads`, `vk::binding`.
    pub fn spelling(self) -> String {
        let (ns, name, ..) = REGISTRY[self as usize];
        match ns {
            Ns::Hlsl => name.to_string(),
            Ns::Vk => format!("vk::{name}"),
        }
    }
}

/// The attribute `name` (as written: `NumThreads`, `vk::binding`) stands
/// for, if hlslc knows it.
pub fn lookup(name: &ast::Path) -> Option<Attr> {
    let (ns, n) = match name.segments.as_slice() {
        [n] => (Ns::Hlsl, n.name.as_str()),
        [vk, n] if vk.name.as_str() == "vk" => (Ns::Vk, n.name.as_str()),
        _ => return None,
    };
    REGISTRY
        .iter()
        .find(|&&(rns, rname, ..)| {
            rns == ns
                && match ns {
                    Ns::Hlsl => rname.eq_ignore_ascii_case(n),
                    Ns::Vk => rname == n,
                }
        })
        .map(|&(_, _, kind, ..)| kind)
}

/// What is wrong with the arguments of a known attribute, if anything:
/// their number, or an expression where a string literal is written.
pub fn check_args(kind: Attr, args: &[ast::Expr]) -> Option<(String, Option<usize>)> {
    let spec = REGISTRY[kind as usize].4;
    let n = args.len();
    if n < spec.min as usize || n > spec.max as usize {
        let wanted = match (spec.min, spec.max) {
            (0, 0) => "no arguments".to_string(),
            (0, 1) => "at most 1 argument".to_string(),
            (a, b) if a == b => format!("{a} argument{}", if a == 1 { "" } else { "s" }),
            (a, b) => format!("{a} to {b} arguments"),
        };
        return Some((
            format!("`{}` takes {wanted}, {n} given", kind.spelling()),
            None,
        ));
    }
    args.iter().enumerate().find_map(|(i, e)| {
        let string = i < 8 && spec.strings & (1 << i) != 0;
        let is_string = matches!(e.kind, ast::ExprKind::Literal(ast::Literal::String(_)));
        (string && !is_string).then(|| {
            (
                format!(
                    "argument {} of `{}` must be a string literal",
                    i + 1,
                    kind.spelling()
                ),
                Some(i),
            )
        })
    })
}

/// The known attribute closest to an unknown one's spelling, written as
/// the user would write it, for a "did you mean" note.
pub fn suggestion(name: &ast::Path) -> Option<String> {
    let (ns, prefix, n) = match name.segments.as_slice() {
        [n] => (Ns::Hlsl, "", n.name.as_str()),
        [vk, n] if vk.name.as_str() == "vk" => (Ns::Vk, "vk::", n.name.as_str()),
        _ => return None,
    };
    let candidates = REGISTRY
        .iter()
        .filter(|r| r.0 == ns)
        .map(|&(_, name, ..)| name);
    crate::diag::suggest::closest(n, candidates).map(|k| format!("{prefix}{k}"))
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_registry_is_in_the_order_of_the_enum() {
        for (i, &(_, _, kind, ..)) in REGISTRY.iter().enumerate() {
            assert_eq!(kind as usize, i, "{kind:?}");
        }
    }
}
