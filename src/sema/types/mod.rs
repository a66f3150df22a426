//! HLSL types as sema sees them: interned [`TyId`]s over [`Ty`], with the
//! struct and enum tables, and the mapping to IR types for values held in
//! function/private/workgroup memory (the "canonical" IR type; laid-out
//! variants for buffers are made by `layout`).
//!
//! Aliases are resolved when a type name is looked up: `half` is `float`
//! unless `-enable-16bit-types`, `min16float`/`min10float` are `float` (DXC
//! without 16-bit types), `dword` is `uint`, `float1` is `float` and
//! `float1x1` is `float` (DXC maps one-component vectors and 1x1 matrices to
//! scalars).

pub mod consteval;
pub mod image;
pub mod inline_spirv;
pub mod ir_cache;
pub mod layout;
pub mod node;
pub mod pointer;
pub mod resolve;
mod scalar;
pub mod scope;
pub mod specialize;
pub mod templates;

use crate::intern::Symbol;
use crate::ir;
use crate::sema::table::{Table, define_id};
use crate::span::Span;
use rustc_hash::FxHashMap;
use scope::{FuncDeclId, ScopeId};

pub use image::image_of;
pub use scalar::{Sc, ScKind};

define_id! {
    /// An interned type.
    pub struct TyId;
}
define_id! {
    /// A struct of the struct table.
    pub struct StructId;
}
define_id! {
    /// An enum of the enum table.
    pub struct EnumId;
}

/// Texture dimensionality as HLSL names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TexDim {
    D1,
    D2,
    D3,
    Cube,
}

/// Resource object types.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ResKind {
    /// `Texture1D`…`TextureCubeArray`, `Texture2DMS[Array]`, and the
    /// `RWTexture*`/`RasterizerOrderedTexture*` forms (`rw`), and
    /// `vk::SampledTexture*` (`combined`): a texture that carries its
    /// sampler, one combined image sampler descriptor.
    Texture {
        dim: TexDim,
        array: bool,
        ms: bool,
        rw: bool,
        combined: bool,
    },
    /// `SubpassInput<T>` / `SubpassInputMS<T>` (`ms`): a Vulkan input
    /// attachment, read at the fragment's own position.
    SubpassInput {
        ms: bool,
    },
    /// `Buffer<T>` / `RWBuffer<T>`: texel buffers.
    TexelBuffer {
        rw: bool,
    },
    StructuredBuffer,
    RWStructuredBuffer,
    AppendStructuredBuffer,
    ConsumeStructuredBuffer,
    ByteAddressBuffer,
    RWByteAddressBuffer,
    /// `ConstantBuffer<T>`.
    ConstantBuffer,
    /// `TextureBuffer<T>`.
    TextureBuffer,
    RaytracingAccelerationStructure,
}

