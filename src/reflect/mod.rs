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

pub use build::reflect;

use serde::{Deserialize, Serialize};

/// The version of the schema written in `"schema"`.
pub const SCHEMA_VERSION: u32 = 1;

/// The reflection of one compiled module. Serialise it with
/// [`Reflection::to_json`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Reflection {
    pub schema: u32,
    pub target_env: String,
    pub spirv_version: String,
    pub profile: Option<String>,
    pub layout_rule: String,
    pub capabilities: Vec<String>,
    pub extensions: Vec<String>,
    pub entry_points: Vec<EntryPoint>,
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

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct EntryPoint {
    pub name: String,
    pub stage: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub workgroup_size: Option<[u32; 3]>,
    pub execution_modes: Vec<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub patch_constant_function: Option<String>,
    /// Geometry shaders: the names of each stream's output variables, by
    /// stream number.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub streams: Vec<Vec<String>>,
    pub inputs: Vec<StageVariable>,
    pub outputs: Vec<StageVariable>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct StageVariable {
    pub name: Option<String>,
    pub semantic: Option<String>,
    pub location: Option<u32>,
    pub builtin: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub index: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub locations: Option<u32>,
    #[serde(rename = "type")]
    pub type_name: String,
    pub component_type: String,
    pub component_count: u32,
    pub interpolation: Option<String>,
    pub sampling: Option<String>,
    pub patch: bool,
}

/// The kind of descriptor (or push constant block) a resource needs; the
/// names follow Vulkan's `VkDescriptorType`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ResourceKind {
    UniformBuffer,
    StorageBuffer,
    SampledImage,
    StorageImage,
    UniformTexelBuffer,
    StorageTexelBuffer,
    Sampler,
    CombinedImageSampler,
    InputAttachment,
    AccelerationStructure,
    PushConstant,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Resource {
    pub name: Option<String>,
    pub set: Option<u32>,
    pub binding: Option<u32>,
    pub kind: ResourceKind,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hlsl_type: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub access: Option<String>,
    pub count: u32,
    pub runtime_array: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub image: Option<Image>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub comparison: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub block: Option<Block>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub counter: Option<Counter>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub counter_for: Option<String>,
    pub used: bool,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Image {
    pub dim: String,
    pub arrayed: bool,
    pub multisampled: bool,
    pub sampled_type: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub format: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Counter {
    pub name: Option<String>,
    pub set: Option<u32>,
    pub binding: Option<u32>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Block {
    pub type_name: Option<String>,
    pub size: u32,
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

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Member {
    pub name: Option<String>,
    #[serde(rename = "type")]
    pub type_name: String,
    pub offset: u32,
    pub size: u32,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub array: Option<Vec<ArrayDim>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub matrix: Option<MatrixInfo>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
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
    pub count: u32,
    pub stride: u32,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MatrixInfo {
    pub rows: u32,
    pub columns: u32,
    pub stride: u32,
    pub major: String,
}
