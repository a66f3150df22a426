//! Per-vertex arrays: the inputs of geometry, hull and domain shaders and
//! the control-point outputs of hull shaders hold one element per vertex
//! of the primitive or patch. Vulkan requires such variables to be arrays
//! ("Interface Matching"); DXC flattens a struct of them into one array
//! variable per field (SPIR-V.rst, "InputPatch and OutputPatch").

use super::VkLoc;
use super::io::Io;
use super::semantics::{IoDir, distance_semantic, system_value};
use crate::diag::{Diagnostic, codes};
use crate::intern::Symbol;
use crate::ir;
use crate::sema::body::FnCtx;
use crate::sema::body::place::Val;
use crate::sema::types::{self, Ty, TyId};
use crate::span::Span;

/// The variables behind a per-vertex value of HLSL type `ty`.
#[derive(Clone, Debug)]
pub(in crate::sema) enum VertexIo {
    /// One variable of type `var_ty[n]`, for a value of type `ty`.
    Var {
        g: ir::Handle<ir::GlobalVariable>,
        ty: TyId,
        var_ty: TyId,
    },
    /// A struct: its base (if any) then its fields, in IR member order.
    Struct { ty: TyId, parts: Vec<VertexIo> },
    /// `SV_ClipDistanceN`/`SV_CullDistanceN`: `count` floats from `offset`
    /// of each vertex's `ClipDistance`/`CullDistance` array (`g`, of type
    /// `float[size][n]`).
    Distance {
        g: ir::Handle<ir::GlobalVariable>,
        ty: TyId,
        size: u32,
        offset: u32,
        count: u32,
    },
}

impl VertexIo {
    fn ty(&self) -> TyId {
        match self {
            VertexIo::Var { ty, .. }
            | VertexIo::Struct { ty, .. }
            | VertexIo::Distance { ty, .. } => *ty,
        }
    }
}

/// The built-ins `[[vk::builtin("…")]]` names on a field of a per-vertex
/// (or per-primitive) output struct: the point size, and the viewport
/// mask of SPV_NV_viewport_array2.
fn arrayed_vk_builtin(name: &str, dir: IoDir) -> Option<spirv::BuiltIn> {
    match (name, dir) {
        ("PointSize", IoDir::Output) => Some(spirv::BuiltIn::PointSize),
        ("ViewportMaskNV", IoDir::Output) => Some(spirv::BuiltIn::ViewportMaskNV),
        _ => None,
    }
}

