//! Memory layouts of buffer contents, as DXC computes them
//! (SPIR-V.rst, "Memory layout rules"):
//!
//! - vector-relaxed std140 for cbuffers, `ConstantBuffer<T>` and `$Globals`,
//!   vector-relaxed std430 for structured, byte-address and texture buffers
//!   and push constants (the default);
//! - strict std140/std430 with `-fvk-use-gl-layout`;
//! - D3D's packing with `-fvk-use-dx-layout` (fxc's cbuffer rules, and plain
//!   packing for structured buffers);
//! - scalar block layout with `-fvk-use-scalar-layout`.
//!
//! "Vector-relaxed" means: a vector member of a struct is aligned like its
//! component, unless that makes it straddle a 16-byte boundary improperly,
//! in which case it is aligned to 16. Arrays and matrices keep the strict
//! alignment. `bool` is stored as a 32-bit `uint`.
//!
//! Laid-out types are distinct IR types (with offsets, strides and matrix
//! layouts) from the types of values in function memory.

use crate::ir;
use crate::sema::options::LayoutRule;
use crate::sema::types::{Sc, StructInfo, Ty, TyId, Types};
use crate::span::Span;
use rustc_hash::FxHashMap;

/// The rule one buffer's contents follow.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Rule {
    RelaxedStd140,
    #[default]
    RelaxedStd430,
    Std140,
    Std430,
    /// fxc's cbuffer packing (`-fvk-use-dx-layout` on cbuffers).
    FxcCBuffer,
    /// fxc's structured buffer packing (tight).
    FxcSBuffer,
    Scalar,
}

/// What kind of buffer a layout is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BufferKind {
    /// Uniform buffers: cbuffer, ConstantBuffer, $Globals.
    Uniform,
    /// Storage buffers, texture buffers, push constants.
    Storage,
}

impl Rule {
    pub fn for_buffer(option: LayoutRule, kind: BufferKind) -> Rule {
        match (option, kind) {
            (LayoutRule::Relaxed, BufferKind::Uniform) => Rule::RelaxedStd140,
            (LayoutRule::Relaxed, BufferKind::Storage) => Rule::RelaxedStd430,
            (LayoutRule::Gl, BufferKind::Uniform) => Rule::Std140,
            (LayoutRule::Gl, BufferKind::Storage) => Rule::Std430,
            (LayoutRule::Dx, BufferKind::Uniform) => Rule::FxcCBuffer,
            (LayoutRule::Dx, BufferKind::Storage) => Rule::FxcSBuffer,
            (LayoutRule::Scalar, _) => Rule::Scalar,
        }
    }
    fn is_std140(self) -> bool {
        matches!(self, Rule::RelaxedStd140 | Rule::Std140)
    }
    fn is_relaxed(self) -> bool {
        matches!(
            self,
            Rule::RelaxedStd140 | Rule::RelaxedStd430 | Rule::FxcCBuffer
        )
    }
    /// Rules that align everything to its components (no vector rounding).
    fn is_packed(self) -> bool {
        matches!(self, Rule::FxcSBuffer | Rule::Scalar)
    }
}

/// A type laid out in memory.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Laid {
    pub ty: ir::Handle<ir::Type>,
    pub size: u32,
    pub align: u32,
    /// For a matrix, or an array of matrices: its layout.
    pub matrix: Option<ir::MatrixLayout>,
}

/// One member of a block or struct being laid out.
#[derive(Clone, Debug)]
pub struct MemberSpec {
    pub name: Option<String>,
    pub ty: TyId,
    pub row_major: bool,
    pub precise: bool,
    /// An explicit byte offset (`packoffset`, `[[vk::offset]]`,
    /// `register(cN)` on `$Globals` members).
    pub offset: Option<u32>,
    /// Where the member is declared, for diagnosing a misaligned explicit
    /// offset.
    pub span: Option<Span>,
    /// `vk::ext_decorate*` on the member.
    pub decorations: Vec<ir::SpirvDecoration>,
}

