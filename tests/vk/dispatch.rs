//! One compute dispatch: check the request against the module and the
//! device, create every object it needs, record, submit, wait with a
//! timeout, copy the results back, destroy everything.

use super::interface::{self, Count};
use super::resource::{ImageDesc, Resource, ResourceKind, SamplerDesc, texel_size};
use super::{Runner, entry_name};
use ash::vk;
use std::collections::BTreeMap;
use std::sync::atomic::Ordering;
use std::time::Duration;

/// Less common knobs of a dispatch.
#[derive(Clone, Debug)]
pub struct ComputeOptions {
    /// Specialization constants (`[[vk::constant_id(N)]]`): the id and the
    /// value's little-endian bytes (4 bytes for 32-bit and bool, 8 for 64-bit).
    pub spec_constants: Vec<(u32, Vec<u8>)>,
    /// How long to wait for the dispatch before giving up on the device.
    pub timeout: Duration,
}

impl Default for ComputeOptions {
    fn default() -> Self {
        ComputeOptions {
            spec_constants: Vec::new(),
            timeout: Duration::from_secs(10),
        }
    }
}

/// The descriptor set layouts of a run: per set, per binding, the type and
/// the descriptor count.
type Layout = BTreeMap<u32, BTreeMap<u32, (vk::DescriptorType, u32)>>;

impl Runner {
    /// Runs `entry` of the compute module `spirv` with `groups` workgroups,
    /// binding `resources` and pushing `push_constants` (offset 0). Every
    /// buffer's and storage image's `data` receives what the shader left.
    /// The module should have passed spirv-val: drivers run some invalid
    /// modules without complaint (lavapipe does).
    pub fn run_compute(
        &self,
        spirv: &[u32],
        entry: &str,
        resources: &mut [Resource],
        push_constants: &[u8],
        groups: [u32; 3],
    ) -> Result<(), String> {
        self.run_compute_with(
            spirv,
            entry,
            resources,
            push_constants,
            groups,
            &ComputeOptions::default(),
        )
    }

    /// [`Runner::run_compute`] with specialization constants or another timeout.
    pub fn run_compute_with(
        &self,
        spirv: &[u32],
        entry: &str,
        resources: &mut [Resource],
        push_constants: &[u8],
        groups: [u32; 3],
        options: &ComputeOptions,
    ) -> Result<(), String> {
        if let Some(why) = self.broken() {
            return Err(format!("the Vulkan device is unusable: {why}"));
        }
        let layout = self.check(spirv, entry, resources, push_constants, groups)?;
        let mut scope = Scope {
            runner: self,
            objects: Vec::new(),
            leak: false,
        };
        // SAFETY: `check` established the preconditions Vulkan states for
        // these calls (sizes, formats, limits, a layout that matches the
        // module); every object is destroyed by `scope` after the fence
        // signalled, or leaked if it never did.
        unsafe {
            scope.run(
                spirv,
                entry,
                resources,
                push_constants,
                groups,
                options,
                &layout,
            )
        }
    }

