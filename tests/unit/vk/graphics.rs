//! One draw: a vertex and a pixel shader render into float colour targets,
//! which are copied back to the host — the graphics counterpart of
//! `dispatch.rs`, sharing its resource code.
//!
//! ```ignore
//! let mut draw = Draw::new(&vs_words, "VSMain", &ps_words, "PSMain");
//! draw.vertex_count = 3;                       // a full-screen triangle
//! let targets = runner.draw(&draw, &mut resources)?;
//! let rgba = &targets[0];                      // width * height * 4 floats
//! ```
//!
//! Targets are `R32G32B32A32_SFLOAT` (every value a shader writes comes back
//! exactly) and are cleared to `clear` first. A classic render pass keeps to
//! Vulkan 1.0 (dynamic rendering would need 1.3 or an extension).
//!
//! Optional geometry, hull and domain shaders join the pipeline
//! (`Draw::gs`, `Draw::hs`/`Draw::ds` with a patch-list topology), and
//! targets may have several array layers (`Draw::layers`, for
//! `SV_RenderTargetArrayIndex`), each read back on its own. With
//! `Draw::mesh` a task and mesh shader replace the vertex stages (`mesh.rs`).

use super::check::Layout;
use super::interface::{self, Count};
use super::resource::{Resource, ResourceKind};
use super::scope::{Backing, Object, Scope};
use super::{Runner, entry_name};
use ash::vk;
use std::collections::BTreeMap;
use std::time::Duration;

/// The format of every render target.
pub const TARGET_FORMAT: vk::Format = vk::Format::R32G32B32A32_SFLOAT;

/// One vertex buffer (binding 0) and the attributes read from it.
#[derive(Clone, Debug)]
pub struct VertexBuffer {
    pub data: Vec<u8>,
    pub stride: u32,
    /// (location, format, offset in a vertex).
    pub attributes: Vec<(u32, vk::Format, u32)>,
}

/// What to draw and how.
#[derive(Clone, Debug)]
pub struct Draw<'a> {
    pub vs: &'a [u32],
    pub vs_entry: &'a str,
    pub ps: &'a [u32],
    pub ps_entry: &'a str,
    pub width: u32,
    pub height: u32,
    /// How many colour targets (`SV_Target0..`), all `TARGET_FORMAT`.
    pub targets: u32,
    pub clear: [f32; 4],
    pub vertex_count: u32,
    pub instance_count: u32,
    pub vertex_buffer: Option<VertexBuffer>,
    pub cull_mode: vk::CullModeFlags,
    pub front_face: vk::FrontFace,
    /// Visible to every stage, at offset 0.
    pub push_constants: Vec<u8>,
    pub timeout: Duration,
    /// A geometry shader: module and entry point.
    pub gs: Option<(&'a [u32], &'a str)>,
    /// Hull and domain shaders (both or neither); the topology must then
    /// be `PATCH_LIST` with `patch_control_points` per patch.
    pub hs: Option<(&'a [u32], &'a str)>,
    pub ds: Option<(&'a [u32], &'a str)>,
    pub topology: vk::PrimitiveTopology,
    pub patch_control_points: u32,
    /// Array layers of every target; `draw` returns target `t`'s layer `l`
    /// at index `t * layers + l`.
    pub layers: u32,
    /// A mesh pipeline: the task and mesh shaders instead of `vs` (and the
    /// tessellation and geometry stages), launched as mesh task groups.
    pub mesh: Option<super::mesh::MeshStages<'a>>,
}

impl<'a> Draw<'a> {
    /// A 16×16 draw of 3 vertices into one target cleared to zero, no
    /// culling, counter-clockwise front faces.
    pub fn new(vs: &'a [u32], vs_entry: &'a str, ps: &'a [u32], ps_entry: &'a str) -> Self {
        Draw {
            vs,
            vs_entry,
            ps,
            ps_entry,
            width: 16,
            height: 16,
            targets: 1,
            clear: [0.0; 4],
            vertex_count: 3,
            instance_count: 1,
            vertex_buffer: None,
            cull_mode: vk::CullModeFlags::NONE,
            front_face: vk::FrontFace::COUNTER_CLOCKWISE,
            push_constants: Vec::new(),
            timeout: Duration::from_secs(10),
            gs: None,
            hs: None,
            ds: None,
            topology: vk::PrimitiveTopology::TRIANGLE_LIST,
            patch_control_points: 0,
            layers: 1,
            mesh: None,
        }
    }

