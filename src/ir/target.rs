//! What a module is compiled for: the shader stage of each entry point and
//! the target environment, which sema, the passes and the backend consult.

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

    /// The name with its indefinite article: `a vertex`, `an amplification`.
    pub fn with_article(self) -> String {
        let name = self.name();
        let article = if name.starts_with(['a', 'e', 'i', 'o', 'u']) {
            "an"
        } else {
            "a"
        };
        format!("{article} {name}")
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
    /// The spelling `-fspv-target-env=` takes (the inverse of [`TargetEnv::parse`]).
    pub fn flag(self) -> &'static str {
        match self {
            TargetEnv::Vulkan1_0 => "vulkan1.0",
            TargetEnv::Vulkan1_1 => "vulkan1.1",
            TargetEnv::Vulkan1_1Spirv1_4 => "vulkan1.1spirv1.4",
            TargetEnv::Vulkan1_2 => "vulkan1.2",
            TargetEnv::Vulkan1_3 => "vulkan1.3",
            TargetEnv::Universal1_5 => "universal1.5",
        }
    }
    /// The oldest Vulkan environment that consumes SPIR-V `version` or newer.
    pub fn oldest_vulkan_with(version: (u8, u8)) -> TargetEnv {
        [
            TargetEnv::Vulkan1_0,
            TargetEnv::Vulkan1_1,
            TargetEnv::Vulkan1_1Spirv1_4,
            TargetEnv::Vulkan1_2,
        ]
        .into_iter()
        .find(|e| e.spirv_version() >= version)
        .unwrap_or(TargetEnv::Vulkan1_3)
    }
    /// Whether the universal (non-Vulkan) rules apply: `universal1.5`.
    pub fn is_universal(self) -> bool {
        self == TargetEnv::Universal1_5
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
