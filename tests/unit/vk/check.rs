//! Checks a dispatch request against the module and the device before any
//! Vulkan object is made: what Vulkan calls invalid usage (a layout that does
//! not match the shader, limits exceeded, unsupported formats) is undefined
//! behaviour in the driver, so it must become an error message here.

use super::interface::{self, Count};
use super::resource::{ImageDesc, Resource, ResourceKind, texel_size};
use super::{Runner, on};
use ash::vk;
use std::collections::BTreeMap;

/// The descriptor set layouts of a run: per set, per binding, the type and
/// the descriptor count.
pub(super) type Layout = BTreeMap<u32, BTreeMap<u32, (vk::DescriptorType, u32)>>;

impl Runner {
    /// Checks the request against the module and the device; returns the
    /// descriptor set layouts to create.
    pub(super) fn check(
        &self,
        spirv: &[u32],
        entry: &str,
        resources: &[Resource],
        push_constants: &[u8],
        groups: [u32; 3],
    ) -> Result<Layout, String> {
        let module = interface::scan(spirv)?;
        let (major, minor) = module.version;
        if (major, minor) > self.info.max_spirv_version {
            return Err(format!(
                "the module is SPIR-V {major}.{minor}; {} (Vulkan {}) accepts up to {}.{}",
                self.info.name,
                self.info.api_version_text(),
                self.info.max_spirv_version.0,
                self.info.max_spirv_version.1
            ));
        }
        let Some(ep) = module.entry_point(entry, interface::MODEL_GLCOMPUTE) else {
            let have: Vec<String> = module
                .entry_points
                .iter()
                .map(|e| format!("{} (model {})", e.name, e.model))
                .collect();
            return Err(format!(
                "no GLCompute entry point named `{entry}` in the module; it has: {}",
                if have.is_empty() {
                    "none".to_string()
                } else {
                    have.join(", ")
                }
            ));
        };
        let limits = &self.info.properties.limits;
        if let Some(size) = module.local_size(ep) {
            let invocations = size.iter().map(|&d| u64::from(d)).product::<u64>();
            if size
                .iter()
                .zip(limits.max_compute_work_group_size)
                .any(|(&s, m)| s > m)
                || invocations > u64::from(limits.max_compute_work_group_invocations)
            {
                return Err(format!(
                    "workgroup size {size:?} exceeds the device's limits (size {:?}, {} invocations)",
                    limits.max_compute_work_group_size, limits.max_compute_work_group_invocations
                ));
            }
        }
        if groups
            .iter()
            .zip(limits.max_compute_work_group_count)
            .any(|(&g, m)| g > m)
        {
            return Err(format!(
                "{groups:?} workgroups exceed maxComputeWorkGroupCount {:?}",
                limits.max_compute_work_group_count
            ));
        }
        if !push_constants.len().is_multiple_of(4)
            || push_constants.len() > limits.max_push_constants_size as usize
        {
            return Err(format!(
                "push constants of {} bytes: the size must be a multiple of 4 and at most {} (VUID-VkPushConstantRange-size-00297)",
                push_constants.len(),
                limits.max_push_constants_size
            ));
        }
        if push_constants.is_empty() && module.uses_push_constants(ep) {
            return Err(
                "the shader declares a push-constant block but no push constants were given".into(),
            );
        }

        self.resource_layout(&module, &[ep], resources)
    }

    /// The layout `resources` make, checked for consistency and against
    /// what the `entries` of `module` declare.
    pub(super) fn resource_layout(
        &self,
        module: &interface::Interface,
        entries: &[&interface::EntryPoint],
        resources: &[Resource],
    ) -> Result<Layout, String> {
        // What the resources ask for, checked for consistency.
        let mut layout: Layout = BTreeMap::new();
        let mut given: BTreeMap<(u32, u32), Vec<u32>> = BTreeMap::new();
        for r in resources {
            self.check_resource(r)?;
            let ty = r.kind.descriptor_type();
            let slot = layout
                .entry(r.set)
                .or_default()
                .entry(r.binding)
                .or_insert((ty, 0));
            if slot.0 != ty {
                return Err(format!(
                    "{}: resources of two descriptor types ({:?} and {ty:?}) at one binding",
                    r.place(),
                    slot.0
                ));
            }
            slot.1 = slot.1.max(r.array_element + 1);
            let elements = given.entry((r.set, r.binding)).or_default();
            if elements.contains(&r.array_element) {
                return Err(format!("{}: given twice", r.place()));
            }
            elements.push(r.array_element);
        }

        // What the shader declares must be there, of the right type. A
        // layout that does not match the shader makes pipeline creation
        // invalid (VUID-VkComputePipelineCreateInfo-layout-07988, -07990,
        // -07991), which drivers are free to crash on.
        for d in entries.iter().flat_map(|ep| module.descriptors(ep)) {
            let place = format!("set={} binding={}", d.set, d.binding);
            let Some(&(ty, count)) = layout.get(&d.set).and_then(|s| s.get(&d.binding)) else {
                return Err(format!(
                    "the shader declares {} at {place}, but no resource was given there",
                    d.ty.map_or("a descriptor".to_string(), |t| format!("{t:?}"))
                ));
            };
            if let Some(want) = d.ty
                && want != ty
            {
                return Err(format!(
                    "{place}: the shader declares {want:?}, the resource is {ty:?}"
                ));
            }
            match d.count {
                Count::Fixed(n) => {
                    let have = &given[&(d.set, d.binding)];
                    if let Some(missing) = (0..n).find(|i| !have.contains(i)) {
                        return Err(format!(
                            "{place}: the shader declares an array of {n}; element {missing} was not given"
                        ));
                    }
                }
                Count::Runtime if !on(self.info.features12.runtime_descriptor_array) => {
                    return Err(format!(
                        "{place}: runtime descriptor arrays are not supported by the device"
                    ));
                }
                Count::One | Count::Runtime => {
                    if d.count == Count::One && count > 1 {
                        return Err(format!(
                            "{place}: the shader declares one descriptor, {count} were given"
                        ));
                    }
                }
            }
        }
        Ok(layout)
    }