impl<'s, 'a> FnCtx<'s, 'a> {
    /// The variables for a per-vertex value of element type `ty`, `n`
    /// vertices: made on first use, shared by later uses of the same
    /// semantic (a hull shader's main function and its patch-constant
    /// function read the same input patch).
    pub(super) fn vertex_io(
        &mut self,
        io: &mut Io,
        dir: IoDir,
        ty: TyId,
        n: u32,
        sem: Option<(Symbol, Span)>,
        vk: VkLoc,
        name: &str,
        span: Span,
    ) -> Option<VertexIo> {
        let Some((sname, sspan)) = sem else {
            let Some(sid) = self.s.types.as_struct(ty) else {
                self.s.push(
                    Diagnostic::error(
                        codes::BAD_SEMANTIC,
                        format!("entry point parameter `{name}` has no semantic"),
                    )
                    .label(span, "needs a semantic such as `: POSITION`"),
                );
                return None;
            };
            let info = self.s.types.struct_info(sid).clone();
            let mut parts = Vec::new();
            if let Some(b) = info.base {
                parts.push(self.vertex_io(io, dir, b, n, None, VkLoc::default(), name, span)?);
            }
            for f in info
                .fields
                .iter()
                .filter(|f| !f.bits.is_some_and(|b| b.shares))
            {
                if f.bits.is_some() {
                    self.s
                        .unsupported("bit-fields in per-vertex stage variables", f.span);
                    return None;
                }
                let fname = format!("{name}.{}", f.name);
                if let Some(b) = f
                    .vk_builtin
                    .and_then(|b| arrayed_vk_builtin(b.as_str(), dir))
                {
                    parts.push(self.vertex_builtin(io, dir, b, f.ty, n));
                    continue;
                }
                let vk = VkLoc {
                    location: f.vk_location,
                    index: f.vk_index,
                    builtin: None,
                };
                parts.push(self.vertex_io(io, dir, f.ty, n, f.semantic, vk, &fname, f.span)?);
            }
            return Some(VertexIo::Struct { ty, parts });
        };
        let key = (dir, sname.as_str().to_ascii_uppercase());
        if let Some(v) = io.vertex_vars.get(&key) {
            if v.ty() != ty {
                self.s.push(
                    Diagnostic::error(
                        codes::SEMANTIC_TYPE,
                        format!(
                            "`{sname}` is `{}` here and `{}` elsewhere in the same {} shader",
                            self.s.ty_name(ty),
                            self.s.ty_name(v.ty()),
                            self.s.stage.name()
                        ),
                    )
                    .label(sspan, "the same stage variable"),
                );
                return None;
            }
            return Some(v.clone());
        }
        let space = match dir {
            IoDir::Input => ir::AddressSpace::Input,
            IoDir::Output => ir::AddressSpace::Output,
        };
        if let Some(d) = distance_semantic(sname.as_str()) {
            let v = self.vertex_distance(io, dir, ty, d, n, span)?;
            io.vertex_vars.insert(key, v.clone());
            return Some(v);
        }
        let (var_ty, binding, vname) = if let Some((b, vn, nat)) =
            system_value(self.s.stage, dir, sname.as_str())
        {
            if b == spirv::BuiltIn::CullPrimitiveEXT && self.s.nv_mesh() {
                self.s.push(
                        Diagnostic::error(
                            codes::BAD_SEMANTIC,
                            "`SV_CullPrimitive` needs SPV_EXT_mesh_shader; this mesh shader compiles to SPV_NV_mesh_shader",
                        )
                        .label(sspan, "no NV built-in for it")
                        .note("target SPIR-V 1.4 or later (e.g. -fspv-target-env=vulkan1.2) without -fspv-extension=SPV_NV_mesh_shader"),
                    );
                return None;
            }
            let nt = self.natural_type(nat);
            (nt, ir::Binding::BuiltIn(b), vn.to_string())
        } else if self.wrong_stage_semantic(sname, sspan, dir) {
            return None;
        } else {
            // User semantics, and system values without a built-in here,
            // which pass to the next stage as user semantics (DXC).
            let location = self.user_location(io, dir, ty, sname, vk, span, sspan);
            self.claim_location(io, dir, false, vk, location, ty, (sname, sspan));
            let var_ty = self.io_type(ty);
            let prefix = if dir == IoDir::Input { "in" } else { "out" };
            (
                var_ty,
                ir::Binding::Location {
                    location,
                    index: None,
                    interpolation: None,
                    sampling: None,
                    patch: false,
                },
                format!("{prefix}.var.{sname}"),
            )
        };
        let arr = self.s.types.array(var_ty, Some(n));
        let it = self.s.ir_ty(arr);
        let g = self.s.module.globals.append(ir::GlobalVariable {
            name: Some(vname),
            space,
            ty: it,
            init: None,
            binding: None,
            io: Some(binding),
            precise: false,
            invariant: false,
            semantic: Some(sname.to_string()),
            counter: None,
            user_type: None,
        });
        let v = VertexIo::Var { g, ty, var_ty };
        io.vertex_vars.insert(key, v.clone());
        Some(v)
    }

