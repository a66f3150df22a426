//! Compiler options: what the `hlslc` flags (DXC's spelling) set, and the
//! one parser of those flags ([`CommandLine::parse`], [`Options::from_args`]).

mod args;
mod oconfig;
mod predefined;
mod table;
mod views;

pub use args::{Action, Batch, CommandLine, Outputs, Reporting, help};
// The value types of the options live with the phase that reads them
// (the stage and target environment in the IR, layouts and registers in
// sema, denormals in the passes); they are named here too, where the
// options that set them are.
pub use crate::ir::{Stage, TargetEnv};
pub use crate::passes::DenormMode;
pub use crate::sema::options::{BindRegister, LayoutRule, MatrixLayout, Profile, RegisterClass};

use crate::diag::{Diagnostic, codes};
use std::path::PathBuf;

/// Source-level debug information (`-Zi`, `-fspv-debug=`) as DXC's
/// options combine: a `-fspv-debug=` category overrules `-Zi`, and
/// `vulkan`/`vulkan-with-source` overrule the other categories.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DebugInfoOptions {
    /// `-Zi`
    pub zi: bool,
    /// `-fspv-debug=vulkan` (`Some(false)`) or `vulkan-with-source`
    /// (`Some(true)`), the last one given.
    pub vulkan: Option<bool>,
    /// `-fspv-debug=` `file`, `source`, `line` or `tool` was given: DXC's
    /// `OpSource`/`OpLine` debug information, which hlslc does not write.
    pub legacy: bool,
    /// The command line, recorded for `DebugEntryPoint` when debug
    /// information is written.
    pub command_line: String,
}

impl DebugInfoOptions {
    /// Whether NonSemantic.Shader.DebugInfo.100 is written, and then
    /// whether with the source text: `-Zi` alone means
    /// `vulkan-with-source`.
    pub fn nonsemantic(&self) -> Option<bool> {
        match self.vulkan {
            Some(with_source) => Some(with_source),
            None if self.zi && !self.legacy => Some(true),
            None => None,
        }
    }
}

/// What `hlslc` writes (`--emit`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum EmitKind {
    /// The SPIR-V module (the default).
    #[default]
    Spirv,
    /// SPIR-V disassembly.
    Asm,
    /// The IR after lowering and the optimisation pipeline.
    Ir,
}

