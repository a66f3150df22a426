//! `float_controls`: the execution modes of `-denorm` and `-Gis`.
//!
//! - `-denorm preserve` → `DenormPreserve 32`, `-denorm ftz` →
//!   `DenormFlushToZero 32` on every entry point (`-denorm any`, the
//!   default, adds nothing and leaves denormals to the driver). As in D3D
//!   and DXC, `-denorm` is about 32-bit floats only: 16- and 64-bit
//!   denormals keep the driver's behaviour.
//! - `-Gis` (IEEE strictness) → `SignedZeroInfNanPreserve` for 32-bit
//!   floats, and for 16- and 64-bit floats when the module has such types.
//!
//! These modes are SPIR-V 1.4 core and `SPV_KHR_float_controls` before it,
//! which Vulkan 1.0 and 1.1 accept with `VK_KHR_shader_float_controls`; so
//! every target env can express them. The backend derives the capability and
//! extension from the modes (`back/spv/requirements.rs`). When
//! `-fspv-extension=` lists extensions and leaves this one out on a target
//! below SPIR-V 1.4, the modes cannot be expressed: error E0802. Whether a
//! device supports a mode is its own business (lavapipe and the H200
//! support `SignedZeroInfNanPreserve` but neither fp32 denormal mode, see
//! VULKAN-NOTES).
//!
//! Changes only entry points; never touches expressions.

use super::PipelineOptions;
use crate::diag::{Diagnostic, Diagnostics, codes};
use crate::ir::*;
use crate::passes::DenormMode;
use spirv::ExecutionMode;

const EXTENSION: &str = "SPV_KHR_float_controls";

/// Adds the float-controls execution modes `options` ask for.
pub fn run(module: &mut Module, options: &PipelineOptions, diags: &mut Diagnostics) {
    let mut modes: Vec<(ExecutionMode, u32)> = Vec::new();
    match options.denorm {
        Some(DenormMode::Preserve) => modes.push((ExecutionMode::DenormPreserve, 32)),
        Some(DenormMode::Ftz) => modes.push((ExecutionMode::DenormFlushToZero, 32)),
        Some(DenormMode::Any) | None => {}
    }
    if options.ieee_strict {
        let mut widths = vec![32];
        for (_, t) in module.types.iter() {
            if let TypeInner::Scalar(s)
            | TypeInner::Vector { scalar: s, .. }
            | TypeInner::Matrix { scalar: s, .. } = t.inner
                && s.kind == ScalarKind::Float
                && s.width != 4
                && !widths.contains(&(s.width as u32 * 8))
            {
                widths.push(s.width as u32 * 8);
            }
        }
        widths.sort_unstable();
        for w in widths {
            modes.push((ExecutionMode::SignedZeroInfNanPreserve, w));
        }
    }
    if modes.is_empty() {
        return;
    }
    let needs_extension = options.target_env.spirv_version() < (1, 4);
    if needs_extension && !crate::ir::extensions::allowed(&options.allowed_extensions, EXTENSION) {
        diags.push(
            Diagnostic::error(
                codes::FLOAT_CONTROLS_UNAVAILABLE,
                format!(
                    "`{}` needs {EXTENSION}, which -fspv-extension does not allow for {}",
                    if options.denorm.is_some_and(|d| d != DenormMode::Any) {
                        "-denorm"
                    } else {
                        "-Gis"
                    },
                    options.target_env.name()
                ),
            )
            .note(format!(
                "add -fspv-extension={EXTENSION}, or target SPIR-V 1.4 or later (e.g. -fspv-target-env=vulkan1.2), where float controls are core"
            )),
        );
        return;
    }
    for ep in &mut module.entry_points {
        for &(mode, width) in &modes {
            if !ep
                .execution_modes
                .iter()
                .any(|(m, ops)| *m == mode && ops.first() == Some(&width))
            {
                ep.execution_modes.push((mode, vec![width]));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::TargetEnv;
    use crate::ir::build::{FunctionBuilder, add_compute_entry};

    fn module() -> Module {
        let mut m = Module::default();
        m.scalar_type(Scalar::F16);
        let fb = FunctionBuilder::new(&mut m, "main");
        let f = fb.finish();
        add_compute_entry(&mut m, "main", f);
        m
    }

    fn options(denorm: Option<DenormMode>, gis: bool, env: TargetEnv) -> PipelineOptions {
        PipelineOptions {
            denorm,
            ieee_strict: gis,
            target_env: env,
            ..PipelineOptions::new(3)
        }
    }

    #[test]
    fn modes_of_each_option() {
        let mut m = module();
        let mut d = Diagnostics::new();
        run(
            &mut m,
            &options(Some(DenormMode::Preserve), true, TargetEnv::Vulkan1_1),
            &mut d,
        );
        assert!(d.is_empty());
        assert_eq!(
            m.entry_points[0].execution_modes,
            vec![
                (ExecutionMode::DenormPreserve, vec![32]),
                (ExecutionMode::SignedZeroInfNanPreserve, vec![16]),
                (ExecutionMode::SignedZeroInfNanPreserve, vec![32]),
            ]
        );
        let text = crate::ir::display::module_to_string(&m);
        assert!(
            text.contains(
                "modes(DenormPreserve 32, SignedZeroInfNanPreserve 16, SignedZeroInfNanPreserve 32)"
            ),
            "{text}"
        );

        // `any` adds nothing.
        let mut m = module();
        run(
            &mut m,
            &options(Some(DenormMode::Ftz), false, TargetEnv::Vulkan1_2),
            &mut d,
        );
        assert_eq!(
            m.entry_points[0].execution_modes,
            vec![(ExecutionMode::DenormFlushToZero, vec![32])]
        );
        let mut m = module();
        run(
            &mut m,
            &options(Some(DenormMode::Any), false, TargetEnv::Vulkan1_0),
            &mut d,
        );
        assert!(m.entry_points[0].execution_modes.is_empty());
        assert!(d.is_empty());
    }

    #[test]
    fn excluded_extension_is_an_error() {
        let mut m = module();
        let mut d = Diagnostics::new();
        let mut o = options(Some(DenormMode::Ftz), false, TargetEnv::Vulkan1_0);
        o.allowed_extensions = vec!["SPV_KHR_multiview".into()];
        run(&mut m, &o, &mut d);
        assert_eq!(d.list.len(), 1);
        assert_eq!(d.list[0].code, codes::FLOAT_CONTROLS_UNAVAILABLE);
        assert!(
            d.list[0].message.contains("-denorm"),
            "{}",
            d.list[0].message
        );
        assert!(m.entry_points[0].execution_modes.is_empty());
        // Allowed on SPIR-V 1.4 whatever the list says.
        let mut m = module();
        let mut d = Diagnostics::new();
        o.target_env = TargetEnv::Vulkan1_1Spirv1_4;
        run(&mut m, &o, &mut d);
        assert!(d.is_empty());
        assert_eq!(m.entry_points[0].execution_modes.len(), 1);
    }
}