/// Whether `ty` holds a column-major matrix of non-floating-point
/// components (`row_major` for `ty` itself): the arrays of rows these are
/// stored as cannot hold a column-major one, so buffers refuse them.
pub fn has_column_major_int_matrix(types: &Types, ty: TyId, row_major: bool) -> bool {
    match types.get(ty) {
        Ty::Matrix(s, r, c) => !s.is_float() && *r > 1 && *c > 1 && !row_major,
        Ty::Array(e, _) => has_column_major_int_matrix(types, *e, row_major),
        Ty::Struct(sid) => struct_members(types, types.struct_info(*sid))
            .iter()
            .any(|m| has_column_major_int_matrix(types, m.ty, m.row_major)),
        _ => false,
    }
}

/// The members a struct is laid out with: its base first, then its fields
/// (a run of bit-fields sharing one unit as that unit).
pub fn struct_members(types: &Types, info: &StructInfo) -> Vec<MemberSpec> {
    let mut members = Vec::new();
    if let Some(b) = info.base {
        members.push(MemberSpec {
            name: Some(types.name(b)),
            ty: b,
            row_major: false,
            precise: false,
            offset: None,
            span: None,
            decorations: Vec::new(),
        });
    }
    for f in info
        .fields
        .iter()
        .filter(|f| !f.bits.is_some_and(|b| b.shares))
    {
        members.push(MemberSpec {
            name: Some(f.name.to_string()),
            ty: f.ty,
            row_major: f.major.unwrap_or(false),
            precise: f.precise,
            // An `Offset` written with `vk::ext_decorate` places the
            // member as `[[vk::offset]]` does (written once, by the layout).
            offset: f.vk_offset.or(f.ext_offset()),
            span: Some(f.span),
            decorations: (f.type_decorations().into_iter())
                .filter(|d| d.decoration != spirv::Decoration::Offset as u32)
                .collect(),
        });
    }
    members
}

/// An explicit offset the layout rule does not allow.
#[derive(Clone, Debug)]
pub struct Misaligned {
    pub span: Span,
    pub offset: u32,
    pub align: u32,
    /// A vector crossing a 16-byte boundary it may not.
    pub straddles: bool,
}

/// The key of a laid-out type: the type, its rule, and whether its
/// matrices are row-major.
pub(super) type LayoutKey = (TyId, Rule, bool);

/// Caches laid-out types.
#[derive(Default)]
pub struct Layouts {
    cache: FxHashMap<LayoutKey, Laid>,
    /// Explicit offsets found misaligned, for sema to report.
    pub misaligned: Vec<Misaligned>,
    /// Members placed by an explicit offset over earlier members: (the
    /// member, the one it overlaps).
    pub overlaps: Vec<(Span, Option<Span>)>,
    /// The rule (and matrix order) of what device pointers point to: the
    /// rule of storage buffers, wherever the pointer itself lives.
    pub(super) device: (Rule, bool),
    /// The IR type of each `vk::BufferPointer` type.
    pub(super) pointers: FxHashMap<TyId, ir::Handle<ir::Type>>,
    /// The layouts being computed, each with the pointer types to it made
    /// meanwhile (a struct that holds pointers to its own kind): those
    /// stand in as placeholders, then become pointers to the finished
    /// type, with their alignments.
    pub(super) in_progress: FxHashMap<LayoutKey, Vec<(ir::Handle<ir::Type>, u32)>>,
}

fn round_up(x: u32, a: u32) -> u32 {
    if a <= 1 { x } else { x.div_ceil(a) * a }
}

/// `offset..offset+size` crosses a 16-byte boundary it may not
/// (Vulkan "improper straddle").
fn improper_straddle(size: u32, offset: u32) -> bool {
    if size <= 16 {
        offset / 16 != (offset + size.max(1) - 1) / 16
    } else {
        !offset.is_multiple_of(16)
    }
}