    /// A per-vertex clip or cull distance: its place in the stage's one
    /// `ClipDistance`/`CullDistance` array per vertex (SPIR-V.rst,
    /// "ClipDistance & CullDistance").
    fn vertex_distance(
        &mut self,
        io: &mut Io,
        dir: IoDir,
        ty: TyId,
        (cull, k): (bool, u32),
        n: u32,
        span: Span,
    ) -> Option<VertexIo> {
        let shape = self.s.distance_shape(ty, span)?;
        let (offsets, sizes) = match dir {
            IoDir::Input => (&io.in_distance_offsets, io.in_distance_sizes),
            IoDir::Output => (&io.distance_offsets, io.distance_sizes),
        };
        let offset = offsets
            .iter()
            .find(|&&(c, m, _)| c == cull && m == k)
            .map_or(0, |&(_, _, o)| o);
        let size = sizes[usize::from(cull)].max(offset + shape.count());
        let key = (
            dir,
            if cull {
                "gl_CullDistance"
            } else {
                "gl_ClipDistance"
            }
            .to_string(),
        );
        let g = match io.vertex_vars.get(&key) {
            Some(VertexIo::Distance { g, .. }) => *g,
            _ => {
                let one = self.s.types.array(types::FLOAT, Some(size));
                let arr = self.s.types.array(one, Some(n));
                let it = self.s.ir_ty(arr);
                let (b, vn) = if cull {
                    (spirv::BuiltIn::CullDistance, "gl_CullDistance")
                } else {
                    (spirv::BuiltIn::ClipDistance, "gl_ClipDistance")
                };
                let g = self.s.module.globals.append(ir::GlobalVariable {
                    name: Some(vn.into()),
                    space: match dir {
                        IoDir::Input => ir::AddressSpace::Input,
                        IoDir::Output => ir::AddressSpace::Output,
                    },
                    ty: it,
                    init: None,
                    binding: None,
                    io: Some(ir::Binding::BuiltIn(b)),
                    precise: false,
                    invariant: false,
                    semantic: None,
                    counter: None,
                    user_type: None,
                });
                io.vertex_vars.insert(
                    key,
                    VertexIo::Distance {
                        g,
                        ty,
                        size,
                        offset: 0,
                        count: 0,
                    },
                );
                g
            }
        };
        Some(VertexIo::Distance {
            g,
            ty,
            size,
            offset,
            count: shape.count(),
        })
    }

    /// The location of a user-semantic stage variable: fixed by
    /// `[[vk::location]]`, by the stage's sorted assignment (hull outputs
    /// and domain inputs), or the next free one.
    pub(super) fn user_location(
        &mut self,
        io: &mut Io,
        dir: IoDir,
        ty: TyId,
        sname: Symbol,
        vk: VkLoc,
        span: Span,
        sspan: Span,
    ) -> u32 {
        if vk.builtin.is_some() {
            // A built-in (`vk::ext_decorate`) takes no location.
            return 0;
        }
        if let Some(l) = vk.location {
            match dir {
                IoDir::Input => io.explicit_in.get_or_insert(span),
                IoDir::Output => io.explicit_out.get_or_insert(span),
            };
            return l;
        }
        let sorted = match dir {
            IoDir::Input => &io.sorted_in,
            IoDir::Output => &io.sorted_out,
        };
        if let Some(&l) = sorted.get(&sname.as_str().to_ascii_uppercase()) {
            return l;
        }
        let count = self.location_count(ty);
        match dir {
            IoDir::Input => {
                io.auto_in.get_or_insert(sspan);
                let l = io.next_in;
                io.next_in += count;
                l
            }
            IoDir::Output => {
                io.auto_out.get_or_insert(sspan);
                let l = io.next_out;
                io.next_out += count;
                l
            }
        }
    }

    /// A field bound by `[[vk::builtin]]`: built-in `b` of each of the `n`
    /// elements (the point size a `float`, whatever the field's type).
    fn vertex_builtin(
        &mut self,
        io: &mut Io,
        dir: IoDir,
        b: spirv::BuiltIn,
        ty: TyId,
        n: u32,
    ) -> VertexIo {
        let var_ty = if b == spirv::BuiltIn::PointSize {
            types::FLOAT
        } else {
            ty
        };
        let arr = self.s.types.array(var_ty, Some(n));
        let g = self.builtin_var(io, b, dir, &format!("gl_{b:?}"), arr);
        VertexIo::Var { g, ty, var_ty }
    }

