//! The Vulkan objects of one dispatch: made through [`Scope`], which
//! remembers each and destroys them all, in reverse order, when the run
//! ends — or leaks them on purpose when the device may still use them.

use super::Runner;
use super::resource::{ImageDesc, SamplerDesc};
use ash::vk;
use std::sync::atomic::Ordering;

impl Runner {
    /// A memory type allowed by `bits` with the first of `wanted` property
    /// sets that one has.
    pub(super) fn memory_type(&self, bits: u32, wanted: &[vk::MemoryPropertyFlags]) -> Option<u32> {
        let types = &self.memory.memory_types[..self.memory.memory_type_count as usize];
        wanted.iter().find_map(|&flags| {
            (0..types.len() as u32)
                .find(|&i| bits & (1 << i) != 0 && types[i as usize].property_flags.contains(flags))
        })
    }
}

/// A Vulkan object a run created, to be destroyed at the end of the run.
#[derive(Clone, Copy)]
pub(super) enum Object {
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
    RenderPass(vk::RenderPass),
    Framebuffer(vk::Framebuffer),
    AccelerationStructure(vk::AccelerationStructureKHR),
}

/// The device side of one resource.
pub(super) enum Backing {
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
    /// A sparse image (tests/unit/vk/sparse.rs), its bound parts already backed
    /// by memory, with the staging buffer and the regions to upload.
    SparseImage {
        image: vk::Image,
        view: vk::ImageView,
        staging: vk::Buffer,
        regions: Vec<vk::BufferImageCopy>,
        levels: u32,
        layout: vk::ImageLayout,
    },
    /// A top-level acceleration structure, built (tests/unit/vk/accel.rs).
    AccelerationStructure(vk::AccelerationStructureKHR),
}