    /// Checks one resource's size and format against the device.
    pub(super) fn check_resource(&self, r: &Resource) -> Result<(), String> {
        let limits = &self.info.properties.limits;
        let len = r.data.len() as u64;
        let format_features =
            // SAFETY: a query on a valid physical device.
            |f: vk::Format| unsafe { self.instance.get_physical_device_format_properties(self.physical_device, f) };
        match &r.kind {
            ResourceKind::StorageBuffer | ResourceKind::UniformBuffer => {
                let (max, what) = if matches!(r.kind, ResourceKind::StorageBuffer) {
                    (limits.max_storage_buffer_range, "maxStorageBufferRange")
                } else {
                    (limits.max_uniform_buffer_range, "maxUniformBufferRange")
                };
                if len == 0 {
                    return Err(format!(
                        "{}: empty buffer (a descriptor range must be > 0)",
                        r.place()
                    ));
                }
                if len > u64::from(max) {
                    return Err(format!("{}: {len} bytes exceed {what} ({max})", r.place()));
                }
            }
            ResourceKind::StorageTexelBuffer { format }
            | ResourceKind::UniformTexelBuffer { format } => {
                let size = texel_size(*format).ok_or_else(|| {
                    format!(
                        "{}: {format:?} is not in tests/unit/vk/resource.rs's texel_size",
                        r.place()
                    )
                })?;
                if len == 0 || !len.is_multiple_of(u64::from(size)) {
                    return Err(format!(
                        "{}: {len} bytes is not a whole number of {format:?} texels ({size} bytes)",
                        r.place()
                    ));
                }
                if len / u64::from(size) > u64::from(limits.max_texel_buffer_elements) {
                    return Err(format!(
                        "{}: more texels than maxTexelBufferElements",
                        r.place()
                    ));
                }
                let need = if matches!(r.kind, ResourceKind::StorageTexelBuffer { .. }) {
                    vk::FormatFeatureFlags::STORAGE_TEXEL_BUFFER
                } else {
                    vk::FormatFeatureFlags::UNIFORM_TEXEL_BUFFER
                };
                if !format_features(*format).buffer_features.contains(need) {
                    return Err(format!(
                        "{}: the device cannot use {format:?} as {need:?}",
                        r.place()
                    ));
                }
            }
            ResourceKind::StorageImage(image)
            | ResourceKind::SampledImage(image)
            | ResourceKind::CombinedImageSampler(image, _) => {
                check_image_desc(image).map_err(|e| format!("{}: {e}", r.place()))?;
                let want = image.total_bytes().unwrap_or(0);
                if len != want {
                    return Err(format!(
                        "{}: {len} bytes of data; the image {image:?} holds {want}",
                        r.place()
                    ));
                }
                let need = if matches!(r.kind, ResourceKind::StorageImage(_)) {
                    vk::FormatFeatureFlags::STORAGE_IMAGE
                } else {
                    vk::FormatFeatureFlags::SAMPLED_IMAGE
                };
                if !format_features(image.format)
                    .optimal_tiling_features
                    .contains(need)
                {
                    return Err(format!(
                        "{}: the device cannot use {:?} as {need:?}",
                        r.place(),
                        image.format
                    ));
                }
            }
            ResourceKind::SparseImage(sparse) => {
                let image = &sparse.image;
                check_image_desc(image).map_err(|e| format!("{}: {e}", r.place()))?;
                let want = image.total_bytes().unwrap_or(0);
                if len != want {
                    return Err(format!(
                        "{}: {len} bytes of data; the sparse image {image:?} holds {want}",
                        r.place()
                    ));
                }
                // What the device cannot do is reported by the sparse image
                // set-up (tests/unit/vk/sparse.rs), with the features it lacks.
                self.sparse_support()
                    .map_err(|e| format!("{}: {e}", r.place()))?;
            }
            ResourceKind::Sampler(_) => {}
            ResourceKind::AccelerationStructure(scene) => {
                self.check_scene(scene)
                    .map_err(|e| format!("{}: {e}", r.place()))?;
            }
        }
        Ok(())
    }
}

/// Image shape checks that do not need the device.
fn check_image_desc(image: &ImageDesc) -> Result<(), String> {
    texel_size(image.format).ok_or_else(|| {
        format!(
            "{:?} is not in tests/unit/vk/resource.rs's texel_size",
            image.format
        )
    })?;
    if image.extent.contains(&0) || image.layers == 0 || image.mip_levels == 0 {
        return Err(format!("empty image {image:?}"));
    }
    let largest = image.extent.iter().copied().max().unwrap_or(1);
    if image.mip_levels > 32 - largest.leading_zeros() {
        return Err(format!(
            "{} mip levels is more than a {largest}-texel image has",
            image.mip_levels
        ));
    }
    if image.image_type() == vk::ImageType::TYPE_3D && image.layers != 1 {
        return Err("a 3D image has one layer".into());
    }
    let cube = matches!(
        image.view_type,
        vk::ImageViewType::CUBE | vk::ImageViewType::CUBE_ARRAY
    );
    if cube && (!image.layers.is_multiple_of(6) || image.extent[0] != image.extent[1]) {
        return Err("a cube image needs square faces and 6 layers per cube".into());
    }
    Ok(())
}
