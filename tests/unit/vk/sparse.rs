//! Sparse, partially resident 2D images for the tiled-resources tests
//! (`tests/unit/sparse`): memory bound to some tiles only, so that shaders can
//! read from bound and unbound tiles.
//!
//! The tile arithmetic ([`SparseLayout`]) is plain Rust and tested without
//! a device; the Vulkan part follows the spec's "Sparse Resources" chapter:
//!
//! 1. the device must have `sparseBinding`, `sparseResidencyImage2D`,
//!    `shaderResourceResidency`, `shaderResourceMinLod`, and
//!    `residencyNonResidentStrict` (else reads of unbound tiles are
//!    undefined, and the tests could assert nothing), and the runner's
//!    queue must have `SPARSE_BINDING` ([`Runner::sparse_support`]; lavapipe
//!    answers "OK" when asked to make a sparse image, so only the feature
//!    bits count);
//! 2. the image is made with `SPARSE_BINDING | SPARSE_RESIDENCY`
//!    (VUID-VkImageCreateInfo-flags-00987: residency needs binding);
//!    `vkGetImageMemoryRequirements` gives the block size in bytes
//!    (`alignment`) and the memory types, `vkGetImageSparseMemoryRequirements`
//!    the block shape in texels (`imageGranularity`) and the mip tail;
//! 3. each bound tile is one `VkSparseImageMemoryBind` at a multiple of the
//!    block shape, its extent a whole block or reaching the edge of the mip
//!    level (VUID-VkSparseImageMemoryBind-offset-01107, -extent-01108…),
//!    at its own block-aligned offset of one allocation (no aliasing);
//!    the mip tail is one opaque `VkSparseMemoryBind` at
//!    `imageMipTailOffset` (plus the metadata mip tail, if the format has
//!    one, with `SPARSE_MEMORY_BIND_METADATA`);
//! 4. `vkQueueBindSparse` signals a fence that the host waits for before the
//!    command buffer that uploads and reads the image is submitted: the
//!    binding has then completed;
//! 5. texel data is copied into the bound tiles and the mip tail only, then
//!    the image moves to `SHADER_READ_ONLY_OPTIMAL` (or `GENERAL` for
//!    storage images).

use super::resource::{ImageDesc, texel_size};
use super::scope::{Backing, Object, Scope};
use super::{Runner, on};
use ash::vk;
use std::collections::BTreeSet;
use std::time::Duration;

/// A sparse 2D image as a dispatch resource: the texels of every mip level
/// (packed as for [`ImageDesc`]), of which only the bound tiles and, if
/// asked, the mip tail reach the image.
#[derive(Clone, Debug)]
pub struct SparseImage {
    /// A 2D image with one layer (`ImageViewType::TYPE_2D`).
    pub image: ImageDesc,
    /// Bound as a storage image (`RWTexture2D`, layout GENERAL) rather than
    /// a sampled one; `RWTexture2D.Load` reads level 0 only, so a sparse
    /// storage image here has one level (and no mip tail).
    pub storage: bool,
    /// Tiles of the levels before the mip tail that get memory.
    pub bound: Vec<Tile>,
    /// Whether the mip tail gets memory (ignored when there is none).
    pub bind_mip_tail: bool,
}

/// One sparse block of a mip level before the mip tail, in block units.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Tile {
    pub mip: u32,
    pub x: u32,
    pub y: u32,
}

impl Tile {
    pub const fn new(mip: u32, x: u32, y: u32) -> Tile {
        Tile { mip, x, y }
    }
}

/// How a device cuts one image into sparse blocks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SparseLayout {
    /// Size of mip level 0 (depth 1).
    pub extent: [u32; 3],
    pub mip_levels: u32,
    /// Texels per block (`imageGranularity`): 128x128x1 for 32-bit texels
    /// in the standard block shape.
    pub block: [u32; 3],
    /// Bytes per block (`VkMemoryRequirements::alignment`): 64 KiB for the
    /// standard block shape.
    pub block_bytes: u64,
    /// The first level of the mip tail; `mip_levels` when there is none.
    pub mip_tail_first_lod: u32,
    /// Bytes and opaque offset of the mip tail of layer 0.
    pub mip_tail_size: u64,
    pub mip_tail_offset: u64,
    /// The metadata aspect's mip tail (offset, size), which must be bound
    /// for the image to be used, when the format has one.
    pub metadata: Option<(u64, u64)>,
    /// `VkMemoryRequirements::memoryTypeBits`.
    pub memory_type_bits: u32,
}