    /// Loads a per-vertex value: an array of `n` elements of the tree's
    /// type.
    pub(super) fn load_vertex_io(
        &mut self,
        v: &VertexIo,
        n: u32,
        span: Span,
    ) -> Option<ir::Handle<ir::Expression>> {
        let arr_ty = self.s.types.array(v.ty(), Some(n));
        let arr_it = self.s.ir_ty(arr_ty);
        match v {
            VertexIo::Var { g, ty, var_ty } => {
                let space = self.s.module.globals[*g].space;
                let var_arr = self.s.types.array(*var_ty, Some(n));
                let vit = self.s.ir_ty(var_arr);
                let pty = self.ptr_type(vit, space);
                let p = self.add(ir::Expression::GlobalVariable(*g), pty);
                let whole = self.add(ir::Expression::Load { pointer: p }, vit);
                if var_ty == ty {
                    return Some(whole);
                }
                let et = self.s.ir_ty(*var_ty);
                let mut elems = Vec::new();
                for i in 0..n {
                    let e = self.add(
                        ir::Expression::AccessIndex {
                            base: whole,
                            index: i,
                        },
                        et,
                    );
                    let c = self.cast(Val::expr(*var_ty, e), *ty, span);
                    elems.push(self.value(&c)?);
                }
                Some(self.add(
                    ir::Expression::Compose {
                        ty: arr_it,
                        components: elems,
                    },
                    arr_it,
                ))
            }
            VertexIo::Distance {
                g,
                ty,
                size,
                offset,
                count,
            } => {
                let space = self.s.module.globals[*g].space;
                let gt = self.s.module.globals[*g].ty;
                let gpty = self.ptr_type(gt, space);
                let p = self.add(ir::Expression::GlobalVariable(*g), gpty);
                let whole = self.add(ir::Expression::Load { pointer: p }, gt);
                let one = self.s.types.array(types::FLOAT, Some(*size));
                let one_it = self.s.ir_ty(one);
                let ft = self.s.ir_ty(types::FLOAT);
                let shape = self.s.types.shape(*ty)?;
                let float_ty = self.s.types.with_shape(crate::sema::types::Sc::F32, shape);
                let fit = self.s.ir_ty(float_ty);
                let mut elems = Vec::new();
                for i in 0..n {
                    let vert = self.add(
                        ir::Expression::AccessIndex {
                            base: whole,
                            index: i,
                        },
                        one_it,
                    );
                    let mut comps = Vec::new();
                    for j in 0..*count {
                        comps.push(self.add(
                            ir::Expression::AccessIndex {
                                base: vert,
                                index: offset + j,
                            },
                            ft,
                        ));
                    }
                    let f = if *count == 1 {
                        comps[0]
                    } else {
                        self.add(
                            ir::Expression::Compose {
                                ty: fit,
                                components: comps,
                            },
                            fit,
                        )
                    };
                    let c = self.cast(Val::expr(float_ty, f), *ty, span);
                    elems.push(self.value(&c)?);
                }
                Some(self.add(
                    ir::Expression::Compose {
                        ty: arr_it,
                        components: elems,
                    },
                    arr_it,
                ))
            }
            VertexIo::Struct { ty, parts } => {
                let mut arrays = Vec::new();
                for p in parts {
                    arrays.push((self.load_vertex_io(p, n, span)?, p.ty()));
                }
                let st = self.s.ir_ty(*ty);
                let mut elems = Vec::new();
                for i in 0..n {
                    let mut comps = Vec::new();
                    for &(a, pt) in &arrays {
                        let pit = self.s.ir_ty(pt);
                        comps
                            .push(self.add(ir::Expression::AccessIndex { base: a, index: i }, pit));
                    }
                    elems.push(self.add(
                        ir::Expression::Compose {
                            ty: st,
                            components: comps,
                        },
                        st,
                    ));
                }
                Some(self.add(
                    ir::Expression::Compose {
                        ty: arr_it,
                        components: elems,
                    },
                    arr_it,
                ))
            }
        }
    }

