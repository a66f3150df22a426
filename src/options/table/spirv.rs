//! The SPIR-V code-generation options (`-fspv-*`, `-fvk-*`), one row each,
//! as [`super`] describes the table.

use super::Arity::*;
use super::Effect::Apply as Set;
use super::Section::*;
use super::*;

/// The SPIR-V section of `--help`, in its order.
pub(super) const SPIRV: &[Opt] = &[
    dxc(
        &["-fspv-target-env="],
        Joined,
        "<env>",
        SpirV,
        Set(|p, v| {
            p.cl.options.target_env = TargetEnv::parse(v[0]).ok_or_else(|| {
                format!(
                    "unknown target environment '{}' (expected vulkan1.0, vulkan1.1, vulkan1.1spirv1.4, vulkan1.2, vulkan1.3 or universal1.5)",
                    v[0]
                )
            })?;
            Ok(())
        }),
        "vulkan1.0 (default), vulkan1.1, vulkan1.1spirv1.4, vulkan1.2, vulkan1.3, universal1.5",
    ),
    dxc(
        &["-fspv-entrypoint-name="],
        Joined,
        "<name>",
        SpirV,
        Set(|p, v| {
            p.cl.options.entrypoint_name = Some(v[0].to_string());
            Ok(())
        }),
        "Name of the entry point in the SPIR-V module",
    ),
    dxc(
        &["-fspv-extension="],
        Joined,
        "<extension>",
        SpirV,
        Set(|p, v| {
            if v[0] != "KHR" && crate::ir::extensions::lookup(v[0]).is_none() {
                let known: Vec<&str> = crate::ir::extensions::known_names().collect();
                return Err(format!(
                    "unknown SPIR-V extension '{}'; known extensions are KHR (every Khronos one), {}",
                    v[0],
                    known.join(", ")
                ));
            }
            p.cl.options.allowed_extensions.push(v[0].to_string());
            Ok(())
        }),
        "Allow only the named SPIR-V extensions (repeatable; default: all)",
    ),
    dxc(
        &["-fspv-reflect"],
        Flag,
        "",
        SpirV,
        Set(|p, _| {
            p.cl.options.spv_reflect = true;
            Ok(())
        }),
        "Decorate stage variables with their HLSL semantics, resources with their HLSL types and buffers with their counters (SPV_GOOGLE_hlsl_functionality1, SPV_GOOGLE_user_type)",
    ),
    dxc(
        &["-fspv-debug="],
        Joined,
        "<category>",
        SpirV,
        Set(spv_debug),
        "Debug information: vulkan-with-source or vulkan (NonSemantic.Shader.DebugInfo.100, \
         without the source text; rich[-with-source] likewise, with a warning); file, source, line, \
         tool (DXC's OpSource/OpLine: warning, not written)",
    ),
    dxc(
        &["-fvk-b-shift"],
        Multi(2),
        "<shift> <space>",
        SpirV,
        Set(|p, v| p.register_shift(RegisterClass::B, v)),
        "Shift the bindings of b registers in <space> (a number or 'all') by <shift>",
    ),
    dxc(
        &["-fvk-s-shift"],
        Multi(2),
        "<shift> <space>",
        SpirV,
        Set(|p, v| p.register_shift(RegisterClass::S, v)),
        "Shift the bindings of s registers",
    ),
    dxc(
        &["-fvk-t-shift"],
        Multi(2),
        "<shift> <space>",
        SpirV,
        Set(|p, v| p.register_shift(RegisterClass::T, v)),
        "Shift the bindings of t registers",
    ),
    dxc(
        &["-fvk-u-shift"],
        Multi(2),
        "<shift> <space>",
        SpirV,
        Set(|p, v| p.register_shift(RegisterClass::U, v)),
        "Shift the bindings of u registers",
    ),
    dxc(
        &["-fvk-bind-register", "-vkbr"],
        Multi(4),
        "<register> <space> <binding> <set>",
        SpirV,
        Set(|p, v| {
            let reg = v[0];
            let class = reg
                .chars()
                .next()
                .and_then(RegisterClass::from_letter)
                .ok_or_else(|| format!("'{reg}' is not a register (expected b0, t3, s1, u2…)"))?;
            p.cl.options.bind_registers.push(BindRegister {
                class,
                register: number(&reg[1..], "register")?,
                space: number(v[1], "space")?,
                binding: number(v[2], "binding")?,
                set: number(v[3], "set")?,
            });
            Ok(())
        }),
        "Bind <register> (b0, t3, …) of <space> to <binding> in descriptor <set>",
    ),
    dxc(
        &["-fvk-bind-globals"],
        Multi(2),
        "<binding> <set>",
        SpirV,
        Set(|p, v| {
            p.cl.options.bind_globals = Some(binding_set(v)?);
            Ok(())
        }),
        "Binding and set of the $Globals cbuffer",
    ),
    dxc(
        &["-fvk-bind-resource-heap"],
        Multi(2),
        "<binding> <set>",
        SpirV,
        Set(|p, v| {
            p.cl.options.resource_heap_binding = Some(binding_set(v)?);
            Ok(())
        }),
        "Binding and set of ResourceDescriptorHeap",
    ),
    dxc(
        &["-fvk-bind-sampler-heap"],
        Multi(2),
        "<binding> <set>",
        SpirV,
        Set(|p, v| {
            p.cl.options.sampler_heap_binding = Some(binding_set(v)?);
            Ok(())
        }),
        "Binding and set of SamplerDescriptorHeap",
    ),
    dxc(
        &["-fvk-bind-counter-heap"],
        Multi(2),
        "<binding> <set>",
        SpirV,
        Set(|p, v| {
            p.cl.options.counter_heap_binding = Some(binding_set(v)?);
            Ok(())
        }),
        "Binding and set of the counter heap",
    ),
    dxc(
        &["-fvk-use-dx-layout"],
        Flag,
        "",
        SpirV,
        Set(|p, _| p.layout("-fvk-use-dx-layout", LayoutRule::Dx)),
        "D3D memory layout for buffers (the device needs scalarBlockLayout)",
    ),
    dxc(
        &["-fvk-use-gl-layout"],
        Flag,
        "",
        SpirV,
        Set(|p, _| p.layout("-fvk-use-gl-layout", LayoutRule::Gl)),
        "Strict std140/std430 layout for buffers",
    ),
    dxc(
        &["-fvk-use-scalar-layout"],
        Flag,
        "",
        SpirV,
        Set(|p, _| p.layout("-fvk-use-scalar-layout", LayoutRule::Scalar)),
        "Scalar block layout for buffers (the device needs scalarBlockLayout)",
    ),
    dxc(
        &["-fvk-invert-y"],
        Flag,
        "",
        SpirV,
        Set(|p, _| {
            p.cl.options.invert_y = true;
            Ok(())
        }),
        "Negate SV_Position.y before writing it (vertex, geometry, domain, mesh)",
    ),
    dxc(
        &["-fvk-use-dx-position-w"],
        Flag,
        "",
        SpirV,
        Set(|p, _| {
            p.cl.options.dx_position_w = true;
            Ok(())
        }),
        "Use 1/w for SV_Position.w in pixel shaders, as D3D",
    ),
    dxc(
        &["-fvk-auto-shift-bindings"],
        Flag,
        "",
        SpirV,
        Set(|p, _| {
            p.cl.options.auto_shift_bindings = true;
            Ok(())
        }),
        "Shift automatically assigned bindings by the register class shifts",
    ),
    dxc(
        &["-fvk-stage-io-order="],
        Joined,
        "<order>",
        SpirV,
        Set(|p, v| {
            p.cl.options.stage_io_order_alpha = match v[0] {
                "decl" => false,
                "alpha" => true,
                other => return Err(format!("unknown order '{other}' (expected decl or alpha)")),
            };
            Ok(())
        }),
        "Stage I/O locations in declaration order (decl, the default) or by name (alpha)",
    ),
    dxc(
        &["-fvk-support-nonzero-base-instance"],
        Flag,
        "",
        SpirV,
        Set(|p, _| {
            p.cl.options.nonzero_base_instance = true;
            Ok(())
        }),
        "SV_InstanceID counts from the draw's first instance, as in D3D",
    ),
    dxc(
        &["-fspv-enable-maximal-reconvergence"],
        Flag,
        "",
        SpirV,
        Set(|p, _| {
            p.cl.options.maximal_reconvergence = true;
            Ok(())
        }),
        "Entry points reconverge maximally (SPV_KHR_maximal_reconvergence)",
    ),
    dxc(
        &["-fvk-support-nonzero-base-vertex"],
        Flag,
        "",
        SpirV,
        Set(|p, _| {
            p.cl.options.nonzero_base_vertex = true;
            Ok(())
        }),
        "SV_VertexID counts from the draw's first vertex, as in D3D",
    ),
    dxc(
        &["-fspv-preserve-bindings"],
        Flag,
        "",
        SpirV,
        Set(|p, _| {
            p.cl.options.preserve_bindings = true;
            Ok(())
        }),
        "Keep the resources no entry point uses (left out by default, as in DXC)",
    ),
    dxc(
        &["-fspv-preserve-interface"],
        Flag,
        "",
        SpirV,
        Set(|p, _| {
            p.cl.options.preserve_interface = true;
            Ok(())
        }),
        "Keep the stage inputs and outputs no entry point uses (left out by default, as in DXC)",
    ),
    dxc(
        &["-fspv-flatten-resource-arrays"],
        Flag,
        "",
        SpirV,
        Set(|p, _| {
            p.cl.options.flatten_resource_arrays = true;
            Ok(())
        }),
        "Give each element of a resource array its own binding",
    ),
    dxc(
        &["-fspv-use-unknown-image-format"],
        Flag,
        "",
        SpirV,
        Set(|p, _| {
            p.cl.options.unknown_image_format = true;
            Ok(())
        }),
        "Storage images without [[vk::image_format]] get format Unknown: not supported yet",
    ),
    dxc(
        &["-fspv-use-legacy-buffer-matrix-order"],
        Flag,
        "",
        SpirV,
        Set(|p, _| {
            p.cl.options.legacy_buffer_matrix_order = true;
            Ok(())
        }),
        "Matrices in byte-address buffers row by row (DXC's older order)",
    ),
    dxc(
        &["-auto-binding-space"],
        Separate,
        "<space>",
        SpirV,
        Set(|p, v| {
            p.cl.options.auto_binding_space = Some(number(v[0], "space")?);
            Ok(())
        }),
        "Descriptor set of resources without an explicit space",
    ),
];

