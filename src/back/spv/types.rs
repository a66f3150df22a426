//! Types: a cache that gives each distinct SPIR-V type one id, and the
//! layout decorations of explicitly laid out
//! types (`Offset`, `ArrayStride`, `MatrixStride`, `RowMajor`/`ColMajor`).
//!
//! Non-aggregate types must not be declared twice (SPIR-V 2.8), so every
//! type goes through [`SpvType`]. Structs are not deduplicated: each IR
//! struct type gets its own id, so that two structs with different
//! decorations never share one.

use super::expr::Shape;
use super::writer::Writer;
use super::{BackResult, internal, unsupported};
use crate::ir::{self, Handle, Scalar, ScalarKind, TypeInner};
use rustc_hash::FxHashMap;
use smallvec::{SmallVec, smallvec};
use spirv::{Capability, Decoration, Op, StorageClass, Word};

/// A SPIR-V type, by the ids of its parts.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(super) enum SpvType {
    Void,
    Bool,
    Int {
        width: u8,
        signed: bool,
    },
    Float {
        width: u8,
    },
    Vector {
        component: Word,
        size: u8,
    },
    Matrix {
        column: Word,
        columns: u8,
    },
    Array {
        element: Word,
        length: u32,
        stride: Option<u32>,
    },
    RuntimeArray {
        element: Word,
        stride: Option<u32>,
    },
    Pointer {
        pointee: Word,
        class: StorageClass,
    },
    Function {
        result: Word,
        params: Vec<Word>,
    },
    Image {
        sampled_type: Word,
        dim: spirv::Dim,
        arrayed: bool,
        multisampled: bool,
        /// 1: used with a sampler; 2: storage image.
        sampled: u32,
        format: spirv::ImageFormat,
    },
    Sampler,
    SampledImage {
        image: Word,
    },
    AccelerationStructure,
    RayQuery,
    /// A type instruction of inline SPIR-V that none of the above is.
    Raw {
        op: Op,
        operands: Vec<RawOperand>,
    },
}

/// An operand of an [`SpvType::Raw`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(super) enum RawOperand {
    Id(Word),
    Literal(u32),
}

pub(super) struct TypeCache {
    lookup: FxHashMap<SpvType, Word>,
    /// The id of each IR type, once written.
    ir: Vec<Option<Word>>,
    /// Work graph node names: their `OpConstantStringAMDX`.
    pub node_names: FxHashMap<String, Word>,
    /// The ids of scalar types and of vectors of 2 to 4 of them, once
    /// declared, by [`Scalar::slot`] (what `lookup` has, without hashing).
    scalars: [Option<Word>; Scalar::SLOTS],
    vectors: [[Option<Word>; 3]; Scalar::SLOTS],
    /// The shape of each IR type, by its index: arithmetic asks for the
    /// shape of every operand.
    shapes: Vec<Shape>,
    /// By IR type index: the last pointer type asked for through
    /// [`Writer::ir_pointer_type`], with its storage class and pointee id
    /// (access chains ask for the same one again and again).
    ir_pointers: Vec<Option<(StorageClass, Word, Word)>>,
}

impl TypeCache {
    pub fn new(types: &ir::UniqueArena<ir::Type>) -> Self {
        let ir_types = types.len();
        TypeCache {
            // About one SPIR-V type per IR type, plus pointers to them.
            lookup: FxHashMap::with_capacity_and_hasher(2 * ir_types, Default::default()),
            ir: vec![None; ir_types],
            node_names: FxHashMap::default(),
            scalars: [None; Scalar::SLOTS],
            vectors: [[None; 3]; Scalar::SLOTS],
            shapes: types.iter().map(|(_, ty)| Shape::of(&ty.inner)).collect(),
            ir_pointers: vec![None; ir_types],
        }
    }

    /// Records the id of IR type `h` before it is complete (a forward
    /// pointer).
    pub fn set_ir(&mut self, h: Handle<ir::Type>, id: Word) {
        if let Some(slot) = self.ir.get_mut(h.index()) {
            *slot = Some(id);
        }
    }

    /// Records a pointer type declared outside [`Writer::spv_type`].
    pub fn set_pointer(&mut self, pointee: Word, class: StorageClass, id: Word) {
        self.lookup.insert(SpvType::Pointer { pointee, class }, id);
        // It may replace a pointer type remembered by IR type.
        self.ir_pointers.fill(None);
    }
}