/// Bytes per component in memory (bool is stored as uint).
fn scalar_size(s: Sc) -> u32 {
    match s {
        Sc::Bool => 4,
        s => s.concrete().width() as u32,
    }
}

/// A scalar in memory: its own size and alignment.
fn scalar_laid(module: &mut ir::Module, s: Sc) -> Laid {
    let size = scalar_size(s);
    Laid {
        ty: module.scalar_type(memory_scalar(s)),
        size,
        align: size,
        matrix: None,
    }
}

/// The memory scalar: bool becomes uint.
fn memory_scalar(s: Sc) -> ir::Scalar {
    match s {
        Sc::Bool => ir::Scalar::U32,
        s => s.ir(),
    }
}

impl Layouts {
    /// Lays out `ty` under `rule`; `row_major` applies to matrices (and
    /// arrays of them).
    pub fn layout(
        &mut self,
        types: &mut Types,
        module: &mut ir::Module,
        ty: TyId,
        rule: Rule,
        row_major: bool,
    ) -> Laid {
        let key = (ty, rule, row_major);
        if let Some(l) = self.cache.get(&key) {
            return *l;
        }
        self.in_progress.insert(key, Vec::new());
        let laid = self.compute(types, module, ty, rule, row_major);
        let placeholders = self.in_progress.remove(&key).unwrap_or_default();
        self.finish_forward_pointers(module, laid.ty, placeholders);
        self.cache.insert(key, laid);
        laid
    }

