//! Compiler options: what the `hlslc` flags (DXC's spelling) set, and the
//! one parser of those flags ([`CommandLine::parse`], [`Options::from_args`]).

mod args;
mod table;

pub use args::{Action, Batch, CommandLine, Outputs, Reporting, help};

use crate::diag::{Diagnostic, codes};
use std::path::PathBuf;

/// A shader stage, as named by the first part of a profile (`cs_6_0`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Stage {
    /// `vs`
    Vertex,
    /// `ps`
    Pixel,
    /// `gs`
    Geometry,
    /// `hs`
    Hull,
    /// `ds`
    Domain,
    /// `cs`
    Compute,
    /// `ms`
    Mesh,
    /// `as`
    Amplification,
    /// `lib_6_x`: a library of entry points chosen by attributes.
    Library,
    /// `[shader("raygeneration")]` in a library.
    RayGeneration,
    /// `[shader("intersection")]` in a library.
    Intersection,
    /// `[shader("anyhit")]` in a library.
    AnyHit,
    /// `[shader("closesthit")]` in a library.
    ClosestHit,
    /// `[shader("miss")]` in a library.
    Miss,
    /// `[shader("callable")]` in a library.
    Callable,
    /// `[shader("node")]` in a library (SM 6.8 work graphs): a compute
    /// shader enqueued by the graph (SPV_AMDX_shader_enqueue).
    Node,
}

impl Stage {
    /// The stage's name in prose and in reflection: `vertex`, `pixel`, …
    pub fn name(self) -> &'static str {
        match self {
            Stage::Vertex => "vertex",
            Stage::Pixel => "pixel",
            Stage::Geometry => "geometry",
            Stage::Hull => "hull",
            Stage::Domain => "domain",
            Stage::Compute => "compute",
            Stage::Mesh => "mesh",
            Stage::Amplification => "amplification",
            Stage::Library => "library",
            Stage::RayGeneration => "ray generation",
            Stage::Intersection => "intersection",
            Stage::AnyHit => "any-hit",
            Stage::ClosestHit => "closest-hit",
            Stage::Miss => "miss",
            Stage::Callable => "callable",
            Stage::Node => "node",
        }
    }

    /// The profile prefix: `vs`, `ps`, `gs`, `hs`, `ds`, `cs`, `ms`, `as`, `lib`.
    pub fn prefix(self) -> &'static str {
        match self {
            Stage::Vertex => "vs",
            Stage::Pixel => "ps",
            Stage::Geometry => "gs",
            Stage::Hull => "hs",
            Stage::Domain => "ds",
            Stage::Compute => "cs",
            Stage::Mesh => "ms",
            Stage::Amplification => "as",
            // Ray tracing stages have no profile of their own: they are
            // entries of a library.
            Stage::Library
            | Stage::RayGeneration
            | Stage::Intersection
            | Stage::AnyHit
            | Stage::ClosestHit
            | Stage::Miss
            | Stage::Callable
            | Stage::Node => "lib",
        }
    }

    /// The value DXC gives `__SHADER_TARGET_STAGE` (`__SHADER_STAGE_PIXEL` = 0, …).
    pub fn dxc_stage_number(self) -> u32 {
        match self {
            Stage::Pixel => 0,
            Stage::Vertex => 1,
            Stage::Geometry => 2,
            Stage::Hull => 3,
            Stage::Domain => 4,
            Stage::Compute => 5,
            Stage::Library => 6,
            Stage::RayGeneration => 7,
            Stage::Intersection => 8,
            Stage::AnyHit => 9,
            Stage::ClosestHit => 10,
            Stage::Miss => 11,
            Stage::Callable => 12,
            Stage::Mesh => 13,
            Stage::Amplification => 14,
            Stage::Node => 15,
        }
    }

    /// The stage named by a `[shader("…")]` attribute.
    pub fn from_attribute_name(s: &str) -> Option<Stage> {
        Some(match s {
            "vertex" => Stage::Vertex,
            "pixel" => Stage::Pixel,
            "geometry" => Stage::Geometry,
            "hull" => Stage::Hull,
            "domain" => Stage::Domain,
            "compute" => Stage::Compute,
            "mesh" => Stage::Mesh,
            "amplification" => Stage::Amplification,
            "raygeneration" => Stage::RayGeneration,
            "intersection" => Stage::Intersection,
            "anyhit" => Stage::AnyHit,
            "closesthit" => Stage::ClosestHit,
            "miss" => Stage::Miss,
            "callable" => Stage::Callable,
            "node" => Stage::Node,
            _ => return None,
        })
    }

    /// The six ray tracing stages (DXR), entries of `lib_6_3`+ libraries.
    pub fn is_ray_tracing(self) -> bool {
        matches!(
            self,
            Stage::RayGeneration
                | Stage::Intersection
                | Stage::AnyHit
                | Stage::ClosestHit
                | Stage::Miss
                | Stage::Callable
        )
    }
}