    /// Stores `value` (of the tree's type) into element `index` of the
    /// per-vertex output variables.
    pub(super) fn store_vertex_io_at(
        &mut self,
        v: &VertexIo,
        value: ir::Handle<ir::Expression>,
        index: ir::Handle<ir::Expression>,
        span: Span,
    ) {
        match v {
            VertexIo::Var { g, ty, var_ty } => {
                let space = self.s.module.globals[*g].space;
                let c = self.cast(Val::expr(*ty, value), *var_ty, span);
                let Some(h) = self.value(&c) else { return };
                let var_arr = self.s.types.array(*var_ty, None);
                let _ = var_arr;
                let gt = self.s.module.globals[*g].ty;
                let gpty = self.ptr_type(gt, space);
                let et = self.s.ir_ty(*var_ty);
                let epty = self.ptr_type(et, space);
                let base = self.add(ir::Expression::GlobalVariable(*g), gpty);
                let p = self.add(ir::Expression::Access { base, index }, epty);
                self.stmt(ir::Statement::Store {
                    pointer: p,
                    value: h,
                });
            }
            VertexIo::Distance {
                g,
                ty,
                size,
                offset,
                count,
            } => {
                let space = self.s.module.globals[*g].space;
                let Some(shape) = self.s.types.shape(*ty) else {
                    return;
                };
                let float_ty = self.s.types.with_shape(crate::sema::types::Sc::F32, shape);
                let c = self.cast(Val::expr(*ty, value), float_ty, span);
                let Some(h) = self.value(&c) else { return };
                let gt = self.s.module.globals[*g].ty;
                let gpty = self.ptr_type(gt, space);
                let one = self.s.types.array(types::FLOAT, Some(*size));
                let one_it = self.s.ir_ty(one);
                let opty = self.ptr_type(one_it, space);
                let ft = self.s.ir_ty(types::FLOAT);
                let fpty = self.ptr_type(ft, space);
                let base = self.add(ir::Expression::GlobalVariable(*g), gpty);
                let vert = self.add(ir::Expression::Access { base, index }, opty);
                for j in 0..*count {
                    let comp = if *count == 1 {
                        h
                    } else {
                        self.add(ir::Expression::AccessIndex { base: h, index: j }, ft)
                    };
                    let p = self.add(
                        ir::Expression::AccessIndex {
                            base: vert,
                            index: offset + j,
                        },
                        fpty,
                    );
                    self.stmt(ir::Statement::Store {
                        pointer: p,
                        value: comp,
                    });
                }
            }
            VertexIo::Struct { parts, .. } => {
                for (i, p) in parts.iter().enumerate() {
                    let pit = self.s.ir_ty(p.ty());
                    let e = self.add(
                        ir::Expression::AccessIndex {
                            base: value,
                            index: i as u32,
                        },
                        pit,
                    );
                    self.store_vertex_io_at(p, e, index, span);
                }
            }
        }
    }
}

/// The user semantics (upper case) inside a value of type `ty` with
/// semantic `sem`, with the locations each takes.
pub(super) fn user_semantics(
    s: &crate::sema::Sema<'_>,
    ty: TyId,
    sem: Option<(Symbol, Span)>,
    out: &mut Vec<(String, u32)>,
) {
    match sem {
        Some((name, _)) => {
            let upper = name.as_str().to_ascii_uppercase();
            if !upper.starts_with("SV_") {
                out.push((upper, location_count(s, ty)));
            }
        }
        None => {
            if let Some(sid) = s.types.as_struct(ty) {
                let info = s.types.struct_info(sid);
                if let Some(b) = info.base {
                    user_semantics(s, b, None, out);
                }
                for f in &info.fields {
                    user_semantics(s, f.ty, f.semantic, out);
                }
            }
        }
    }
}

/// Locations a value of type `ty` takes: one per scalar or vector, but
/// two for a 64-bit vector of 3 or 4 components; one such per row of a
/// matrix and per array element; the sum over a struct's fields.
pub(super) fn location_count(s: &crate::sema::Sema<'_>, ty: TyId) -> u32 {
    let wide = |sc: types::Sc, n: u8| if sc.width() == 8 && n >= 3 { 2 } else { 1 };
    match *s.types.get(ty) {
        Ty::Vector(sc, n) => wide(sc, n),
        Ty::Matrix(sc, r, c) => r as u32 * wide(sc, c),
        Ty::Array(e, n) => location_count(s, e) * n.unwrap_or(1),
        Ty::Struct(sid) => {
            let info = s.types.struct_info(sid);
            info.base.map_or(0, |b| location_count(s, b))
                + info
                    .fields
                    .iter()
                    .map(|f| location_count(s, f.ty))
                    .sum::<u32>()
        }
        _ => 1,
    }
}
