//! The IR's types: scalars, vectors, matrices, arrays, structs with their
//! layouts, pointers, images, samplers and the other opaque types.

use super::*;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ScalarKind {
    Bool,
    Sint,
    Uint,
    Float,
}

/// A scalar type. `width` is in bytes (bool has width 1 and no memory
/// representation: in buffers it is stored as `uint`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Scalar {
    pub kind: ScalarKind,
    pub width: u8,
}

impl Scalar {
    /// The number of [`Scalar::slot`]s.
    pub const SLOTS: usize = 16;

    /// A small index per kind and width of 1, 2, 4 or 8 bytes (`None` for
    /// other widths), for tables of the usual scalars that need no hashing.
    pub fn slot(self) -> Option<usize> {
        let width = match self.width {
            1 => 0,
            2 => 1,
            4 => 2,
            8 => 3,
            _ => return None,
        };
        Some(self.kind as usize * 4 + width)
    }

    /// HLSL's name of the type (`float`, `uint16_t`, `half`).
    pub fn hlsl_name(self) -> &'static str {
        match (self.kind, self.width) {
            (ScalarKind::Bool, _) => "bool",
            (ScalarKind::Sint, 2) => "int16_t",
            (ScalarKind::Sint, 8) => "int64_t",
            (ScalarKind::Sint, _) => "int",
            (ScalarKind::Uint, 2) => "uint16_t",
            (ScalarKind::Uint, 8) => "uint64_t",
            (ScalarKind::Uint, _) => "uint",
            (ScalarKind::Float, 2) => "half",
            (ScalarKind::Float, 8) => "double",
            (ScalarKind::Float, _) => "float",
        }
    }

    pub const BOOL: Scalar = Scalar {
        kind: ScalarKind::Bool,
        width: 1,
    };
    pub const I16: Scalar = Scalar {
        kind: ScalarKind::Sint,
        width: 2,
    };
    pub const U16: Scalar = Scalar {
        kind: ScalarKind::Uint,
        width: 2,
    };
    pub const I32: Scalar = Scalar {
        kind: ScalarKind::Sint,
        width: 4,
    };
    pub const U32: Scalar = Scalar {
        kind: ScalarKind::Uint,
        width: 4,
    };
    pub const I64: Scalar = Scalar {
        kind: ScalarKind::Sint,
        width: 8,
    };
    pub const U64: Scalar = Scalar {
        kind: ScalarKind::Uint,
        width: 8,
    };
    pub const F16: Scalar = Scalar {
        kind: ScalarKind::Float,
        width: 2,
    };
    pub const F32: Scalar = Scalar {
        kind: ScalarKind::Float,
        width: 4,
    };
    pub const F64: Scalar = Scalar {
        kind: ScalarKind::Float,
        width: 8,
    };
}

/// Image dimensionality.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ImageDim {
    D1,
    D2,
    D3,
    Cube,
    /// `Buffer<T>`/`RWBuffer<T>`: a texel buffer.
    Buffer,
    /// A subpass input (`SubpassInput`).
    SubpassData,
}

/// A storage-image / texel-buffer format (`[[vk::image_format("rgba8")]]`,
/// or inferred from the element type as DXC does).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ImageFormat {
    Unknown,
    Rgba32f,
    Rgba16f,
    R32f,
    Rgba8,
    Rgba8Snorm,
    Rg32f,
    Rg16f,
    R11fG11fB10f,
    R16f,
    Rgba16,
    Rgb10A2,
    Rg16,
    Rg8,
    R16,
    R8,
    Rgba16Snorm,
    Rg16Snorm,
    Rg8Snorm,
    R16Snorm,
    R8Snorm,
    Rgba32i,
    Rgba16i,
    Rgba8i,
    R32i,
    Rg32i,
    Rg16i,
    Rg8i,
    R16i,
    R8i,
    Rgba32ui,
    Rgba16ui,
    Rgba8ui,
    R32ui,
    Rgb10a2ui,
    Rg32ui,
    Rg16ui,
    Rg8ui,
    R16ui,
    R8ui,
    R64ui,
    R64i,
}

/// What kind of image.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ImageClass {
    /// Read through a sampler or `Load` (`Texture2D<float4>`, `Buffer<uint>`).
    Sampled,
    /// Read and written without a sampler (`RWTexture2D<float4>`,
    /// `RWBuffer<uint>`).
    Storage { format: ImageFormat },
}

