//! Reflection: what a compiled shader expects from the application, as JSON
//! (`-Fre FILE`, [`Artifact::reflection`](crate::Artifact::reflection)).
//!
//! It is read from the final IR module (after the passes: what the SPIR-V
//! contains) and from the SPIR-V words themselves (capabilities, extensions,
//! entry-point names and execution modes, exactly as written). The output is
//! deterministic: objects keep the field order documented here, lists are
//! sorted as documented, and the same module gives the same bytes.
//!
//! # Schema (version 1)
//!
//! Fields marked *optional* are left out when they do not apply; every other
//! field is always present (possibly `null` where its type says so).
//!
//! ```text
//! {
//!   "schema": 1,                      // bumped on incompatible changes
//!   "target_env": "vulkan1.0",        // -fspv-target-env spelling
//!   "spirv_version": "1.0",           // from the module header
//!   "profile": "cs_6_0" | null,
//!   "layout_rule": "relaxed" | "dx" | "gl" | "scalar",   // -fvk-use-*-layout
//!   "capabilities": ["Shader", …],    // OpCapability, in module order
//!   "extensions": ["SPV_…", …],       // OpExtension, in module order
//!   "entry_points": [EntryPoint, …],  // one, except for lib_* profiles
//!   "resources": [Resource, …]        // by (set, binding, name); push constants last
//! }
//!
//! EntryPoint {
//!   "name": "main",                   // the OpEntryPoint name
//!   "stage": "vertex" | "pixel" | "geometry" | "hull" | "domain" | "compute"
//!          | "mesh" | "amplification",
//!   "workgroup_size": [x, y, z],      // optional: compute, mesh, amplification
//!   "execution_modes": ["LocalSize 64 1 1", "OriginUpperLeft", …],
//!                                     // SPIR-V mode name, then its literals
//!   "patch_constant_function": "…",   // optional: hull shaders
//!   "streams": [["gl_Position", "out.var.COLOR"], …],
//!                                     // optional: geometry shaders, each
//!                                     // stream's output variables
//!   "inputs": [StageVariable, …],     // by location, then built-ins
//!   "outputs": [StageVariable, …]
//! }
//!
//! StageVariable {
//!   "name": "…" | null,
//!   "semantic": "TEXCOORD0" | null,   // the HLSL semantic as written
//!   "location": 0 | null,             // null for built-ins
//!   "builtin": "Position" | null,     // SPIR-V BuiltIn name
//!   "index": 1,                       // optional: vk::index (dual-source blending)
//!   "locations": 1,                   // optional: locations used (matrices, arrays, 64-bit)
//!   "type": "float4",                 // HLSL spelling; arrays as "float4[3]"
//!   "component_type": "float",        // scalar type of one component
//!   "component_count": 4,             // components in one location: a vector's
//!                                     // size; one HLSL row of a matrix
//!   "interpolation": "flat" | "noperspective" | "perspective" | null,
//!                                     // null for built-ins; integers and
//!                                     // doubles are always "flat"
//!   "sampling": "centroid" | "sample" | null,
//!   "patch": false                    // hull output / domain input per patch
//! }
//!
//! Resource {
//!   "name": "…" | null,
//!   "set": 0 | null,                  // null for push constants
//!   "binding": 0 | null,
//!   "kind": "uniform_buffer" | "storage_buffer" | "sampled_image"
//!         | "storage_image" | "uniform_texel_buffer" | "storage_texel_buffer"
//!         | "sampler" | "combined_image_sampler" | "input_attachment"
//!         | "acceleration_structure" | "push_constant",
//!   "hlsl_type": "RWStructuredBuffer<Particle>",  // optional, best effort:
//!                                     // "cbuffer", "$Globals", "Texture2D<float>"
//!                                     // (texel component count not kept), a push
//!                                     // constant's struct name
//!   "access": "read_only" | "read_write",         // optional: storage buffers,
//!                                                 // storage images and texel buffers
//!   "count": 1,                       // descriptors (product of array sizes);
//!                                     // 0 with "runtime_array"
//!   "runtime_array": false,           // an unbounded array (`Texture2D t[]`)
//!   "image": Image,                   // optional: image kinds
//!   "comparison": true,               // optional: samplers (SamplerComparisonState)
//!   "block": Block,                   // optional: buffers and push constants
//!   "counter": Counter,               // optional: the counter buffer of an
//!                                     // Append/Consume/RW structured buffer
//!   "counter_for": "…",               // optional: on a counter, its buffer
//!   "used": true                      // statically used by an entry point
//! }
//!
//! Image {
//!   "dim": "1d" | "2d" | "3d" | "cube" | "buffer" | "subpass_data",
//!   "arrayed": false, "multisampled": false,
//!   "sampled_type": "float",          // scalar type of a texel component
//!   "format": "rgba8"                 // optional: storage images, vk::image_format spelling
//! }
//!
//! Counter { "name": "counter.var.buf", "set": 0, "binding": 1 }
//!
//! Block {
//!   "type_name": "type.ConstantBuffer.S" | null,   // the SPIR-V struct name
//!   "size": 64,                        // bytes (0 when it ends in a runtime array
//!                                      // and nothing else gives its size)
//!   "members": [Member, …]             // in declaration (= offset) order
//! }
//!
//! Member {
//!   "name": "…" | null,
//!   "type": "float4x4",               // HLSL spelling, arrays as "S[2][3]"
//!   "offset": 0,                      // bytes from the start of the enclosing struct
//!   "size": 64,                       // bytes the member spans (see below)
//!   "array": [{"count": 2, "stride": 48}, …],   // optional: outermost first,
//!                                     // count 0 = runtime-sized
//!   "matrix": {"rows": 4, "columns": 4, "stride": 16,
//!              "major": "row_major" | "column_major"},   // optional
//!   "members": [Member, …]            // optional: a struct (or array of structs)
//! }
//! ```
//!
//! A member's `size` is the bytes from its offset to the end of its data,
//! without trailing padding of its last array element, matrix vector or
//! (except for structs, which report their laid-out size) anything else:
//! `float3` is 12, `float a[3]` in a cbuffer (stride 16) is 36,
//! `float4x3` column-major (three columns of four floats, stride 16) is 48,
//! a runtime-sized array is 0. So members never overlap, under every
//! layout rule. HLSL matrices are named as HLSL writes them: `float4x3` has
//! 4 rows and 3 columns; `column_major` (the default) stores columns
//! `stride` bytes apart, `row_major` rows.

