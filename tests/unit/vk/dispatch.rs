//! One compute dispatch: check the request (`check.rs`), create every
//! object it needs, record, submit, wait with a timeout, copy the results
//! back, destroy everything.

use super::check::Layout;
use super::resource::{ImageDesc, Resource, ResourceKind};
use super::scope::{Backing, Object, Scope, full_range};
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
}

impl Scope<'_> {
    pub(super) unsafe fn run(
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
            let set_layouts = self.set_layouts(layout, vk::ShaderStageFlags::COMPUTE)?;
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

            let (sets, backings) =
                self.descriptor_sets(layout, &set_layouts, resources, options.timeout)?;

            // Record.
            let cmd = self.begin_commands()?;
            self.record_uploads(
                cmd,
                resources,
                &backings,
                vk::PipelineStageFlags::COMPUTE_SHADER,
            );
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
            self.record_read_back(
                cmd,
                resources,
                &backings,
                vk::PipelineStageFlags::COMPUTE_SHADER,
            );
            d.end_command_buffer(cmd)
                .map_err(|e| format!("vkEndCommandBuffer: {e}"))?;

            // Submit and wait.
            self.submit_and_wait(cmd, options.timeout, &format!("a dispatch of `{entry}`"))?;

            read_back(resources, &backings);
            Ok(())
        }
    }
}