    fn compute(
        &mut self,
        types: &mut Types,
        module: &mut ir::Module,
        ty: TyId,
        rule: Rule,
        row_major: bool,
    ) -> Laid {
        match types.get(ty).clone() {
            Ty::Scalar(s) => scalar_laid(module, s),
            Ty::Enum(e) => scalar_laid(module, types.enum_info(e).underlying),
            Ty::Vector(s, n) => self.vector(module, s, n, rule),
            Ty::Matrix(s, r, c) if r == 1 || c == 1 => {
                // A 1xN or Nx1 matrix is a vector in SPIR-V (and in memory).
                let mut l = self.vector(module, s, r.max(c), rule);
                l.ty = module.ty(ir::TypeInner::Matrix {
                    rows: r,
                    columns: c,
                    scalar: memory_scalar(s),
                });
                l
            }
            Ty::Matrix(s, r, c) if !s.is_float() => {
                // SPIR-V has no integer matrices: an array of row vectors
                // (DXC supports only row-major non-float matrices here).
                let row = self.vector(module, s, c, rule);
                let row_ty = types.vector(s, c);
                let _ = row_ty;
                let (align, stride) = if rule.is_packed() {
                    (row.align, row.size)
                } else if rule.is_std140() || rule == Rule::FxcCBuffer {
                    let a = round_up(
                        row.align
                            .max(scalar_size(s) * if c == 3 { 4 } else { c as u32 }),
                        16,
                    );
                    (a, a)
                } else {
                    let a = scalar_size(s) * if c == 3 { 4 } else { c as u32 };
                    (a, round_up(row.size, a))
                };
                let ty = module.ty(ir::TypeInner::Array {
                    base: row.ty,
                    size: ir::ArraySize::Constant(r as u32),
                    stride: Some(stride),
                });
                let size = if rule == Rule::FxcCBuffer {
                    stride * (r as u32 - 1) + row.size
                } else {
                    stride * r as u32
                };
                Laid {
                    ty,
                    size,
                    align,
                    matrix: None,
                }
            }
            Ty::Matrix(s, r, c) => {
                let ss = scalar_size(s);
                // HLSL rows are stored together when row-major.
                let (vec_len, vec_count) = if row_major {
                    (c as u32, r as u32)
                } else {
                    (r as u32, c as u32)
                };
                let mty = module.ty(ir::TypeInner::Matrix {
                    rows: r,
                    columns: c,
                    scalar: memory_scalar(s),
                });
                if rule.is_packed() {
                    let stride = vec_len * ss;
                    return Laid {
                        ty: mty,
                        size: stride * vec_count,
                        align: ss,
                        matrix: Some(ir::MatrixLayout { row_major, stride }),
                    };
                }
                let mut align = ss * if vec_len == 3 { 4 } else { vec_len };
                if rule.is_std140() || rule == Rule::FxcCBuffer {
                    align = round_up(align, 16);
                }
                let stride = align;
                let size = if rule == Rule::FxcCBuffer {
                    // fxc does not pad the last row/column.
                    stride * (vec_count - 1) + vec_len * ss
                } else {
                    stride * vec_count
                };
                Laid {
                    ty: mty,
                    size,
                    align,
                    matrix: Some(ir::MatrixLayout { row_major, stride }),
                }
            }
            Ty::Array(elem, n) => {
                let e = self.layout(types, module, elem, rule, row_major);
                // An array of empty structs still steps by its alignment: a
                // zero ArrayStride breaks the block layout rules (DXC gives
                // 16 for an empty struct in a cbuffer).
                let (align, stride, size);
                if rule.is_packed() {
                    align = e.align;
                    stride = e.size.max(e.align.max(1));
                    size = stride * n.unwrap_or(0);
                } else if rule == Rule::FxcCBuffer {
                    // Every element starts a new 16-byte register; the last
                    // is not padded.
                    align = 16;
                    stride = round_up(e.size, 16).max(16);
                    size = match n {
                        Some(0) | None => 0,
                        Some(n) => stride * (n - 1) + e.size,
                    };
                } else {
                    let a = if rule.is_std140() {
                        round_up(e.align, 16)
                    } else {
                        e.align
                    };
                    align = a;
                    stride = round_up(e.size, a).max(a.max(1));
                    size = stride * n.unwrap_or(0);
                }
                let ty = module.ty(ir::TypeInner::Array {
                    base: e.ty,
                    size: match n {
                        Some(n) => ir::ArraySize::Constant(n),
                        None => ir::ArraySize::Runtime,
                    },
                    stride: Some(stride),
                });
                Laid {
                    ty,
                    size,
                    align,
                    matrix: e.matrix,
                }
            }
            Ty::Struct(sid) => {
                let info = types.struct_info(sid).clone();
                let members = struct_members(types, &info);
                let laid =
                    self.structure(types, module, Some(info.display.clone()), &members, rule);
                let spans: Vec<Option<Span>> = members.iter().map(|m| m.span).collect();
                module.decl_spans.set_struct(laid.ty, info.span, &spans);
                laid
            }
            // A 64-bit address, whatever it points to.
            Ty::BufferPointer(..) => Laid {
                ty: self.pointer(types, module, ty),
                size: 8,
                align: 8,
                matrix: None,
            },
            // `vk::SpirvType` states its size and alignment.
            Ty::Spirv(t) if t.layout.is_some() => {
                let (size, align) = t.layout.unwrap_or_default();
                Laid {
                    ty: types.ir_type(module, self, ty),
                    size,
                    align,
                    matrix: None,
                }
            }
            // Opaque types have no layout; sema reports them before asking.
            _ => Laid {
                ty: module.scalar_type(ir::Scalar::U32),
                size: 4,
                align: 4,
                matrix: None,
            },
        }
    }

    fn vector(&mut self, module: &mut ir::Module, s: Sc, n: u8, rule: Rule) -> Laid {
        let ss = scalar_size(s);
        let align = if rule.is_packed() || rule == Rule::FxcCBuffer {
            ss
        } else {
            ss * if n == 3 { 4 } else { n as u32 }
        };
        Laid {
            ty: module.ty(ir::TypeInner::Vector {
                size: n,
                scalar: memory_scalar(s),
            }),
            size: ss * n as u32,
            align,
            matrix: None,
        }
    }