mod build;
mod names;
mod words;

pub(crate) use build::reflect;

use serde::{Deserialize, Serialize};

/// What reflection says of the compilation besides the module: the
/// command line's part of the JSON.
#[derive(Clone, Debug, Default)]
pub(crate) struct ReflectOptions {
    /// `-fspv-target-env=`, named in `"target_env"` (and giving the SPIR-V
    /// version when no words were written).
    pub target_env: crate::ir::TargetEnv,
    /// `-T`, as written (`"profile"`).
    pub profile: Option<String>,
    /// The `-fvk-use-*-layout` rule: `relaxed`, `dx`, `gl` or `scalar`.
    pub layout_rule: &'static str,
    /// `-fspv-entrypoint-name=`, the entry point's name when the SPIR-V
    /// does not say it.
    pub entry_point_name: Option<String>,
    /// What the module declares although unused, as the writer was told:
    /// reflection lists exactly the globals the SPIR-V declares.
    pub keep_unused: crate::ir::KeepUnused,
}

/// The version of the schema written in `"schema"`.
pub const SCHEMA_VERSION: u32 = 1;

/// The reflection of one compiled module. Serialise it with
/// [`Reflection::to_json`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Reflection {
    /// [`SCHEMA_VERSION`].
    pub schema: u32,
    /// The `-fspv-target-env` spelling (`vulkan1.0`).
    pub target_env: String,
    /// From the module header (`1.0`).
    pub spirv_version: String,
    /// The `-T` profile (`cs_6_0`).
    pub profile: Option<String>,
    /// `relaxed`, `dx`, `gl` or `scalar` (`-fvk-use-*-layout`).
    pub layout_rule: String,
    /// `OpCapability`s, in module order.
    pub capabilities: Vec<String>,
    /// `OpExtension`s, in module order.
    pub extensions: Vec<String>,
    /// One, except for `lib_*` profiles.
    pub entry_points: Vec<EntryPoint>,
    /// By (set, binding, name); push constants last.
    pub resources: Vec<Resource>,
}

