//! SPV_NV_mesh_shader, the mesh pipeline before SPV_EXT_mesh_shader
//! (SPIR-V.rst, "Mesh and Amplification Shaders"): chosen when
//! `-fspv-extension=SPV_NV_mesh_shader` asks for it, or when the target's
//! SPIR-V is older than the 1.4 that the EXT extension needs.
//!
//! What differs from the EXT mapping:
//! - the indices are one flat `uint` array (`PrimitiveIndicesNV`), the
//!   vertex indices of primitive `i` at `i * n .. i * n + n`;
//! - `SetMeshOutputCounts(v, p)` stores `p` into `PrimitiveCountNV`;
//! - the payload is not a variable of its own: `DispatchMesh` copies each
//!   member of the groupshared struct into a `PerTaskNV` output at the
//!   member's offset, and stores `x * y * z` into `TaskCountNV`; the mesh
//!   shader's `in payload` reads the same members as `PerTaskNV` inputs.

use super::mesh_store::{BackTo, FlatPart, MeshLhs, WriteBack};
use crate::diag::codes;
use crate::front::ast;
use crate::ir;
use crate::sema::Sema;
use crate::sema::body::FnCtx;
use crate::sema::body::place::{Place, Val, ValKind};
use crate::sema::types::consteval::ConstVal;
use crate::sema::types::layout::{self, Rule};
use crate::sema::types::{self, Sc, TyId};
use crate::span::Span;
use spirv::BuiltIn;

impl Sema<'_> {
    /// Whether mesh and amplification shaders compile to
    /// SPV_NV_mesh_shader: when `-fspv-extension` allows it but not
    /// SPV_EXT_mesh_shader, or when the target is below SPIR-V 1.4 and
    /// SPV_EXT_mesh_shader is not asked for by name (as DXC chooses).
    pub(in crate::sema) fn nv_mesh(&self) -> bool {
        let allows = |e: &str| self.opts.allowed_extensions.iter().any(|x| x == e);
        if allows("SPV_EXT_mesh_shader") {
            return false;
        }
        allows("SPV_NV_mesh_shader") || self.opts.target_env.spirv_version() < (1, 4)
    }

    /// The `PerTaskNV` variables of payload struct `ty` in `space`: one per
    /// member (base first), at the member's std430 offset; made once per
    /// space and shared by every use.
    fn per_task_vars(
        &mut self,
        ty: TyId,
        space: ir::AddressSpace,
    ) -> Vec<(TyId, ir::Handle<ir::GlobalVariable>)> {
        let Some(sid) = self.types.as_struct(ty) else {
            return Vec::new();
        };
        let members = layout::struct_members(&self.types, self.types.struct_info(sid));
        let prefix = if space == ir::AddressSpace::Input {
            "in.var."
        } else {
            "out.var."
        };
        let mut out = Vec::with_capacity(members.len());
        let mut offset = 0;
        for m in &members {
            let (laid, at, _) = self.layouts.place_member(
                &mut self.types,
                &mut self.module,
                m,
                Rule::Std430,
                offset,
            );
            offset = at + laid.size;
            let binding = Some(ir::Binding::PerTask { offset: at });
            let existing = self
                .module
                .globals
                .iter()
                .find(|(_, g)| g.io == binding && g.space == space)
                .map(|(h, _)| h);
            let g = match existing {
                Some(g) => g,
                None => {
                    let it = self.ir_ty(m.ty);
                    let name = format!("{prefix}{}", m.name.as_deref().unwrap_or("member"));
                    let g = ir::build::add_global(&mut self.module, &name, space, it);
                    self.module.globals[g].io = binding;
                    g
                }
            };
            out.push((m.ty, g));
        }
        out
    }
}

impl<'s, 'a> FnCtx<'s, 'a> {
    /// A mesh shader's `in payload`: the members' `PerTaskNV` inputs,
    /// composed into the struct.
    pub(super) fn nv_payload_input(&mut self, ty: TyId) -> Option<ir::Handle<ir::Expression>> {
        let vars = self.s.per_task_vars(ty, ir::AddressSpace::Input);
        let mut members = Vec::with_capacity(vars.len());
        for (_, g) in vars {
            let it = self.s.module.globals[g].ty;
            let pty = self.ptr_type(it, ir::AddressSpace::Input);
            let p = self.add(ir::Expression::GlobalVariable(g), pty);
            members.push(self.add(ir::Expression::Load { pointer: p }, it));
        }
        Some(self.compose(ty, members))
    }