/// A target profile such as `cs_6_0`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Profile {
    /// `cs`
    pub stage: Stage,
    /// The shader model's major version: `6`.
    pub major: u32,
    /// Its minor version: `0`.
    pub minor: u32,
}

impl Profile {
    /// Parses `cs_6_0`, `ps_5_1`, `lib_6_3`, `vs_6_x`? (no: minors must be digits).
    pub fn parse(s: &str) -> Option<Profile> {
        let mut it = s.split('_');
        let stage = match it.next()? {
            "vs" => Stage::Vertex,
            "ps" => Stage::Pixel,
            "gs" => Stage::Geometry,
            "hs" => Stage::Hull,
            "ds" => Stage::Domain,
            "cs" => Stage::Compute,
            "ms" => Stage::Mesh,
            "as" => Stage::Amplification,
            "lib" => Stage::Library,
            _ => return None,
        };
        let major: u32 = it.next()?.parse().ok()?;
        let minor: u32 = it.next()?.parse().ok()?;
        if it.next().is_some() || !(4..=6).contains(&major) || minor > 10 {
            return None;
        }
        Some(Profile {
            stage,
            major,
            minor,
        })
    }
}

impl std::fmt::Display for Profile {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}_{}_{}", self.stage.prefix(), self.major, self.minor)
    }
}

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

/// `-fspv-target-env=…`
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum TargetEnv {
    /// SPIR-V 1.0
    #[default]
    Vulkan1_0,
    /// SPIR-V 1.3
    Vulkan1_1,
    /// SPIR-V 1.4 on Vulkan 1.1 (`vulkan1.1spirv1.4`)
    Vulkan1_1Spirv1_4,
    /// SPIR-V 1.5 under the universal (non-Vulkan) rules (`universal1.5`):
    /// e.g. libraries of `export` functions for a linker. Ordered as
    /// SPIRV-Tools orders its environments (after vulkan1.1spirv1.4,
    /// before vulkan1.2), which is how DXC compares them.
    Universal1_5,
    /// SPIR-V 1.5
    Vulkan1_2,
    /// SPIR-V 1.6
    Vulkan1_3,
}

impl TargetEnv {
    /// Parses the spelling `-fspv-target-env=` takes: `vulkan1.1`.
    pub fn parse(s: &str) -> Option<TargetEnv> {
        Some(match s {
            "vulkan1.0" => TargetEnv::Vulkan1_0,
            "vulkan1.1" => TargetEnv::Vulkan1_1,
            "vulkan1.1spirv1.4" => TargetEnv::Vulkan1_1Spirv1_4,
            "vulkan1.2" => TargetEnv::Vulkan1_2,
            "vulkan1.3" => TargetEnv::Vulkan1_3,
            "universal1.5" => TargetEnv::Universal1_5,
            _ => return None,
        })
    }
    /// The SPIR-V version (major, minor) this environment consumes.
    pub fn spirv_version(self) -> (u8, u8) {
        match self {
            TargetEnv::Vulkan1_0 => (1, 0),
            TargetEnv::Vulkan1_1 => (1, 3),
            TargetEnv::Vulkan1_1Spirv1_4 => (1, 4),
            TargetEnv::Vulkan1_2 | TargetEnv::Universal1_5 => (1, 5),
            TargetEnv::Vulkan1_3 => (1, 6),
        }
    }
    /// The name `spirv-val --target-env` takes.
    pub fn name(self) -> &'static str {
        match self {
            TargetEnv::Vulkan1_0 => "vulkan1.0",
            TargetEnv::Vulkan1_1 => "vulkan1.1",
            TargetEnv::Vulkan1_1Spirv1_4 => "vulkan1.1spv1.4",
            TargetEnv::Vulkan1_2 => "vulkan1.2",
            TargetEnv::Vulkan1_3 => "vulkan1.3",
            TargetEnv::Universal1_5 => "spv1.5",
        }
    }
}