/// Everything that controls one compilation.
#[derive(Clone, Debug)]
pub struct Options {
    /// `-T`; `None` only with `-fsyntax-only` and `-P`.
    pub profile: Option<Profile>,
    /// `-E` (default `main`).
    pub entry: String,
    /// Whether `-E` (or the language server's `entry` setting) named the
    /// entry. [`crate::check`] then reports a missing entry function
    /// (E0601); otherwise a file without one is checked as a library.
    /// [`crate::compile`] always needs the entry.
    pub entry_named: bool,
    /// `-D NAME[=VALUE]`, in order.
    pub defines: Vec<(String, Option<String>)>,
    /// `-I DIR`, in order.
    pub include_dirs: Vec<PathBuf>,
    /// `-HV` (2016, 2017, 2018, 2021, 202x); default 2021.
    pub hlsl_version: u32,
    /// `-fspv-target-env=` (default Vulkan 1.0).
    pub target_env: TargetEnv,
    /// `-O0`…`-O3` (`-Od` is 0); DXC's default is 3.
    pub opt_level: u8,
    /// `-enable-16bit-types`
    pub enable_16bit_types: bool,
    /// `-Zpr`, `-Zpc`
    pub matrix_layout: MatrixLayout,
    /// `-fvk-use-dx-layout`, `-fvk-use-gl-layout`, `-fvk-use-scalar-layout`
    pub layout: LayoutRule,
    /// `-fvk-{b,s,t,u}-shift N SPACE` (`SPACE` = `None` for `all`).
    pub register_shifts: Vec<(RegisterClass, u32, Option<u32>)>,
    /// `-fvk-bind-register`, `-vkbr`
    pub bind_registers: Vec<BindRegister>,
    /// `-fvk-bind-globals BINDING SET`
    pub bind_globals: Option<(u32, u32)>,
    /// `-fvk-auto-shift-bindings`
    pub auto_shift_bindings: bool,
    /// `-denorm`
    pub denorm: Option<DenormMode>,
    /// `-Gis`: IEEE strictness → SignedZeroInfNanPreserve.
    pub ieee_strict: bool,
    /// `-fvk-invert-y`
    pub invert_y: bool,
    /// `-fvk-use-dx-position-w`
    pub dx_position_w: bool,
    /// `-fspv-reflect`: decorate with HLSL semantics and counter buffers.
    pub spv_reflect: bool,
    /// `-fspv-entrypoint-name=`
    pub entrypoint_name: Option<String>,
    /// `-Zi`, `-fspv-debug=`: source-level debug information.
    pub debug_info: DebugInfoOptions,
    /// `-fspv-extension=` (empty: allow all).
    pub allowed_extensions: Vec<String>,
    /// `--emit`: what [`Artifact`](crate::Artifact) holds.
    pub emit: EmitKind,
    /// `-Fre`: produce reflection ([`crate::reflect`]) with the SPIR-V.
    pub reflect: bool,
    /// Stop the pass pipeline after the pass of this name (one of
    /// `passes::ir_after_names`): what `--emit ir` prints, and what pass file
    /// tests check.
    pub ir_after_pass: Option<String>,
    /// `-auto-binding-space N`: the descriptor set of resources without an
    /// explicit space.
    pub auto_binding_space: Option<u32>,
    /// `-fvk-bind-resource-heap BINDING SET`: where `ResourceDescriptorHeap`
    /// lives (DXC's default when `None`).
    pub resource_heap_binding: Option<(u32, u32)>,
    /// `-fvk-bind-sampler-heap BINDING SET`
    pub sampler_heap_binding: Option<(u32, u32)>,
    /// `-fvk-bind-counter-heap BINDING SET`
    pub counter_heap_binding: Option<(u32, u32)>,
    /// `-fvk-stage-io-order=alpha|decl`: how stage input/output locations are
    /// assigned (declaration order by default).
    pub stage_io_order_alpha: bool,
    /// `-fspv-flatten-resource-arrays`: each element of a resource array
    /// gets its own binding.
    pub flatten_resource_arrays: bool,
    /// `-fspv-use-unknown-image-format`: storage images without
    /// `[[vk::image_format]]` get format Unknown instead of one inferred from
    /// the element type.
    pub unknown_image_format: bool,
    /// `-fvk-support-nonzero-base-instance`: SV_InstanceID counts from the
    /// draw's first instance as D3D does (InstanceIndex - BaseInstance).
    pub nonzero_base_instance: bool,
    /// `-fvk-support-nonzero-base-vertex`: SV_VertexID likewise.
    pub nonzero_base_vertex: bool,
    /// `-fspv-enable-maximal-reconvergence`: every entry point gets the
    /// `MaximallyReconvergesKHR` execution mode.
    pub maximal_reconvergence: bool,
    /// `-fspv-use-legacy-buffer-matrix-order`: matrices in structured and
    /// byte-address buffers keep DXC's older (transposed) element order.
    pub legacy_buffer_matrix_order: bool,
    /// `-fspv-preserve-interface`: declare the stage inputs and outputs
    /// no entry point uses (DXC leaves them out by default).
    pub preserve_interface: bool,
    /// `-fspv-preserve-bindings`: declare the resources (everything with
    /// a binding) no entry point uses (DXC leaves them out by default).
    pub preserve_bindings: bool,
    /// `--verify-ir`: check the IR's invariants (`src/ir/valid`)
    /// after lowering and after every pass, as cranelift's
    /// `enable_verifier` setting does. A violation is a bug in hlslc: it
    /// becomes an internal-error diagnostic (E0003) naming the pass, the
    /// pipeline stops, and no SPIR-V is written. Costs one walk of the
    /// module per pass. On by default in debug builds and in the crate's
    /// own tests (so that `cargo test --release` checks every module its
    /// tests compile, whichever way they make their options); the
    /// integration tests and the fuzz targets pass `--verify-ir`.
    pub verify_ir: bool,
    /// Record what each name resolved to and each expression's type
    /// ([`Compilation::index`](crate::Compilation::index)), for the
    /// language server. Off for the command line: lowering then does
    /// not record anything.
    pub index: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            profile: None,
            entry: "main".to_string(),
            entry_named: false,
            defines: Vec::new(),
            include_dirs: Vec::new(),
            hlsl_version: 2021,
            target_env: TargetEnv::default(),
            opt_level: 3,
            enable_16bit_types: false,
            matrix_layout: MatrixLayout::default(),
            layout: LayoutRule::default(),
            register_shifts: Vec::new(),
            bind_registers: Vec::new(),
            bind_globals: None,
            auto_shift_bindings: false,
            denorm: None,
            ieee_strict: false,
            invert_y: false,
            dx_position_w: false,
            spv_reflect: false,
            entrypoint_name: None,
            debug_info: DebugInfoOptions::default(),
            allowed_extensions: Vec::new(),
            emit: EmitKind::default(),
            reflect: false,
            ir_after_pass: None,
            auto_binding_space: None,
            resource_heap_binding: None,
            sampler_heap_binding: None,
            counter_heap_binding: None,
            stage_io_order_alpha: false,
            flatten_resource_arrays: false,
            unknown_image_format: false,
            nonzero_base_instance: false,
            nonzero_base_vertex: false,
            legacy_buffer_matrix_order: false,
            maximal_reconvergence: false,
            preserve_interface: false,
            preserve_bindings: false,
            verify_ir: cfg!(any(debug_assertions, test)),
            index: false,
        }
    }
}