impl Scope<'_> {
    /// Records the copies of storage images to their staging buffers after
    /// the `shader_stage` stages wrote them, and the barrier that makes
    /// every device write visible to the host.
    pub(super) unsafe fn record_read_back(
        &self,
        cmd: vk::CommandBuffer,
        resources: &[Resource],
        backings: &[Backing],
        shader_stage: vk::PipelineStageFlags,
    ) {
        let d = &self.runner.device;
        unsafe {
            for (res, b) in resources.iter().zip(backings) {
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
                        shader_stage,
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
                shader_stage | vk::PipelineStageFlags::TRANSFER,
                vk::PipelineStageFlags::HOST,
                vk::DependencyFlags::empty(),
                &[to_host],
                &[],
                &[],
            );
        }
    }

    /// Submits `cmd` and waits for it. A device lost, or work that does not
    /// finish within `timeout` (the device is then abandoned: its objects
    /// are leaked and the next test makes a new one), marks the runner
    /// broken. `what` names the work in messages ("a draw").
    pub(super) unsafe fn submit_and_wait(
        &mut self,
        cmd: vk::CommandBuffer,
        timeout: std::time::Duration,
        what: &str,
    ) -> Result<(), String> {
        let r = self.runner;
        let d = &r.device;
        unsafe {
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
                    r.mark_broken(format!("device lost at vkQueueSubmit of {what}"));
                }
                return Err(format!("vkQueueSubmit: {e}"));
            }
            let nanos = u64::try_from(timeout.as_nanos()).unwrap_or(u64::MAX);
            match d.wait_for_fences(&[fence], true, nanos) {
                Ok(()) => Ok(()),
                Err(vk::Result::TIMEOUT) => {
                    // The work may still be running: leak this run's objects
                    // and the device, and let `shared` make a new one.
                    self.leak = true;
                    r.abandoned.store(true, Ordering::SeqCst);
                    r.mark_broken(format!("{what} did not finish in {timeout:?}"));
                    Err(format!(
                        "{what} did not finish within {timeout:?} (an endless loop in the shader?); the device was abandoned"
                    ))
                }
                Err(e) => {
                    if e == vk::Result::ERROR_DEVICE_LOST {
                        r.mark_broken(format!("device lost while running {what}"));
                    }
                    Err(format!("vkWaitForFences: {e}"))
                }
            }
        }
    }

    /// One descriptor set layout per set up to the highest one used (sets
    /// between used ones get empty layouts), every binding visible to `stages`.
    pub(super) unsafe fn set_layouts(
        &mut self,
        layout: &Layout,
        stages: vk::ShaderStageFlags,
    ) -> Result<Vec<vk::DescriptorSetLayout>, String> {
        let d = &self.runner.device;
        unsafe {
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
                            .stage_flags(stages)
                    })
                    .collect();
                let info = vk::DescriptorSetLayoutCreateInfo::default().bindings(&bindings);
                set_layouts.push(self.track(
                    d.create_descriptor_set_layout(&info, None),
                    Object::SetLayout,
                    "vkCreateDescriptorSetLayout",
                )?);
            }
            Ok(set_layouts)
        }
    }

    /// Creates the memory behind every resource and a descriptor set per
    /// layout, and points the sets at the resources. Images are not
    /// uploaded yet: [`Scope::record_uploads`] records that.
    pub(super) unsafe fn descriptor_sets(
        &mut self,
        layout: &Layout,
        set_layouts: &[vk::DescriptorSetLayout],
        resources: &[Resource],
        timeout: Duration,
    ) -> Result<(Vec<vk::DescriptorSet>, Vec<Backing>), String> {
        let d = &self.runner.device;
        let set_count = set_layouts.len() as u32;
        unsafe {
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
                    .set_layouts(set_layouts);
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
                    ResourceKind::SparseImage(sparse) => {
                        self.sparse_image(sparse, &res.data, timeout)?
                    }
                    ResourceKind::AccelerationStructure(scene) => {
                        self.acceleration_structure(scene, timeout)?
                    }
                };
                backings.push(backing);
            }
            // The info arrays must outlive vkUpdateDescriptorSets: build them all first.
            enum Info {
                Buffer([vk::DescriptorBufferInfo; 1]),
                Image([vk::DescriptorImageInfo; 1]),
                Texel([vk::BufferView; 1]),
                Accel([vk::AccelerationStructureKHR; 1]),
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
                    Backing::SparseImage { view, layout, .. } => {
                        Info::Image([vk::DescriptorImageInfo {
                            sampler: vk::Sampler::null(),
                            image_view: view,
                            image_layout: layout,
                        }])
                    }
                    Backing::AccelerationStructure(a) => Info::Accel([a]),
                })
                .collect();
            // Acceleration structures are written through a chained
            // structure (VkWriteDescriptorSetAccelerationStructureKHR).
            let mut accel_writes: Vec<vk::WriteDescriptorSetAccelerationStructureKHR> = infos
                .iter()
                .filter_map(|i| match i {
                    Info::Accel(a) => Some(
                        vk::WriteDescriptorSetAccelerationStructureKHR::default()
                            .acceleration_structures(a),
                    ),
                    _ => None,
                })
                .collect();
            let mut accel_next = accel_writes.iter_mut();
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
                        Info::Accel(_) => match accel_next.next() {
                            Some(next) => w.descriptor_count(1).push_next(next),
                            None => unreachable!("one chained write per acceleration structure"),
                        },
                    }
                })
                .collect();
            d.update_descriptor_sets(&writes, &[]);
            Ok((sets, backings))
        }
    }

    /// Records the upload of every image's staging data and its move to the
    /// layout the shaders use, made visible to the `shader_stage` stages.
    pub(super) unsafe fn record_uploads(
        &self,
        cmd: vk::CommandBuffer,
        resources: &[Resource],
        backings: &[Backing],
        shader_stage: vk::PipelineStageFlags,
    ) {
        let d = &self.runner.device;
        unsafe {
            for (res, b) in resources.iter().zip(backings) {
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
                        shader_stage,
                        vk::DependencyFlags::empty(),
                        &[],
                        &[],
                        &[to_shader],
                    );
                }
            }
            // Sparse images: their bound tiles and mip tail are uploaded;
            // the whole image changes layout (unbound parts included: the
            // binding is complete, the fence of vkQueueBindSparse was
            // waited for).
            for b in backings {
                if let Backing::SparseImage {
                    image,
                    staging,
                    regions,
                    levels,
                    layout,
                    ..
                } = b
                {
                    let range = vk::ImageSubresourceRange {
                        aspect_mask: vk::ImageAspectFlags::COLOR,
                        base_mip_level: 0,
                        level_count: *levels,
                        base_array_layer: 0,
                        layer_count: 1,
                    };
                    let barrier = |old, new, src, dst| {
                        vk::ImageMemoryBarrier::default()
                            .image(*image)
                            .old_layout(old)
                            .new_layout(new)
                            .src_access_mask(src)
                            .dst_access_mask(dst)
                            .src_queue_family_index(vk::QUEUE_FAMILY_IGNORED)
                            .dst_queue_family_index(vk::QUEUE_FAMILY_IGNORED)
                            .subresource_range(range)
                    };
                    d.cmd_pipeline_barrier(
                        cmd,
                        vk::PipelineStageFlags::TOP_OF_PIPE,
                        vk::PipelineStageFlags::TRANSFER,
                        vk::DependencyFlags::empty(),
                        &[],
                        &[],
                        &[barrier(
                            vk::ImageLayout::UNDEFINED,
                            vk::ImageLayout::TRANSFER_DST_OPTIMAL,
                            vk::AccessFlags::empty(),
                            vk::AccessFlags::TRANSFER_WRITE,
                        )],
                    );
                    if !regions.is_empty() {
                        d.cmd_copy_buffer_to_image(
                            cmd,
                            *staging,
                            *image,
                            vk::ImageLayout::TRANSFER_DST_OPTIMAL,
                            regions,
                        );
                    }
                    d.cmd_pipeline_barrier(
                        cmd,
                        vk::PipelineStageFlags::TRANSFER,
                        shader_stage,
                        vk::DependencyFlags::empty(),
                        &[],
                        &[],
                        &[barrier(
                            vk::ImageLayout::TRANSFER_DST_OPTIMAL,
                            *layout,
                            vk::AccessFlags::TRANSFER_WRITE,
                            vk::AccessFlags::SHADER_READ,
                        )],
                    );
                }
            }
        }
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

/// Copies what the run left in every buffer and storage image into the
/// resources' `data`, after the fence signalled.
pub(super) unsafe fn read_back(resources: &mut [Resource], backings: &[Backing]) {
    for (res, b) in resources.iter_mut().zip(backings) {
        // SAFETY: each pointer maps memory at least as large as the copy
        // (made for this resource by `descriptor_sets`).
        unsafe {
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
    }
}
