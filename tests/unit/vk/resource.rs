//! What a test binds to a dispatch: buffers, texel buffers, images and
//! samplers at (set, binding), with their bytes.

use super::accel::Scene;
use super::sparse::SparseImage;
use ash::vk;

/// One descriptor of a dispatch and its contents. After a successful run,
/// `data` of every buffer, texel buffer and storage image holds what the
/// shader left there; sampled images and samplers are inputs only.
#[derive(Clone, Debug)]
pub struct Resource {
    /// `[[vk::binding(binding, set)]]` or the binding a register maps to.
    pub set: u32,
    pub binding: u32,
    /// Element of a descriptor array (`Texture2D t[4]`): 0 for a single
    /// descriptor. All elements of a binding must be of the same kind.
    pub array_element: u32,
    pub kind: ResourceKind,
    /// Buffer bytes (little-endian, in the shader's layout), or image texels
    /// tightly packed: per mip level, per layer (or depth slice), rows of
    /// texels. The length must be non-zero for buffers (a descriptor range
    /// cannot be empty) and exact for images and texel buffers.
    pub data: Vec<u8>,
}

/// The descriptor type of a resource, in HLSL terms:
///
/// | HLSL | kind |
/// | --- | --- |
/// | `RWStructuredBuffer`, `StructuredBuffer`, `(RW)ByteAddressBuffer`, `Append/ConsumeStructuredBuffer` and their counters | `StorageBuffer` |
/// | `cbuffer`, `ConstantBuffer<T>`, `$Globals` | `UniformBuffer` |
/// | `RWBuffer<T>` / `Buffer<T>` | `StorageTexelBuffer` / `UniformTexelBuffer` |
/// | `RWTexture*` / `Texture*` | `StorageImage` / `SampledImage` |
/// | `SamplerState`, `SamplerComparisonState` | `Sampler` |
/// | `[[vk::combinedImageSampler]]` pairs | `CombinedImageSampler` |
/// | `RaytracingAccelerationStructure` | `AccelerationStructure` |
#[derive(Clone, Debug)]
pub enum ResourceKind {
    StorageBuffer,
    UniformBuffer,
    StorageTexelBuffer {
        format: vk::Format,
    },
    UniformTexelBuffer {
        format: vk::Format,
    },
    StorageImage(ImageDesc),
    SampledImage(ImageDesc),
    Sampler(SamplerDesc),
    CombinedImageSampler(ImageDesc, SamplerDesc),
    /// A partially resident 2D image (`Texture2D`, or `RWTexture2D` when
    /// `storage`) for the tiled-resources tests; see `tests/unit/vk/sparse.rs`.
    SparseImage(SparseImage),
    /// A top-level acceleration structure built over `Scene` before the
    /// run (`tests/unit/vk/accel.rs`); its `data` stays empty.
    AccelerationStructure(Scene),
}

impl ResourceKind {
    pub fn descriptor_type(&self) -> vk::DescriptorType {
        match self {
            ResourceKind::StorageBuffer => vk::DescriptorType::STORAGE_BUFFER,
            ResourceKind::UniformBuffer => vk::DescriptorType::UNIFORM_BUFFER,
            ResourceKind::StorageTexelBuffer { .. } => vk::DescriptorType::STORAGE_TEXEL_BUFFER,
            ResourceKind::UniformTexelBuffer { .. } => vk::DescriptorType::UNIFORM_TEXEL_BUFFER,
            ResourceKind::StorageImage(_) => vk::DescriptorType::STORAGE_IMAGE,
            ResourceKind::SampledImage(_) => vk::DescriptorType::SAMPLED_IMAGE,
            ResourceKind::Sampler(_) => vk::DescriptorType::SAMPLER,
            ResourceKind::CombinedImageSampler(..) => vk::DescriptorType::COMBINED_IMAGE_SAMPLER,
            ResourceKind::SparseImage(s) if s.storage => vk::DescriptorType::STORAGE_IMAGE,
            ResourceKind::SparseImage(_) => vk::DescriptorType::SAMPLED_IMAGE,
            ResourceKind::AccelerationStructure(_) => {
                vk::DescriptorType::ACCELERATION_STRUCTURE_KHR
            }
        }
    }
}

/// An image: its view type (1D, 2D, 2D array, cube, 3D…), format and size.
#[derive(Clone, Debug)]
pub struct ImageDesc {
    pub view_type: vk::ImageViewType,
    pub format: vk::Format,
    /// Width, height, depth (depth is 1 except for 3D images).
    pub extent: [u32; 3],
    /// Array layers: 1, or 6 per cube.
    pub layers: u32,
    pub mip_levels: u32,
}