/// The objects of one run; destroys them in reverse order when dropped.
pub(super) struct Scope<'r> {
    pub(super) runner: &'r Runner,
    pub(super) objects: Vec<Object>,
    /// Set after a timeout: the device may still use the objects, so they
    /// are leaked (destroying them would be invalid).
    pub(super) leak: bool,
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
                    Object::RenderPass(x) => d.destroy_render_pass(x, None),
                    Object::Framebuffer(x) => d.destroy_framebuffer(x, None),
                    Object::AccelerationStructure(x) => {
                        // Made only through this loader (tests/unit/vk/accel.rs).
                        if let Some(accel) = &self.runner.accel {
                            accel.destroy_acceleration_structure(x, None);
                        }
                    }
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
    /// A one-time command buffer from a new tracked pool, begun.
    pub(super) fn begin_commands(&mut self) -> Result<vk::CommandBuffer, String> {
        let r = self.runner;
        let d = &r.device;
        unsafe {
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
            Ok(cmd)
        }
    }

    /// Creates an image in device-local memory (any memory where there is
    /// none), bound and tracked; `no_memory` is the error when no memory
    /// type fits.
    pub(super) fn device_image(
        &mut self,
        info: &vk::ImageCreateInfo,
        no_memory: &str,
    ) -> Result<vk::Image, String> {
        let d = &self.runner.device;
        unsafe {
            let image = self.track(d.create_image(info, None), Object::Image, "vkCreateImage")?;
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
                .ok_or(no_memory)?;
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
            Ok(image)
        }
    }

    /// Remembers a newly made object, or turns the failure into a message.
    pub(super) fn track<T: Copy>(
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
    pub(super) unsafe fn host_buffer(
        &mut self,
        size: u64,
        usage: vk::BufferUsageFlags,
        data: &[u8],
    ) -> Result<(vk::Buffer, *mut u8), String> {
        unsafe {
            let (buffer, memory, allocated) = self.bound_buffer(size, usage, &HOST_MEMORY)?;
            let ptr = self.map_with(memory, allocated, data)?;
            Ok((buffer, ptr))
        }
    }

    /// A buffer used through its device address (acceleration structure
    /// inputs and storage, scratch, shader binding tables): host-visible and
    /// mapped, holding `data`, when `host`; device-local (pointer null)
    /// otherwise. Returns the buffer, the pointer and the address.
    pub(super) unsafe fn address_buffer(
        &mut self,
        size: u64,
        usage: vk::BufferUsageFlags,
        host: bool,
        data: &[u8],
    ) -> Result<(vk::Buffer, *mut u8, vk::DeviceAddress), String> {
        let d = &self.runner.device;
        let usage = usage | vk::BufferUsageFlags::SHADER_DEVICE_ADDRESS;
        let device_local = [
            vk::MemoryPropertyFlags::DEVICE_LOCAL,
            vk::MemoryPropertyFlags::empty(),
        ];
        unsafe {
            let wanted: &[vk::MemoryPropertyFlags] =
                if host { &HOST_MEMORY } else { &device_local };
            let (buffer, memory, allocated) = self.bound_buffer(size, usage, wanted)?;
            let ptr = if host {
                self.map_with(memory, allocated, data)?
            } else {
                std::ptr::null_mut()
            };
            let address =
                d.get_buffer_device_address(&vk::BufferDeviceAddressInfo::default().buffer(buffer));
            Ok((buffer, ptr, address))
        }
    }

    /// A buffer of at least `size` bytes bound to new memory of the first
    /// `wanted` kind the buffer allows; memory that a device address
    /// reaches is allocated with `DEVICE_ADDRESS` (VUID-vkBindBufferMemory-bufferDeviceAddress-03339).
    /// Returns the buffer, its memory and the allocated size.
    unsafe fn bound_buffer(
        &mut self,
        size: u64,
        usage: vk::BufferUsageFlags,
        wanted: &[vk::MemoryPropertyFlags],
    ) -> Result<(vk::Buffer, vk::DeviceMemory, u64), String> {
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
                .memory_type(req.memory_type_bits, wanted)
                .ok_or_else(|| format!("no memory type of {wanted:?} for a buffer"))?;
            let mut flags = vk::MemoryAllocateFlagsInfo::default()
                .flags(vk::MemoryAllocateFlags::DEVICE_ADDRESS);
            let mut alloc = vk::MemoryAllocateInfo::default()
                .allocation_size(req.size)
                .memory_type_index(ty);
            if usage.contains(vk::BufferUsageFlags::SHADER_DEVICE_ADDRESS) {
                alloc = alloc.push_next(&mut flags);
            }
            let memory = self.track(
                d.allocate_memory(&alloc, None),
                Object::Memory,
                "vkAllocateMemory",
            )?;
            d.bind_buffer_memory(buffer, memory, 0)
                .map_err(|e| format!("vkBindBufferMemory: {e}"))?;
            Ok((buffer, memory, req.size))
        }
    }

    /// Maps all `size` bytes of host-visible `memory` and fills them with
    /// `data` then zeros.
    unsafe fn map_with(
        &self,
        memory: vk::DeviceMemory,
        size: u64,
        data: &[u8],
    ) -> Result<*mut u8, String> {
        let d = &self.runner.device;
        unsafe {
            let ptr = d
                .map_memory(memory, 0, vk::WHOLE_SIZE, vk::MemoryMapFlags::empty())
                .map_err(|e| format!("vkMapMemory: {e}"))? as *mut u8;
            std::ptr::copy_nonoverlapping(data.as_ptr(), ptr, data.len());
            std::ptr::write_bytes(ptr.add(data.len()), 0, size as usize - data.len());
            Ok(ptr)
        }
    }

    pub(super) unsafe fn sampler(&mut self, s: &SamplerDesc) -> Result<vk::Sampler, String> {
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
    pub(super) unsafe fn image(
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
            let image = self.device_image(&info, "no memory type for an image")?;
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
}

pub(super) fn full_range(desc: &ImageDesc) -> vk::ImageSubresourceRange {
    vk::ImageSubresourceRange {
        aspect_mask: vk::ImageAspectFlags::COLOR,
        base_mip_level: 0,
        level_count: desc.mip_levels,
        base_array_layer: 0,
        layer_count: desc.layers,
    }
}
