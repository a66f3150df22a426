//! Assignments into mesh outputs: `verts[i].field = v`, a swizzle or a
//! compound assignment of an element, stores straight into the output
//! variable of that field (or, under SPV_NV_mesh_shader, into the flat
//! index array), through a temporary written back after the assignment.

use super::arrayed::VertexIo;
use crate::diag::codes;
use crate::front::ast;
use crate::intern::Symbol;
use crate::ir;
use crate::ir::Stage;
use crate::sema::body::FnCtx;
use crate::sema::body::place::{Place, Val};
use crate::sema::types::{self, TyId};
use crate::span::Span;

/// Where an assignment into a mesh output goes.
pub(super) enum MeshLhs {
    /// The whole array (not assignable), and its variables.
    Root(Span, VertexIo),
    /// Element `index` of the variables in `node`.
    Part {
        node: VertexIo,
        index: ir::Handle<ir::Expression>,
    },
    /// An ordinary place (inside one output variable's element, or a
    /// temporary written back).
    Val(Val),
    /// SPV_NV_mesh_shader's flat index array (the whole of it, not
    /// assignable).
    FlatRoot(Span, FlatIndices),
    /// Some components of one primitive's indices in the flat array.
    Flat(FlatPart),
}

/// `PrimitiveIndicesNV`: `stride` indices per primitive in one `uint`
/// array.
#[derive(Clone, Copy)]
pub(super) struct FlatIndices {
    pub(super) g: ir::Handle<ir::GlobalVariable>,
    pub(super) stride: u32,
}

/// Components `comps` (of `0..stride`) of primitive `index`'s indices.
#[derive(Clone)]
pub(super) struct FlatPart {
    pub(super) at: FlatIndices,
    pub(super) index: ir::Handle<ir::Expression>,
    pub(super) comps: Vec<u32>,
}

/// Where a [`WriteBack`] stores: element `index` of `node`, or components
/// of the flat index array.
pub(super) enum BackTo {
    Io {
        node: VertexIo,
        index: ir::Handle<ir::Expression>,
    },
    Flat(FlatPart),
}

/// A temporary standing for a mesh output element (or some of its
/// components), stored back after the assignment.
pub(super) struct WriteBack {
    pub(super) to: BackTo,
    pub(super) tmp: ir::Handle<ir::Expression>,
    pub(super) ty: TyId,
}

impl<'s, 'a> FnCtx<'s, 'a> {
    /// An assignment whose target is inside a mesh output array: stores
    /// into the output variables. `None` when the target is something else.
    pub(in crate::sema) fn mesh_assign(
        &mut self,
        op: Option<ast::BinaryOp>,
        l: &'a ast::Expr,
        r: &'a ast::Expr,
        span: Span,
    ) -> Option<Val> {
        if self.s.stage != Stage::Mesh || self.s.entry.mesh.outputs.is_empty() {
            return None;
        }
        let mut backs = Vec::new();
        let lhs = self.mesh_lhs(l, &mut backs)?;
        let result = match lhs {
            None => {
                let _ = self.expr(r);
                Val::error()
            }
            Some(MeshLhs::Root(rspan, _) | MeshLhs::FlatRoot(rspan, _)) => self.error(
                codes::NOT_ASSIGNABLE,
                "a mesh output array is written element by element",
                rspan,
                "assign to `name[i]` or its fields",
            ),
            Some(MeshLhs::Flat(part)) if op.is_none() => {
                let ty = self.flat_ty(&part);
                let v = self.expr_as(r, ty);
                match self.value(&v) {
                    Some(h) => {
                        self.store_flat(&part, h);
                        Val::expr(ty, h)
                    }
                    None => Val::error(),
                }
            }
            Some(MeshLhs::Flat(part)) => {
                let v = self.flat_write_back(part, &mut backs);
                self.assign_to(op, v, l.span, r, span)
            }
            Some(MeshLhs::Part { node, index }) if op.is_none() => {
                let ty = node_ty(&node);
                let v = self.expr_as(r, ty);
                match self.value(&v) {
                    Some(h) => {
                        self.store_vertex_io_at(&node, h, index, span);
                        Val::expr(ty, h)
                    }
                    None => Val::error(),
                }
            }
            Some(MeshLhs::Part { node, index }) => {
                let v = self.write_back_place(node, index, &mut backs);
                self.assign_to(op, v, l.span, r, span)
            }
            Some(MeshLhs::Val(v)) => self.assign_to(op, v, l.span, r, span),
        };
        for b in backs.into_iter().rev() {
            let it = self.s.ir_ty(b.ty);
            let v = self.add(ir::Expression::Load { pointer: b.tmp }, it);
            match b.to {
                BackTo::Io { node, index } => self.store_vertex_io_at(&node, v, index, span),
                BackTo::Flat(part) => self.store_flat(&part, v),
            }
        }
        Some(result)
    }

