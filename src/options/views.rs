//! Each phase's view of the options, built once per compilation from the
//! command line's [`Options`]: the preprocessor's, sema's, the pass
//! pipeline's, the SPIR-V writer's and reflection's. A phase reads only
//! its own view, so what each phase depends on is written in one place.

use super::{LayoutRule, Options, predefined};
use crate::back::spv;
use crate::front::preprocess::PreprocessOptions;
use crate::ir::KeepUnused;
use crate::passes::PipelineOptions;
use crate::reflect::ReflectOptions;
use crate::sema::options::SemaOptions;

impl Options {
    /// The preprocessor's: `-D`, `-I` and the macros DXC predefines for
    /// the profile.
    pub(crate) fn preprocess_options(&self) -> PreprocessOptions {
        PreprocessOptions {
            defines: self.defines.clone(),
            include_dirs: self.include_dirs.clone(),
            predefined: predefined::predefined_macros(self),
        }
    }

    /// Sema's.
    pub(crate) fn sema_options(&self) -> SemaOptions {
        SemaOptions {
            profile: self.profile,
            entry: self.entry.clone(),
            entry_named: self.entry_named,
            entrypoint_name: self.entrypoint_name.clone(),
            hlsl_2021: self.hlsl_version >= 2021,
            target_env: self.target_env,
            enable_16bit_types: self.enable_16bit_types,
            matrix_layout: self.matrix_layout,
            layout: self.layout,
            register_shifts: self.register_shifts.clone(),
            bind_registers: self.bind_registers.clone(),
            bind_globals: self.bind_globals,
            heap_bindings: [
                self.resource_heap_binding,
                self.sampler_heap_binding,
                self.counter_heap_binding,
            ],
            auto_shift_bindings: self.auto_shift_bindings,
            flatten_resource_arrays: self.flatten_resource_arrays,
            default_space: self.auto_binding_space.unwrap_or(0),
            stage_io_order_alpha: self.stage_io_order_alpha,
            maximal_reconvergence: self.maximal_reconvergence,
            legacy_buffer_matrix_order: self.legacy_buffer_matrix_order,
            nonzero_base_vertex: self.nonzero_base_vertex,
            nonzero_base_instance: self.nonzero_base_instance,
            allowed_extensions: self.allowed_extensions.clone(),
            debug_info: self.debug_info.nonsemantic().is_some(),
            index: self.index,
            spv_reflect: self.spv_reflect,
            verify: self.verify_ir,
        }
    }

    /// The pass pipeline's.
    pub(crate) fn pipeline_options(&self) -> PipelineOptions {
        PipelineOptions {
            opt_level: self.opt_level,
            denorm: self.denorm,
            ieee_strict: self.ieee_strict,
            target_env: self.target_env,
            allowed_extensions: self.allowed_extensions.clone(),
            stop_after: self.ir_after_pass.clone(),
            verify: self.verify_ir,
            flatten_resource_arrays: self.flatten_resource_arrays,
        }
    }

    /// The SPIR-V writer's.
    pub(crate) fn writer_options(&self) -> spv::Options {
        spv::Options {
            target_env: self.target_env,
            debug_names: true,
            entry_point_name: self.entrypoint_name.clone(),
            invert_y: self.invert_y,
            dx_position_w: self.dx_position_w,
            spv_reflect: self.spv_reflect,
            allowed_extensions: self.allowed_extensions.clone(),
            keep_unused: self.keep_unused(),
        }
    }

    /// Reflection's: what the JSON says of the compilation.
    pub(crate) fn reflect_options(&self) -> ReflectOptions {
        ReflectOptions {
            target_env: self.target_env,
            profile: self.profile.map(|p| p.to_string()),
            layout_rule: match self.layout {
                LayoutRule::Relaxed => "relaxed",
                LayoutRule::Dx => "dx",
                LayoutRule::Gl => "gl",
                LayoutRule::Scalar => "scalar",
            },
            entry_point_name: self.entrypoint_name.clone(),
            keep_unused: self.keep_unused(),
        }
    }

    /// What the module declares although no entry point uses it: the
    /// writer and reflection agree on it.
    fn keep_unused(&self) -> KeepUnused {
        KeepUnused {
            bindings: self.preserve_bindings,
            interface: self.preserve_interface,
        }
    }
}