impl ImageDesc {
    /// A 2D image with one layer and one mip level.
    pub fn d2(format: vk::Format, width: u32, height: u32) -> ImageDesc {
        ImageDesc {
            view_type: vk::ImageViewType::TYPE_2D,
            format,
            extent: [width, height, 1],
            layers: 1,
            mip_levels: 1,
        }
    }

    /// The image type behind the view type.
    pub fn image_type(&self) -> vk::ImageType {
        match self.view_type {
            vk::ImageViewType::TYPE_1D | vk::ImageViewType::TYPE_1D_ARRAY => vk::ImageType::TYPE_1D,
            vk::ImageViewType::TYPE_3D => vk::ImageType::TYPE_3D,
            _ => vk::ImageType::TYPE_2D,
        }
    }

    /// Size of mip level `mip` (each dimension halves, at least 1).
    pub fn mip_extent(&self, mip: u32) -> [u32; 3] {
        self.extent.map(|d| (d >> mip).max(1))
    }

    /// Bytes of one mip level, all layers; `None` for an unknown format.
    pub fn mip_bytes(&self, mip: u32) -> Option<u64> {
        let [w, h, d] = self.mip_extent(mip);
        Some(
            u64::from(texel_size(self.format)?)
                * u64::from(w)
                * u64::from(h)
                * u64::from(d)
                * u64::from(self.layers),
        )
    }

    /// Bytes of the whole image (what `Resource::data` must hold).
    pub fn total_bytes(&self) -> Option<u64> {
        (0..self.mip_levels).map(|m| self.mip_bytes(m)).sum()
    }
}

/// Sampler state: what a D3D sampler description would say.
#[derive(Clone, Debug)]
pub struct SamplerDesc {
    pub filter: vk::Filter,
    pub mipmap_mode: vk::SamplerMipmapMode,
    pub address_mode: vk::SamplerAddressMode,
    /// `Some` for a `SamplerComparisonState`.
    pub compare: Option<vk::CompareOp>,
    pub border_color: vk::BorderColor,
    pub max_lod: f32,
}

impl Default for SamplerDesc {
    /// Point sampling, clamped to the edge, every mip level reachable.
    fn default() -> Self {
        SamplerDesc {
            filter: vk::Filter::NEAREST,
            mipmap_mode: vk::SamplerMipmapMode::NEAREST,
            address_mode: vk::SamplerAddressMode::CLAMP_TO_EDGE,
            compare: None,
            border_color: vk::BorderColor::FLOAT_TRANSPARENT_BLACK,
            max_lod: vk::LOD_CLAMP_NONE,
        }
    }
}

impl Resource {
    fn new(set: u32, binding: u32, kind: ResourceKind, data: Vec<u8>) -> Resource {
        Resource {
            set,
            binding,
            array_element: 0,
            kind,
            data,
        }
    }
    /// A storage buffer (`RWStructuredBuffer`, `RWByteAddressBuffer`, …).
    pub fn storage(set: u32, binding: u32, data: impl Into<Vec<u8>>) -> Resource {
        Self::new(set, binding, ResourceKind::StorageBuffer, data.into())
    }
    /// A uniform buffer (`cbuffer`, `ConstantBuffer<T>`).
    pub fn uniform(set: u32, binding: u32, data: impl Into<Vec<u8>>) -> Resource {
        Self::new(set, binding, ResourceKind::UniformBuffer, data.into())
    }
    /// `RWBuffer<T>`.
    pub fn storage_texel(
        set: u32,
        binding: u32,
        format: vk::Format,
        data: impl Into<Vec<u8>>,
    ) -> Resource {
        Self::new(
            set,
            binding,
            ResourceKind::StorageTexelBuffer { format },
            data.into(),
        )
    }
    /// `Buffer<T>`.
    pub fn uniform_texel(
        set: u32,
        binding: u32,
        format: vk::Format,
        data: impl Into<Vec<u8>>,
    ) -> Resource {
        Self::new(
            set,
            binding,
            ResourceKind::UniformTexelBuffer { format },
            data.into(),
        )
    }
    /// `RWTexture*`.
    pub fn storage_image(
        set: u32,
        binding: u32,
        image: ImageDesc,
        data: impl Into<Vec<u8>>,
    ) -> Resource {
        Self::new(set, binding, ResourceKind::StorageImage(image), data.into())
    }
    /// `Texture*`.
    pub fn sampled_image(
        set: u32,
        binding: u32,
        image: ImageDesc,
        data: impl Into<Vec<u8>>,
    ) -> Resource {
        Self::new(set, binding, ResourceKind::SampledImage(image), data.into())
    }
    /// `SamplerState` / `SamplerComparisonState`.
    pub fn sampler(set: u32, binding: u32, sampler: SamplerDesc) -> Resource {
        Self::new(set, binding, ResourceKind::Sampler(sampler), Vec::new())
    }
    /// A combined image sampler (`[[vk::combinedImageSampler]]`).
    pub fn combined(
        set: u32,
        binding: u32,
        image: ImageDesc,
        sampler: SamplerDesc,
        data: impl Into<Vec<u8>>,
    ) -> Resource {
        Self::new(
            set,
            binding,
            ResourceKind::CombinedImageSampler(image, sampler),
            data.into(),
        )
    }
    /// A sparse image: `data` holds every level's texels, of which only
    /// the bound tiles (and the mip tail, when bound) are uploaded.
    pub fn sparse_image(
        set: u32,
        binding: u32,
        image: SparseImage,
        data: impl Into<Vec<u8>>,
    ) -> Resource {
        Self::new(set, binding, ResourceKind::SparseImage(image), data.into())
    }
    /// `RaytracingAccelerationStructure`: the top-level structure over `scene`.
    pub fn acceleration_structure(set: u32, binding: u32, scene: Scene) -> Resource {
        Self::new(
            set,
            binding,
            ResourceKind::AccelerationStructure(scene),
            Vec::new(),
        )
    }
    /// The same resource as element `i` of a descriptor array.
    pub fn at(mut self, i: u32) -> Resource {
        self.array_element = i;
        self
    }
    /// `set=S binding=B[i]` for messages.
    pub fn place(&self) -> String {
        if self.array_element == 0 {
            format!("set={} binding={}", self.set, self.binding)
        } else {
            format!(
                "set={} binding={}[{}]",
                self.set, self.binding, self.array_element
            )
        }
    }
}