impl ResKind {
    pub fn name(self) -> String {
        match self {
            ResKind::Texture {
                dim,
                array,
                ms,
                combined: true,
                ..
            } => {
                let d = match dim {
                    TexDim::D1 => "1D",
                    TexDim::D2 => "2D",
                    TexDim::D3 => "3D",
                    TexDim::Cube => "CUBE",
                };
                format!(
                    "vk::SampledTexture{d}{}{}",
                    if ms { "MS" } else { "" },
                    if array { "Array" } else { "" }
                )
            }
            ResKind::Texture {
                dim, array, ms, rw, ..
            } => {
                let d = match dim {
                    TexDim::D1 => "1D",
                    TexDim::D2 => "2D",
                    TexDim::D3 => "3D",
                    TexDim::Cube => "Cube",
                };
                format!(
                    "{}Texture{}{}{}",
                    if rw { "RW" } else { "" },
                    d,
                    if ms { "MS" } else { "" },
                    if array { "Array" } else { "" }
                )
            }
            ResKind::TexelBuffer { rw } => if rw { "RWBuffer" } else { "Buffer" }.into(),
            ResKind::SubpassInput { ms } => {
                if ms { "SubpassInputMS" } else { "SubpassInput" }.into()
            }
            ResKind::StructuredBuffer => "StructuredBuffer".into(),
            ResKind::RWStructuredBuffer => "RWStructuredBuffer".into(),
            ResKind::AppendStructuredBuffer => "AppendStructuredBuffer".into(),
            ResKind::ConsumeStructuredBuffer => "ConsumeStructuredBuffer".into(),
            ResKind::ByteAddressBuffer => "ByteAddressBuffer".into(),
            ResKind::RWByteAddressBuffer => "RWByteAddressBuffer".into(),
            ResKind::ConstantBuffer => "ConstantBuffer".into(),
            ResKind::TextureBuffer => "TextureBuffer".into(),
            ResKind::RaytracingAccelerationStructure => "RaytracingAccelerationStructure".into(),
        }
    }
    /// Structured-like buffers: a runtime array of `T` in a storage block.
    pub fn is_structured(self) -> bool {
        matches!(
            self,
            ResKind::StructuredBuffer
                | ResKind::RWStructuredBuffer
                | ResKind::AppendStructuredBuffer
                | ResKind::ConsumeStructuredBuffer
        )
    }
    pub fn is_byte_address(self) -> bool {
        matches!(
            self,
            ResKind::ByteAddressBuffer | ResKind::RWByteAddressBuffer
        )
    }
    /// Writable from the shader (a UAV).
    pub fn is_rw(self) -> bool {
        match self {
            ResKind::Texture { rw, .. } | ResKind::TexelBuffer { rw } => rw,
            ResKind::RWStructuredBuffer
            | ResKind::AppendStructuredBuffer
            | ResKind::ConsumeStructuredBuffer
            | ResKind::RWByteAddressBuffer => true,
            _ => false,
        }
    }
    /// The register class DXC infers with `-fvk-auto-shift-bindings`.
    pub fn register_class(self) -> crate::sema::options::RegisterClass {
        use crate::sema::options::RegisterClass as R;
        match self {
            ResKind::ConstantBuffer => R::B,
            r if r.is_rw() => R::U,
            _ => R::T,
        }
    }
}

/// A type.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Ty {
    /// The type of an expression that already failed (no further errors).
    Error,
    Void,
    Scalar(Sc),
    /// 2 to 4 components (`float1` is a scalar).
    Vector(Sc, u8),
    /// `rows` × `columns`, never 1x1.
    Matrix(Sc, u8, u8),
    /// `None`: unsized (`T x[]`, the size comes from an initialiser or the
    /// array is a runtime-sized resource array).
    Array(TyId, Option<u32>),
    Struct(StructId),
    Enum(EnumId),
    /// A resource object with its element type (`Texture2D<float4>`,
    /// `StructuredBuffer<S>`; `None` for byte-address buffers).
    Resource(ResKind, Option<TyId>),
    Sampler {
        comparison: bool,
    },
    String,
    /// `ResourceDescriptorHeap` / `SamplerDescriptorHeap` (SM 6.6).
    Heap {
        sampler: bool,
    },
    /// An element of a descriptor heap, not yet given a resource type.
    HeapElem {
        sampler: bool,
    },
    /// A geometry shader output stream (`TriangleStream<T>`…) of vertices
    /// of type `T`. Its value is the stream's number (a `uint`): `Append`
    /// and `RestartStrip` pick the stream's output variables by it.
    Stream(StreamKind, TyId),
    /// `RayQuery<FLAGS>`: the state of an inline ray query (a
    /// function-local OpTypeRayQueryKHR variable), with the ray flags of
    /// its template argument.
    RayQuery(u32),
    /// A work graph object (`DispatchNodeInputRecord<T>`, `NodeOutput<T>`,
    /// …) with its record type (none for the `Empty*` ones). Objects are
    /// compile-time values: an input names the entry's input variable, an
    /// output is its node index (a `uint`), output records are the
    /// pointer their allocation gave. For outputs, the last field is the
    /// entry parameter declaring it, from 1 (0: not known here), which
    /// says which node the records go to.
    Node(node::NodeObj, Option<TyId>, u32),
    /// `vk::BufferPointer<T, A>`: a 64-bit device address of a `T` laid
    /// out as in a storage buffer, aligned to `A` bytes (0: `T`'s own
    /// alignment, known once `T` is defined). Its IR type is a
    /// `PhysicalStorage` pointer (see `layout::Layouts::pointer`).
    BufferPointer(TyId, u32),
    /// `vk::SpirvType` / `vk::SpirvOpaqueType`: a type written as its
    /// SPIR-V instruction.
    Spirv(Box<inline_spirv::SpirvTy>),
}