    /// Checks the request against the module and the device; returns the
    /// descriptor set layouts to create.
    fn check(
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
        for d in module.descriptors(ep) {
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
                Count::Runtime if !super::on(self.info.features12.runtime_descriptor_array) => {
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
    fn check_resource(&self, r: &Resource) -> Result<(), String> {
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
                        "{}: {format:?} is not in tests/vk/resource.rs's texel_size",
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
            ResourceKind::Sampler(_) => {}
        }
        Ok(())
    }

    /// A memory type allowed by `bits` with the first of `wanted` property
    /// sets that one has.
    fn memory_type(&self, bits: u32, wanted: &[vk::MemoryPropertyFlags]) -> Option<u32> {
        let types = &self.memory.memory_types[..self.memory.memory_type_count as usize];
        wanted.iter().find_map(|&flags| {
            (0..types.len() as u32)
                .find(|&i| bits & (1 << i) != 0 && types[i as usize].property_flags.contains(flags))
        })
    }
}

/// Image shape checks that do not need the device.
fn check_image_desc(image: &ImageDesc) -> Result<(), String> {
    texel_size(image.format).ok_or_else(|| {
        format!(
            "{:?} is not in tests/vk/resource.rs's texel_size",
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

/// A Vulkan object a run created, to be destroyed at the end of the run.
#[derive(Clone, Copy)]
enum Object {
    ShaderModule(vk::ShaderModule),
    SetLayout(vk::DescriptorSetLayout),
    PipelineLayout(vk::PipelineLayout),
    Pipeline(vk::Pipeline),
    DescriptorPool(vk::DescriptorPool),
    Buffer(vk::Buffer),
    BufferView(vk::BufferView),
    Image(vk::Image),
    ImageView(vk::ImageView),
    Sampler(vk::Sampler),
    Memory(vk::DeviceMemory),
    CommandPool(vk::CommandPool),
    Fence(vk::Fence),
}

/// The device side of one resource.
enum Backing {
    /// A host-visible buffer, mapped at `ptr`; `view` for texel buffers.
    Buffer {
        buffer: vk::Buffer,
        ptr: *mut u8,
        view: Option<vk::BufferView>,
    },
    /// An image with its staging buffer: `copies` are (offset in `data`,
    /// offset in the staging buffer, bytes, mip level).
    Image {
        image: vk::Image,
        view: vk::ImageView,
        staging: vk::Buffer,
        ptr: *mut u8,
        copies: Vec<(usize, u64, usize, u32)>,
        layout: vk::ImageLayout,
        sampler: Option<vk::Sampler>,
    },
    Sampler(vk::Sampler),
}

/// The objects of one run; destroys them in reverse order when dropped.
struct Scope<'r> {
    runner: &'r Runner,
    objects: Vec<Object>,
    /// Set after a timeout: the device may still use the objects, so they
    /// are leaked (destroying them would be invalid).
    leak: bool,
}

impl Drop for Scope<'_> {
    fn drop(&mut self) {
        if self.leak {
            return;
        }
        let d = &self.runner.device;
        for o in self.objects.drain(..).rev() {
            // SAFETY: the fence signalled (or submission never happened), so
            // the device no longer uses these; each is destroyed once.
            unsafe {
                match o {
                    Object::ShaderModule(x) => d.destroy_shader_module(x, None),
                    Object::SetLayout(x) => d.destroy_descriptor_set_layout(x, None),
                    Object::PipelineLayout(x) => d.destroy_pipeline_layout(x, None),
                    Object::Pipeline(x) => d.destroy_pipeline(x, None),
                    Object::DescriptorPool(x) => d.destroy_descriptor_pool(x, None),
                    Object::Buffer(x) => d.destroy_buffer(x, None),
                    Object::BufferView(x) => d.destroy_buffer_view(x, None),
                    Object::Image(x) => d.destroy_image(x, None),
                    Object::ImageView(x) => d.destroy_image_view(x, None),
                    Object::Sampler(x) => d.destroy_sampler(x, None),
                    Object::Memory(x) => d.free_memory(x, None),
                    Object::CommandPool(x) => d.destroy_command_pool(x, None),
                    Object::Fence(x) => d.destroy_fence(x, None),
                }
            }
            self.runner.live.fetch_sub(1, Ordering::SeqCst);
        }
    }
}

const HOST_MEMORY: [vk::MemoryPropertyFlags; 2] = [
    // Cached host memory reads back fast on discrete GPUs.
    vk::MemoryPropertyFlags::from_raw(
        vk::MemoryPropertyFlags::HOST_VISIBLE.as_raw()
            | vk::MemoryPropertyFlags::HOST_COHERENT.as_raw()
            | vk::MemoryPropertyFlags::HOST_CACHED.as_raw(),
    ),
    vk::MemoryPropertyFlags::from_raw(
        vk::MemoryPropertyFlags::HOST_VISIBLE.as_raw()
            | vk::MemoryPropertyFlags::HOST_COHERENT.as_raw(),
    ),
];

/// Rounds up to a multiple of 16 (and at least 16) for buffer sizes and
/// staging offsets, which must be multiples of 4 and of the texel size.
fn round16(n: u64) -> u64 {
    n.max(1).div_ceil(16) * 16
}

impl<'r> Scope<'r> {
    /// Remembers a newly made object, or turns the failure into a message.
    fn track<T: Copy>(
        &mut self,
        made: ash::prelude::VkResult<T>,
        wrap: fn(T) -> Object,
        what: &str,
    ) -> Result<T, String> {
        let handle = made.map_err(|e| format!("{what}: {e}"))?;
        self.objects.push(wrap(handle));
        self.runner.live.fetch_add(1, Ordering::SeqCst);
        Ok(handle)
    }

    /// A host-visible, coherent buffer of at least `size` bytes, mapped,
    /// holding `data` then zeros.
    unsafe fn host_buffer(
        &mut self,
        size: u64,
        usage: vk::BufferUsageFlags,
        data: &[u8],
    ) -> Result<(vk::Buffer, *mut u8), String> {
        let d = &self.runner.device;
        let size = round16(size);
        unsafe {
            let info = vk::BufferCreateInfo::default()
                .size(size)
                .usage(usage)
                .sharing_mode(vk::SharingMode::EXCLUSIVE);
            let buffer = self.track(
                d.create_buffer(&info, None),
                Object::Buffer,
                "vkCreateBuffer",
            )?;
            let req = d.get_buffer_memory_requirements(buffer);
            let ty = self
                .runner
                .memory_type(req.memory_type_bits, &HOST_MEMORY)
                .ok_or("no host-visible coherent memory type for a buffer")?;
            let alloc = vk::MemoryAllocateInfo::default()
                .allocation_size(req.size)
                .memory_type_index(ty);
            let memory = self.track(
                d.allocate_memory(&alloc, None),
                Object::Memory,
                "vkAllocateMemory",
            )?;
            d.bind_buffer_memory(buffer, memory, 0)
                .map_err(|e| format!("vkBindBufferMemory: {e}"))?;
            let ptr = d
                .map_memory(memory, 0, vk::WHOLE_SIZE, vk::MemoryMapFlags::empty())
                .map_err(|e| format!("vkMapMemory: {e}"))? as *mut u8;
            std::ptr::copy_nonoverlapping(data.as_ptr(), ptr, data.len());
            std::ptr::write_bytes(ptr.add(data.len()), 0, req.size as usize - data.len());
            Ok((buffer, ptr))
        }
    }

    unsafe fn sampler(&mut self, s: &SamplerDesc) -> Result<vk::Sampler, String> {
        let info = vk::SamplerCreateInfo::default()
            .mag_filter(s.filter)
            .min_filter(s.filter)
            .mipmap_mode(s.mipmap_mode)
            .address_mode_u(s.address_mode)
            .address_mode_v(s.address_mode)
            .address_mode_w(s.address_mode)
            .compare_enable(s.compare.is_some())
            .compare_op(s.compare.unwrap_or(vk::CompareOp::NEVER))
            .border_color(s.border_color)
            .min_lod(0.0)
            .max_lod(s.max_lod);
        unsafe {
            self.track(
                self.runner.device.create_sampler(&info, None),
                Object::Sampler,
                "vkCreateSampler",
            )
        }
    }

    /// An image in device memory with a view, plus a staging buffer holding
    /// `data` laid out for one copy region per mip level.
    unsafe fn image(
        &mut self,
        desc: &ImageDesc,
        storage: bool,
        data: &[u8],
    ) -> Result<Backing, String> {
        let d = &self.runner.device;
        let cube = matches!(
            desc.view_type,
            vk::ImageViewType::CUBE | vk::ImageViewType::CUBE_ARRAY
        );
        let usage = vk::ImageUsageFlags::TRANSFER_DST
            | vk::ImageUsageFlags::TRANSFER_SRC
            | if storage {
                vk::ImageUsageFlags::STORAGE
            } else {
                vk::ImageUsageFlags::SAMPLED
            };
        let [w, h, depth] = desc.extent;
        let info = vk::ImageCreateInfo::default()
            .flags(if cube {
                vk::ImageCreateFlags::CUBE_COMPATIBLE
            } else {
                vk::ImageCreateFlags::empty()
            })
            .image_type(desc.image_type())
            .format(desc.format)
            .extent(vk::Extent3D {
                width: w,
                height: h,
                depth,
            })
            .mip_levels(desc.mip_levels)
            .array_layers(desc.layers)
            .samples(vk::SampleCountFlags::TYPE_1)
            .tiling(vk::ImageTiling::OPTIMAL)
            .usage(usage)
            .sharing_mode(vk::SharingMode::EXCLUSIVE)
            .initial_layout(vk::ImageLayout::UNDEFINED);
        unsafe {
            let image = self.track(d.create_image(&info, None), Object::Image, "vkCreateImage")?;
            let req = d.get_image_memory_requirements(image);
            let ty = self
                .runner
                .memory_type(
                    req.memory_type_bits,
                    &[
                        vk::MemoryPropertyFlags::DEVICE_LOCAL,
                        vk::MemoryPropertyFlags::empty(),
                    ],
                )
                .ok_or("no memory type for an image")?;
            let alloc = vk::MemoryAllocateInfo::default()
                .allocation_size(req.size)
                .memory_type_index(ty);
            let memory = self.track(
                d.allocate_memory(&alloc, None),
                Object::Memory,
                "vkAllocateMemory",
            )?;
            d.bind_image_memory(image, memory, 0)
                .map_err(|e| format!("vkBindImageMemory: {e}"))?;
            let view_info = vk::ImageViewCreateInfo::default()
                .image(image)
                .view_type(desc.view_type)
                .format(desc.format)
                .subresource_range(full_range(desc));
            let view = self.track(
                d.create_image_view(&view_info, None),
                Object::ImageView,
                "vkCreateImageView",
            )?;

            // Staging: mip levels one after another, each 16-byte aligned.
            let mut copies = Vec::new();
            let (mut packed, mut staged) = (0usize, 0u64);
            for mip in 0..desc.mip_levels {
                let bytes = desc.mip_bytes(mip).unwrap_or(0) as usize;
                copies.push((packed, staged, bytes, mip));
                packed += bytes;
                staged += round16(bytes as u64);
            }
            let (staging, ptr) = self.host_buffer(
                staged,
                vk::BufferUsageFlags::TRANSFER_SRC | vk::BufferUsageFlags::TRANSFER_DST,
                &[],
            )?;
            for &(at, offset, bytes, _) in &copies {
                std::ptr::copy_nonoverlapping(data[at..].as_ptr(), ptr.add(offset as usize), bytes);
            }
            let layout = if storage {
                vk::ImageLayout::GENERAL
            } else {
                vk::ImageLayout::SHADER_READ_ONLY_OPTIMAL
            };
            Ok(Backing::Image {
                image,
                view,
                staging,
                ptr,
                copies,
                layout,
                sampler: None,
            })
        }
    }

    #[allow(clippy::too_many_arguments)]
    unsafe fn run(
        &mut self,
        spirv: &[u32],
        entry: &str,
        resources: &mut [Resource],
        push_constants: &[u8],
        groups: [u32; 3],
        options: &ComputeOptions,
        layout: &Layout,
    ) -> Result<(), String> {
        let r = self.runner;
        let d = &r.device;
        unsafe {
            // Shader, layouts, pipeline.
            let module = self.track(
                d.create_shader_module(&vk::ShaderModuleCreateInfo::default().code(spirv), None),
                Object::ShaderModule,
                "vkCreateShaderModule",
            )?;
            let set_count = layout.keys().next_back().map_or(0, |&s| s + 1);
            let mut set_layouts = Vec::new();
            for set in 0..set_count {
                // Sets the shader does not use between used ones get empty layouts.
                let bindings: Vec<vk::DescriptorSetLayoutBinding> = layout
                    .get(&set)
                    .into_iter()
                    .flatten()
                    .map(|(&binding, &(ty, count))| {
                        vk::DescriptorSetLayoutBinding::default()
                            .binding(binding)
                            .descriptor_type(ty)
                            .descriptor_count(count)
                            .stage_flags(vk::ShaderStageFlags::COMPUTE)
                    })
                    .collect();
                let info = vk::DescriptorSetLayoutCreateInfo::default().bindings(&bindings);
                set_layouts.push(self.track(
                    d.create_descriptor_set_layout(&info, None),
                    Object::SetLayout,
                    "vkCreateDescriptorSetLayout",
                )?);
            }
            let push_ranges = [vk::PushConstantRange::default()
                .stage_flags(vk::ShaderStageFlags::COMPUTE)
                .offset(0)
                .size(push_constants.len() as u32)];
            let mut layout_info = vk::PipelineLayoutCreateInfo::default().set_layouts(&set_layouts);
            if !push_constants.is_empty() {
                layout_info = layout_info.push_constant_ranges(&push_ranges);
            }
            let pipeline_layout = self.track(
                d.create_pipeline_layout(&layout_info, None),
                Object::PipelineLayout,
                "vkCreatePipelineLayout",
            )?;

            let mut spec_entries = Vec::new();
            let mut spec_data = Vec::new();
            for (id, bytes) in &options.spec_constants {
                spec_entries.push(vk::SpecializationMapEntry {
                    constant_id: *id,
                    offset: spec_data.len() as u32,
                    size: bytes.len(),
                });
                spec_data.extend_from_slice(bytes);
            }
            let spec = vk::SpecializationInfo::default()
                .map_entries(&spec_entries)
                .data(&spec_data);
            let name = entry_name(entry).ok_or("entry point name contains a NUL byte")?;
            let mut stage = vk::PipelineShaderStageCreateInfo::default()
                .stage(vk::ShaderStageFlags::COMPUTE)
                .module(module)
                .name(&name);
            if !spec_entries.is_empty() {
                stage = stage.specialization_info(&spec);
            }
            let pipeline_info = [vk::ComputePipelineCreateInfo::default()
                .stage(stage)
                .layout(pipeline_layout)];
            let pipeline =
                match d.create_compute_pipelines(vk::PipelineCache::null(), &pipeline_info, None) {
                    Ok(p) => self.track(Ok(p[0]), Object::Pipeline, "")?,
                    Err((_, e)) => return Err(format!("vkCreateComputePipelines: {e}")),
                };

            // Descriptor sets.
            let mut pool_sizes: BTreeMap<i32, u32> = BTreeMap::new();
            for bindings in layout.values() {
                for &(ty, count) in bindings.values() {
                    *pool_sizes.entry(ty.as_raw()).or_default() += count;
                }
            }
            let mut sets = Vec::new();
            if set_count > 0 {
                let sizes: Vec<vk::DescriptorPoolSize> = pool_sizes
                    .iter()
                    .map(|(&ty, &n)| vk::DescriptorPoolSize {
                        ty: vk::DescriptorType::from_raw(ty),
                        descriptor_count: n,
                    })
                    .collect();
                let pool_info = vk::DescriptorPoolCreateInfo::default()
                    .max_sets(set_count)
                    .pool_sizes(&sizes);
                let pool = self.track(
                    d.create_descriptor_pool(&pool_info, None),
                    Object::DescriptorPool,
                    "vkCreateDescriptorPool",
                )?;
                let alloc = vk::DescriptorSetAllocateInfo::default()
                    .descriptor_pool(pool)
                    .set_layouts(&set_layouts);
                sets = d
                    .allocate_descriptor_sets(&alloc)
                    .map_err(|e| format!("vkAllocateDescriptorSets: {e}"))?;
            }

            // Backing memory and descriptor contents.
            let mut backings = Vec::with_capacity(resources.len());
            for res in resources.iter() {
                let len = res.data.len() as u64;
                let backing = match &res.kind {
                    ResourceKind::StorageBuffer | ResourceKind::UniformBuffer => {
                        let usage = if matches!(res.kind, ResourceKind::StorageBuffer) {
                            vk::BufferUsageFlags::STORAGE_BUFFER
                        } else {
                            vk::BufferUsageFlags::UNIFORM_BUFFER
                        };
                        let (buffer, ptr) = self.host_buffer(len, usage, &res.data)?;
                        Backing::Buffer {
                            buffer,
                            ptr,
                            view: None,
                        }
                    }
                    ResourceKind::StorageTexelBuffer { format }
                    | ResourceKind::UniformTexelBuffer { format } => {
                        let usage = if matches!(res.kind, ResourceKind::StorageTexelBuffer { .. }) {
                            vk::BufferUsageFlags::STORAGE_TEXEL_BUFFER
                        } else {
                            vk::BufferUsageFlags::UNIFORM_TEXEL_BUFFER
                        };
                        let (buffer, ptr) = self.host_buffer(len, usage, &res.data)?;
                        // An explicit range keeps the element count the
                        // shader sees (GetDimensions) equal to the data's.
                        let info = vk::BufferViewCreateInfo::default()
                            .buffer(buffer)
                            .format(*format)
                            .offset(0)
                            .range(len);
                        let view = self.track(
                            d.create_buffer_view(&info, None),
                            Object::BufferView,
                            "vkCreateBufferView",
                        )?;
                        Backing::Buffer {
                            buffer,
                            ptr,
                            view: Some(view),
                        }
                    }
                    ResourceKind::StorageImage(image) => self.image(image, true, &res.data)?,
                    ResourceKind::SampledImage(image) => self.image(image, false, &res.data)?,
                    ResourceKind::CombinedImageSampler(image, sampler) => {
                        let mut b = self.image(image, false, &res.data)?;
                        if let Backing::Image { sampler: s, .. } = &mut b {
                            *s = Some(self.sampler(sampler)?);
                        }
                        b
                    }
                    ResourceKind::Sampler(sampler) => Backing::Sampler(self.sampler(sampler)?),
                };
                backings.push(backing);
            }
            // The info arrays must outlive vkUpdateDescriptorSets: build them all first.
            enum Info {
                Buffer([vk::DescriptorBufferInfo; 1]),
                Image([vk::DescriptorImageInfo; 1]),
                Texel([vk::BufferView; 1]),
            }
            let infos: Vec<Info> = resources
                .iter()
                .zip(&backings)
                .map(|(res, b)| match *b {
                    Backing::Buffer {
                        view: Some(view), ..
                    } => Info::Texel([view]),
                    Backing::Buffer { buffer, .. } => Info::Buffer([vk::DescriptorBufferInfo {
                        buffer,
                        offset: 0,
                        range: res.data.len() as u64,
                    }]),
                    Backing::Image {
                        view,
                        layout,
                        sampler,
                        ..
                    } => Info::Image([vk::DescriptorImageInfo {
                        sampler: sampler.unwrap_or_default(),
                        image_view: view,
                        image_layout: layout,
                    }]),
                    Backing::Sampler(sampler) => Info::Image([vk::DescriptorImageInfo {
                        sampler,
                        image_view: vk::ImageView::null(),
                        image_layout: vk::ImageLayout::UNDEFINED,
                    }]),
                })
                .collect();
            let writes: Vec<vk::WriteDescriptorSet> = resources
                .iter()
                .zip(&infos)
                .map(|(res, info)| {
                    let w = vk::WriteDescriptorSet::default()
                        .dst_set(sets[res.set as usize])
                        .dst_binding(res.binding)
                        .dst_array_element(res.array_element)
                        .descriptor_type(res.kind.descriptor_type());
                    match info {
                        Info::Buffer(b) => w.buffer_info(b),
                        Info::Image(i) => w.image_info(i),
                        Info::Texel(t) => w.texel_buffer_view(t),
                    }
                })
                .collect();
            d.update_descriptor_sets(&writes, &[]);

            // Record.
            let pool_info = vk::CommandPoolCreateInfo::default().queue_family_index(r.queue_family);
            let pool = self.track(
                d.create_command_pool(&pool_info, None),
                Object::CommandPool,
                "vkCreateCommandPool",
            )?;
            let alloc = vk::CommandBufferAllocateInfo::default()
                .command_pool(pool)
                .level(vk::CommandBufferLevel::PRIMARY)
                .command_buffer_count(1);
            let cmd = d
                .allocate_command_buffers(&alloc)
                .map_err(|e| format!("vkAllocateCommandBuffers: {e}"))?[0];
            let begin = vk::CommandBufferBeginInfo::default()
                .flags(vk::CommandBufferUsageFlags::ONE_TIME_SUBMIT);
            d.begin_command_buffer(cmd, &begin)
                .map_err(|e| format!("vkBeginCommandBuffer: {e}"))?;
            for (res, b) in resources.iter().zip(&backings) {
                if let (
                    Backing::Image {
                        image,
                        staging,
                        copies,
                        layout,
                        ..
                    },
                    ResourceKind::StorageImage(desc)
                    | ResourceKind::SampledImage(desc)
                    | ResourceKind::CombinedImageSampler(desc, _),
                ) = (b, &res.kind)
                {
                    let to_dst = image_barrier(
                        *image,
                        desc,
                        vk::ImageLayout::UNDEFINED,
                        vk::ImageLayout::TRANSFER_DST_OPTIMAL,
                        vk::AccessFlags::empty(),
                        vk::AccessFlags::TRANSFER_WRITE,
                    );
                    d.cmd_pipeline_barrier(
                        cmd,
                        vk::PipelineStageFlags::TOP_OF_PIPE,
                        vk::PipelineStageFlags::TRANSFER,
                        vk::DependencyFlags::empty(),
                        &[],
                        &[],
                        &[to_dst],
                    );
                    let regions = copy_regions(desc, copies);
                    d.cmd_copy_buffer_to_image(
                        cmd,
                        *staging,
                        *image,
                        vk::ImageLayout::TRANSFER_DST_OPTIMAL,
                        &regions,
                    );
                    let to_shader = image_barrier(
                        *image,
                        desc,
                        vk::ImageLayout::TRANSFER_DST_OPTIMAL,
                        *layout,
                        vk::AccessFlags::TRANSFER_WRITE,
                        vk::AccessFlags::SHADER_READ | vk::AccessFlags::SHADER_WRITE,
                    );
                    d.cmd_pipeline_barrier(
                        cmd,
                        vk::PipelineStageFlags::TRANSFER,
                        vk::PipelineStageFlags::COMPUTE_SHADER,
                        vk::DependencyFlags::empty(),
                        &[],
                        &[],
                        &[to_shader],
                    );
                }
            }
            d.cmd_bind_pipeline(cmd, vk::PipelineBindPoint::COMPUTE, pipeline);
            if !sets.is_empty() {
                d.cmd_bind_descriptor_sets(
                    cmd,
                    vk::PipelineBindPoint::COMPUTE,
                    pipeline_layout,
                    0,
                    &sets,
                    &[],
                );
            }
            if !push_constants.is_empty() {
                d.cmd_push_constants(
                    cmd,
                    pipeline_layout,
                    vk::ShaderStageFlags::COMPUTE,
                    0,
                    push_constants,
                );
            }
            d.cmd_dispatch(cmd, groups[0], groups[1], groups[2]);
            for (res, b) in resources.iter().zip(&backings) {
                if let (
                    Backing::Image {
                        image,
                        staging,
                        copies,
                        ..
                    },
                    ResourceKind::StorageImage(desc),
                ) = (b, &res.kind)
                {
                    let to_src = image_barrier(
                        *image,
                        desc,
                        vk::ImageLayout::GENERAL,
                        vk::ImageLayout::TRANSFER_SRC_OPTIMAL,
                        vk::AccessFlags::SHADER_WRITE,
                        vk::AccessFlags::TRANSFER_READ,
                    );
                    d.cmd_pipeline_barrier(
                        cmd,
                        vk::PipelineStageFlags::COMPUTE_SHADER,
                        vk::PipelineStageFlags::TRANSFER,
                        vk::DependencyFlags::empty(),
                        &[],
                        &[],
                        &[to_src],
                    );
                    let regions = copy_regions(desc, copies);
                    d.cmd_copy_image_to_buffer(
                        cmd,
                        *image,
                        vk::ImageLayout::TRANSFER_SRC_OPTIMAL,
                        *staging,
                        &regions,
                    );
                }
            }
            // Device writes become visible to the host only through a
            // barrier to HOST_READ (Vulkan spec 7.9, "Host Write Ordering"
            // covers only the other direction).
            let to_host = vk::MemoryBarrier::default()
                .src_access_mask(vk::AccessFlags::SHADER_WRITE | vk::AccessFlags::TRANSFER_WRITE)
                .dst_access_mask(vk::AccessFlags::HOST_READ);
            d.cmd_pipeline_barrier(
                cmd,
                vk::PipelineStageFlags::COMPUTE_SHADER | vk::PipelineStageFlags::TRANSFER,
                vk::PipelineStageFlags::HOST,
                vk::DependencyFlags::empty(),
                &[to_host],
                &[],
                &[],
            );
            d.end_command_buffer(cmd)
                .map_err(|e| format!("vkEndCommandBuffer: {e}"))?;

            // Submit and wait.
            let fence = self.track(
                d.create_fence(&vk::FenceCreateInfo::default(), None),
                Object::Fence,
                "vkCreateFence",
            )?;
            let cmds = [cmd];
            let submit = [vk::SubmitInfo::default().command_buffers(&cmds)];
            let submitted = {
                let queue = r.queue();
                d.queue_submit(*queue, &submit, fence)
            };
            if let Err(e) = submitted {
                if e == vk::Result::ERROR_DEVICE_LOST {
                    r.mark_broken(format!("device lost at vkQueueSubmit of `{entry}`"));
                }
                return Err(format!("vkQueueSubmit: {e}"));
            }
            let nanos = u64::try_from(options.timeout.as_nanos()).unwrap_or(u64::MAX);
            match d.wait_for_fences(&[fence], true, nanos) {
                Ok(()) => {}
                Err(vk::Result::TIMEOUT) => {
                    // The work may still be running: leak this run's objects
                    // and the device, and let `shared` make a new one.
                    self.leak = true;
                    r.abandoned.store(true, Ordering::SeqCst);
                    r.mark_broken(format!(
                        "a dispatch of `{entry}` did not finish in {:?}",
                        options.timeout
                    ));
                    return Err(format!(
                        "the dispatch did not finish within {:?} (an endless loop in the shader?); the device was abandoned",
                        options.timeout
                    ));
                }
                Err(e) => {
                    if e == vk::Result::ERROR_DEVICE_LOST {
                        r.mark_broken(format!("device lost while running `{entry}`"));
                    }
                    return Err(format!("vkWaitForFences: {e}"));
                }
            }

            // Read back.
            for (res, b) in resources.iter_mut().zip(&backings) {
                match b {
                    Backing::Buffer { ptr, .. } => {
                        std::ptr::copy_nonoverlapping(*ptr, res.data.as_mut_ptr(), res.data.len());
                    }
                    Backing::Image { ptr, copies, .. }
                        if matches!(res.kind, ResourceKind::StorageImage(_)) =>
                    {
                        for &(at, offset, bytes, _) in copies {
                            std::ptr::copy_nonoverlapping(
                                ptr.add(offset as usize),
                                res.data[at..].as_mut_ptr(),
                                bytes,
                            );
                        }
                    }
                    _ => {}
                }
            }
            Ok(())
        }
    }
}

fn full_range(desc: &ImageDesc) -> vk::ImageSubresourceRange {
    vk::ImageSubresourceRange {
        aspect_mask: vk::ImageAspectFlags::COLOR,
        base_mip_level: 0,
        level_count: desc.mip_levels,
        base_array_layer: 0,
        layer_count: desc.layers,
    }
}

fn image_barrier(
    image: vk::Image,
    desc: &ImageDesc,
    old: vk::ImageLayout,
    new: vk::ImageLayout,
    src: vk::AccessFlags,
    dst: vk::AccessFlags,
) -> vk::ImageMemoryBarrier<'static> {
    vk::ImageMemoryBarrier::default()
        .image(image)
        .old_layout(old)
        .new_layout(new)
        .src_access_mask(src)
        .dst_access_mask(dst)
        .src_queue_family_index(vk::QUEUE_FAMILY_IGNORED)
        .dst_queue_family_index(vk::QUEUE_FAMILY_IGNORED)
        .subresource_range(full_range(desc))
}

/// One buffer↔image copy region per mip level, all layers at once.
fn copy_regions(desc: &ImageDesc, copies: &[(usize, u64, usize, u32)]) -> Vec<vk::BufferImageCopy> {
    copies
        .iter()
        .map(|&(_, offset, _, mip)| {
            let [width, height, depth] = desc.mip_extent(mip);
            vk::BufferImageCopy {
                buffer_offset: offset,
                buffer_row_length: 0, // tightly packed
                buffer_image_height: 0,
                image_subresource: vk::ImageSubresourceLayers {
                    aspect_mask: vk::ImageAspectFlags::COLOR,
                    mip_level: mip,
                    base_array_layer: 0,
                    layer_count: desc.layers,
                },
                image_offset: vk::Offset3D::default(),
                image_extent: vk::Extent3D {
                    width,
                    height,
                    depth,
                },
            }
        })
        .collect()
}