    /// `SetMeshOutputCounts(v, p)`: the primitive count goes to
    /// `PrimitiveCountNV`; NV mesh shaders have no vertex count.
    pub(super) fn nv_set_mesh_outputs(&mut self, primitives: ir::Handle<ir::Expression>) {
        self.store_builtin_output(BuiltIn::PrimitiveCountNV, "gl_PrimitiveCountNV", primitives);
    }

    /// `DispatchMesh(x, y, z, payload)` after its barrier: the payload's
    /// members into their `PerTaskNV` outputs, `x * y * z` into
    /// `TaskCountNV`, and the end of the invocation, which the EXT
    /// instruction is too.
    pub(super) fn nv_dispatch_mesh(
        &mut self,
        [x, y, z]: [ir::Handle<ir::Expression>; 3],
        payload: ir::Handle<ir::Expression>,
        ty: TyId,
    ) {
        let it = self.s.ir_ty(ty);
        let whole = self.add(ir::Expression::Load { pointer: payload }, it);
        let vars = self.s.per_task_vars(ty, ir::AddressSpace::Output);
        for (k, (_, g)) in vars.into_iter().enumerate() {
            let mt = self.s.module.globals[g].ty;
            let v = self.add(
                ir::Expression::AccessIndex {
                    base: whole,
                    index: k as u32,
                },
                mt,
            );
            let pty = self.ptr_type(mt, ir::AddressSpace::Output);
            let p = self.add(ir::Expression::GlobalVariable(g), pty);
            self.stmt(ir::Statement::Store {
                pointer: p,
                value: v,
            });
        }
        let yz = self.uint_op(ir::BinaryOperator::Multiply, y, z);
        let count = self.uint_op(ir::BinaryOperator::Multiply, x, yz);
        self.store_builtin_output(BuiltIn::TaskCountNV, "gl_TaskCountNV", count);
        self.stmt(ir::Statement::Return { value: None });
    }

    /// Stores a `uint` into the Output built-in `b` (one variable per
    /// built-in).
    fn store_builtin_output(&mut self, b: BuiltIn, name: &str, value: ir::Handle<ir::Expression>) {
        let g = self.s.builtin_output(b, name, types::UINT);
        let ut = self.s.ir_ty(types::UINT);
        let pty = self.ptr_type(ut, ir::AddressSpace::Output);
        let p = self.add(ir::Expression::GlobalVariable(g), pty);
        self.stmt(ir::Statement::Store { pointer: p, value });
    }

    /// `left op right` on `uint`s.
    fn uint_op(
        &mut self,
        op: ir::BinaryOperator,
        left: ir::Handle<ir::Expression>,
        right: ir::Handle<ir::Expression>,
    ) -> ir::Handle<ir::Expression> {
        let ut = self.s.ir_ty(types::UINT);
        self.add(
            ir::Expression::Binary {
                op,
                left,
                right,
                precise: false,
            },
            ut,
        )
    }

    // --- the flat index array --------------------------------------------

    /// The HLSL type of the components `part` names: `uint` or `uintN`.
    pub(super) fn flat_ty(&mut self, part: &FlatPart) -> TyId {
        match part.comps.len() {
            1 => types::UINT,
            n => self.s.types.vector(Sc::U32, n as u8),
        }
    }

    /// A pointer to index `slot` of primitive `part.index`: element
    /// `index * stride + slot` of the flat array.
    fn flat_ptr(
        &mut self,
        part: &FlatPart,
        slot: ir::Handle<ir::Expression>,
    ) -> ir::Handle<ir::Expression> {
        let stride = self.u32_lit(part.at.stride);
        let first = self.uint_op(ir::BinaryOperator::Multiply, part.index, stride);
        let at = self.uint_op(ir::BinaryOperator::Add, first, slot);
        let gt = self.s.module.globals[part.at.g].ty;
        let gpty = self.ptr_type(gt, ir::AddressSpace::Output);
        let ut = self.s.ir_ty(types::UINT);
        let upty = self.ptr_type(ut, ir::AddressSpace::Output);
        let base = self.add(ir::Expression::GlobalVariable(part.at.g), gpty);
        self.add(ir::Expression::Access { base, index: at }, upty)
    }

    /// A `uint` place at index `slot` of primitive `part.index`.
    fn flat_place(&mut self, part: &FlatPart, slot: ir::Handle<ir::Expression>) -> Val {
        let ptr = self.flat_ptr(part, slot);
        let mem = self.s.ir_ty(types::UINT);
        Val::place(
            types::UINT,
            Place::Ptr {
                ptr,
                mem,
                space: ir::AddressSpace::Output,
            },
            None,
        )
    }