    /// The shader stages of the pipeline: (module, entry, stage, model
    /// number, name).
    fn stages(&self) -> Vec<(&'a [u32], &'a str, vk::ShaderStageFlags, u32, &'static str)> {
        if let Some(m) = &self.mesh {
            let mut v = Vec::new();
            use super::mesh::{MODEL_MESH_EXT, MODEL_MESH_NV, MODEL_TASK_EXT, MODEL_TASK_NV};
            let (task_model, mesh_model) = if m.nv {
                ((MODEL_TASK_NV, "TaskNV"), (MODEL_MESH_NV, "MeshNV"))
            } else {
                ((MODEL_TASK_EXT, "TaskEXT"), (MODEL_MESH_EXT, "MeshEXT"))
            };
            if let Some((words, entry)) = m.task {
                v.push((
                    words,
                    entry,
                    vk::ShaderStageFlags::TASK_EXT,
                    task_model.0,
                    task_model.1,
                ));
            }
            v.push((
                m.mesh.0,
                m.mesh.1,
                vk::ShaderStageFlags::MESH_EXT,
                mesh_model.0,
                mesh_model.1,
            ));
            v.push((
                self.ps,
                self.ps_entry,
                vk::ShaderStageFlags::FRAGMENT,
                interface::MODEL_FRAGMENT,
                "Fragment",
            ));
            return v;
        }
        let mut v = vec![(
            self.vs,
            self.vs_entry,
            vk::ShaderStageFlags::VERTEX,
            interface::MODEL_VERTEX,
            "Vertex",
        )];
        if let Some((m, e)) = self.hs {
            v.push((
                m,
                e,
                vk::ShaderStageFlags::TESSELLATION_CONTROL,
                interface::MODEL_TESS_CONTROL,
                "TessellationControl",
            ));
        }
        if let Some((m, e)) = self.ds {
            v.push((
                m,
                e,
                vk::ShaderStageFlags::TESSELLATION_EVALUATION,
                interface::MODEL_TESS_EVALUATION,
                "TessellationEvaluation",
            ));
        }
        if let Some((m, e)) = self.gs {
            v.push((
                m,
                e,
                vk::ShaderStageFlags::GEOMETRY,
                interface::MODEL_GEOMETRY,
                "Geometry",
            ));
        }
        v.push((
            self.ps,
            self.ps_entry,
            vk::ShaderStageFlags::FRAGMENT,
            interface::MODEL_FRAGMENT,
            "Fragment",
        ));
        v
    }

    /// Every stage of the pipeline, as flags.
    fn stage_flags(&self) -> vk::ShaderStageFlags {
        self.stages()
            .iter()
            .fold(vk::ShaderStageFlags::empty(), |f, s| f | s.2)
    }
}

impl Runner {
    /// Draws `draw` with `resources` bound to both stages; returns each
    /// target's texels, row by row, 4 floats each. Buffers' `data` receive
    /// what the shaders left in them.
    pub fn draw(&self, draw: &Draw, resources: &mut [Resource]) -> Result<Vec<Vec<f32>>, String> {
        if let Some(why) = self.broken() {
            return Err(format!("the Vulkan device is unusable: {why}"));
        }
        let layout = self.check_draw(draw, resources)?;
        let mut scope = Scope {
            runner: self,
            objects: Vec::new(),
            leak: false,
        };
        // SAFETY: `check_draw` established what Vulkan requires of these
        // calls (entry points of the right stages, a layout matching both
        // modules, supported sizes); every object is destroyed by `scope`
        // after the fence signalled, or leaked if it never did.
        unsafe { scope.draw(draw, resources, &layout) }
    }