    /// Where a member goes after `offset` (the end of the previous one):
    /// its layout, offset and effective alignment.
    pub fn place_member(
        &mut self,
        types: &mut Types,
        module: &mut ir::Module,
        m: &MemberSpec,
        rule: Rule,
        mut offset: u32,
    ) -> (Laid, u32, u32) {
        let l = self.layout(types, module, m.ty, rule, m.row_major);
        let mut align = l.align;
        let is_vector = matches!(types.get(m.ty), Ty::Vector(..))
            || matches!(types.get(m.ty), Ty::Matrix(_, r, c) if *r == 1 || *c == 1);
        if let Some(o) = m.offset {
            offset = o;
            // Vulkan "Offset and Stride Assignment": relaxed vectors need
            // their component alignment and no improper straddle; all else
            // its full alignment.
            let mut straddles = false;
            let (need, ok) = if rule.is_relaxed() && is_vector {
                let comp = types.component(m.ty).map_or(4, scalar_size);
                straddles = improper_straddle(l.size, o);
                (comp, o.is_multiple_of(comp) && !straddles)
            } else {
                let need = if rule == Rule::FxcCBuffer && matches!(types.get(m.ty), Ty::Struct(_)) {
                    align.max(16)
                } else {
                    align
                };
                (need, o.is_multiple_of(need.max(1)))
            };
            if !ok && let Some(span) = m.span {
                self.misaligned.push(Misaligned {
                    span,
                    offset: o,
                    align: need,
                    straddles,
                });
            }
        } else if rule.is_relaxed() && is_vector {
            let comp = types.component(m.ty).map_or(4, scalar_size);
            if comp <= 4 {
                align = comp;
            }
            offset = round_up(offset, align);
            if improper_straddle(l.size, offset) {
                align = 16;
                offset = round_up(offset, 16);
            }
        } else {
            if rule == Rule::FxcCBuffer && matches!(types.get(m.ty), Ty::Struct(_)) {
                align = align.max(16);
            }
            offset = round_up(offset, align);
        }
        (l, offset, align)
    }