/// Matrix layout of a struct member or array element in memory.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct MatrixLayout {
    /// HLSL `row_major`.
    pub row_major: bool,
    /// Bytes between consecutive rows (row-major) or columns (column-major).
    pub stride: u32,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct StructMember {
    pub name: Option<String>,
    pub ty: Handle<Type>,
    /// Byte offset, for structs in explicitly laid out memory (buffers, push
    /// constants); `None` elsewhere.
    pub offset: Option<u32>,
    /// Layout of a matrix (or array of matrices) member in explicitly laid out
    /// memory.
    pub matrix_layout: Option<MatrixLayout>,
    /// The member was declared `precise`: every operation whose value is
    /// stored into it is precise.
    pub precise: bool,
    /// Stage interface of a struct used as an entry-point parameter is
    /// flattened by sema; this is `None` everywhere else.
    pub binding: Option<Binding>,
    /// `vk::ext_decorate*` written on the member: `OpMemberDecorate` or
    /// `OpMemberDecorateString` (there is no member form of
    /// `OpDecorateId`; sema rejects those).
    pub decorations: Vec<super::SpirvDecoration>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ArraySize {
    Constant(u32),
    /// A runtime-sized array (last member of a storage buffer block, or an
    /// unbounded resource array).
    Runtime,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Type {
    /// The HLSL name (`S`, `type.ConstantBuffer.S`) for structs; `None` for
    /// built-in types.
    pub name: Option<String>,
    pub inner: TypeInner,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum TypeInner {
    Scalar(Scalar),
    /// `size` is 2, 3 or 4.
    Vector {
        size: u8,
        scalar: Scalar,
    },
    /// An HLSL `floatRxC`: `rows` and `columns` are 1..=4, never both 1.
    /// (A 1xN or Nx1 matrix is kept as a matrix in the IR; the backend
    /// represents it as a vector as DXC does.) A non-float matrix becomes
    /// an array of row vectors in SPIR-V; in explicitly laid out memory
    /// (struct members with offsets) sema writes such a matrix as an
    /// `Array` of row vectors with its stride, which the backend requires.
    Matrix {
        rows: u8,
        columns: u8,
        scalar: Scalar,
    },
    Array {
        base: Handle<Type>,
        size: ArraySize,
        /// Byte stride in explicitly laid out memory; `None` elsewhere.
        stride: Option<u32>,
    },
    Struct {
        members: Vec<StructMember>,
        /// Size in bytes in explicitly laid out memory (0 elsewhere).
        size: u32,
    },
    Image {
        dim: ImageDim,
        arrayed: bool,
        multisampled: bool,
        sampled: Scalar,
        class: ImageClass,
    },
    Sampler {
        comparison: bool,
    },
    /// An image with its sampler, one combined image sampler descriptor
    /// (`vk::SampledTexture2D`; OpTypeSampledImage). `image` is an `Image`
    /// of class `Sampled`.
    SampledImage {
        image: Handle<Type>,
    },
    AccelerationStructure,
    /// The state of an inline ray query (`RayQuery<flags>`,
    /// OpTypeRayQueryKHR); only ever in a function-local variable.
    RayQuery,
    /// A work graph payload array (SPV_AMDX_shader_enqueue
    /// OpTypeNodePayloadArrayAMDX): the records a node receives (the
    /// type of its `NodePayload` input variable) or allocates for another
    /// node (`output` says which). Its length is only known at run time;
    /// it is indexed like an array.
    NodePayloadArray {
        /// The record type (a struct; an empty one for the `Empty*` forms).
        payload: Handle<Type>,
        /// `NodeMaxPayloadsAMDX`: the most records in one array (an input's
        /// `[MaxRecords]`, an output's).
        max_payloads: Option<u32>,
        /// For an output: the node its records are enqueued for.
        output: Option<NodeTarget>,
    },
    /// A type written as its SPIR-V instruction (inline SPIR-V).
    Spirv(Box<super::SpirvType>),
    /// A pointer, the type of variable references and access chains.
    Pointer {
        base: Handle<Type>,
        space: AddressSpace,
    },
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each scalar of a usual width has a slot of its own, below
    /// [`Scalar::SLOTS`]; other widths have none.
    #[test]
    fn scalar_slots_are_distinct() {
        let mut seen = [false; Scalar::SLOTS];
        for kind in [ScalarKind::Bool, ScalarKind::Sint, ScalarKind::Uint, ScalarKind::Float] {
            for width in [1, 2, 4, 8] {
                let slot = Scalar { kind, width }.slot().unwrap_or(Scalar::SLOTS);
                assert!(slot < Scalar::SLOTS && !std::mem::replace(&mut seen[slot], true));
            }
            assert_eq!(Scalar { kind, width: 3 }.slot(), None);
        }
    }
}