/// The primitive a geometry shader output stream makes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum StreamKind {
    Point,
    Line,
    Triangle,
}

impl StreamKind {
    /// The HLSL type name.
    pub fn name(self) -> &'static str {
        match self {
            StreamKind::Point => "PointStream",
            StreamKind::Line => "LineStream",
            StreamKind::Triangle => "TriangleStream",
        }
    }
}

/// Where a bit-field sits in its storage unit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BitField {
    pub offset: u8,
    pub width: u8,
    /// Stored in the same unit as the field before it (no IR member of its
    /// own).
    pub shares: bool,
}

/// Where a declaration's stage-variable attributes are written (for
/// diagnostics on them).
#[derive(Clone, Copy, Debug, Default)]
pub struct VkAttrSpans {
    pub location: Option<Span>,
    pub index: Option<Span>,
    pub builtin: Option<Span>,
}

/// A struct field.
#[derive(Clone, Debug)]
pub struct Field {
    /// The index of the IR struct member that stores this field (the base
    /// struct, if any, is member 0; bit-fields share their unit's member).
    pub member: u32,
    /// `uint a : 4;`
    pub bits: Option<BitField>,
    pub name: Symbol,
    pub ty: TyId,
    /// `row_major` (true) / `column_major` (false) written on the field or
    /// its typedef.
    pub major: Option<bool>,
    pub precise: bool,
    pub interp: Option<ir::Interpolation>,
    pub sampling: Option<ir::Sampling>,
    pub semantic: Option<(Symbol, Span)>,
    /// `[[vk::offset(N)]]`
    pub vk_offset: Option<u32>,
    /// `[[vk::location(N)]]`
    pub vk_location: Option<u32>,
    /// `[[vk::index(N)]]` (dual-source blending)
    pub vk_index: Option<u32>,
    /// `[[vk::builtin("…")]]`
    pub vk_builtin: Option<Symbol>,
    /// Where `vk::location`, `vk::index` and `vk::builtin` are written.
    pub vk_spans: VkAttrSpans,
    /// `vk::ext_decorate*` on the field: `OpMemberDecorate*` on its member.
    pub decorations: Vec<ir::SpirvDecoration>,
    pub span: Span,
}

impl Field {
    /// The decorations the field's member in the struct type takes: all
    /// but a `Location` or `BuiltIn`, which place the stage variables of
    /// an entry point's struct instead.
    pub fn type_decorations(&self) -> Vec<ir::SpirvDecoration> {
        let places = |d: &ir::SpirvDecoration| {
            matches!(d.operands, ir::SpirvDecorationOperands::Literals(_))
                && (d.decoration == spirv::Decoration::BuiltIn as u32
                    || d.decoration == spirv::Decoration::Location as u32)
        };
        self.decorations.iter().filter(|d| !places(d)).cloned().collect()
    }

    /// The byte offset `vk::ext_decorate(Offset, n)` gives the field.
    pub fn ext_offset(&self) -> Option<u32> {
        self.decorations.iter().find_map(|d| match &d.operands {
            ir::SpirvDecorationOperands::Literals(w)
                if d.decoration == spirv::Decoration::Offset as u32 && w.len() == 1 =>
            {
                Some(w[0])
            }
            _ => None,
        })
    }