/// Where the memory of a bind plan goes: one allocation of `size` bytes,
/// tiles first (one block each, in plan order), then the mip tail, then
/// the metadata mip tail.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BindPlan {
    /// Tile, texel offset and extent in its level, memory offset.
    pub tiles: Vec<(Tile, [u32; 3], [u32; 3], u64)>,
    /// (resource offset, size, memory offset) of the mip tail.
    pub mip_tail: Option<(u64, u64, u64)>,
    /// (resource offset, size, memory offset) of the metadata mip tail.
    pub metadata: Option<(u64, u64, u64)>,
    pub size: u64,
}

impl SparseLayout {
    /// Size of level `mip` (each dimension halves, at least 1).
    pub fn mip_extent(&self, mip: u32) -> [u32; 3] {
        self.extent.map(|d| (d >> mip).max(1))
    }

    /// Whether the image has a mip tail.
    pub fn has_mip_tail(&self) -> bool {
        self.mip_tail_first_lod < self.mip_levels
    }

    /// Whether level `mip` is in the mip tail (bound all at once).
    pub fn in_mip_tail(&self, mip: u32) -> bool {
        mip >= self.mip_tail_first_lod
    }

    /// Blocks across and down of a level before the tail.
    pub fn tiles(&self, mip: u32) -> Option<[u32; 2]> {
        if mip >= self.mip_levels || self.in_mip_tail(mip) {
            return None;
        }
        let [w, h, _] = self.mip_extent(mip);
        Some([w.div_ceil(self.block[0]), h.div_ceil(self.block[1])])
    }

    /// The tile holding texel (x, y) of level `mip`; `None` in the mip tail
    /// or outside the level.
    pub fn tile_at(&self, mip: u32, x: u32, y: u32) -> Option<Tile> {
        let [w, h, _] = self.mip_extent(mip);
        if x >= w || y >= h {
            return None;
        }
        self.tiles(mip)?;
        Some(Tile::new(mip, x / self.block[0], y / self.block[1]))
    }

    /// Every tile of the levels before the tail.
    pub fn all_tiles(&self) -> Vec<Tile> {
        let mut out = Vec::new();
        for mip in 0..self.mip_levels {
            if let Some([tx, ty]) = self.tiles(mip) {
                for y in 0..ty {
                    for x in 0..tx {
                        out.push(Tile::new(mip, x, y));
                    }
                }
            }
        }
        out
    }

    /// Texel offset and extent of a tile: whole blocks, clipped where the
    /// level ends (the extent then reaches the level's edge, as
    /// VUID-VkSparseImageMemoryBind-extent-01108/-01110 ask).
    pub fn region(&self, t: Tile) -> Result<([u32; 3], [u32; 3]), String> {
        let Some([tx, ty]) = self.tiles(t.mip) else {
            return Err(format!(
                "{t:?}: level {} is in the mip tail (from level {}) or out of range ({} levels)",
                t.mip, self.mip_tail_first_lod, self.mip_levels
            ));
        };
        if t.x >= tx || t.y >= ty {
            return Err(format!(
                "{t:?}: level {} has {tx}x{ty} tiles of {}x{}",
                t.mip, self.block[0], self.block[1]
            ));
        }
        let [w, h, _] = self.mip_extent(t.mip);
        let (x0, y0) = (t.x * self.block[0], t.y * self.block[1]);
        let extent = [self.block[0].min(w - x0), self.block[1].min(h - y0), 1];
        Ok(([x0, y0, 0], extent))
    }

