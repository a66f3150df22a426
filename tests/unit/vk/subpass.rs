//! A render pass of two subpasses, for subpass inputs: the first draws a
//! colour target and a depth target; the second reads both as input
//! attachments (`[[vk::input_attachment_index(0)]]` the colour at set 0
//! binding 0, `[[vk::input_attachment_index(1)]]` the depth at binding 1)
//! and draws its own colour target, which comes back to the host.
//!
//! ```ignore
//! let draw = SubpassDraw::new((&vs, "VSMain"), (&first, "PSFirst"), (&second, "PSSecond"));
//! let rgba = runner.draw_subpasses(&draw)?;   // width * height * 4 floats
//! ```
//!
//! Both colour targets are `TARGET_FORMAT`, the depth target `D32_SFLOAT`
//! (every value a shader writes reads back exactly); the first subpass
//! tests depth with ALWAYS and writes it. Vulkan 1.0 render passes only.

use super::graphics::TARGET_FORMAT;
use super::scope::{Object, Scope};
use super::{Runner, entry_name};
use ash::vk;
use std::time::Duration;

const DEPTH_FORMAT: vk::Format = vk::Format::D32_SFLOAT;

/// The three shaders of a two-subpass draw and the target size.
pub struct SubpassDraw<'a> {
    /// One vertex shader for both subpasses.
    pub vs: (&'a [u32], &'a str),
    /// The first subpass's pixel shader (`SV_Target0`, `SV_Depth`).
    pub first: (&'a [u32], &'a str),
    /// The second subpass's pixel shader, reading the subpass inputs.
    pub second: (&'a [u32], &'a str),
    pub width: u32,
    pub height: u32,
    pub vertex_count: u32,
    pub timeout: Duration,
}

impl<'a> SubpassDraw<'a> {
    /// A 16×16 draw of 3 vertices.
    pub fn new(
        vs: (&'a [u32], &'a str),
        first: (&'a [u32], &'a str),
        second: (&'a [u32], &'a str),
    ) -> Self {
        SubpassDraw {
            vs,
            first,
            second,
            width: 16,
            height: 16,
            vertex_count: 3,
            timeout: Duration::from_secs(20),
        }
    }
}

impl Runner {
    /// Draws both subpasses; returns the second's target, row by row, 4
    /// floats a texel.
    pub fn draw_subpasses(&self, draw: &SubpassDraw) -> Result<Vec<f32>, String> {
        if let Some(why) = self.broken() {
            return Err(format!("the Vulkan device is unusable: {why}"));
        }
        let limits = &self.info.properties.limits;
        if draw.width == 0
            || draw.height == 0
            || draw.width > limits.max_framebuffer_width
            || draw.height > limits.max_framebuffer_height
        {
            return Err(format!(
                "a {}x{} target is too large",
                draw.width, draw.height
            ));
        }
        // SAFETY: D32_SFLOAT depth attachments and input attachments are
        // checked below before use; every object is destroyed by `scope`
        // after the fence signalled, or leaked if it never did.
        let props = unsafe {
            self.instance
                .get_physical_device_format_properties(self.physical_device, DEPTH_FORMAT)
        };
        if !props
            .optimal_tiling_features
            .contains(vk::FormatFeatureFlags::DEPTH_STENCIL_ATTACHMENT)
        {
            return Err("the device has no D32_SFLOAT depth attachments".into());
        }
        let mut scope = Scope {
            runner: self,
            objects: Vec::new(),
            leak: false,
        };
        unsafe { scope.draw_subpasses(draw) }
    }
}

/// The attachments: colour A and the depth (subpass 0's targets, subpass
/// 1's inputs), colour B (subpass 1's target).
const COLOR_A: u32 = 0;
const DEPTH: u32 = 1;
const COLOR_B: u32 = 2;