    /// Resolves the target of an assignment: `None` when it is not in a
    /// mesh output, `Some(None)` after an error.
    fn mesh_lhs(
        &mut self,
        e: &'a ast::Expr,
        backs: &mut Vec<WriteBack>,
    ) -> Option<Option<MeshLhs>> {
        match &e.kind {
            ast::ExprKind::Name(path) => {
                let out = self.mesh_output_named(path)?;
                Some(Some(match out.flat {
                    Some((g, stride)) => MeshLhs::FlatRoot(e.span, FlatIndices { g, stride }),
                    None => MeshLhs::Root(e.span, out.tree),
                }))
            }
            ast::ExprKind::Index(b, i) => {
                let base = self.mesh_lhs(b, backs)?;
                Some(base.and_then(|base| self.mesh_index(base, i, e.span, backs)))
            }
            ast::ExprKind::Member(b, id) => {
                let base = self.mesh_lhs(b, backs)?;
                Some(base.and_then(|base| self.mesh_member(base, *id, e.span, backs)))
            }
            _ => None,
        }
    }

    fn mesh_index(
        &mut self,
        base: MeshLhs,
        i: &'a ast::Expr,
        span: Span,
        backs: &mut Vec<WriteBack>,
    ) -> Option<MeshLhs> {
        let out = match base {
            MeshLhs::Root(_, node) => {
                let iv = self.expr(i);
                let index = self.index_value(iv, i.span)?;
                return Some(MeshLhs::Part { node, index });
            }
            MeshLhs::Part { node, index } => self.write_back_place(node, index, backs),
            MeshLhs::Val(v) => v,
            MeshLhs::FlatRoot(_, at) => {
                let iv = self.expr_as(i, types::UINT);
                let index = self.value(&iv)?;
                return Some(MeshLhs::Flat(FlatPart {
                    at,
                    index,
                    comps: (0..at.stride).collect(),
                }));
            }
            MeshLhs::Flat(part) => return self.flat_component(part, i, span).map(MeshLhs::Val),
        };
        let iv = self.expr(i);
        Some(MeshLhs::Val(self.index_val(out, iv, i.span, span)))
    }

    fn mesh_member(
        &mut self,
        base: MeshLhs,
        id: ast::Ident,
        span: Span,
        backs: &mut Vec<WriteBack>,
    ) -> Option<MeshLhs> {
        let v = match base {
            MeshLhs::Root(rspan, _) | MeshLhs::FlatRoot(rspan, _) => {
                self.error(
                    codes::NOT_ASSIGNABLE,
                    "a mesh output array is written element by element",
                    rspan,
                    "index it first",
                );
                return None;
            }
            MeshLhs::Part {
                node: VertexIo::Struct { ty, parts },
                index,
            } => {
                if let Some(k) = self.struct_part_index(ty, id.name) {
                    let node = parts.get(k)?.clone();
                    return Some(MeshLhs::Part { node, index });
                }
                self.write_back_place(VertexIo::Struct { ty, parts }, index, backs)
            }
            MeshLhs::Part { node, index } => self.write_back_place(node, index, backs),
            MeshLhs::Val(v) => v,
            MeshLhs::Flat(part) => return self.flat_swizzle(part, id, span),
        };
        Some(MeshLhs::Val(self.member(v, id, span)))
    }