    /// Memory offsets for binding `bound` tiles and (when asked and present)
    /// the mip tail. Rejects tiles outside the layout and repeated tiles
    /// (binding one block twice in one call is allowed, but a test doing it
    /// is confused).
    pub fn plan(&self, bound: &[Tile], bind_mip_tail: bool) -> Result<BindPlan, String> {
        let mut seen = BTreeSet::new();
        let mut tiles = Vec::with_capacity(bound.len());
        let mut at = 0u64;
        for &t in bound {
            if !seen.insert(t) {
                return Err(format!("{t:?} is bound twice"));
            }
            let (offset, extent) = self.region(t)?;
            tiles.push((t, offset, extent, at));
            at += self.block_bytes;
        }
        let mip_tail = if bind_mip_tail && self.has_mip_tail() {
            let r = (self.mip_tail_offset, self.mip_tail_size, at);
            at += self.mip_tail_size.next_multiple_of(self.block_bytes.max(1));
            Some(r)
        } else {
            None
        };
        let metadata = self.metadata.map(|(offset, size)| {
            let r = (offset, size, at);
            at += size.next_multiple_of(self.block_bytes.max(1));
            r
        });
        Ok(BindPlan {
            tiles,
            mip_tail,
            metadata,
            size: at,
        })
    }

    /// Copy regions from packed texel data (levels one after another at
    /// `mip_offsets`, rows tightly packed) into the bound tiles and, when
    /// bound, every level of the mip tail.
    pub fn upload_regions(
        &self,
        plan: &BindPlan,
        texel_bytes: u32,
        mip_offsets: &[u64],
    ) -> Vec<vk::BufferImageCopy> {
        let layers = |mip| vk::ImageSubresourceLayers {
            aspect_mask: vk::ImageAspectFlags::COLOR,
            mip_level: mip,
            base_array_layer: 0,
            layer_count: 1,
        };
        let mut out = Vec::new();
        for &(t, [x, y, _], [w, h, d], _) in &plan.tiles {
            let [mw, mh, _] = self.mip_extent(t.mip);
            out.push(vk::BufferImageCopy {
                buffer_offset: mip_offsets[t.mip as usize]
                    + (u64::from(y) * u64::from(mw) + u64::from(x)) * u64::from(texel_bytes),
                buffer_row_length: mw,
                buffer_image_height: mh,
                image_subresource: layers(t.mip),
                image_offset: vk::Offset3D {
                    x: x as i32,
                    y: y as i32,
                    z: 0,
                },
                image_extent: vk::Extent3D {
                    width: w,
                    height: h,
                    depth: d,
                },
            });
        }
        if plan.mip_tail.is_some() {
            for mip in self.mip_tail_first_lod..self.mip_levels {
                let [width, height, depth] = self.mip_extent(mip);
                out.push(vk::BufferImageCopy {
                    buffer_offset: mip_offsets[mip as usize],
                    buffer_row_length: 0,
                    buffer_image_height: 0,
                    image_subresource: layers(mip),
                    image_offset: vk::Offset3D::default(),
                    image_extent: vk::Extent3D {
                        width,
                        height,
                        depth,
                    },
                });
            }
        }
        out
    }
}

/// What a sparse image of `desc` is made with.
fn create_info(desc: &ImageDesc, storage: bool) -> vk::ImageCreateInfo<'static> {
    let [width, height, depth] = desc.extent;
    vk::ImageCreateInfo::default()
        .flags(vk::ImageCreateFlags::SPARSE_BINDING | vk::ImageCreateFlags::SPARSE_RESIDENCY)
        .image_type(vk::ImageType::TYPE_2D)
        .format(desc.format)
        .extent(vk::Extent3D {
            width,
            height,
            depth,
        })
        .mip_levels(desc.mip_levels)
        .array_layers(1)
        .samples(vk::SampleCountFlags::TYPE_1)
        .tiling(vk::ImageTiling::OPTIMAL)
        .usage(usage(storage))
        .sharing_mode(vk::SharingMode::EXCLUSIVE)
        .initial_layout(vk::ImageLayout::UNDEFINED)
}

fn usage(storage: bool) -> vk::ImageUsageFlags {
    vk::ImageUsageFlags::TRANSFER_DST
        | if storage {
            vk::ImageUsageFlags::STORAGE
        } else {
            vk::ImageUsageFlags::SAMPLED
        }
}

