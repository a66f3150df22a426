//! Sema's view of the options: what lowering needs from the command line,
//! and the value types of the options that only sema reads (profiles,
//! buffer and matrix layouts, register bindings). The command line's
//! `Options` builds it once per compilation.

use crate::ir::{Stage, TargetEnv};

/// What sema reads of the command line.
#[derive(Clone, Debug, Default)]
pub struct SemaOptions {
    /// `-T`; `None` when the file is checked as a library without one.
    pub profile: Option<Profile>,
    /// `-E`: the entry function.
    pub entry: String,
    /// Whether `-E` named the entry: a missing one is then an error when
    /// the file is checked as a library.
    pub entry_named: bool,
    /// `-fspv-entrypoint-name=`: the name `OpEntryPoint` gives the entry.
    pub entrypoint_name: Option<String>,
    /// `-HV 2021` or later (the default): HLSL 2021's rules, which are
    /// short-circuiting `&&`/`||`, a scalar condition for `?:` (vectors
    /// take `select`), and for-loop variables scoped to their loop.
    pub hlsl_2021: bool,
    /// `-fspv-target-env=`: what features are allowed.
    pub target_env: TargetEnv,
    /// `-enable-16bit-types`
    pub enable_16bit_types: bool,
    /// `-Zpr`, `-Zpc`
    pub matrix_layout: MatrixLayout,
    /// `-fvk-use-*-layout`
    pub layout: LayoutRule,
    /// `-fvk-{b,s,t,u}-shift N SPACE` (`SPACE` = `None` for `all`).
    pub register_shifts: Vec<(RegisterClass, u32, Option<u32>)>,
    /// `-fvk-bind-register`, `-vkbr`
    pub bind_registers: Vec<BindRegister>,
    /// `-fvk-bind-globals BINDING SET`
    pub bind_globals: Option<(u32, u32)>,
    /// `-fvk-bind-resource-heap`, `-fvk-bind-sampler-heap`,
    /// `-fvk-bind-counter-heap BINDING SET`: where the descriptor heaps
    /// live (the first free bindings of set 0 when `None`).
    pub heap_bindings: [Option<(u32, u32)>; 3],
    /// `-fspv-flatten-resource-arrays`: an array of resources takes one
    /// binding per element.
    pub flatten_resource_arrays: bool,
    /// `-fvk-auto-shift-bindings`
    pub auto_shift_bindings: bool,
    /// `-fspv-use-legacy-buffer-matrix-order`: matrices in byte-address
    /// buffers are stored row by row whatever their majorness.
    pub legacy_buffer_matrix_order: bool,
    /// `-fspv-enable-maximal-reconvergence`
    pub maximal_reconvergence: bool,
    /// `-fvk-stage-io-order=alpha`: user semantics take their locations in
    /// alphabetical order instead of declaration order.
    pub stage_io_order_alpha: bool,
    /// `-auto-binding-space N`: the descriptor set of every resource whose
    /// declaration names none (0 without the option).
    pub default_space: u32,
    /// `-fvk-support-nonzero-base-vertex`: `SV_VertexID` counts from the
    /// draw's first vertex, as in D3D (`VertexIndex - BaseVertex`).
    pub nonzero_base_vertex: bool,
    /// `-fvk-support-nonzero-base-instance`: `SV_InstanceID` likewise
    /// (`InstanceIndex - BaseInstance`).
    pub nonzero_base_instance: bool,
    /// `-fspv-extension=` (empty: every extension is allowed).
    pub allowed_extensions: Vec<String>,
    /// Source-level debug information is written (`-Zi`, `-fspv-debug=`):
    /// lowering records scopes and lines.
    pub debug_info: bool,
    /// Record what each name resolved to and each expression's type, for
    /// the language server.
    pub index: bool,
    /// `-fspv-reflect`: the writer decorates resources with their HLSL
    /// type names, which sema then spells out (`user_type`).
    pub spv_reflect: bool,
    /// `--verify-ir` (on in debug builds, tests and fuzz targets): an
    /// unused function that the clean check (`body/clean.rs`) lets skip
    /// its lowering is lowered all the same, and an internal error is
    /// reported where that lowering reports what the check said it could
    /// not.
    pub verify: bool,
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