impl Scope<'_> {
    /// An image of `format` with `usage` and its view of `aspect`.
    unsafe fn attachment(
        &mut self,
        format: vk::Format,
        usage: vk::ImageUsageFlags,
        aspect: vk::ImageAspectFlags,
        (width, height): (u32, u32),
    ) -> Result<(vk::Image, vk::ImageView), String> {
        let info = vk::ImageCreateInfo::default()
            .image_type(vk::ImageType::TYPE_2D)
            .format(format)
            .extent(vk::Extent3D {
                width,
                height,
                depth: 1,
            })
            .mip_levels(1)
            .array_layers(1)
            .samples(vk::SampleCountFlags::TYPE_1)
            .tiling(vk::ImageTiling::OPTIMAL)
            .usage(usage)
            .sharing_mode(vk::SharingMode::EXCLUSIVE)
            .initial_layout(vk::ImageLayout::UNDEFINED);
        let image = self.device_image(&info, "no memory type for an attachment")?;
        let view_info = vk::ImageViewCreateInfo::default()
            .image(image)
            .view_type(vk::ImageViewType::TYPE_2D)
            .format(format)
            .subresource_range(vk::ImageSubresourceRange {
                aspect_mask: aspect,
                base_mip_level: 0,
                level_count: 1,
                base_array_layer: 0,
                layer_count: 1,
            });
        let view = unsafe {
            self.track(
                self.runner.device.create_image_view(&view_info, None),
                Object::ImageView,
                "vkCreateImageView",
            )?
        };
        Ok((image, view))
    }

    /// Colour A and depth, written by subpass 0 and read by subpass 1 as
    /// input attachments; colour B, written by subpass 1 and copied out.
    unsafe fn two_subpass_render_pass(&mut self) -> Result<vk::RenderPass, String> {
        let attachment = |format, final_layout| {
            vk::AttachmentDescription::default()
                .format(format)
                .samples(vk::SampleCountFlags::TYPE_1)
                .load_op(vk::AttachmentLoadOp::CLEAR)
                .store_op(vk::AttachmentStoreOp::STORE)
                .stencil_load_op(vk::AttachmentLoadOp::DONT_CARE)
                .stencil_store_op(vk::AttachmentStoreOp::DONT_CARE)
                .initial_layout(vk::ImageLayout::UNDEFINED)
                .final_layout(final_layout)
        };
        let attachments = [
            attachment(TARGET_FORMAT, vk::ImageLayout::SHADER_READ_ONLY_OPTIMAL),
            attachment(
                DEPTH_FORMAT,
                vk::ImageLayout::DEPTH_STENCIL_READ_ONLY_OPTIMAL,
            ),
            attachment(TARGET_FORMAT, vk::ImageLayout::TRANSFER_SRC_OPTIMAL),
        ];
        let reference = |attachment, layout| vk::AttachmentReference { attachment, layout };
        let first_colors = [reference(
            COLOR_A,
            vk::ImageLayout::COLOR_ATTACHMENT_OPTIMAL,
        )];
        let first_depth = reference(DEPTH, vk::ImageLayout::DEPTH_STENCIL_ATTACHMENT_OPTIMAL);
        let inputs = [
            reference(COLOR_A, vk::ImageLayout::SHADER_READ_ONLY_OPTIMAL),
            reference(DEPTH, vk::ImageLayout::DEPTH_STENCIL_READ_ONLY_OPTIMAL),
        ];
        let second_colors = [reference(
            COLOR_B,
            vk::ImageLayout::COLOR_ATTACHMENT_OPTIMAL,
        )];
        let subpasses = [
            vk::SubpassDescription::default()
                .pipeline_bind_point(vk::PipelineBindPoint::GRAPHICS)
                .color_attachments(&first_colors)
                .depth_stencil_attachment(&first_depth),
            vk::SubpassDescription::default()
                .pipeline_bind_point(vk::PipelineBindPoint::GRAPHICS)
                .input_attachments(&inputs)
                .color_attachments(&second_colors),
        ];
        let dependencies = [
            // What subpass 0 wrote, read at the same pixel in subpass 1.
            vk::SubpassDependency {
                src_subpass: 0,
                dst_subpass: 1,
                src_stage_mask: vk::PipelineStageFlags::COLOR_ATTACHMENT_OUTPUT
                    | vk::PipelineStageFlags::EARLY_FRAGMENT_TESTS
                    | vk::PipelineStageFlags::LATE_FRAGMENT_TESTS,
                dst_stage_mask: vk::PipelineStageFlags::FRAGMENT_SHADER,
                src_access_mask: vk::AccessFlags::COLOR_ATTACHMENT_WRITE
                    | vk::AccessFlags::DEPTH_STENCIL_ATTACHMENT_WRITE,
                dst_access_mask: vk::AccessFlags::INPUT_ATTACHMENT_READ,
                dependency_flags: vk::DependencyFlags::BY_REGION,
            },
            // The copy to the host reads colour B.
            vk::SubpassDependency {
                src_subpass: 1,
                dst_subpass: vk::SUBPASS_EXTERNAL,
                src_stage_mask: vk::PipelineStageFlags::COLOR_ATTACHMENT_OUTPUT,
                dst_stage_mask: vk::PipelineStageFlags::TRANSFER,
                src_access_mask: vk::AccessFlags::COLOR_ATTACHMENT_WRITE,
                dst_access_mask: vk::AccessFlags::TRANSFER_READ,
                dependency_flags: vk::DependencyFlags::empty(),
            },
        ];
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

    /// The pipeline of subpass `subpass`: `vs` and `ps`, a full-screen
    /// viewport, depth written (ALWAYS) in subpass 0.
    unsafe fn subpass_pipeline(
        &mut self,
        draw: &SubpassDraw,
        ps: (&[u32], &str),
        subpass: u32,
        layout: vk::PipelineLayout,
        render_pass: vk::RenderPass,
    ) -> Result<vk::Pipeline, String> {
        let d = &self.runner.device;
        let mut stages = Vec::new();
        let mut names = Vec::new();
        for ((words, entry), stage) in [
            (draw.vs, vk::ShaderStageFlags::VERTEX),
            (ps, vk::ShaderStageFlags::FRAGMENT),
        ] {
            let m = unsafe {
                self.track(
                    d.create_shader_module(
                        &vk::ShaderModuleCreateInfo::default().code(words),
                        None,
                    ),
                    Object::ShaderModule,
                    "vkCreateShaderModule",
                )?
            };
            names.push(entry_name(entry).ok_or("entry name contains a NUL byte")?);
            stages.push((m, stage));
        }
        let shader_stages: Vec<vk::PipelineShaderStageCreateInfo> = stages
            .iter()
            .zip(&names)
            .map(|(&(m, stage), name)| {
                vk::PipelineShaderStageCreateInfo::default()
                    .stage(stage)
                    .module(m)
                    .name(name)
            })
            .collect();
        let vertex_input = vk::PipelineVertexInputStateCreateInfo::default();
        let input_assembly = vk::PipelineInputAssemblyStateCreateInfo::default()
            .topology(vk::PrimitiveTopology::TRIANGLE_LIST);
        let viewports = [vk::Viewport {
            x: 0.0,
            y: 0.0,
            width: draw.width as f32,
            height: draw.height as f32,
            min_depth: 0.0,
            max_depth: 1.0,
        }];
        let scissors = [full_area(draw)];
        let viewport = vk::PipelineViewportStateCreateInfo::default()
            .viewports(&viewports)
            .scissors(&scissors);
        let raster = vk::PipelineRasterizationStateCreateInfo::default()
            .polygon_mode(vk::PolygonMode::FILL)
            .cull_mode(vk::CullModeFlags::NONE)
            .line_width(1.0);
        let multisample = vk::PipelineMultisampleStateCreateInfo::default()
            .rasterization_samples(vk::SampleCountFlags::TYPE_1);
        let blend_attachments = [vk::PipelineColorBlendAttachmentState::default()
            .blend_enable(false)
            .color_write_mask(vk::ColorComponentFlags::RGBA)];
        let blend =
            vk::PipelineColorBlendStateCreateInfo::default().attachments(&blend_attachments);
        let depth = vk::PipelineDepthStencilStateCreateInfo::default()
            .depth_test_enable(true)
            .depth_write_enable(true)
            .depth_compare_op(vk::CompareOp::ALWAYS);
        let mut info = vk::GraphicsPipelineCreateInfo::default()
            .stages(&shader_stages)
            .vertex_input_state(&vertex_input)
            .input_assembly_state(&input_assembly)
            .viewport_state(&viewport)
            .rasterization_state(&raster)
            .multisample_state(&multisample)
            .color_blend_state(&blend)
            .layout(layout)
            .render_pass(render_pass)
            .subpass(subpass);
        if subpass == 0 {
            info = info.depth_stencil_state(&depth);
        }
        match unsafe { d.create_graphics_pipelines(vk::PipelineCache::null(), &[info], None) } {
            Ok(p) => self.track(Ok(p[0]), Object::Pipeline, ""),
            Err((_, e)) => Err(format!("vkCreateGraphicsPipelines: {e}")),
        }
    }

    /// The set layout of the two input attachments, and a set pointing at
    /// colour A and the depth.
    unsafe fn input_attachment_set(
        &mut self,
        color: vk::ImageView,
        depth: vk::ImageView,
    ) -> Result<(vk::DescriptorSetLayout, vk::DescriptorSet), String> {
        let d = &self.runner.device;
        let bindings: Vec<vk::DescriptorSetLayoutBinding> = (0..2)
            .map(|b| {
                vk::DescriptorSetLayoutBinding::default()
                    .binding(b)
                    .descriptor_type(vk::DescriptorType::INPUT_ATTACHMENT)
                    .descriptor_count(1)
                    .stage_flags(vk::ShaderStageFlags::FRAGMENT)
            })
            .collect();
        unsafe {
            let set_layout = self.track(
                d.create_descriptor_set_layout(
                    &vk::DescriptorSetLayoutCreateInfo::default().bindings(&bindings),
                    None,
                ),
                Object::SetLayout,
                "vkCreateDescriptorSetLayout",
            )?;
            let sizes = [vk::DescriptorPoolSize {
                ty: vk::DescriptorType::INPUT_ATTACHMENT,
                descriptor_count: 2,
            }];
            let pool = self.track(
                d.create_descriptor_pool(
                    &vk::DescriptorPoolCreateInfo::default()
                        .max_sets(1)
                        .pool_sizes(&sizes),
                    None,
                ),
                Object::DescriptorPool,
                "vkCreateDescriptorPool",
            )?;
            let layouts = [set_layout];
            let set = d
                .allocate_descriptor_sets(
                    &vk::DescriptorSetAllocateInfo::default()
                        .descriptor_pool(pool)
                        .set_layouts(&layouts),
                )
                .map_err(|e| format!("vkAllocateDescriptorSets: {e}"))?[0];
            let infos = [
                [vk::DescriptorImageInfo {
                    sampler: vk::Sampler::null(),
                    image_view: color,
                    image_layout: vk::ImageLayout::SHADER_READ_ONLY_OPTIMAL,
                }],
                [vk::DescriptorImageInfo {
                    sampler: vk::Sampler::null(),
                    image_view: depth,
                    image_layout: vk::ImageLayout::DEPTH_STENCIL_READ_ONLY_OPTIMAL,
                }],
            ];
            let writes: Vec<vk::WriteDescriptorSet> = infos
                .iter()
                .enumerate()
                .map(|(b, info)| {
                    vk::WriteDescriptorSet::default()
                        .dst_set(set)
                        .dst_binding(b as u32)
                        .descriptor_type(vk::DescriptorType::INPUT_ATTACHMENT)
                        .image_info(info)
                })
                .collect();
            d.update_descriptor_sets(&writes, &[]);
            Ok((set_layout, set))
        }
    }

    unsafe fn draw_subpasses(&mut self, draw: &SubpassDraw) -> Result<Vec<f32>, String> {
        let size = (draw.width, draw.height);
        let input = vk::ImageUsageFlags::INPUT_ATTACHMENT;
        unsafe {
            let (_, color_a) = self.attachment(
                TARGET_FORMAT,
                vk::ImageUsageFlags::COLOR_ATTACHMENT | input,
                vk::ImageAspectFlags::COLOR,
                size,
            )?;
            let (_, depth) = self.attachment(
                DEPTH_FORMAT,
                vk::ImageUsageFlags::DEPTH_STENCIL_ATTACHMENT | input,
                vk::ImageAspectFlags::DEPTH,
                size,
            )?;
            let (image_b, color_b) = self.attachment(
                TARGET_FORMAT,
                vk::ImageUsageFlags::COLOR_ATTACHMENT | vk::ImageUsageFlags::TRANSFER_SRC,
                vk::ImageAspectFlags::COLOR,
                size,
            )?;
            let render_pass = self.two_subpass_render_pass()?;
            let views = [color_a, depth, color_b];
            let framebuffer = self.track(
                self.runner.device.create_framebuffer(
                    &vk::FramebufferCreateInfo::default()
                        .render_pass(render_pass)
                        .attachments(&views)
                        .width(draw.width)
                        .height(draw.height)
                        .layers(1),
                    None,
                ),
                Object::Framebuffer,
                "vkCreateFramebuffer",
            )?;
            let (set_layout, set) = self.input_attachment_set(color_a, depth)?;
            let set_layouts = [set_layout];
            let layout = self.track(
                self.runner.device.create_pipeline_layout(
                    &vk::PipelineLayoutCreateInfo::default().set_layouts(&set_layouts),
                    None,
                ),
                Object::PipelineLayout,
                "vkCreatePipelineLayout",
            )?;
            let first = self.subpass_pipeline(draw, draw.first, 0, layout, render_pass)?;
            let second = self.subpass_pipeline(draw, draw.second, 1, layout, render_pass)?;
            let texels = (draw.width * draw.height * 4) as usize;
            let (readback, ptr) =
                self.host_buffer(texels as u64 * 4, vk::BufferUsageFlags::TRANSFER_DST, &[])?;

            let d = &self.runner.device;
            let cmd = self.begin_commands()?;
            let clear_color = vk::ClearValue {
                color: vk::ClearColorValue { float32: [-1.0; 4] },
            };
            let clears = [
                clear_color,
                vk::ClearValue {
                    depth_stencil: vk::ClearDepthStencilValue {
                        depth: 1.0,
                        stencil: 0,
                    },
                },
                clear_color,
            ];
            let begin = vk::RenderPassBeginInfo::default()
                .render_pass(render_pass)
                .framebuffer(framebuffer)
                .render_area(full_area(draw))
                .clear_values(&clears);
            d.cmd_begin_render_pass(cmd, &begin, vk::SubpassContents::INLINE);
            d.cmd_bind_pipeline(cmd, vk::PipelineBindPoint::GRAPHICS, first);
            d.cmd_draw(cmd, draw.vertex_count, 1, 0, 0);
            d.cmd_next_subpass(cmd, vk::SubpassContents::INLINE);
            d.cmd_bind_pipeline(cmd, vk::PipelineBindPoint::GRAPHICS, second);
            d.cmd_bind_descriptor_sets(
                cmd,
                vk::PipelineBindPoint::GRAPHICS,
                layout,
                0,
                &[set],
                &[],
            );
            d.cmd_draw(cmd, draw.vertex_count, 1, 0, 0);
            d.cmd_end_render_pass(cmd);
            let region = vk::BufferImageCopy {
                buffer_offset: 0,
                buffer_row_length: 0,
                buffer_image_height: 0,
                image_subresource: vk::ImageSubresourceLayers {
                    aspect_mask: vk::ImageAspectFlags::COLOR,
                    mip_level: 0,
                    base_array_layer: 0,
                    layer_count: 1,
                },
                image_offset: vk::Offset3D::default(),
                image_extent: vk::Extent3D {
                    width: draw.width,
                    height: draw.height,
                    depth: 1,
                },
            };
            d.cmd_copy_image_to_buffer(
                cmd,
                image_b,
                vk::ImageLayout::TRANSFER_SRC_OPTIMAL,
                readback,
                &[region],
            );
            // Device writes become visible to the host only through a
            // barrier to HOST_READ (Vulkan spec 7.9).
            let to_host = vk::MemoryBarrier::default()
                .src_access_mask(vk::AccessFlags::TRANSFER_WRITE)
                .dst_access_mask(vk::AccessFlags::HOST_READ);
            d.cmd_pipeline_barrier(
                cmd,
                vk::PipelineStageFlags::TRANSFER,
                vk::PipelineStageFlags::HOST,
                vk::DependencyFlags::empty(),
                &[to_host],
                &[],
                &[],
            );
            d.end_command_buffer(cmd)
                .map_err(|e| format!("vkEndCommandBuffer: {e}"))?;
            self.submit_and_wait(cmd, draw.timeout, "a two-subpass draw")?;
            let mut out = vec![0f32; texels];
            std::ptr::copy_nonoverlapping(ptr, out.as_mut_ptr().cast::<u8>(), texels * 4);
            Ok(out)
        }
    }
}

fn full_area(draw: &SubpassDraw) -> vk::Rect2D {
    vk::Rect2D {
        offset: vk::Offset2D::default(),
        extent: vk::Extent2D {
            width: draw.width,
            height: draw.height,
        },
    }
}
