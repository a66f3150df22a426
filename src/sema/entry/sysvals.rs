//! The system values of one stage or extension each (SPIR-V.rst, "HLSL
//! semantic and Vulkan `Location`"): barycentrics, view index, coverage,
//! shading rate, stencil reference, layer and viewport index read by pixel
//! shaders, clip and cull distances read by pixel shaders, the draw's start
//! vertex and instance. Each has its rule for the declared type, and
//! [`valid_in`] says where every system value may appear, for the
//! diagnostics of a semantic used in the wrong stage.

use super::io::Io;
use super::semantics::IoDir;
use crate::diag::{Diagnostic, codes};
use crate::intern::Symbol;
use crate::ir;
use crate::ir::Stage;
use crate::sema::body::FnCtx;
use crate::sema::body::place::Val;
use crate::sema::types::{self, Sc, Ty, TyId};
use crate::span::Span;
use spirv::BuiltIn as B;

/// The type of a built-in variable.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum VarTy {
    Uint,
    Int,
    Bool,
    Float3,
    /// `SampleMask`: an array of one `uint` (at most 32 samples).
    UintArray1,
}

/// What the declared HLSL type must be.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Rule {
    /// `uint`.
    Uint,
    /// `int` or `uint`.
    Int32,
    /// `float3`.
    Float3,
}

impl Rule {
    fn holds(self, ty: &Ty) -> bool {
        matches!(
            (self, ty),
            (Rule::Uint, Ty::Scalar(Sc::U32))
                | (Rule::Int32, Ty::Scalar(Sc::U32 | Sc::I32))
                | (Rule::Float3, Ty::Vector(Sc::F32, 3))
        )
    }

    fn expected(self) -> &'static str {
        match self {
            Rule::Uint => "a `uint`",
            Rule::Int32 => "an `int` or a `uint`",
            Rule::Float3 => "a `float3`",
        }
    }
}

/// One system value of this module in one stage and direction.
#[derive(Clone, Copy, Debug)]
struct SysVal {
    builtin: B,
    var_name: &'static str,
    var: VarTy,
    rule: Rule,
    /// Why the rule is what it is, for the note of a type error.
    why: &'static str,
}