impl Runner {
    /// Whether the device can run the tiled-resources tests; the error
    /// names everything missing.
    pub fn sparse_support(&self) -> Result<(), String> {
        let f = &self.info.features;
        let mut missing = Vec::new();
        for (have, name) in [
            (f.sparse_binding, "sparseBinding"),
            (f.sparse_residency_image2_d, "sparseResidencyImage2D"),
            (f.shader_resource_residency, "shaderResourceResidency"),
            (f.shader_resource_min_lod, "shaderResourceMinLod"),
            (
                self.info
                    .properties
                    .sparse_properties
                    .residency_non_resident_strict,
                "residencyNonResidentStrict",
            ),
        ] {
            if !on(have) {
                missing.push(name.to_string());
            }
        }
        if !self
            .info
            .queue_flags
            .contains(vk::QueueFlags::SPARSE_BINDING)
        {
            missing.push("a compute queue with SPARSE_BINDING".into());
        }
        if missing.is_empty() {
            Ok(())
        } else {
            Err(format!(
                "{} has no sparse residency for the tiled-resources tests: missing {}",
                self.info.name,
                missing.join(", ")
            ))
        }
    }

    /// Checks `desc` as a sparse image against the device: the format's
    /// sparse and image properties for this usage.
    fn check_sparse_format(&self, desc: &ImageDesc, storage: bool) -> Result<(), String> {
        if desc.view_type != vk::ImageViewType::TYPE_2D || desc.layers != 1 || desc.extent[2] != 1 {
            return Err(format!(
                "sparse test images are 2D with one layer, not {desc:?}"
            ));
        }
        if storage && desc.mip_levels != 1 {
            return Err("a sparse storage image here has one mip level".into());
        }
        let u = usage(storage);
        let flags = vk::ImageCreateFlags::SPARSE_BINDING | vk::ImageCreateFlags::SPARSE_RESIDENCY;
        // SAFETY: queries on a valid physical device.
        unsafe {
            let sparse = self
                .instance
                .get_physical_device_sparse_image_format_properties(
                    self.physical_device,
                    desc.format,
                    vk::ImageType::TYPE_2D,
                    vk::SampleCountFlags::TYPE_1,
                    u,
                    vk::ImageTiling::OPTIMAL,
                );
            if !sparse
                .iter()
                .any(|p| p.aspect_mask.contains(vk::ImageAspectFlags::COLOR))
            {
                return Err(format!(
                    "{}: no sparse residency for {:?} images with usage {u:?}",
                    self.info.name, desc.format
                ));
            }
            let props = self
                .instance
                .get_physical_device_image_format_properties(
                    self.physical_device,
                    desc.format,
                    vk::ImageType::TYPE_2D,
                    vk::ImageTiling::OPTIMAL,
                    u,
                    flags,
                )
                .map_err(|e| {
                    format!(
                        "vkGetPhysicalDeviceImageFormatProperties({:?}, sparse, {u:?}): {e}",
                        desc.format
                    )
                })?;
            let [w, h, _] = desc.extent;
            if props.max_mip_levels < desc.mip_levels
                || props.max_extent.width < w
                || props.max_extent.height < h
            {
                return Err(format!(
                    "a sparse {:?} image of {w}x{h} with {} levels exceeds the device's {props:?}",
                    desc.format, desc.mip_levels
                ));
            }
        }
        Ok(())
    }

    /// How the device lays `desc` out as a sparse image (from a temporary
    /// image, destroyed again): what a test needs to choose tiles.
    pub fn sparse_layout(&self, desc: &ImageDesc, storage: bool) -> Result<SparseLayout, String> {
        self.sparse_support()?;
        self.check_sparse_format(desc, storage)?;
        let d = &self.device;
        // SAFETY: the create info passed the checks above; the image is
        // destroyed before returning and never bound or used.
        unsafe {
            let image = d
                .create_image(&create_info(desc, storage), None)
                .map_err(|e| format!("vkCreateImage (sparse): {e}"))?;
            let layout = query_layout(d, image, desc);
            d.destroy_image(image, None);
            layout
        }
    }
}