    /// Lays out a struct (or block) with the given members.
    pub fn structure(
        &mut self,
        types: &mut Types,
        module: &mut ir::Module,
        name: Option<String>,
        members: &[MemberSpec],
        rule: Rule,
    ) -> Laid {
        let mut offset = 0u32;
        let mut max_align = 1u32;
        let mut out = Vec::with_capacity(members.len());
        // Byte ranges taken so far, for explicit offsets that overlap.
        let mut taken: Vec<(u32, u32, Option<Span>)> = Vec::new();
        for m in members {
            let (l, off, align) = self.place_member(types, module, m, rule, offset);
            offset = off;
            let end = off + l.size.max(1);
            if m.offset.is_some()
                && let Some(span) = m.span
                && let Some(&(_, _, prev)) = taken.iter().find(|&&(s, e, _)| off < e && s < end)
            {
                self.overlaps.push((span, prev));
            }
            taken.push((off, end, m.span));
            max_align = max_align.max(l.align.max(align));
            out.push(ir::StructMember {
                name: m.name.clone(),
                ty: l.ty,
                offset: Some(offset),
                matrix_layout: l.matrix,
                precise: m.precise,
                binding: None,
                decorations: m.decorations.clone(),
            });
            offset += l.size;
        }
        if rule.is_std140() || rule == Rule::FxcCBuffer {
            max_align = round_up(max_align, 16);
        }
        let size = if rule == Rule::FxcCBuffer {
            offset
        } else {
            round_up(offset, max_align)
        };
        let ty = module.types.insert(ir::Type {
            name,
            inner: ir::TypeInner::Struct { members: out, size },
        });
        Laid {
            ty,
            size,
            align: max_align,
            matrix: None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::intern::Symbol;
    use crate::sema::types::{Field, StructInfo};
    use crate::span::Span;

    fn field(name: &str, ty: TyId, major: bool) -> Field {
        Field {
            major: Some(major),
            ..Field::plain(0, Symbol::intern(name), ty, Span::default())
        }
    }

    fn mk_struct(t: &mut Types, name: &str, fields: Vec<Field>) -> TyId {
        t.add_struct(StructInfo::global(name, fields, Span::default()))
    }

    /// The struct from SPIR-V.rst's layout table, with one column per rule.
    fn offsets(rule: Rule) -> Vec<u32> {
        let mut t = Types::new();
        let mut m = ir::Module::default();
        let f3 = t.vector(Sc::F32, 3);
        let f2 = t.vector(Sc::F32, 2);
        let m23 = t.matrix(Sc::F32, 2, 3);
        let i3 = t.array(crate::sema::types::INT, Some(3));
        let f2_2 = t.array(f2, Some(2));
        let s = mk_struct(&mut t, "S", vec![field("f", f3, false)]);
        let tt = mk_struct(
            &mut t,
            "T",
            vec![
                field("a", crate::sema::types::FLOAT, false),
                field("b", f3, false),
                field("c", s, false),
                field("d", m23, false),
                field("e", m23, true),
                field("f", i3, false),
                field("g", f2_2, false),
            ],
        );
        let mut l = Layouts::default();
        let laid = l.layout(&mut t, &mut m, tt, rule, false);
        match &m.types[laid.ty].inner {
            ir::TypeInner::Struct { members, .. } => {
                members.iter().map(|m| m.offset.unwrap()).collect()
            }
            _ => unreachable!(),
        }
    }

    #[test]
    fn uniform_buffer_offsets_match_dxc() {
        assert_eq!(
            offsets(Rule::RelaxedStd140),
            vec![0, 4, 16, 32, 80, 112, 160]
        );
        assert_eq!(offsets(Rule::FxcCBuffer), vec![0, 4, 16, 32, 80, 112, 160]);
        assert_eq!(offsets(Rule::Std140), vec![0, 16, 32, 48, 96, 128, 176]);
        assert_eq!(offsets(Rule::Scalar), vec![0, 4, 16, 28, 52, 76, 88]);
    }

    #[test]
    fn storage_buffer_offsets_match_dxc() {
        assert_eq!(
            offsets(Rule::RelaxedStd430),
            vec![0, 4, 16, 32, 64, 96, 112]
        );
        assert_eq!(offsets(Rule::FxcSBuffer), vec![0, 4, 16, 28, 52, 76, 88]);
        assert_eq!(offsets(Rule::Std430), vec![0, 16, 32, 48, 80, 112, 128]);
    }

    #[test]
    fn fxc_matrices_and_arrays_are_not_padded_at_the_end() {
        let mut t = Types::new();
        let mut m = ir::Module::default();
        let m23 = t.matrix(Sc::F32, 2, 3);
        let mut l = Layouts::default();
        let col = l.layout(&mut t, &mut m, m23, Rule::FxcCBuffer, false);
        assert_eq!((col.size, col.align), (40, 16));
        let row = l.layout(&mut t, &mut m, m23, Rule::FxcCBuffer, true);
        assert_eq!(row.size, 28);
        let ia = t.array(crate::sema::types::INT, Some(3));
        let a = l.layout(&mut t, &mut m, ia, Rule::FxcCBuffer, false);
        assert_eq!(a.size, 36);
    }

    #[test]
    fn runtime_array_strides() {
        let mut t = Types::new();
        let mut m = ir::Module::default();
        let u3 = t.vector(Sc::U32, 3);
        let ra = t.array(u3, None);
        let mut l = Layouts::default();
        for (rule, stride) in [
            (Rule::RelaxedStd430, 16),
            (Rule::Scalar, 12),
            (Rule::FxcSBuffer, 12),
        ] {
            let laid = l.layout(&mut t, &mut m, ra, rule, false);
            match m.types[laid.ty].inner {
                ir::TypeInner::Array { stride: s, .. } => assert_eq!(s, Some(stride)),
                _ => unreachable!(),
            }
        }
    }
}