/// The system value `sem` (lower case) in `stage` and `dir`, if it is one
/// of this module's. `noperspective` picks the barycentrics without
/// perspective correction.
fn lookup(stage: Stage, dir: IoDir, sem: &str, noperspective: bool) -> Option<SysVal> {
    use IoDir::{Input, Output};
    use Stage::*;
    let sv = |builtin, var_name, var, rule, why| SysVal {
        builtin,
        var_name,
        var,
        rule,
        why,
    };
    const INDEX: &str = "the index is a 32-bit integer";
    // D3D numbers the barycentrics 0 and 1 (one per interpolation mode).
    let sem = match sem.strip_prefix("sv_barycentrics") {
        Some("" | "0" | "1") => "sv_barycentrics",
        _ => sem,
    };
    Some(match (sem, stage, dir) {
        ("sv_barycentrics", Pixel, Input) => {
            let (b, n) = if noperspective {
                (B::BaryCoordNoPerspKHR, "gl_BaryCoordNoPerspEXT")
            } else {
                (B::BaryCoordKHR, "gl_BaryCoordEXT")
            };
            sv(
                b,
                n,
                VarTy::Float3,
                Rule::Float3,
                "the barycentrics are the weights of the primitive's three vertices",
            )
        }
        ("sv_viewid", Vertex | Hull | Domain | Geometry | Pixel | Mesh, Input) => sv(
            B::ViewIndex,
            "gl_ViewIndex",
            VarTy::Uint,
            Rule::Int32,
            "the view index is a 32-bit integer",
        ),
        ("sv_coverage", Pixel, _) => sv(
            B::SampleMask,
            "gl_SampleMask",
            VarTy::UintArray1,
            Rule::Uint,
            "the coverage is a mask of samples, one bit each",
        ),
        ("sv_innercoverage", Pixel, Input) => sv(
            B::FullyCoveredEXT,
            "gl_FragFullyCoveredNV",
            VarTy::Bool,
            Rule::Uint,
            "the inner coverage is 1 when the pixel is fully covered, else 0",
        ),
        ("sv_shadingrate", Pixel, Input) => sv(
            B::ShadingRateKHR,
            "gl_ShadingRateEXT",
            VarTy::Uint,
            Rule::Uint,
            "the shading rate is a `uint` of D3D12_SHADING_RATE bits",
        ),
        ("sv_shadingrate", Vertex | Geometry | Mesh, Output) => sv(
            B::PrimitiveShadingRateKHR,
            "gl_PrimitiveShadingRateEXT",
            VarTy::Uint,
            Rule::Uint,
            "the shading rate is a `uint` of D3D12_SHADING_RATE bits",
        ),
        ("sv_stencilref", Pixel, Output) => sv(
            B::FragStencilRefEXT,
            "gl_FragStencilRefARB",
            VarTy::Uint,
            Rule::Int32,
            "the stencil reference is a 32-bit integer",
        ),
        ("sv_rendertargetarrayindex", Pixel, Input)
        | ("sv_rendertargetarrayindex", Vertex, Output) => {
            sv(B::Layer, "gl_Layer", VarTy::Uint, Rule::Int32, INDEX)
        }
        ("sv_viewportarrayindex", Pixel, Input) | ("sv_viewportarrayindex", Vertex, Output) => sv(
            B::ViewportIndex,
            "gl_ViewportIndex",
            VarTy::Uint,
            Rule::Int32,
            INDEX,
        ),
        // DXC's mapping: the draw's `firstVertex` (`vertexOffset` for indexed
        // draws) and `firstInstance`.
        ("sv_startvertexlocation", Vertex, Input) => sv(
            B::BaseVertex,
            "gl_BaseVertex",
            VarTy::Int,
            Rule::Int32,
            "the start vertex location is a 32-bit integer",
        ),
        ("sv_startinstancelocation", Vertex, Input) => sv(
            B::BaseInstance,
            "gl_BaseInstance",
            VarTy::Int,
            Rule::Int32,
            "the start instance location is a 32-bit integer",
        ),
        _ => return None,
    })
}

/// Where a system value may appear, in prose ("an input of pixel
/// shaders"), for the system values hlslc knows; `None` for others.
pub(super) fn valid_in(sem: &str) -> Option<&'static str> {
    let s = sem.to_ascii_lowercase();
    let s = s.trim_end_matches(|c: char| c.is_ascii_digit());
    Some(match s {
        "sv_dispatchthreadid" | "sv_groupid" | "sv_groupthreadid" | "sv_groupindex" => {
            "an input of compute, mesh and amplification shaders"
        }
        "sv_vertexid" | "sv_instanceid" | "sv_startvertexlocation" | "sv_startinstancelocation" => {
            "an input of vertex shaders"
        }
        "sv_isfrontface" | "sv_sampleindex" | "sv_barycentrics" | "sv_innercoverage" => {
            "an input of pixel shaders"
        }
        "sv_coverage" => "an input and an output of pixel shaders",
        "sv_depth"
        | "sv_depthgreaterequal"
        | "sv_depthlessequal"
        | "sv_stencilref"
        | "sv_target" => "an output of pixel shaders",
        "sv_viewid" => "an input of vertex, hull, domain, geometry, pixel and mesh shaders",
        "sv_shadingrate" => {
            "an output of vertex, geometry and mesh shaders and an input of pixel shaders"
        }
        "sv_rendertargetarrayindex" | "sv_viewportarrayindex" => {
            "an output of vertex, domain, geometry and mesh shaders and an input of pixel shaders"
        }
        "sv_clipdistance" | "sv_culldistance" => {
            "an output of vertex, domain, geometry and mesh shaders and an input of pixel shaders"
        }
        "sv_position" => {
            "an output of vertex, domain, geometry and mesh shaders and an input of pixel shaders"
        }
        "sv_primitiveid" => "an input of hull, domain, geometry and pixel shaders",
        _ => return None,
    })
}