impl Reflection {
    /// Pretty-printed JSON, with a final newline.
    pub fn to_json(&self) -> String {
        // Serialising plain structs of strings and numbers cannot fail.
        let mut s = serde_json::to_string_pretty(self).unwrap_or_default();
        s.push('\n');
        s
    }

    /// The resource named `name`, if there is one.
    pub fn resource(&self, name: &str) -> Option<&Resource> {
        self.resources
            .iter()
            .find(|r| r.name.as_deref() == Some(name))
    }
}

/// One entry point of the module.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct EntryPoint {
    /// The `OpEntryPoint` name.
    pub name: String,
    /// `vertex`, `pixel`, `geometry`, `hull`, `domain`, `compute`, `mesh` or `amplification`.
    pub stage: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    /// Compute, mesh and amplification shaders.
    pub workgroup_size: Option<[u32; 3]>,
    /// SPIR-V mode name, then its literals (`LocalSize 64 1 1`).
    pub execution_modes: Vec<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    /// Hull shaders.
    pub patch_constant_function: Option<String>,
    /// Geometry shaders: the names of each stream's output variables, by
    /// stream number.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub streams: Vec<Vec<String>>,
    /// By location, then built-ins.
    pub inputs: Vec<StageVariable>,
    /// By location, then built-ins.
    pub outputs: Vec<StageVariable>,
}

/// A stage input or output.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct StageVariable {
    /// The variable's name.
    pub name: Option<String>,
    /// The HLSL semantic as written (`TEXCOORD0`).
    pub semantic: Option<String>,
    /// `None` for built-ins.
    pub location: Option<u32>,
    /// The SPIR-V `BuiltIn` name (`Position`).
    pub builtin: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    /// `vk::index` (dual-source blending).
    pub index: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    /// Locations used, when more than one (matrices, arrays, 64-bit types).
    pub locations: Option<u32>,
    #[serde(rename = "type")]
    /// HLSL spelling (`float4`, arrays as `float4[3]`); `"type"` in JSON.
    pub type_name: String,
    /// Scalar type of one component.
    pub component_type: String,
    /// Components in one location: a vector's size, one HLSL row of a matrix.
    pub component_count: u32,
    /// `flat`, `noperspective` or `perspective`; `None` for built-ins.
    pub interpolation: Option<String>,
    /// `centroid` or `sample`.
    pub sampling: Option<String>,
    /// A hull output or domain input per patch.
    pub patch: bool,
}

/// The kind of descriptor (or push constant block) a resource needs; the
/// names follow Vulkan's `VkDescriptorType`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ResourceKind {
    /// A cbuffer, `ConstantBuffer<T>`, `$Globals`.
    UniformBuffer,
    /// Structured and byte-address buffers.
    StorageBuffer,
    /// A texture read through a separate sampler.
    SampledImage,
    /// A `RWTexture*`.
    StorageImage,
    /// A `Buffer<T>`.
    UniformTexelBuffer,
    /// A `RWBuffer<T>`.
    StorageTexelBuffer,
    /// A `SamplerState`.
    Sampler,
    /// A texture and sampler in one descriptor.
    CombinedImageSampler,
    /// A `SubpassInput`.
    InputAttachment,
    /// A `RaytracingAccelerationStructure`.
    AccelerationStructure,
    /// A `[[vk::push_constant]]` block.
    PushConstant,
}