    /// Checks the request against both modules and the device; returns the
    /// descriptor set layouts.
    fn check_draw(&self, draw: &Draw, resources: &[Resource]) -> Result<Layout, String> {
        let limits = &self.info.properties.limits;
        if draw.width == 0
            || draw.height == 0
            || draw.width > limits.max_framebuffer_width
            || draw.height > limits.max_framebuffer_height
        {
            return Err(format!(
                "a {}x{} target is outside the device's framebuffer limits",
                draw.width, draw.height
            ));
        }
        if draw.targets == 0 || draw.targets > limits.max_color_attachments {
            return Err(format!(
                "{} colour targets: the device allows 1 to {}",
                draw.targets, limits.max_color_attachments
            ));
        }
        if !draw.push_constants.len().is_multiple_of(4)
            || draw.push_constants.len() > limits.max_push_constants_size as usize
        {
            return Err(format!(
                "push constants of {} bytes: the size must be a multiple of 4 and at most {}",
                draw.push_constants.len(),
                limits.max_push_constants_size
            ));
        }
        if let Some(m) = &draw.mesh {
            super::mesh::check(m, self.info.mesh_enabled(m.nv))?;
        }
        let f = &self.info.features;
        if draw.gs.is_some() && !super::on(f.geometry_shader) {
            return Err("the device has no geometry shaders".into());
        }
        if draw.hs.is_some() != draw.ds.is_some() {
            return Err("a hull shader and a domain shader go together".into());
        }
        if draw.hs.is_some() {
            if !super::on(f.tessellation_shader) {
                return Err("the device has no tessellation shaders".into());
            }
            if draw.topology != vk::PrimitiveTopology::PATCH_LIST
                || draw.patch_control_points == 0
                || draw.patch_control_points > limits.max_tessellation_patch_size
            {
                return Err(format!(
                    "tessellation draws patch lists of 1 to {} control points",
                    limits.max_tessellation_patch_size
                ));
            }
        }
        if draw.layers == 0 || draw.layers > limits.max_framebuffer_layers {
            return Err(format!(
                "{} layers: the device allows 1 to {}",
                draw.layers, limits.max_framebuffer_layers
            ));
        }
        let mut layout: Layout = BTreeMap::new();
        for r in resources {
            self.check_resource(r)?;
            if matches!(r.kind, ResourceKind::SparseImage(_)) {
                return Err(format!("{}: sparse images are for compute runs", r.place()));
            }
            let ty = r.kind.descriptor_type();
            let slot = layout
                .entry(r.set)
                .or_default()
                .entry(r.binding)
                .or_insert((ty, 0));
            if slot.0 != ty {
                return Err(format!(
                    "{}: two descriptor types at one binding",
                    r.place()
                ));
            }
            slot.1 = slot.1.max(r.array_element + 1);
        }
        for (words, entry, _, model, stage) in draw.stages() {
            let module = interface::scan(words)?;
            if module.version > self.info.max_spirv_version {
                return Err(format!(
                    "the {stage} module is SPIR-V {}.{}; the device accepts up to {}.{}",
                    module.version.0,
                    module.version.1,
                    self.info.max_spirv_version.0,
                    self.info.max_spirv_version.1
                ));
            }
            let Some(ep) = module.entry_point(entry, model) else {
                return Err(format!(
                    "no {stage} entry point named `{entry}` in its module"
                ));
            };
            if draw.push_constants.is_empty() && module.uses_push_constants(ep) {
                return Err(format!(
                    "the {stage} shader declares push constants but none were given"
                ));
            }
            // A layout that does not match the shaders makes pipeline
            // creation invalid (VUID-VkGraphicsPipelineCreateInfo-layout-07988).
            for d in module.descriptors(ep) {
                let place = format!("set={} binding={}", d.set, d.binding);
                let Some(&(ty, count)) = layout.get(&d.set).and_then(|s| s.get(&d.binding)) else {
                    return Err(format!(
                        "the {stage} shader declares a descriptor at {place}, but no resource was given there"
                    ));
                };
                if d.ty.is_some_and(|want| want != ty) {
                    return Err(format!(
                        "{place}: the {stage} shader declares {:?}, the resource is {ty:?}",
                        d.ty
                    ));
                }
                match d.count {
                    Count::One if count > 1 => {
                        return Err(format!("{place}: one descriptor declared, {count} given"));
                    }
                    Count::Fixed(n) if count < n => {
                        return Err(format!("{place}: {n} descriptors declared, {count} given"));
                    }
                    Count::Runtime => {
                        return Err(format!("{place}: runtime arrays are for compute runs"));
                    }
                    _ => {}
                }
            }
        }
        Ok(layout)
    }
}