impl<'s, 'a> FnCtx<'s, 'a> {
    fn sysval_var_type(&mut self, v: VarTy) -> TyId {
        match v {
            VarTy::Uint => types::UINT,
            VarTy::Int => types::INT,
            VarTy::Bool => types::BOOL,
            VarTy::Float3 => self.s.types.vector(Sc::F32, 3),
            VarTy::UintArray1 => self.s.types.array(types::UINT, Some(1)),
        }
    }

    /// Checks the declared type of system value `sv`; reports the rule.
    fn sysval_type_ok(
        &mut self,
        sv: &SysVal,
        ty: TyId,
        (sname, sspan): (Symbol, Span),
        name: &str,
        span: Span,
    ) -> bool {
        if sv.rule.holds(self.s.types.get(ty)) {
            return true;
        }
        let stage = self.s.stage.name();
        self.s.push(
            Diagnostic::error(
                codes::SEMANTIC_TYPE,
                format!("`{sname}` cannot have type `{}`", self.s.ty_name(ty)),
            )
            .label(span, format!("`{name}` is `{}`", self.s.ty_name(ty)))
            .label(
                sspan,
                format!("in {stage} shaders `{sname}` is {}", sv.rule.expected()),
            )
            .note(sv.why),
        );
        false
    }

    /// Loads stage input `sem` when it is one of this module's system
    /// values (or a clip or cull distance read by a pixel shader):
    /// `Some(value)`, `Some(None)` after an error, `None` when it is not.
    pub(super) fn stage_sysval_input(
        &mut self,
        io: &mut Io,
        ty: TyId,
        sem: (Symbol, Span),
        interp: Option<ir::Interpolation>,
        sampling: Option<ir::Sampling>,
        name: &str,
        span: Span,
    ) -> Option<Option<ir::Handle<ir::Expression>>> {
        let lower = sem.0.as_str().to_ascii_lowercase();
        if self.s.stage == Stage::Pixel
            && let Some(d) = super::semantics::distance_semantic(&lower)
        {
            return Some(self.load_distance(io, ty, d, span));
        }
        let noperspective = interp == Some(ir::Interpolation::NoPerspective);
        let sv = lookup(self.s.stage, IoDir::Input, &lower, noperspective)?;
        if !self.sysval_type_ok(&sv, ty, sem, name, span) {
            return Some(None);
        }
        let vt = self.sysval_var_type(sv.var);
        let g = self.builtin_var(io, sv.builtin, IoDir::Input, sv.var_name, vt);
        self.name_builtin(g, sem.0.as_str());
        // `centroid` and `sample` barycentrics are decorated like the
        // inputs they would interpolate (SPIR-V.rst, interpolation modes).
        if matches!(sv.builtin, B::BaryCoordKHR | B::BaryCoordNoPerspKHR) {
            let d = match sampling {
                Some(ir::Sampling::Centroid) => Some(spirv::Decoration::Centroid),
                Some(ir::Sampling::Sample) => Some(spirv::Decoration::Sample),
                _ => None,
            };
            if let Some(d) = d
                && !self.s.module.io_decorations.contains(&(g, d))
            {
                self.s.module.io_decorations.push((g, d));
            }
        }
        let it = self.s.ir_ty(vt);
        let pty = self.ptr_type(it, ir::AddressSpace::Input);
        let p = self.add(ir::Expression::GlobalVariable(g), pty);
        let mut v = self.add(ir::Expression::Load { pointer: p }, it);
        let mut vty = vt;
        if sv.var == VarTy::UintArray1 {
            let u = self.s.ir_ty(types::UINT);
            v = self.add(ir::Expression::AccessIndex { base: v, index: 0 }, u);
            vty = types::UINT;
        }
        let c = self.cast(Val::expr(vty, v), ty, span);
        Some(self.value(&c))
    }