/// A descriptor or push constant block the shader uses.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Resource {
    /// The resource's name.
    pub name: Option<String>,
    /// Descriptor set; `None` for push constants.
    pub set: Option<u32>,
    /// Binding; `None` for push constants.
    pub binding: Option<u32>,
    /// The descriptor type.
    pub kind: ResourceKind,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    /// Best effort: `RWStructuredBuffer<Particle>`, `cbuffer`, `$Globals`, …
    pub hlsl_type: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    /// `read_only` or `read_write`: storage buffers, storage images, texel buffers.
    pub access: Option<String>,
    /// Descriptors (product of array sizes); 0 with `runtime_array`.
    pub count: u32,
    /// An unbounded array (`Texture2D t[]`).
    pub runtime_array: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    /// Image kinds.
    pub image: Option<Image>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    /// Samplers: a `SamplerComparisonState`.
    pub comparison: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    /// Buffers and push constants.
    pub block: Option<Block>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    /// The counter buffer of an Append/Consume/RW structured buffer.
    pub counter: Option<Counter>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    /// On a counter buffer: the buffer it counts for.
    pub counter_for: Option<String>,
    /// Statically used by an entry point.
    pub used: bool,
}

/// What an image resource is.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Image {
    /// `1d`, `2d`, `3d`, `cube`, `buffer` or `subpass_data`.
    pub dim: String,
    /// An array texture.
    pub arrayed: bool,
    /// A multisampled texture.
    pub multisampled: bool,
    /// Scalar type of a texel component.
    pub sampled_type: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    /// Storage images: the `vk::image_format` spelling (`rgba8`).
    pub format: Option<String>,
}

/// The counter buffer of a structured buffer.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Counter {
    /// The counter variable's name (`counter.var.buf`).
    pub name: Option<String>,
    /// Its descriptor set.
    pub set: Option<u32>,
    /// Its binding.
    pub binding: Option<u32>,
}

/// The layout of a buffer or push constant block.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Block {
    /// The SPIR-V struct name (`type.ConstantBuffer.S`).
    pub type_name: Option<String>,
    /// Bytes (0 when it ends in a runtime array and nothing else gives its size).
    pub size: u32,
    /// In declaration (= offset) order.
    pub members: Vec<Member>,
}

impl Block {
    /// The member named `name`, if there is one.
    pub fn member(&self, name: &str) -> Option<&Member> {
        self.members
            .iter()
            .find(|m| m.name.as_deref() == Some(name))
    }
}

/// One member of a block or struct.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Member {
    /// The member's name.
    pub name: Option<String>,
    #[serde(rename = "type")]
    /// HLSL spelling, arrays as `S[2][3]`; `"type"` in JSON.
    pub type_name: String,
    /// Bytes from the start of the enclosing struct.
    pub offset: u32,
    /// Bytes from the offset to the end of the data (see the module docs).
    pub size: u32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    /// Array dimensions, outermost first.
    pub array: Option<Vec<ArrayDim>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    /// Matrix layout.
    pub matrix: Option<MatrixInfo>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    /// A struct's (or array of structs') members.
    pub members: Option<Vec<Member>>,
}

impl Member {
    /// The nested member named `name`, if this is a struct that has one.
    pub fn member(&self, name: &str) -> Option<&Member> {
        self.members
            .as_ref()?
            .iter()
            .find(|m| m.name.as_deref() == Some(name))
    }
}

/// One dimension of an array member: `count` elements (0: runtime-sized)
/// `stride` bytes apart.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ArrayDim {
    /// Elements; 0 for a runtime-sized array.
    pub count: u32,
    /// Bytes between elements.
    pub stride: u32,
}

/// How a matrix member is laid out.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MatrixInfo {
    /// HLSL rows (`float4x3` has 4).
    pub rows: u32,
    /// HLSL columns.
    pub columns: u32,
    /// Bytes between the stored vectors.
    pub stride: u32,
    /// `row_major` or `column_major`.
    pub major: String,
}