impl Scope<'_> {
    /// A device-local colour target that can be copied from.
    unsafe fn render_target(
        &mut self,
        width: u32,
        height: u32,
        layers: u32,
    ) -> Result<(vk::Image, vk::ImageView), String> {
        let d = &self.runner.device;
        let info = vk::ImageCreateInfo::default()
            .image_type(vk::ImageType::TYPE_2D)
            .format(TARGET_FORMAT)
            .extent(vk::Extent3D {
                width,
                height,
                depth: 1,
            })
            .mip_levels(1)
            .array_layers(layers)
            .samples(vk::SampleCountFlags::TYPE_1)
            .tiling(vk::ImageTiling::OPTIMAL)
            .usage(vk::ImageUsageFlags::COLOR_ATTACHMENT | vk::ImageUsageFlags::TRANSFER_SRC)
            .sharing_mode(vk::SharingMode::EXCLUSIVE)
            .initial_layout(vk::ImageLayout::UNDEFINED);
        unsafe {
            let image = self.device_image(&info, "no memory type for a render target")?;
            let view_info = vk::ImageViewCreateInfo::default()
                .image(image)
                .view_type(if layers > 1 {
                    vk::ImageViewType::TYPE_2D_ARRAY
                } else {
                    vk::ImageViewType::TYPE_2D
                })
                .format(TARGET_FORMAT)
                .subresource_range(vk::ImageSubresourceRange {
                    layer_count: layers,
                    ..COLOR_RANGE
                });
            let view = self.track(
                d.create_image_view(&view_info, None),
                Object::ImageView,
                "vkCreateImageView",
            )?;
            Ok((image, view))
        }
    }

    /// A render pass of `targets` colour attachments, cleared on load and
    /// left in TRANSFER_SRC_OPTIMAL for the copy to the host.
    unsafe fn render_pass(&mut self, targets: u32) -> Result<vk::RenderPass, String> {
        let attachments: Vec<vk::AttachmentDescription> = (0..targets)
            .map(|_| {
                vk::AttachmentDescription::default()
                    .format(TARGET_FORMAT)
                    .samples(vk::SampleCountFlags::TYPE_1)
                    .load_op(vk::AttachmentLoadOp::CLEAR)
                    .store_op(vk::AttachmentStoreOp::STORE)
                    .stencil_load_op(vk::AttachmentLoadOp::DONT_CARE)
                    .stencil_store_op(vk::AttachmentStoreOp::DONT_CARE)
                    .initial_layout(vk::ImageLayout::UNDEFINED)
                    .final_layout(vk::ImageLayout::TRANSFER_SRC_OPTIMAL)
            })
            .collect();
        let refs: Vec<vk::AttachmentReference> = (0..targets)
            .map(|i| vk::AttachmentReference {
                attachment: i,
                layout: vk::ImageLayout::COLOR_ATTACHMENT_OPTIMAL,
            })
            .collect();
        let subpasses = [vk::SubpassDescription::default()
            .pipeline_bind_point(vk::PipelineBindPoint::GRAPHICS)
            .color_attachments(&refs)];
        // The implicit dependency at the end of a render pass has no
        // destination access (Vulkan spec 8.1, "Render Pass Creation"): the
        // copy that reads the targets needs this one.
        let dependencies = [vk::SubpassDependency {
            src_subpass: 0,
            dst_subpass: vk::SUBPASS_EXTERNAL,
            src_stage_mask: vk::PipelineStageFlags::COLOR_ATTACHMENT_OUTPUT,
            dst_stage_mask: vk::PipelineStageFlags::TRANSFER,
            src_access_mask: vk::AccessFlags::COLOR_ATTACHMENT_WRITE,
            dst_access_mask: vk::AccessFlags::TRANSFER_READ,
            dependency_flags: vk::DependencyFlags::empty(),
        }];
        let info = vk::RenderPassCreateInfo::default()
            .attachments(&attachments)
            .subpasses(&subpasses)
            .dependencies(&dependencies);
        unsafe {
            self.track(
                self.runner.device.create_render_pass(&info, None),
                Object::RenderPass,
                "vkCreateRenderPass",
            )
        }
    }

    unsafe fn draw(
        &mut self,
        draw: &Draw,
        resources: &mut [Resource],
        layout: &Layout,
    ) -> Result<Vec<Vec<f32>>, String> {
        let r = self.runner;
        let d = &r.device;
        let stages = draw.stage_flags();
        let (w, h) = (draw.width, draw.height);
        unsafe {
            let mut modules = Vec::new();
            for (words, entry, stage, _, _) in draw.stages() {
                let m = self.track(
                    d.create_shader_module(
                        &vk::ShaderModuleCreateInfo::default().code(words),
                        None,
                    ),
                    Object::ShaderModule,
                    "vkCreateShaderModule",
                )?;
                let name = entry_name(entry).ok_or("entry name contains a NUL byte")?;
                modules.push((m, name, stage));
            }
            let set_layouts = self.set_layouts(layout, stages)?;
            let push_ranges = [vk::PushConstantRange::default()
                .stage_flags(stages)
                .offset(0)
                .size(draw.push_constants.len() as u32)];
            let mut layout_info = vk::PipelineLayoutCreateInfo::default().set_layouts(&set_layouts);
            if !draw.push_constants.is_empty() {
                layout_info = layout_info.push_constant_ranges(&push_ranges);
            }
            let pipeline_layout = self.track(
                d.create_pipeline_layout(&layout_info, None),
                Object::PipelineLayout,
                "vkCreatePipelineLayout",
            )?;
            let render_pass = self.render_pass(draw.targets)?;
            let mut targets = Vec::new();
            for _ in 0..draw.targets {
                targets.push(self.render_target(w, h, draw.layers)?);
            }
            let views: Vec<vk::ImageView> = targets.iter().map(|t| t.1).collect();
            let fb_info = vk::FramebufferCreateInfo::default()
                .render_pass(render_pass)
                .attachments(&views)
                .width(w)
                .height(h)
                .layers(draw.layers);
            let framebuffer = self.track(
                d.create_framebuffer(&fb_info, None),
                Object::Framebuffer,
                "vkCreateFramebuffer",
            )?;

            // The pipeline: fixed state for a plain opaque draw.
            let shader_stages: Vec<vk::PipelineShaderStageCreateInfo> = modules
                .iter()
                .map(|(m, name, stage)| {
                    vk::PipelineShaderStageCreateInfo::default()
                        .stage(*stage)
                        .module(*m)
                        .name(name)
                })
                .collect();
            let (bindings, attributes): (Vec<_>, Vec<_>) = match &draw.vertex_buffer {
                None => (Vec::new(), Vec::new()),
                Some(vb) => (
                    vec![vk::VertexInputBindingDescription {
                        binding: 0,
                        stride: vb.stride,
                        input_rate: vk::VertexInputRate::VERTEX,
                    }],
                    vb.attributes
                        .iter()
                        .map(
                            |&(location, format, offset)| vk::VertexInputAttributeDescription {
                                location,
                                binding: 0,
                                format,
                                offset,
                            },
                        )
                        .collect(),
                ),
            };
            let vertex_input = vk::PipelineVertexInputStateCreateInfo::default()
                .vertex_binding_descriptions(&bindings)
                .vertex_attribute_descriptions(&attributes);
            let input_assembly =
                vk::PipelineInputAssemblyStateCreateInfo::default().topology(draw.topology);
            let tessellation = vk::PipelineTessellationStateCreateInfo::default()
                .patch_control_points(draw.patch_control_points);
            let viewports = [vk::Viewport {
                x: 0.0,
                y: 0.0,
                width: w as f32,
                height: h as f32,
                min_depth: 0.0,
                max_depth: 1.0,
            }];
            let scissors = [vk::Rect2D {
                offset: vk::Offset2D::default(),
                extent: vk::Extent2D {
                    width: w,
                    height: h,
                },
            }];
            let viewport = vk::PipelineViewportStateCreateInfo::default()
                .viewports(&viewports)
                .scissors(&scissors);
            let raster = vk::PipelineRasterizationStateCreateInfo::default()
                .polygon_mode(vk::PolygonMode::FILL)
                .cull_mode(draw.cull_mode)
                .front_face(draw.front_face)
                .line_width(1.0);
            let multisample = vk::PipelineMultisampleStateCreateInfo::default()
                .rasterization_samples(vk::SampleCountFlags::TYPE_1);
            let blend_attachments: Vec<vk::PipelineColorBlendAttachmentState> = (0..draw.targets)
                .map(|_| {
                    vk::PipelineColorBlendAttachmentState::default()
                        .blend_enable(false)
                        .color_write_mask(vk::ColorComponentFlags::RGBA)
                })
                .collect();
            let blend =
                vk::PipelineColorBlendStateCreateInfo::default().attachments(&blend_attachments);
            let mut pipeline_info = vk::GraphicsPipelineCreateInfo::default()
                .stages(&shader_stages)
                .viewport_state(&viewport)
                .rasterization_state(&raster)
                .multisample_state(&multisample)
                .color_blend_state(&blend)
                .layout(pipeline_layout)
                .render_pass(render_pass)
                .subpass(0);
            // Mesh pipelines have no vertex input or input assembly
            // (VUID-VkGraphicsPipelineCreateInfo-pStages-02098 asks for
            // them only with a vertex shader).
            if draw.mesh.is_none() {
                pipeline_info = pipeline_info
                    .vertex_input_state(&vertex_input)
                    .input_assembly_state(&input_assembly);
            }
            if draw.hs.is_some() {
                pipeline_info = pipeline_info.tessellation_state(&tessellation);
            }
            let pipeline_info = [pipeline_info];
            let pipeline = match d.create_graphics_pipelines(
                vk::PipelineCache::null(),
                &pipeline_info,
                None,
            ) {
                Ok(p) => self.track(Ok(p[0]), Object::Pipeline, "")?,
                Err((_, e)) => return Err(format!("vkCreateGraphicsPipelines: {e}")),
            };

            let (sets, backings) =
                self.descriptor_sets(layout, &set_layouts, resources, draw.timeout)?;
            let vertex_buffer = match &draw.vertex_buffer {
                Some(vb) => Some(
                    self.host_buffer(
                        vb.data.len() as u64,
                        vk::BufferUsageFlags::VERTEX_BUFFER,
                        &vb.data,
                    )?
                    .0,
                ),
                None => None,
            };
            let texel_bytes = u64::from(w) * u64::from(h) * 16;
            let mut readbacks = Vec::new();
            for _ in 0..draw.targets * draw.layers {
                readbacks.push(self.host_buffer(
                    texel_bytes,
                    vk::BufferUsageFlags::TRANSFER_DST,
                    &[],
                )?);
            }

            // Record.
            let cmd = self.begin_commands()?;
            self.record_uploads(cmd, resources, &backings, shader_stages_mask(stages));
            let clears: Vec<vk::ClearValue> = (0..draw.targets)
                .map(|_| vk::ClearValue {
                    color: vk::ClearColorValue {
                        float32: draw.clear,
                    },
                })
                .collect();
            let pass_begin = vk::RenderPassBeginInfo::default()
                .render_pass(render_pass)
                .framebuffer(framebuffer)
                .render_area(scissors[0])
                .clear_values(&clears);
            d.cmd_begin_render_pass(cmd, &pass_begin, vk::SubpassContents::INLINE);
            d.cmd_bind_pipeline(cmd, vk::PipelineBindPoint::GRAPHICS, pipeline);
            if !sets.is_empty() {
                d.cmd_bind_descriptor_sets(
                    cmd,
                    vk::PipelineBindPoint::GRAPHICS,
                    pipeline_layout,
                    0,
                    &sets,
                    &[],
                );
            }
            if !draw.push_constants.is_empty() {
                d.cmd_push_constants(cmd, pipeline_layout, stages, 0, &draw.push_constants);
            }
            if let Some(vb) = vertex_buffer {
                d.cmd_bind_vertex_buffers(cmd, 0, &[vb], &[0]);
            }
            match &draw.mesh {
                Some(m) => super::mesh::record_draw(&r.instance, d, cmd, m),
                None => d.cmd_draw(cmd, draw.vertex_count, draw.instance_count, 0, 0),
            }
            d.cmd_end_render_pass(cmd);
            // The render pass's final dependency made the targets readable
            // by transfers, in TRANSFER_SRC_OPTIMAL.
            for (i, &(buffer, _)) in readbacks.iter().enumerate() {
                let (t, layer) = (i as u32 / draw.layers, i as u32 % draw.layers);
                let image = targets[t as usize].0;
                let region = vk::BufferImageCopy {
                    buffer_offset: 0,
                    buffer_row_length: 0,
                    buffer_image_height: 0,
                    image_subresource: vk::ImageSubresourceLayers {
                        aspect_mask: vk::ImageAspectFlags::COLOR,
                        mip_level: 0,
                        base_array_layer: layer,
                        layer_count: 1,
                    },
                    image_offset: vk::Offset3D::default(),
                    image_extent: vk::Extent3D {
                        width: w,
                        height: h,
                        depth: 1,
                    },
                };
                d.cmd_copy_image_to_buffer(
                    cmd,
                    image,
                    vk::ImageLayout::TRANSFER_SRC_OPTIMAL,
                    buffer,
                    &[region],
                );
            }
            // Device writes become visible to the host only through a
            // barrier to HOST_READ (Vulkan spec 7.9).
            let to_host = vk::MemoryBarrier::default()
                .src_access_mask(vk::AccessFlags::SHADER_WRITE | vk::AccessFlags::TRANSFER_WRITE)
                .dst_access_mask(vk::AccessFlags::HOST_READ);
            d.cmd_pipeline_barrier(
                cmd,
                shader_stages_mask(stages) | vk::PipelineStageFlags::TRANSFER,
                vk::PipelineStageFlags::HOST,
                vk::DependencyFlags::empty(),
                &[to_host],
                &[],
                &[],
            );
            d.end_command_buffer(cmd)
                .map_err(|e| format!("vkEndCommandBuffer: {e}"))?;

            // Submit and wait.
            self.submit_and_wait(cmd, draw.timeout, "a draw")?;

            // Read back.
            for (res, b) in resources.iter_mut().zip(&backings) {
                if let Backing::Buffer { ptr, .. } = b {
                    std::ptr::copy_nonoverlapping(*ptr, res.data.as_mut_ptr(), res.data.len());
                }
            }
            let texels = (w * h * 4) as usize;
            Ok(readbacks
                .iter()
                .map(|&(_, ptr)| {
                    let mut out = vec![0f32; texels];
                    std::ptr::copy_nonoverlapping(ptr, out.as_mut_ptr().cast::<u8>(), texels * 4);
                    out
                })
                .collect())
        }
    }
}