/// How an HLSL matrix is represented (SPIR-V.rst, "Vectors and matrices"):
/// `floatRxC` is a SPIR-V matrix of R columns, each a C-vector (an HLSL row
/// is a SPIR-V column); a 1xN or Nx1 matrix is a vector; a non-float matrix
/// is an array of R C-vectors (the `Shader` capability allows only float
/// matrices).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum MatrixRepr {
    Scalar,
    Vector(u8),
    Matrix { columns: u8, size: u8 },
    Array { length: u8, size: u8 },
}

pub(super) fn matrix_repr(rows: u8, columns: u8, scalar: Scalar) -> MatrixRepr {
    match (rows, columns) {
        (1, 1) => MatrixRepr::Scalar,
        (1, n) | (n, 1) => MatrixRepr::Vector(n),
        (r, c) if scalar.kind == ScalarKind::Float => MatrixRepr::Matrix {
            columns: r,
            size: c,
        },
        (r, c) => MatrixRepr::Array { length: r, size: c },
    }
}

/// The storage class of an address space. `Storage` buffers live in
/// `Uniform` with `BufferBlock` below SPIR-V 1.3 and in `StorageBuffer`
/// from 1.3 (DESIGN.md).
pub(super) fn storage_class(space: ir::AddressSpace, version: (u8, u8)) -> StorageClass {
    use ir::AddressSpace as A;
    match space {
        A::Function => StorageClass::Function,
        A::Private => StorageClass::Private,
        A::Workgroup => StorageClass::Workgroup,
        A::TaskPayload => StorageClass::TaskPayloadWorkgroupEXT,
        A::Uniform => StorageClass::Uniform,
        A::Storage { .. } if version >= (1, 3) => StorageClass::StorageBuffer,
        A::Storage { .. } => StorageClass::Uniform,
        A::PushConstant => StorageClass::PushConstant,
        A::Input => StorageClass::Input,
        A::Output => StorageClass::Output,
        A::Handle => StorageClass::UniformConstant,
        A::Ray(r) => super::raytracing::storage_class(r),
        A::NodePayload => StorageClass::NodePayloadAMDX,
        A::PhysicalStorage { .. } => StorageClass::PhysicalStorageBuffer,
        A::Raw(class) => class,
    }
}

/// Formats a storage image may have with just the `Shader` capability
/// (SPIR-V 3.11, Image Format); the rest need `StorageImageExtendedFormats`.
fn is_base_storage_format(f: ir::ImageFormat) -> bool {
    use ir::ImageFormat as F;
    matches!(
        f,
        F::Rgba32f
            | F::Rgba16f
            | F::R32f
            | F::Rgba8
            | F::Rgba8Snorm
            | F::Rgba32i
            | F::Rgba16i
            | F::Rgba8i
            | F::R32i
            | F::Rgba32ui
            | F::Rgba16ui
            | F::Rgba8ui
            | F::R32ui
    )
}

pub(super) fn image_format(f: ir::ImageFormat) -> spirv::ImageFormat {
    use ir::ImageFormat as F;
    use spirv::ImageFormat as S;
    match f {
        F::Unknown => S::Unknown,
        F::Rgba32f => S::Rgba32f,
        F::Rgba16f => S::Rgba16f,
        F::R32f => S::R32f,
        F::Rgba8 => S::Rgba8,
        F::Rgba8Snorm => S::Rgba8Snorm,
        F::Rg32f => S::Rg32f,
        F::Rg16f => S::Rg16f,
        F::R11fG11fB10f => S::R11fG11fB10f,
        F::R16f => S::R16f,
        F::Rgba16 => S::Rgba16,
        F::Rgb10A2 => S::Rgb10A2,
        F::Rg16 => S::Rg16,
        F::Rg8 => S::Rg8,
        F::R16 => S::R16,
        F::R8 => S::R8,
        F::Rgba16Snorm => S::Rgba16Snorm,
        F::Rg16Snorm => S::Rg16Snorm,
        F::Rg8Snorm => S::Rg8Snorm,
        F::R16Snorm => S::R16Snorm,
        F::R8Snorm => S::R8Snorm,
        F::Rgba32i => S::Rgba32i,
        F::Rgba16i => S::Rgba16i,
        F::Rgba8i => S::Rgba8i,
        F::R32i => S::R32i,
        F::Rg32i => S::Rg32i,
        F::Rg16i => S::Rg16i,
        F::Rg8i => S::Rg8i,
        F::R16i => S::R16i,
        F::R8i => S::R8i,
        F::Rgba32ui => S::Rgba32ui,
        F::Rgba16ui => S::Rgba16ui,
        F::Rgba8ui => S::Rgba8ui,
        F::R32ui => S::R32ui,
        F::Rgb10a2ui => S::Rgb10a2ui,
        F::Rg32ui => S::Rg32ui,
        F::Rg16ui => S::Rg16ui,
        F::Rg8ui => S::Rg8ui,
        F::R16ui => S::R16ui,
        F::R8ui => S::R8ui,
        F::R64ui => S::R64ui,
        F::R64i => S::R64i,
    }
}