    /// Stores stage output `sem` when it is one of this module's system
    /// values: `true` when it was (stored, or an error reported).
    pub(super) fn stage_sysval_output(
        &mut self,
        io: &mut Io,
        v: ir::Handle<ir::Expression>,
        ty: TyId,
        sem: (Symbol, Span),
        precise: bool,
        name: &str,
        span: Span,
    ) -> bool {
        let lower = sem.0.as_str().to_ascii_lowercase();
        let Some(sv) = lookup(self.s.stage, IoDir::Output, &lower, false) else {
            return false;
        };
        if !self.sysval_type_ok(&sv, ty, sem, name, span) {
            return true;
        }
        let vt = self.sysval_var_type(sv.var);
        let g = self.builtin_var(io, sv.builtin, IoDir::Output, sv.var_name, vt);
        self.name_builtin(g, sem.0.as_str());
        self.s.module.globals[g].precise |= precise;
        let elem = if sv.var == VarTy::UintArray1 {
            types::UINT
        } else {
            vt
        };
        let c = self.cast(Val::expr(ty, v), elem, span);
        let Some(h) = self.value(&c) else { return true };
        let it = self.s.ir_ty(vt);
        let pty = self.ptr_type(it, ir::AddressSpace::Output);
        let mut p = self.add(ir::Expression::GlobalVariable(g), pty);
        if sv.var == VarTy::UintArray1 {
            let u = self.s.ir_ty(types::UINT);
            let upty = self.ptr_type(u, ir::AddressSpace::Output);
            p = self.add(ir::Expression::AccessIndex { base: p, index: 0 }, upty);
        }
        self.stmt(ir::Statement::Store {
            pointer: p,
            value: h,
        });
        true
    }

    /// Reads a pixel shader's `SV_ClipDistanceN`/`SV_CullDistanceN` input
    /// from its elements of the one `ClipDistance`/`CullDistance` array,
    /// packed as the previous stage's outputs are.
    fn load_distance(
        &mut self,
        io: &mut Io,
        ty: TyId,
        (cull, n): (bool, u32),
        span: Span,
    ) -> Option<ir::Handle<ir::Expression>> {
        let &(_, _, offset) = io
            .distance_offsets
            .iter()
            .find(|&&(c, k, _)| c == cull && k == n)?;
        let (elem_ty, len) = self.s.distance_layout(ty, span)?;
        let shape = self.s.types.shape(elem_ty)?;
        let count = shape.count();
        let size = io.distance_sizes[usize::from(cull)];
        let arr = self.s.types.array(types::FLOAT, Some(size));
        let (b, vname) = if cull {
            (B::CullDistance, "gl_CullDistance")
        } else {
            (B::ClipDistance, "gl_ClipDistance")
        };
        let g = self.builtin_var(io, b, IoDir::Input, vname, arr);
        let at = self.s.ir_ty(arr);
        let ft = self.s.ir_ty(types::FLOAT);
        let apty = self.ptr_type(at, ir::AddressSpace::Input);
        let fpty = self.ptr_type(ft, ir::AddressSpace::Input);
        let base = self.add(ir::Expression::GlobalVariable(g), apty);
        let float_ty = self.s.types.with_shape(Sc::F32, shape);
        let et = self.s.ir_ty(float_ty);
        let mut elements = Vec::new();
        for j in 0..len {
            let mut comps = Vec::new();
            for i in 0..count {
                let p = self.add(
                    ir::Expression::AccessIndex {
                        base,
                        index: offset + j * count + i,
                    },
                    fpty,
                );
                comps.push(self.add(ir::Expression::Load { pointer: p }, ft));
            }
            elements.push(if count == 1 {
                comps[0]
            } else {
                self.add(
                    ir::Expression::Compose {
                        ty: et,
                        components: comps,
                    },
                    et,
                )
            });
        }
        if elem_ty != ty {
            // An array of distances: its elements are floats already.
            let it = self.s.ir_ty(ty);
            return Some(self.add(
                ir::Expression::Compose {
                    ty: it,
                    components: elements,
                },
                it,
            ));
        }
        let c = self.cast(Val::expr(float_ty, elements[0]), ty, span);
        self.value(&c)
    }
}