/// The pipeline stages of shader stages `s`.
fn shader_stages_mask(s: vk::ShaderStageFlags) -> vk::PipelineStageFlags {
    let mut m = vk::PipelineStageFlags::VERTEX_SHADER | vk::PipelineStageFlags::FRAGMENT_SHADER;
    if s.contains(vk::ShaderStageFlags::MESH_EXT) {
        m |= vk::PipelineStageFlags::MESH_SHADER_EXT;
    }
    if s.contains(vk::ShaderStageFlags::TASK_EXT) {
        m |= vk::PipelineStageFlags::TASK_SHADER_EXT;
    }
    if s.contains(vk::ShaderStageFlags::GEOMETRY) {
        m |= vk::PipelineStageFlags::GEOMETRY_SHADER;
    }
    if s.contains(vk::ShaderStageFlags::TESSELLATION_CONTROL) {
        m |= vk::PipelineStageFlags::TESSELLATION_CONTROL_SHADER
            | vk::PipelineStageFlags::TESSELLATION_EVALUATION_SHADER;
    }
    m
}

const COLOR_RANGE: vk::ImageSubresourceRange = vk::ImageSubresourceRange {
    aspect_mask: vk::ImageAspectFlags::COLOR,
    base_mip_level: 0,
    level_count: 1,
    base_array_layer: 0,
    layer_count: 1,
};