    /// Field `name` of type `ty`, stored in IR member `member`, with no
    /// bit width, modifiers, semantic or attributes.
    pub fn plain(member: u32, name: Symbol, ty: TyId, span: Span) -> Field {
        Field {
            member,
            bits: None,
            name,
            ty,
            major: None,
            precise: false,
            interp: None,
            sampling: None,
            semantic: None,
            vk_offset: None,
            vk_location: None,
            vk_index: None,
            vk_builtin: None,
            vk_spans: VkAttrSpans::default(),
            decorations: Vec::new(),
            span,
        }
    }
}

/// A struct (or class or interface) type.
#[derive(Clone, Debug)]
pub struct StructInfo {
    /// The name with template arguments, for diagnostics and IR names.
    pub display: String,
    /// The base struct (DXC makes it member 0 of the struct).
    pub base: Option<TyId>,
    pub fields: Vec<Field>,
    /// Methods by name.
    pub methods: FxHashMap<Symbol, Vec<FuncDeclId>>,
    /// The scope holding nested types and static members.
    pub scope: ScopeId,
    pub is_interface: bool,
    /// Fields and base are known.
    pub complete: bool,
    /// `[NodeTrackRWInputSharing]`: as a work graph record, it works with
    /// `FinishedCrossGroupSharing` (`TrackFinishWritingAMDX`).
    pub track_rw_sharing: bool,
    pub span: Span,
}

impl StructInfo {
    /// A complete struct `name` of `fields` at global scope, without base
    /// or methods (built-in structs).
    pub fn global(name: &str, fields: Vec<Field>, span: Span) -> StructInfo {
        StructInfo {
            display: name.to_string(),
            base: None,
            fields,
            methods: Default::default(),
            scope: scope::GLOBAL_SCOPE,
            is_interface: false,
            complete: true,
            track_rw_sharing: false,
            span,
        }
    }
}

#[derive(Clone, Debug)]
pub struct EnumInfo {
    pub name: Symbol,
    pub underlying: Sc,
    pub values: Vec<(Symbol, i64)>,
    /// The scope of its values (named `E::V` when scoped).
    pub scope: ScopeId,
    pub span: Span,
}

/// The type table.
pub struct Types {
    list: Table<TyId, Ty>,
    map: FxHashMap<Ty, TyId>,
    structs: Table<StructId, StructInfo>,
    enums: Table<EnumId, EnumInfo>,
    /// Canonical IR type of each type, and other IR types by small keys.
    ir_cache: ir_cache::IrTypes,
    /// The scalar and vector types met so far, by [`numeric_slot`]: sema
    /// asks for them at nearly every expression, and this spares hashing
    /// the type each time.
    numeric: [Option<TyId>; NUMERIC_SLOTS],
}

/// One slot per scalar type and vector width (1 to 4).
const NUMERIC_SLOTS: usize = (Sc::LitFloat as usize + 1) * 4;

/// The slot of [`Types::numeric`] of a scalar or vector type.
fn numeric_slot(ty: &Ty) -> Option<usize> {
    match *ty {
        Ty::Scalar(s) => Some(s as usize * 4),
        Ty::Vector(s, n @ 2..=4) => Some(s as usize * 4 + n as usize - 1),
        _ => None,
    }
}

impl Default for Types {
    fn default() -> Self {
        Self::new()
    }
}

// Frequently used types, interned first so their ids are constant.
pub const ERROR: TyId = TyId(0);
pub const VOID: TyId = TyId(1);
pub const BOOL: TyId = TyId(2);
pub const INT: TyId = TyId(3);
pub const UINT: TyId = TyId(4);
pub const FLOAT: TyId = TyId(5);
pub const LIT_INT: TyId = TyId(6);
pub const LIT_FLOAT: TyId = TyId(7);
pub const STRING: TyId = TyId(8);

impl Types {
    /// The fields that own an IR member (every field but bit-fields that
    /// share the unit before them).
    pub fn storage_fields(&self, sid: StructId) -> impl Iterator<Item = &Field> {
        self.struct_info(sid)
            .fields
            .iter()
            .filter(|f| !f.bits.is_some_and(|b| b.shares))
    }