/// Reads the layout of a sparse image from its memory requirements.
///
/// # Safety
/// `image` is a sparse image of `desc` made on `d`.
unsafe fn query_layout(
    d: &ash::Device,
    image: vk::Image,
    desc: &ImageDesc,
) -> Result<SparseLayout, String> {
    // SAFETY: as the caller promises.
    let (req, sparse) = unsafe {
        (
            d.get_image_memory_requirements(image),
            d.get_image_sparse_memory_requirements(image),
        )
    };
    let color = sparse
        .iter()
        .find(|r| {
            r.format_properties
                .aspect_mask
                .contains(vk::ImageAspectFlags::COLOR)
        })
        .ok_or_else(|| format!("no sparse memory requirements for the color aspect: {sparse:?}"))?;
    let g = color.format_properties.image_granularity;
    if g.width == 0 || g.height == 0 || req.alignment == 0 {
        return Err(format!(
            "degenerate sparse block: granularity {g:?}, alignment {}",
            req.alignment
        ));
    }
    // The metadata aspect has only a mip tail; it must be bound too.
    let metadata = sparse
        .iter()
        .find(|r| {
            r.format_properties
                .aspect_mask
                .contains(vk::ImageAspectFlags::METADATA)
        })
        .map(|r| (r.image_mip_tail_offset, r.image_mip_tail_size));
    Ok(SparseLayout {
        extent: desc.extent,
        mip_levels: desc.mip_levels,
        block: [g.width, g.height, g.depth.max(1)],
        block_bytes: req.alignment,
        mip_tail_first_lod: color.image_mip_tail_first_lod.min(desc.mip_levels),
        mip_tail_size: color.image_mip_tail_size,
        mip_tail_offset: color.image_mip_tail_offset,
        metadata,
        memory_type_bits: req.memory_type_bits,
    })
}

