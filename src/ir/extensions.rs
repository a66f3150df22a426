//! The SPIR-V extensions hlslc knows: which SPIR-V version took each into
//! core, which version each needs at least, and whether `-fspv-extension`
//! lets a module use it. The options check the names given on the command
//! line against this table; the backend decides from it which extensions
//! a module declares (`back/spv/requirements.rs`).

/// One SPIR-V extension.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Extension {
    pub name: &'static str,
    /// The SPIR-V version whose core has it: from there on, modules use
    /// the feature without declaring the extension.
    pub core_since: Option<(u8, u8)>,
    /// The lowest SPIR-V version the extension may be used with.
    pub min_version: (u8, u8),
}

const fn ext(name: &'static str) -> Extension {
    Extension {
        name,
        core_since: None,
        min_version: (1, 0),
    }
}

const fn core(name: &'static str, since: (u8, u8)) -> Extension {
    Extension {
        name,
        core_since: Some(since),
        min_version: (1, 0),
    }
}

const fn core_needs(name: &'static str, since: (u8, u8), min_version: (u8, u8)) -> Extension {
    Extension {
        name,
        core_since: Some(since),
        min_version,
    }
}

const fn needs(name: &'static str, min_version: (u8, u8)) -> Extension {
    Extension {
        name,
        core_since: None,
        min_version,
    }
}

/// Sorted by name. The versions are those of each extension's
/// specification ("Dependencies") and of the SPIR-V specification's list
/// of extensions folded into each version.
const EXTENSIONS: &[Extension] = &[
    ext("SPV_AMDX_shader_enqueue"),
    ext("SPV_AMD_shader_early_and_late_fragment_tests"),
    core("SPV_EXT_demote_to_helper_invocation", (1, 6)),
    ext("SPV_EXT_descriptor_heap"),
    core("SPV_EXT_descriptor_indexing", (1, 5)),
    ext("SPV_EXT_fragment_fully_covered"),
    ext("SPV_EXT_fragment_invocation_density"),
    ext("SPV_EXT_fragment_shader_interlock"),
    needs("SPV_EXT_mesh_shader", (1, 4)),
    core("SPV_EXT_physical_storage_buffer", (1, 5)),
    ext("SPV_EXT_shader_atomic_float_add"),
    ext("SPV_EXT_shader_atomic_float_min_max"),
    ext("SPV_EXT_shader_image_int64"),
    ext("SPV_EXT_shader_stencil_export"),
    ext("SPV_EXT_shader_viewport_index_layer"),
    ext("SPV_GOOGLE_hlsl_functionality1"),
    ext("SPV_GOOGLE_user_type"),
    core("SPV_KHR_16bit_storage", (1, 3)),
    core("SPV_KHR_8bit_storage", (1, 5)),
    ext("SPV_KHR_compute_shader_derivatives"),
    ext("SPV_KHR_cooperative_matrix"),
    core("SPV_KHR_device_group", (1, 3)),
    core("SPV_KHR_float_controls", (1, 4)),
    ext("SPV_KHR_fragment_shader_barycentric"),
    ext("SPV_KHR_fragment_shading_rate"),
    core("SPV_KHR_integer_dot_product", (1, 6)),
    ext("SPV_KHR_maximal_reconvergence"),
    core("SPV_KHR_multiview", (1, 3)),
    core("SPV_KHR_non_semantic_info", (1, 6)),
    core("SPV_KHR_physical_storage_buffer", (1, 5)),
    ext("SPV_KHR_post_depth_coverage"),
    ext("SPV_KHR_quad_control"),
    needs("SPV_KHR_ray_query", (1, 4)),
    needs("SPV_KHR_ray_tracing", (1, 4)),
    ext("SPV_KHR_shader_clock"),
    core("SPV_KHR_shader_draw_parameters", (1, 3)),
    core("SPV_KHR_storage_buffer_storage_class", (1, 3)),
    ext("SPV_KHR_subgroup_uniform_control_flow"),
    core("SPV_KHR_terminate_invocation", (1, 6)),
    ext("SPV_KHR_untyped_pointers"),
    core("SPV_KHR_variable_pointers", (1, 3)),
    core_needs("SPV_KHR_vulkan_memory_model", (1, 5), (1, 3)),
    needs("SPV_KHR_workgroup_memory_explicit_layout", (1, 4)),
    ext("SPV_NV_compute_shader_derivatives"),
    ext("SPV_NV_fragment_shader_barycentric"),
    ext("SPV_NV_mesh_shader"),
    ext("SPV_NV_ray_tracing"),
    ext("SPV_NV_shader_subgroup_partitioned"),
    ext("SPV_NV_viewport_array2"),
];

/// The extension named `name`, when hlslc knows it.
pub fn lookup(name: &str) -> Option<&'static Extension> {
    EXTENSIONS
        .binary_search_by(|e| e.name.cmp(name))
        .ok()
        .map(|i| &EXTENSIONS[i])
}

/// The names of every extension hlslc knows, sorted.
pub fn known_names() -> impl Iterator<Item = &'static str> {
    EXTENSIONS.iter().map(|e| e.name)
}

/// Whether `-fspv-extension` (`allowed`, empty when not given) lets a
/// module use `name`: everything when the option is absent; otherwise the
/// names it lists, and every `SPV_KHR_*` one with `-fspv-extension=KHR`.
pub fn allowed(allowed: &[String], name: &str) -> bool {
    allowed.is_empty()
        || allowed
            .iter()
            .any(|a| a == name || (a == "KHR" && name.starts_with("SPV_KHR_")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_is_sorted_and_finds_every_name() {
        assert!(EXTENSIONS.windows(2).all(|w| w[0].name < w[1].name));
        for e in EXTENSIONS {
            assert_eq!(lookup(e.name), Some(e));
        }
        assert_eq!(lookup("SPV_KHR_unknown"), None);
    }

    #[test]
    fn khr_allows_every_khr_extension_and_nothing_else() {
        let khr = vec!["KHR".to_string()];
        assert!(allowed(&khr, "SPV_KHR_multiview"));
        assert!(!allowed(&khr, "SPV_EXT_mesh_shader"));
        assert!(allowed(&[], "SPV_EXT_mesh_shader"));
        let one = vec!["SPV_NV_mesh_shader".to_string()];
        assert!(allowed(&one, "SPV_NV_mesh_shader"));
        assert!(!allowed(&one, "SPV_KHR_multiview"));
    }
}