    /// The position of field `name` among the parts of a struct's
    /// variables (the base first, then the fields that are not shared
    /// bit-field units).
    fn struct_part_index(&self, ty: TyId, name: Symbol) -> Option<usize> {
        let sid = self.s.types.as_struct(ty)?;
        let info = self.s.types.struct_info(sid);
        let first = usize::from(info.base.is_some());
        info.fields
            .iter()
            .filter(|f| !f.bits.is_some_and(|b| b.shares))
            .position(|f| f.name == name)
            .map(|k| k + first)
    }

    /// A place for element `index` of `node`: into the output variable
    /// itself when it holds the HLSL type, else a temporary loaded from
    /// the outputs and stored back after the assignment.
    fn write_back_place(
        &mut self,
        node: VertexIo,
        index: ir::Handle<ir::Expression>,
        backs: &mut Vec<WriteBack>,
    ) -> Val {
        if let VertexIo::Var { g, ty, var_ty } = node
            && ty == var_ty
        {
            let mem = self.s.ir_ty(ty);
            let gt = self.s.module.globals[g].ty;
            let gpty = self.ptr_type(gt, ir::AddressSpace::Output);
            let epty = self.ptr_type(mem, ir::AddressSpace::Output);
            let base = self.add(ir::Expression::GlobalVariable(g), gpty);
            let ptr = self.add(ir::Expression::Access { base, index }, epty);
            return Val::place(
                ty,
                Place::Ptr {
                    ptr,
                    mem,
                    space: ir::AddressSpace::Output,
                },
                None,
            );
        }
        let ty = node_ty(&node);
        let (tmp, it) = self.temp(ty);
        if let Some(v) = self.load_vertex_io_at(&node, index) {
            self.stmt(ir::Statement::Store {
                pointer: tmp,
                value: v,
            });
        }
        backs.push(WriteBack {
            to: BackTo::Io { node, index },
            tmp,
            ty,
        });
        Val::place(ty, Place::function(tmp, it), None)
    }

    /// Loads element `index` of the variables in `node` as its HLSL type.
    fn load_vertex_io_at(
        &mut self,
        node: &VertexIo,
        index: ir::Handle<ir::Expression>,
    ) -> Option<ir::Handle<ir::Expression>> {
        match node {
            VertexIo::Var { g, ty, var_ty } => {
                let gt = self.s.module.globals[*g].ty;
                let gpty = self.ptr_type(gt, ir::AddressSpace::Output);
                let et = self.s.ir_ty(*var_ty);
                let epty = self.ptr_type(et, ir::AddressSpace::Output);
                let base = self.add(ir::Expression::GlobalVariable(*g), gpty);
                let p = self.add(ir::Expression::Access { base, index }, epty);
                let v = self.add(ir::Expression::Load { pointer: p }, et);
                let c = self.cast(Val::expr(*var_ty, v), *ty, Span::default());
                self.value(&c)
            }
            VertexIo::Distance {
                g,
                ty,
                size,
                offset,
                count,
            } => {
                let gt = self.s.module.globals[*g].ty;
                let gpty = self.ptr_type(gt, ir::AddressSpace::Output);
                let one = self.s.types.array(types::FLOAT, Some(*size));
                let one_it = self.s.ir_ty(one);
                let opty = self.ptr_type(one_it, ir::AddressSpace::Output);
                let ft = self.s.ir_ty(types::FLOAT);
                let fpty = self.ptr_type(ft, ir::AddressSpace::Output);
                let base = self.add(ir::Expression::GlobalVariable(*g), gpty);
                let vert = self.add(ir::Expression::Access { base, index }, opty);
                let mut comps = Vec::new();
                for j in 0..*count {
                    let p = self.add(
                        ir::Expression::AccessIndex {
                            base: vert,
                            index: offset + j,
                        },
                        fpty,
                    );
                    comps.push(self.add(ir::Expression::Load { pointer: p }, ft));
                }
                Some(if comps.len() == 1 {
                    comps[0]
                } else {
                    self.compose(*ty, comps)
                })
            }
            // A whole struct is assigned whole: nothing to load.
            VertexIo::Struct { .. } => None,
        }
    }
}

/// The HLSL type of the value `node` holds per element.
fn node_ty(node: &VertexIo) -> TyId {
    match node {
        VertexIo::Var { ty, .. } | VertexIo::Struct { ty, .. } | VertexIo::Distance { ty, .. } => {
            *ty
        }
    }
}