impl Scope<'_> {
    /// Makes the sparse image of `sp`, binds memory to its chosen tiles
    /// (and mip tail), waits for the binding, and stages `data` for the
    /// upload of the bound parts.
    ///
    /// # Safety
    /// `sp` and `data` passed `Runner::check`.
    pub(super) unsafe fn sparse_image(
        &mut self,
        sp: &SparseImage,
        data: &[u8],
        timeout: Duration,
    ) -> Result<Backing, String> {
        let r = self.runner;
        r.sparse_support()?;
        r.check_sparse_format(&sp.image, sp.storage)?;
        let d = &r.device;
        let desc = &sp.image;
        let texel = texel_size(desc.format).ok_or("sparse image format without a texel size")?;
        unsafe {
            let image = self.track(
                d.create_image(&create_info(desc, sp.storage), None),
                Object::Image,
                "vkCreateImage (sparse)",
            )?;
            let layout = query_layout(d, image, desc)?;
            let plan = layout.plan(&sp.bound, sp.bind_mip_tail)?;

            // Memory and the bind operation.
            if plan.size > 0 {
                let ty = r
                    .memory_type(
                        layout.memory_type_bits,
                        &[
                            vk::MemoryPropertyFlags::DEVICE_LOCAL,
                            vk::MemoryPropertyFlags::empty(),
                        ],
                    )
                    .ok_or("no memory type for the sparse image")?;
                let alloc = vk::MemoryAllocateInfo::default()
                    .allocation_size(plan.size)
                    .memory_type_index(ty);
                let memory = self.track(
                    d.allocate_memory(&alloc, None),
                    Object::Memory,
                    "vkAllocateMemory (sparse tiles)",
                )?;
                let image_binds: Vec<vk::SparseImageMemoryBind> = plan
                    .tiles
                    .iter()
                    .map(
                        |&(t, [x, y, z], [w, h, dd], at)| vk::SparseImageMemoryBind {
                            subresource: vk::ImageSubresource {
                                aspect_mask: vk::ImageAspectFlags::COLOR,
                                mip_level: t.mip,
                                array_layer: 0,
                            },
                            offset: vk::Offset3D {
                                x: x as i32,
                                y: y as i32,
                                z: z as i32,
                            },
                            extent: vk::Extent3D {
                                width: w,
                                height: h,
                                depth: dd,
                            },
                            memory,
                            memory_offset: at,
                            flags: vk::SparseMemoryBindFlags::empty(),
                        },
                    )
                    .collect();
                let mut opaque_binds = Vec::new();
                if let Some((offset, size, at)) = plan.mip_tail {
                    opaque_binds.push(vk::SparseMemoryBind {
                        resource_offset: offset,
                        size,
                        memory,
                        memory_offset: at,
                        flags: vk::SparseMemoryBindFlags::empty(),
                    });
                }
                if let Some((offset, size, at)) = plan.metadata {
                    opaque_binds.push(vk::SparseMemoryBind {
                        resource_offset: offset,
                        size,
                        memory,
                        memory_offset: at,
                        flags: vk::SparseMemoryBindFlags::METADATA,
                    });
                }
                // bindCount must be > 0 (…BindInfo-bindCount-arraylength):
                // leave out empty lists.
                let image_infos = [vk::SparseImageMemoryBindInfo::default()
                    .image(image)
                    .binds(&image_binds)];
                let opaque_infos = [vk::SparseImageOpaqueMemoryBindInfo::default()
                    .image(image)
                    .binds(&opaque_binds)];
                let mut info = vk::BindSparseInfo::default();
                if !image_binds.is_empty() {
                    info = info.image_binds(&image_infos);
                }
                if !opaque_binds.is_empty() {
                    info = info.image_opaque_binds(&opaque_infos);
                }
                let fence = self.track(
                    d.create_fence(&vk::FenceCreateInfo::default(), None),
                    Object::Fence,
                    "vkCreateFence",
                )?;
                let bound = {
                    let queue = r.queue();
                    d.queue_bind_sparse(*queue, &[info], fence)
                };
                if let Err(e) = bound {
                    if e == vk::Result::ERROR_DEVICE_LOST {
                        r.mark_broken("device lost at vkQueueBindSparse".into());
                    }
                    return Err(format!("vkQueueBindSparse: {e}"));
                }
                let nanos = u64::try_from(timeout.as_nanos()).unwrap_or(u64::MAX);
                match d.wait_for_fences(&[fence], true, nanos) {
                    Ok(()) => {}
                    Err(vk::Result::TIMEOUT) => {
                        self.leak = true;
                        r.abandoned.store(true, std::sync::atomic::Ordering::SeqCst);
                        r.mark_broken("vkQueueBindSparse did not finish in time".into());
                        return Err(format!(
                            "vkQueueBindSparse did not finish within {timeout:?}; the device was abandoned"
                        ));
                    }
                    Err(e) => {
                        if e == vk::Result::ERROR_DEVICE_LOST {
                            r.mark_broken("device lost binding sparse memory".into());
                        }
                        return Err(format!("vkWaitForFences (sparse bind): {e}"));
                    }
                }
            }

            let view_info = vk::ImageViewCreateInfo::default()
                .image(image)
                .view_type(vk::ImageViewType::TYPE_2D)
                .format(desc.format)
                .subresource_range(vk::ImageSubresourceRange {
                    aspect_mask: vk::ImageAspectFlags::COLOR,
                    base_mip_level: 0,
                    level_count: desc.mip_levels,
                    base_array_layer: 0,
                    layer_count: 1,
                });
            let view = self.track(
                d.create_image_view(&view_info, None),
                Object::ImageView,
                "vkCreateImageView (sparse)",
            )?;

            // Staging: the levels one after another, each 16-byte aligned,
            // as `Scope::image` lays them out.
            let mut mip_offsets = Vec::new();
            let (mut packed, mut staged) = (0usize, 0u64);
            let mut copies = Vec::new();
            for mip in 0..desc.mip_levels {
                let bytes = desc.mip_bytes(mip).unwrap_or(0) as usize;
                mip_offsets.push(staged);
                copies.push((packed, staged, bytes));
                packed += bytes;
                staged += bytes.max(1).div_ceil(16) as u64 * 16;
            }
            let (staging, ptr) =
                self.host_buffer(staged, vk::BufferUsageFlags::TRANSFER_SRC, &[])?;
            for &(at, offset, bytes) in &copies {
                std::ptr::copy_nonoverlapping(data[at..].as_ptr(), ptr.add(offset as usize), bytes);
            }
            let regions = layout.upload_regions(&plan, texel, &mip_offsets);
            Ok(Backing::SparseImage {
                image,
                view,
                staging,
                regions,
                levels: desc.mip_levels,
                layout: if sp.storage {
                    vk::ImageLayout::GENERAL
                } else {
                    vk::ImageLayout::SHADER_READ_ONLY_OPTIMAL
                },
            })
        }
    }
}