/// Bytes per texel of the formats tests use (`None`: not listed here; add
/// it). Compressed and depth/stencil formats have no place in these tests.
pub fn texel_size(format: vk::Format) -> Option<u32> {
    use vk::Format as F;
    Some(match format {
        F::R8_UNORM | F::R8_SNORM | F::R8_UINT | F::R8_SINT => 1,
        F::R8G8_UNORM | F::R8G8_SNORM | F::R8G8_UINT | F::R8G8_SINT => 2,
        F::R16_SFLOAT | F::R16_UNORM | F::R16_SNORM | F::R16_UINT | F::R16_SINT => 2,
        F::R8G8B8A8_UNORM
        | F::R8G8B8A8_SNORM
        | F::R8G8B8A8_UINT
        | F::R8G8B8A8_SINT
        | F::R8G8B8A8_SRGB
        | F::B8G8R8A8_UNORM
        | F::R16G16_SFLOAT
        | F::R16G16_UNORM
        | F::R16G16_SNORM
        | F::R16G16_UINT
        | F::R16G16_SINT
        | F::R32_SFLOAT
        | F::R32_UINT
        | F::R32_SINT
        | F::A2B10G10R10_UNORM_PACK32
        | F::A2B10G10R10_UINT_PACK32
        | F::B10G11R11_UFLOAT_PACK32 => 4,
        F::R16G16B16A16_SFLOAT
        | F::R16G16B16A16_UNORM
        | F::R16G16B16A16_SNORM
        | F::R16G16B16A16_UINT
        | F::R16G16B16A16_SINT
        | F::R32G32_SFLOAT
        | F::R32G32_UINT
        | F::R32G32_SINT
        | F::R64_UINT
        | F::R64_SINT => 8,
        F::R32G32B32_SFLOAT | F::R32G32B32_UINT | F::R32G32B32_SINT => 12,
        F::R32G32B32A32_SFLOAT | F::R32G32B32A32_UINT | F::R32G32B32A32_SINT => 16,
        _ => return None,
    })
}

/// Little-endian bytes of `f32`s, for buffer contents.
pub fn f32_bytes(v: &[f32]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}
/// Little-endian bytes of `u32`s.
pub fn u32_bytes(v: &[u32]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}
/// Little-endian bytes of `i32`s.
pub fn i32_bytes(v: &[i32]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}
/// Reads buffer bytes as `f32`s (a trailing partial word is ignored).
pub fn to_f32s(b: &[u8]) -> Vec<f32> {
    b.chunks_exact(4)
        .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}
/// Reads buffer bytes as `u32`s.
pub fn to_u32s(b: &[u8]) -> Vec<u32> {
    b.chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}
/// Reads buffer bytes as `i32`s.
pub fn to_i32s(b: &[u8]) -> Vec<i32> {
    b.chunks_exact(4)
        .map(|c| i32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}