    /// Stores `value` (of [`Self::flat_ty`]) into the components of `part`,
    /// one index at a time: threads may write different indices of one
    /// primitive.
    pub(super) fn store_flat(&mut self, part: &FlatPart, value: ir::Handle<ir::Expression>) {
        let ut = self.s.ir_ty(types::UINT);
        let n = part.comps.len();
        for (k, &c) in part.comps.iter().enumerate() {
            let v = if n == 1 {
                value
            } else {
                self.add(
                    ir::Expression::AccessIndex {
                        base: value,
                        index: k as u32,
                    },
                    ut,
                )
            };
            let slot = self.u32_lit(c);
            let p = self.flat_ptr(part, slot);
            self.stmt(ir::Statement::Store {
                pointer: p,
                value: v,
            });
        }
    }

    /// `tris[i][k]`: one index of a primitive (`k` of the components that
    /// `part` names, which must be all of them in order when `k` is not a
    /// constant).
    pub(super) fn flat_component(
        &mut self,
        part: FlatPart,
        i: &'a ast::Expr,
        span: Span,
    ) -> Option<Val> {
        let iv = self.expr_as(i, types::UINT);
        if iv.is_error() {
            return None;
        }
        let slot = match &iv.kind {
            ValKind::Const(k) => {
                let ConstVal::Int(c) = k.v else { return None };
                match usize::try_from(c).ok().and_then(|c| part.comps.get(c)) {
                    Some(&c) => self.u32_lit(c),
                    None => {
                        let t = self.flat_ty(&part);
                        let tn = self.s.ty_name(t);
                        self.s.error(
                            codes::NOT_INDEXABLE,
                            format!("index {c} is out of bounds for `{tn}`"),
                            i.span,
                            "out of bounds",
                        );
                        return None;
                    }
                }
            }
            _ if part.comps.iter().copied().eq(0..part.at.stride) => self.value(&iv)?,
            _ => {
                self.s.error(
                    codes::NOT_ASSIGNABLE,
                    "a swizzle of the mesh indices is indexed by a constant only",
                    span,
                    "use a constant index",
                );
                return None;
            }
        };
        Some(self.flat_place(&part, slot))
    }

    /// `tris[i].yz`: some indices of a primitive.
    pub(super) fn flat_swizzle(
        &mut self,
        part: FlatPart,
        id: ast::Ident,
        span: Span,
    ) -> Option<MeshLhs> {
        let picked = crate::sema::body::expr::parse_swizzle(id.name.as_str()).and_then(|sw| {
            sw.iter()
                .map(|&c| part.comps.get(usize::from(c)).copied())
                .collect::<Option<Vec<u32>>>()
        });
        let Some(comps) = picked else {
            let t = self.flat_ty(&part);
            let tn = self.s.ty_name(t);
            self.s.error(
                codes::NO_MEMBER,
                format!("`{tn}` has no component `{}`", id.name),
                id.span,
                "not a component of the indices",
            );
            return None;
        };
        if (1..comps.len()).any(|k| comps[..k].contains(&comps[k])) {
            self.s.error(
                codes::NOT_ASSIGNABLE,
                format!("the swizzle `{}` names a component twice", id.name),
                span,
                "each component once when assigned",
            );
            return None;
        }
        if let [c] = comps[..] {
            let slot = self.u32_lit(c);
            return Some(MeshLhs::Val(self.flat_place(&part, slot)));
        }
        Some(MeshLhs::Flat(FlatPart { comps, ..part }))
    }

    /// A temporary holding the components of `part`, stored back after a
    /// compound assignment.
    pub(super) fn flat_write_back(&mut self, part: FlatPart, backs: &mut Vec<WriteBack>) -> Val {
        let ty = self.flat_ty(&part);
        let ut = self.s.ir_ty(types::UINT);
        let mut comps = Vec::with_capacity(part.comps.len());
        for &c in &part.comps {
            let slot = self.u32_lit(c);
            let p = self.flat_ptr(&part, slot);
            comps.push(self.add(ir::Expression::Load { pointer: p }, ut));
        }
        let value = if let [one] = comps[..] {
            one
        } else {
            self.compose(ty, comps)
        };
        let (tmp, it) = self.temp(ty);
        self.stmt(ir::Statement::Store {
            pointer: tmp,
            value,
        });
        backs.push(WriteBack {
            to: BackTo::Flat(part),
            tmp,
            ty,
        });
        Val::place(ty, Place::function(tmp, it), None)
    }
}