/// `-fspv-debug=<category>`, as DXC's categories combine (see
/// [`crate::options::DebugInfoOptions`]).
fn spv_debug(p: &mut Parser, v: &[&str]) -> Result<(), String> {
    let d = &mut p.cl.options.debug_info;
    match v[0] {
        "vulkan" => d.vulkan = Some(false),
        // DXC's `-test` variant only makes its source pieces small for its
        // own tests: the same information.
        "vulkan-with-source" | "vulkan-with-source-test" => d.vulkan = Some(true),
        "file" | "source" | "line" | "tool" => {
            d.legacy = true;
            p.warn_once(
                "-fspv-debug=",
                "-fspv-debug: hlslc does not write DXC's OpSource/OpLine debug information (file, source, line, tool); -fspv-debug=vulkan-with-source writes NonSemantic.Shader.DebugInfo.100",
            );
        }
        // DXC's OpenCL.DebugInfo.100: the same information in the set
        // Vulkan tools read.
        "rich" | "rich-with-source" => {
            d.vulkan = Some(v[0] == "rich-with-source");
            p.warn_once(
                "-fspv-debug=rich",
                "-fspv-debug=rich: hlslc writes NonSemantic.Shader.DebugInfo.100 (as -fspv-debug=vulkan), not OpenCL.DebugInfo.100",
            );
        }
        other => {
            return Err(format!(
                "unknown debug information category '{other}' (expected vulkan-with-source, vulkan, file, source, line or tool)"
            ));
        }
    }
    Ok(())
}