    /// The HLSL types of a struct's IR members, in order (base first).
    pub fn member_types(&self, sid: StructId) -> Vec<TyId> {
        let info = self.struct_info(sid);
        info.base
            .into_iter()
            .chain(self.storage_fields(sid).map(|f| f.ty))
            .collect()
    }

    pub fn new() -> Self {
        let mut t = Types {
            list: Table::new(),
            // Room for a small shader's types: rehashing grew it five times.
            map: FxHashMap::with_capacity_and_hasher(64, Default::default()),
            structs: Table::new(),
            enums: Table::new(),
            ir_cache: ir_cache::IrTypes::default(),
            numeric: [None; NUMERIC_SLOTS],
        };
        for ty in [
            Ty::Error,
            Ty::Void,
            Ty::Scalar(Sc::Bool),
            Ty::Scalar(Sc::I32),
            Ty::Scalar(Sc::U32),
            Ty::Scalar(Sc::F32),
            Ty::Scalar(Sc::LitInt),
            Ty::Scalar(Sc::LitFloat),
            Ty::String,
        ] {
            t.intern(ty);
        }
        t
    }

    /// The id of `ty`. Inline: for a scalar or vector named by its
    /// parts (`scalar`, `vector`, `with_shape`) the slot is known where
    /// it is called, and a hit is one load instead of a call.
    #[inline]
    pub fn intern(&mut self, ty: Ty) -> TyId {
        let slot = numeric_slot(&ty);
        match slot.and_then(|i| self.numeric[i]) {
            Some(id) => id,
            None => self.intern_new(ty, slot),
        }
    }

    /// [`Types::intern`] of a type not in the numeric table.
    fn intern_new(&mut self, ty: Ty, slot: Option<usize>) -> TyId {
        let id = match self.map.get(&ty) {
            Some(&id) => id,
            None => {
                let id = self.list.push(ty.clone());
                self.map.insert(ty, id);
                id
            }
        };
        if let Some(i) = slot {
            self.numeric[i] = Some(id);
        }
        id
    }

    pub fn get(&self, id: TyId) -> &Ty {
        &self.list[id]
    }

    pub fn scalar(&mut self, s: Sc) -> TyId {
        self.intern(Ty::Scalar(s))
    }
    /// A vector of `n` components; `n == 1` gives the scalar.
    pub fn vector(&mut self, s: Sc, n: u8) -> TyId {
        if n <= 1 {
            self.scalar(s)
        } else {
            self.intern(Ty::Vector(s, n))
        }
    }
    /// A matrix; 1x1 gives the scalar.
    pub fn matrix(&mut self, s: Sc, rows: u8, cols: u8) -> TyId {
        if rows == 1 && cols == 1 {
            self.scalar(s)
        } else {
            self.intern(Ty::Matrix(s, rows, cols))
        }
    }
    pub fn array(&mut self, elem: TyId, n: Option<u32>) -> TyId {
        self.intern(Ty::Array(elem, n))
    }