impl Options {
    /// The options of a DXC-style command line (without the program name),
    /// parsed by the parser the `hlslc` binary uses; input files and
    /// outputs (`-Fo`, …) are accepted and left out, as are warnings about
    /// options accepted without effect: [`CommandLine::parse`] has them
    /// all. `Err` holds every error.
    ///
    /// ```
    /// let o = hlslc::Options::from_args(["-T", "ps_6_0", "-E", "PSMain", "-O1"]).unwrap();
    /// assert_eq!(o.entry, "PSMain");
    /// assert_eq!(o.opt_level, 1);
    /// let errors = hlslc::Options::from_args(["-fvk-b-shift", "1"]).unwrap_err();
    /// assert!(errors[0].message.contains("needs 2 values"));
    /// ```
    pub fn from_args<I, S>(args: I) -> Result<Options, Vec<Diagnostic>>
    where
        I: IntoIterator<Item = S>,
        S: AsRef<str>,
    {
        let cl = CommandLine::parse(args);
        if cl.has_errors() {
            Err(cl
                .diagnostics
                .into_iter()
                .filter(Diagnostic::is_error)
                .collect())
        } else {
            Ok(cl.options)
        }
    }

    /// What these options ask for that hlslc cannot do yet: one error
    /// (E0004) per request, naming the option as DXC spells it. The
    /// compiler's entry points ([`crate::compile`] and the others) refuse
    /// to run with any, so a request is never silently ignored.
    pub fn unsupported(&self) -> Vec<Diagnostic> {
        [("-fspv-use-unknown-image-format", self.unknown_image_format)]
            .into_iter()
            .filter(|&(_, set)| set)
            .map(|(flag, _)| {
                Diagnostic::error(codes::UNSUPPORTED, format!("not supported yet: {flag}"))
            })
            .collect()
    }
}

#[cfg(test)]
mod tests;