/// Memory layout rules for buffers (`-fvk-use-*-layout`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum LayoutRule {
    /// DXC's default: relaxed std140 for cbuffers, relaxed std430 for
    /// structured buffers.
    #[default]
    Relaxed,
    /// `-fvk-use-dx-layout`: D3D's packing.
    Dx,
    /// `-fvk-use-gl-layout`: strict std140/std430.
    Gl,
    /// `-fvk-use-scalar-layout`: scalar block layout.
    Scalar,
}

/// Default matrix memory layout (`-Zpc`, `-Zpr`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum MatrixLayout {
    /// `-Zpc`, the default: columns are contiguous.
    #[default]
    ColumnMajor,
    /// `-Zpr`: rows are contiguous.
    RowMajor,
}

/// `-denorm`
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DenormMode {
    /// `any`: as the driver does (no execution mode).
    Any,
    /// `preserve`: `DenormPreserve 32`.
    Preserve,
    /// `ftz`: `DenormFlushToZero 32`.
    Ftz,
}

/// A register class letter of `register(xN)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RegisterClass {
    /// `b`: constant buffers
    B,
    /// `s`: samplers
    S,
    /// `t`: shader resource views
    T,
    /// `u`: unordered access views
    U,
}

impl RegisterClass {
    /// The class that the letter of `register(xN)` names.
    pub fn from_letter(c: char) -> Option<RegisterClass> {
        Some(match c {
            'b' => RegisterClass::B,
            's' => RegisterClass::S,
            't' => RegisterClass::T,
            'u' => RegisterClass::U,
            _ => return None,
        })
    }
}

/// `-fvk-bind-register xN M BINDING SET`
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct BindRegister {
    /// The register's letter: `t` of `t3`.
    pub class: RegisterClass,
    /// Its number: `3` of `t3`.
    pub register: u32,
    /// The register space (`space1`).
    pub space: u32,
    /// The Vulkan binding it gets.
    pub binding: u32,
    /// The descriptor set it gets.
    pub set: u32,
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
    /// `-fspv-use-legacy-buffer-matrix-order`: matrices in structured and
    /// byte-address buffers keep DXC's older (transposed) element order.
    pub legacy_buffer_matrix_order: bool,
    /// `-fspv-preserve-interface`: keep unused stage inputs and outputs.
    pub preserve_interface: bool,
    /// `-fspv-preserve-bindings`: keep unused resource declarations.
    pub preserve_bindings: bool,
    /// `--verify-ir`: check the IR's invariants (`src/ir/valid`)
    /// after lowering and after every pass, as cranelift's
    /// `enable_verifier` setting does. A violation is a bug in hlslc: it
    /// becomes an internal-error diagnostic (E0003) naming the pass, the
    /// pipeline stops, and no SPIR-V is written. Costs one walk of the
    /// module per pass. On by default in debug builds only; the tests and
    /// the fuzz targets turn it on in every build profile.
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
            preserve_interface: false,
            preserve_bindings: false,
            verify_ir: cfg!(debug_assertions),
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
        [
            (
                "-fspv-flatten-resource-arrays",
                self.flatten_resource_arrays,
            ),
            ("-fvk-stage-io-order=alpha", self.stage_io_order_alpha),
            ("-fspv-use-unknown-image-format", self.unknown_image_format),
            (
                "-fvk-support-nonzero-base-instance",
                self.nonzero_base_instance,
            ),
            ("-fvk-support-nonzero-base-vertex", self.nonzero_base_vertex),
            (
                "-fspv-use-legacy-buffer-matrix-order",
                self.legacy_buffer_matrix_order,
            ),
            ("-fspv-preserve-interface", self.preserve_interface),
            ("-fspv-preserve-bindings", self.preserve_bindings),
            ("-auto-binding-space", self.auto_binding_space.is_some()),
            (
                "-fvk-bind-resource-heap",
                self.resource_heap_binding.is_some(),
            ),
            (
                "-fvk-bind-sampler-heap",
                self.sampler_heap_binding.is_some(),
            ),
            (
                "-fvk-bind-counter-heap",
                self.counter_heap_binding.is_some(),
            ),
        ]
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