    pub fn add_struct(&mut self, info: StructInfo) -> TyId {
        let id = self.structs.push(info);
        self.intern(Ty::Struct(id))
    }
    pub fn add_enum(&mut self, info: EnumInfo) -> TyId {
        let id = self.enums.push(info);
        self.intern(Ty::Enum(id))
    }
    pub fn struct_info(&self, id: StructId) -> &StructInfo {
        &self.structs[id]
    }
    /// Every struct type (built-in ones and template instances too), in
    /// the order they were made.
    pub fn struct_types(&self) -> impl Iterator<Item = (TyId, StructId)> + '_ {
        self.structs
            .iter()
            .filter_map(|(sid, _)| Some((*self.map.get(&Ty::Struct(sid))?, sid)))
    }
    pub fn struct_info_mut(&mut self, id: StructId) -> &mut StructInfo {
        &mut self.structs[id]
    }
    pub fn enum_info(&self, id: EnumId) -> &EnumInfo {
        &self.enums[id]
    }
    pub fn enum_info_mut(&mut self, id: EnumId) -> &mut EnumInfo {
        &mut self.enums[id]
    }
    pub fn as_struct(&self, ty: TyId) -> Option<StructId> {
        match self.get(ty) {
            Ty::Struct(s) => Some(*s),
            _ => None,
        }
    }

    /// The scalar component type of a scalar, vector or matrix (enums are
    /// their underlying type).
    pub fn component(&self, ty: TyId) -> Option<Sc> {
        match *self.get(ty) {
            Ty::Scalar(s) | Ty::Vector(s, _) | Ty::Matrix(s, _, _) => Some(s),
            Ty::Enum(e) => Some(self.enum_info(e).underlying),
            _ => None,
        }
    }
    /// The scalar of the texels of an image of `elem`s: bools are stored
    /// as uints (as DXC does; Vulkan images have no bool texels), and an
    /// element-less texture holds floats.
    pub fn texel_scalar(&self, elem: TyId) -> Sc {
        match self.component(elem) {
            Some(Sc::Bool) => Sc::U32,
            Some(s) => s,
            None => Sc::F32,
        }
    }
    /// Shape of a numeric type.
    pub fn shape(&self, ty: TyId) -> Option<Shape> {
        match *self.get(ty) {
            Ty::Scalar(_) | Ty::Enum(_) => Some(Shape::Scalar),
            Ty::Vector(_, n) => Some(Shape::Vector(n)),
            Ty::Matrix(_, r, c) => Some(Shape::Matrix(r, c)),
            _ => None,
        }
    }
    /// Makes a numeric type of `shape` with component `s`.
    pub fn with_shape(&mut self, s: Sc, shape: Shape) -> TyId {
        match shape {
            Shape::Scalar => self.scalar(s),
            Shape::Vector(n) => self.vector(s, n),
            Shape::Matrix(r, c) => self.matrix(s, r, c),
        }
    }
    /// The same shape with another component type.
    pub fn with_component(&mut self, ty: TyId, s: Sc) -> TyId {
        match self.shape(ty) {
            Some(sh) => self.with_shape(s, sh),
            None => ty,
        }
    }
    pub fn is_numeric(&self, ty: TyId) -> bool {
        matches!(
            self.get(ty),
            Ty::Scalar(_) | Ty::Vector(..) | Ty::Matrix(..) | Ty::Enum(_)
        )
    }
    pub fn is_scalar(&self, ty: TyId) -> bool {
        matches!(self.get(ty), Ty::Scalar(_) | Ty::Enum(_))
    }
    pub fn is_resource(&self, ty: TyId) -> bool {
        match self.get(ty) {
            Ty::Resource(..) | Ty::Sampler { .. } => true,
            Ty::Array(e, _) => self.is_resource(*e),
            _ => false,
        }
    }
    /// The value a `ConstantBuffer<T>` or `TextureBuffer<T>` local,
    /// parameter or return holds: `T` (DXC copies the buffer's contents
    /// into a Function variable; the buffer's name already reads as a
    /// `T`). Every other type is itself.
    pub fn buffer_view_value(&self, ty: TyId) -> TyId {
        match self.get(ty) {
            Ty::Resource(ResKind::ConstantBuffer | ResKind::TextureBuffer, Some(t)) => *t,
            _ => ty,
        }
    }
    /// True if the type contains a resource or sampler anywhere.
    /// A struct holding resources: its values are aggregates in sema.
    pub fn is_agg(&self, ty: TyId) -> bool {
        matches!(self.get(ty), Ty::Struct(_)) && self.contains_resource(ty)
    }

    pub fn contains_resource(&self, ty: TyId) -> bool {
        match self.get(ty) {
            Ty::Resource(..) | Ty::Sampler { .. } => true,
            Ty::Array(e, _) => self.contains_resource(*e),
            Ty::Struct(s) => {
                let info = self.struct_info(*s);
                info.base.is_some_and(|b| self.contains_resource(b))
                    || info.fields.iter().any(|f| self.contains_resource(f.ty))
            }
            _ => false,
        }
    }
    /// Number of scalar components when flattened (HLSL's element count,
    /// used by initialiser lists and flattening casts).
    pub fn flat_count(&self, ty: TyId) -> u32 {
        match *self.get(ty) {
            Ty::Scalar(_) | Ty::Enum(_) => 1,
            Ty::Vector(_, n) => n as u32,
            Ty::Matrix(_, r, c) => r as u32 * c as u32,
            Ty::Array(e, n) => self.flat_count(e).saturating_mul(n.unwrap_or(0)),
            Ty::Struct(s) => {
                let info = self.struct_info(s);
                let base = info.base.map_or(0, |b| self.flat_count(b));
                info.fields
                    .iter()
                    .fold(base, |a, f| a.saturating_add(self.flat_count(f.ty)))
            }
            Ty::Resource(..) | Ty::Sampler { .. } | Ty::BufferPointer(..) => 1,
            _ => 0,
        }
    }

    /// The HLSL spelling of a type, for diagnostics.
    pub fn name(&self, ty: TyId) -> String {
        match *self.get(ty) {
            Ty::Error => "<error>".into(),
            Ty::Void => "void".into(),
            Ty::String => "string".into(),
            Ty::Scalar(s) => s.name().into(),
            Ty::Vector(s, n) => format!("{}{}", s.name(), n),
            Ty::Matrix(s, r, c) => format!("{}{}x{}", s.name(), r, c),
            Ty::Array(e, n) => {
                // Print `float[2][3]` for nested arrays, outermost first.
                let mut dims = String::new();
                let mut cur = ty;
                while let Ty::Array(e2, n2) = *self.get(cur) {
                    match n2 {
                        Some(n2) => dims.push_str(&format!("[{n2}]")),
                        None => dims.push_str("[]"),
                    }
                    cur = e2;
                }
                let _ = (e, n);
                format!("{}{}", self.name(cur), dims)
            }
            Ty::Struct(s) => self.struct_info(s).display.clone(),
            Ty::Enum(e) => self.enum_info(e).name.to_string(),
            Ty::Resource(k, elem) => match elem {
                Some(e) => format!("{}<{}>", k.name(), self.name(e)),
                None => k.name(),
            },
            Ty::Sampler { comparison } => {
                if comparison {
                    "SamplerComparisonState".into()
                } else {
                    "SamplerState".into()
                }
            }
            Ty::Heap { sampler } | Ty::HeapElem { sampler } => {
                if sampler {
                    "SamplerDescriptorHeap".into()
                } else {
                    "ResourceDescriptorHeap".into()
                }
            }
            Ty::Stream(k, e) => format!("{}<{}>", k.name(), self.name(e)),
            Ty::RayQuery(flags) => format!("RayQuery<{flags}>"),
            Ty::Spirv(ref t) => t.name(self),
            Ty::Node(obj, record, _) => {
                let r = record.map(|r| self.name(r));
                obj.name(r.as_deref())
            }
            Ty::BufferPointer(t, 0) => format!("vk::BufferPointer<{}>", self.name(t)),
            Ty::BufferPointer(t, a) => format!("vk::BufferPointer<{}, {a}>", self.name(t)),
        }
    }

    /// The IR type for values of `ty` in function, private and workgroup
    /// memory (no explicit layout; bools stay bools). Resource types map to
    /// their handle or block types elsewhere; here they give `None`.
    #[inline]
    pub fn ir_type(
        &mut self,
        module: &mut ir::Module,
        layouts: &mut layout::Layouts,
        ty: TyId,
    ) -> ir::Handle<ir::Type> {
        match self.ir_cache.get(ty) {
            Some(h) => h,
            None => self.new_ir_type(module, layouts, ty),
        }
    }

    /// [`Types::ir_type`] of a type met for the first time.
    fn new_ir_type(
        &mut self,
        module: &mut ir::Module,
        layouts: &mut layout::Layouts,
        ty: TyId,
    ) -> ir::Handle<ir::Type> {
        let inner = match self.get(ty).clone() {
            Ty::Scalar(s) => ir::TypeInner::Scalar(s.ir()),
            Ty::Enum(e) => ir::TypeInner::Scalar(self.enum_info(e).underlying.ir()),
            Ty::Vector(s, n) => ir::TypeInner::Vector {
                size: n,
                scalar: s.ir(),
            },
            Ty::Matrix(s, r, c) => ir::TypeInner::Matrix {
                rows: r,
                columns: c,
                scalar: s.ir(),
            },
            Ty::Array(e, n) => {
                let base = self.ir_type(module, layouts, e);
                ir::TypeInner::Array {
                    base,
                    size: match n {
                        Some(n) => ir::ArraySize::Constant(n),
                        None => ir::ArraySize::Runtime,
                    },
                    stride: None,
                }
            }
            Ty::Struct(s) => {
                let info = self.struct_info(s).clone();
                let mut members = Vec::new();
                let mut spans = Vec::new();
                if let Some(b) = info.base {
                    spans.push(Some(info.span));
                    members.push(ir::StructMember {
                        name: Some(self.name(b)),
                        ty: self.ir_type(module, layouts, b),
                        offset: None,
                        matrix_layout: None,
                        precise: false,
                        binding: None,
                        decorations: Vec::new(),
                    });
                }
                for f in info
                    .fields
                    .iter()
                    .filter(|f| !f.bits.is_some_and(|b| b.shares))
                {
                    spans.push(Some(f.span));
                    members.push(ir::StructMember {
                        name: Some(f.name.to_string()),
                        ty: self.ir_type(module, layouts, f.ty),
                        offset: None,
                        matrix_layout: None,
                        precise: f.precise,
                        binding: None,
                        decorations: f.type_decorations(),
                    });
                }
                let h = module.types.insert(ir::Type {
                    name: Some(info.display.clone()),
                    inner: ir::TypeInner::Struct { members, size: 0 },
                });
                module.decl_spans.set_struct(h, info.span, &spans);
                self.ir_cache.set(ty, h);
                return h;
            }
            Ty::Sampler { comparison } => ir::TypeInner::Sampler { comparison },
            Ty::Resource(ResKind::RaytracingAccelerationStructure, _) => {
                ir::TypeInner::AccelerationStructure
            }
            Ty::Resource(kind, elem) => match image_of(self, kind, elem) {
                // The image a combined image sampler samples.
                Some(img) if matches!(kind, ResKind::Texture { combined: true, .. }) => {
                    ir::TypeInner::SampledImage {
                        image: module.ty(img),
                    }
                }
                Some(img) => img,
                // Buffers are blocks; sema never asks for their value type.
                None => ir::TypeInner::Scalar(ir::Scalar::U32),
            },
            Ty::Error
            | Ty::Void
            | Ty::String
            | Ty::Heap { .. }
            | Ty::HeapElem { .. }
            | Ty::Stream(..) => ir::TypeInner::Scalar(ir::Scalar::U32),
            // Node objects are compile-time values (see `Ty::Node`): what
            // stands for them in the IR is a node index.
            Ty::Node(..) => ir::TypeInner::Scalar(ir::Scalar::U32),
            Ty::RayQuery(_) => ir::TypeInner::RayQuery,
            // The same pointer type in memory and as a value.
            Ty::BufferPointer(..) => {
                let h = layouts.pointer(self, module, ty);
                self.ir_cache.set(ty, h);
                return h;
            }
            Ty::Spirv(t) => ir::TypeInner::Spirv(Box::new(self.ir_spirv_type(module, layouts, &t))),
        };
        let h = module.ty(inner);
        self.ir_cache.set(ty, h);
        h
    }
}

/// The shape of a numeric type.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Shape {
    Scalar,
    Vector(u8),
    Matrix(u8, u8),
}

impl Shape {
    pub fn count(self) -> u32 {
        match self {
            Shape::Scalar => 1,
            Shape::Vector(n) => n as u32,
            Shape::Matrix(r, c) => r as u32 * c as u32,
        }
    }
}

#[cfg(test)]
mod tests;