/// The error for a dangling type handle (kept out of line: lookups are hot).
#[cold]
fn missing_type(h: Handle<ir::Type>) -> super::Diagnostic {
    internal(format!("type {h:?} does not exist"))
}

impl<'a> Writer<'a> {
    /// The IR type behind `h`, or an internal error for a dangling handle.
    #[inline]
    pub fn ir_type(&self, h: Handle<ir::Type>) -> BackResult<&'a ir::Type> {
        let ir = self.ir;
        if h.index() < ir.types.len() {
            Ok(&ir.types[h])
        } else {
            Err(missing_type(h))
        }
    }

    /// The shape of IR type `h`.
    #[inline]
    pub fn type_shape(&self, h: Handle<ir::Type>) -> BackResult<Shape> {
        match self.types.shapes.get(h.index()) {
            Some(&shape) => Ok(shape),
            None => Err(missing_type(h)),
        }
    }

    /// The id of a SPIR-V type, declaring it on first use.
    pub fn spv_type(&mut self, t: SpvType) -> Word {
        match self.types.lookup.get(&t) {
            Some(&id) => id,
            None => self.declare_spv_type(t),
        }
    }

    /// [`Self::spv_type`] of a type not declared yet.
    #[inline(never)]
    fn declare_spv_type(&mut self, t: SpvType) -> Word {
        let id = self.id();
        // Every operand of a type instruction is one word (ids, literals
        // and enumerants).
        let (op, operands): (Op, SmallVec<[Word; 7]>) = match &t {
            SpvType::Void => (Op::TypeVoid, smallvec![]),
            SpvType::Bool => (Op::TypeBool, smallvec![]),
            SpvType::Int { width, signed } => {
                match width {
                    1 => self.capability(Capability::Int8),
                    2 => self.capability(Capability::Int16),
                    8 => self.capability(Capability::Int64),
                    _ => {}
                }
                (
                    Op::TypeInt,
                    smallvec![u32::from(*width) * 8, u32::from(*signed)],
                )
            }
            SpvType::Float { width } => {
                match width {
                    2 => self.capability(Capability::Float16),
                    8 => self.capability(Capability::Float64),
                    _ => {}
                }
                (Op::TypeFloat, smallvec![u32::from(*width) * 8])
            }
            SpvType::Vector { component, size } => {
                (Op::TypeVector, smallvec![*component, u32::from(*size)])
            }
            SpvType::Matrix { column, columns } => {
                (Op::TypeMatrix, smallvec![*column, u32::from(*columns)])
            }
            SpvType::Array {
                element, length, ..
            } => {
                let length = self.const_u32(*length);
                (Op::TypeArray, smallvec![*element, length])
            }
            SpvType::RuntimeArray { element, .. } => (Op::TypeRuntimeArray, smallvec![*element]),
            SpvType::Pointer { pointee, class } => {
                (Op::TypePointer, smallvec![*class as u32, *pointee])
            }
            SpvType::Function { result, params } => {
                let mut ops = smallvec![*result];
                ops.extend_from_slice(params);
                (Op::TypeFunction, ops)
            }
            SpvType::Image {
                sampled_type,
                dim,
                arrayed,
                multisampled,
                sampled,
                format,
            } => (
                Op::TypeImage,
                smallvec![
                    *sampled_type,
                    *dim as u32,
                    // Depth 2: "not known", as DXC declares every image
                    // (SPIR-V.rst, "Textures").
                    2,
                    u32::from(*arrayed),
                    u32::from(*multisampled),
                    *sampled,
                    *format as u32,
                ],
            ),
            SpvType::Sampler => (Op::TypeSampler, smallvec![]),
            SpvType::SampledImage { image } => (Op::TypeSampledImage, smallvec![*image]),
            SpvType::AccelerationStructure => (Op::TypeAccelerationStructureKHR, smallvec![]),
            SpvType::RayQuery => (Op::TypeRayQueryKHR, smallvec![]),
            SpvType::Raw { op, operands } => {
                let operands = operands.iter().map(|o| match *o {
                    RawOperand::Id(w) | RawOperand::Literal(w) => w,
                });
                (*op, operands.collect())
            }
        };
        self.globals.encode_words(op, None, Some(id), &operands);
        if let SpvType::Array {
            stride: Some(stride),
            ..
        }
        | SpvType::RuntimeArray {
            stride: Some(stride),
            ..
        } = t
        {
            self.decorate(id, Decoration::ArrayStride, &[stride]);
        }
        self.types.lookup.insert(t, id);
        id
    }

    pub fn void_type(&mut self) -> Word {
        self.spv_type(SpvType::Void)
    }

    pub fn bool_type(&mut self) -> Word {
        self.spv_type(SpvType::Bool)
    }

    pub fn scalar_type(&mut self, scalar: Scalar) -> Word {
        let slot = scalar.slot();
        if let Some(id) = slot.and_then(|s| self.types.scalars[s]) {
            return id;
        }
        let id = self.spv_type(match scalar.kind {
            ScalarKind::Bool => SpvType::Bool,
            ScalarKind::Sint => SpvType::Int {
                width: scalar.width,
                signed: true,
            },
            ScalarKind::Uint => SpvType::Int {
                width: scalar.width,
                signed: false,
            },
            ScalarKind::Float => SpvType::Float {
                width: scalar.width,
            },
        });
        if let Some(s) = slot {
            self.types.scalars[s] = Some(id);
        }
        id
    }

    /// A vector type, or the scalar type when `size` is 1.
    pub fn vector_type(&mut self, scalar: Scalar, size: u8) -> Word {
        let component = self.scalar_type(scalar);
        if size <= 1 {
            return component;
        }
        let slot = scalar.slot().filter(|_| size <= 4);
        let slot = slot.map(|s| (s, usize::from(size) - 2));
        if let Some(id) = slot.and_then(|(s, n)| self.types.vectors[s][n]) {
            return id;
        }
        let id = self.spv_type(SpvType::Vector { component, size });
        if let Some((s, n)) = slot {
            self.types.vectors[s][n] = Some(id);
        }
        id
    }

    pub fn pointer_type(&mut self, pointee: Word, class: StorageClass) -> Word {
        self.spv_type(SpvType::Pointer { pointee, class })
    }

    /// The pointer type to IR type `pointee` in `class`, without hashing
    /// when it is the one last asked for `pointee`.
    pub fn ir_pointer_type(
        &mut self,
        pointee: Handle<ir::Type>,
        class: StorageClass,
    ) -> BackResult<Word> {
        let base = self.type_id(pointee)?;
        if let Some(&Some((c, b, id))) = self.types.ir_pointers.get(pointee.index())
            && c == class
            && b == base
        {
            return Ok(id);
        }
        let id = self.pointer_type(base, class);
        if let Some(slot) = self.types.ir_pointers.get_mut(pointee.index()) {
            *slot = Some((class, base, id));
        }
        Ok(id)
    }

    /// The id of an IR type, declaring it (and what it is made of) on first
    /// use, with its layout decorations.
    #[inline]
    pub fn type_id(&mut self, h: Handle<ir::Type>) -> BackResult<Word> {
        match self.types.ir.get(h.index()) {
            Some(Some(id)) => Ok(*id),
            _ => self.declare_type(h),
        }
    }

    /// [`Self::type_id`] of a type not written yet.
    #[inline(never)]
    fn declare_type(&mut self, h: Handle<ir::Type>) -> BackResult<Word> {
        let ty = self.ir_type(h)?;
        // A type's parts come before it in the arena; checking it keeps
        // broken IR from recursing forever.
        let earlier = |part: Handle<ir::Type>| {
            if part.index() < h.index() {
                Ok(())
            } else {
                Err(internal(format!(
                    "type {h:?} is made of {part:?}, which does not come before it"
                )))
            }
        };
        match &ty.inner {
            TypeInner::Pointer {
                base,
                space: ir::AddressSpace::PhysicalStorage { .. },
            } => {
                self.device_address_capability();
                if base.index() > h.index() {
                    return self.forward_pointer_type(h, *base);
                }
            }
            TypeInner::Array { base, .. } | TypeInner::Pointer { base, .. } => earlier(*base)?,
            TypeInner::NodePayloadArray {
                payload, output, ..
            } => {
                earlier(*payload)?;
                if let Some(shared) = output.as_ref().and_then(|o| o.shares_limits_with) {
                    earlier(shared)?;
                }
            }
            TypeInner::Struct { members, .. } => {
                for m in members {
                    earlier(m.ty)?;
                }
            }
            _ => {}
        }
        let id = match &ty.inner {
            TypeInner::Scalar(s) => self.scalar_type(*s),
            TypeInner::Vector { size, scalar } => self.vector_type(*scalar, *size),
            TypeInner::Matrix {
                rows,
                columns,
                scalar,
            } => self.matrix_type(*rows, *columns, *scalar),
            TypeInner::Array { base, size, stride } => {
                let element = self.type_id(*base)?;
                match size {
                    ir::ArraySize::Constant(0) => {
                        return Err(internal(format!("array type {h:?} has length 0")));
                    }
                    ir::ArraySize::Constant(n) => self.spv_type(SpvType::Array {
                        element,
                        length: *n,
                        stride: *stride,
                    }),
                    ir::ArraySize::Runtime => {
                        // Runtime arrays in buffers have a stride; one
                        // without is an unbounded array of descriptors
                        // (`Texture2D t[]`, `ConstantBuffer<T> c[]`).
                        if stride.is_none() {
                            self.capability(Capability::RuntimeDescriptorArray);
                        }
                        self.spv_type(SpvType::RuntimeArray {
                            element,
                            stride: *stride,
                        })
                    }
                }
            }
            TypeInner::Struct { members, .. } => {
                let id = self.struct_type(ty, members)?;
                self.decorate_record(h, id);
                id
            }
            TypeInner::Image {
                dim,
                arrayed,
                multisampled,
                sampled,
                class,
            } => self.image_type(*dim, *arrayed, *multisampled, *sampled, *class)?,
            TypeInner::Sampler { .. } => self.spv_type(SpvType::Sampler),
            TypeInner::SampledImage { image } => {
                let image = self.type_id(*image)?;
                self.spv_type(SpvType::SampledImage { image })
            }
            TypeInner::AccelerationStructure => {
                self.acceleration_structure_capabilities();
                self.spv_type(SpvType::AccelerationStructure)
            }
            TypeInner::RayQuery => {
                self.ray_query_capabilities();
                self.spv_type(SpvType::RayQuery)
            }
            TypeInner::NodePayloadArray {
                payload,
                max_payloads,
                output,
            } => self.node_payload_array_type(*payload, *max_payloads, output.as_ref())?,
            TypeInner::Pointer { base, space } => {
                let pointee = self.type_id(*base)?;
                let class = storage_class(*space, self.version);
                self.pointer_type(pointee, class)
            }
            TypeInner::Spirv(t) => self.spirv_type(t)?,
        };
        self.types.ir[h.index()] = Some(id);
        Ok(id)
    }

    pub fn matrix_type(&mut self, rows: u8, columns: u8, scalar: Scalar) -> Word {
        match matrix_repr(rows, columns, scalar) {
            MatrixRepr::Scalar => self.scalar_type(scalar),
            MatrixRepr::Vector(n) => self.vector_type(scalar, n),
            MatrixRepr::Matrix { columns, size } => {
                let column = self.vector_type(scalar, size);
                self.spv_type(SpvType::Matrix { column, columns })
            }
            MatrixRepr::Array { length, size } => {
                let element = self.vector_type(scalar, size);
                self.spv_type(SpvType::Array {
                    element,
                    length: u32::from(length),
                    stride: None,
                })
            }
        }
    }

    fn struct_type(&mut self, ty: &ir::Type, members: &[ir::StructMember]) -> BackResult<Word> {
        let mut member_ids = Vec::with_capacity(members.len());
        for m in members {
            member_ids.push(self.type_id(m.ty)?);
        }
        let id = self.id();
        self.globals.encode_words(Op::TypeStruct, None, Some(id), &member_ids);
        if let Some(name) = &ty.name {
            self.name(id, name);
        }
        for (i, m) in members.iter().enumerate() {
            let i = i as u32;
            if let Some(name) = &m.name {
                self.member_name(id, i, name);
            }
            if let Some(offset) = m.offset {
                self.decorate_member(id, i, Decoration::Offset, &[offset]);
            }
            for d in &m.decorations {
                self.write_spirv_member_decoration(id, i, d)?;
            }
            // Matrix layout is a member decoration on the struct holding the
            // matrix (or array of matrices). HLSL rows are SPIR-V columns, so
            // HLSL `row_major` is SPIR-V `ColMajor` and the default
            // `column_major` is `RowMajor` (SPIR-V.rst, Appendix A).
            let mut inner = m.ty;
            while let TypeInner::Array { base, .. } = self.ir_type(inner)?.inner {
                inner = base;
            }
            if let TypeInner::Matrix {
                rows,
                columns,
                scalar,
            } = self.ir_type(inner)?.inner
            {
                match matrix_repr(rows, columns, scalar) {
                    MatrixRepr::Matrix { .. } => {
                        if let Some(layout) = m.matrix_layout {
                            self.decorate_member(id, i, Decoration::MatrixStride, &[layout.stride]);
                            let major = if layout.row_major {
                                Decoration::ColMajor
                            } else {
                                Decoration::RowMajor
                            };
                            self.decorate_member(id, i, major, &[]);
                        } else if m.offset.is_some() {
                            return Err(internal(format!(
                                "matrix member `{}` of an explicitly laid out struct has no matrix layout",
                                m.name.as_deref().unwrap_or("?")
                            )));
                        }
                    }
                    MatrixRepr::Array { .. } if m.offset.is_some() => {
                        return Err(unsupported(format!(
                            "a non-float matrix (member `{}`) in a buffer; sema lowers these to arrays of vectors",
                            m.name.as_deref().unwrap_or("?")
                        )));
                    }
                    _ => {}
                }
            }
        }
        Ok(id)
    }

    fn image_type(
        &mut self,
        dim: ir::ImageDim,
        arrayed: bool,
        multisampled: bool,
        sampled_scalar: Scalar,
        class: ir::ImageClass,
    ) -> BackResult<Word> {
        use ir::ImageDim as D;
        let storage = matches!(class, ir::ImageClass::Storage { .. });
        let (sdim, cap) = match dim {
            D::D1 => (
                spirv::Dim::Dim1D,
                Some(if storage {
                    Capability::Image1D
                } else {
                    Capability::Sampled1D
                }),
            ),
            D::D2 => (spirv::Dim::Dim2D, None),
            D::D3 => (spirv::Dim::Dim3D, None),
            D::Cube => (
                spirv::Dim::DimCube,
                arrayed.then_some(if storage {
                    Capability::ImageCubeArray
                } else {
                    Capability::SampledCubeArray
                }),
            ),
            D::Buffer => (
                spirv::Dim::DimBuffer,
                Some(if storage {
                    Capability::ImageBuffer
                } else {
                    Capability::SampledBuffer
                }),
            ),
            D::SubpassData => (
                spirv::Dim::DimSubpassData,
                Some(Capability::InputAttachment),
            ),
        };
        if let Some(cap) = cap {
            self.capability(cap);
        }
        if storage && multisampled {
            self.capability(Capability::StorageImageMultisample);
            if arrayed {
                self.capability(Capability::ImageMSArray);
            }
        }
        let format = match class {
            ir::ImageClass::Storage { format } => {
                if !is_base_storage_format(format) && format != ir::ImageFormat::Unknown {
                    self.capability(Capability::StorageImageExtendedFormats);
                }
                image_format(format)
            }
            ir::ImageClass::Sampled => spirv::ImageFormat::Unknown,
        };
        if texel_type(sampled_scalar)? == TexelType::Int64 {
            self.capability(Capability::Int64ImageEXT);
        }
        let sampled_type = self.scalar_type(sampled_scalar);
        // Subpass inputs are read without a sampler: Sampled = 2.
        let sampled = if storage || dim == D::SubpassData {
            2
        } else {
            1
        };
        Ok(self.spv_type(SpvType::Image {
            sampled_type,
            dim: sdim,
            arrayed,
            multisampled,
            sampled,
            format,
        }))
    }
}

/// What an image's texel scalar needs.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum TexelType {
    /// A 32-bit float or integer: core.
    Core,
    /// A 64-bit integer: SPV_EXT_shader_image_int64.
    Int64,
}

/// The texel types Vulkan images have; anything else (16-bit floats, as
/// DXC says for Vulkan) is refused, even on a resource the module leaves
/// out for being unused.
pub(super) fn texel_type(scalar: ir::Scalar) -> BackResult<TexelType> {
    match (scalar.kind, scalar.width) {
        (ScalarKind::Float | ScalarKind::Sint | ScalarKind::Uint, 4) => Ok(TexelType::Core),
        (ScalarKind::Sint | ScalarKind::Uint, 8) => Ok(TexelType::Int64),
        _ => Err(unsupported(format!(
            "images of {}-bit {:?} texels",
            scalar.width * 8,
            scalar.kind
        ))),
    }
}
