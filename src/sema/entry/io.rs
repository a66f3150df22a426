//! Stage inputs and outputs: the entry wrapper's parameters loaded from
//! input variables and its results stored to output variables, user
//! semantics at locations (explicit or automatic), struct members one by
//! one.

use super::VkLoc;
use super::arrayed::VertexIo;
use super::semantics::{
    IoDir, TyKind, arbitrary_here, distance_semantic, stage_only, system_value,
};
use super::sysvals::valid_in;
use super::tess::Domain;
use crate::diag::{Diagnostic, codes};
use crate::intern::Symbol;
use crate::ir;
use crate::ir::Stage;
use crate::sema::body::FnCtx;
use crate::sema::body::place::Val;
use crate::sema::context::VertexInput;
use crate::sema::types::{self, Sc, Ty, TyId};
use crate::span::Span;
use rustc_hash::FxHashMap;

/// State of one entry point's interface while it is built.
#[derive(Default)]
pub(super) struct Io {
    pub(super) next_in: u32,
    pub(super) next_out: u32,
    /// Where a user-semantic input / output got its location from
    /// `[[vk::location]]` (the span) and where one got it automatically:
    /// DXC rejects a mix, as the automatic ones could collide.
    pub(super) explicit_in: Option<Span>,
    pub(super) auto_in: Option<Span>,
    pub(super) explicit_out: Option<Span>,
    pub(super) auto_out: Option<Span>,
    /// The `SV_ClipDistanceN` / `SV_CullDistanceN` outputs, packed into
    /// one float array each (SPIR-V.rst, "ClipDistance & CullDistance"):
    /// `(cull, N, offset)`, and the arrays' sizes.
    pub(super) distance_offsets: Vec<(bool, u32, u32)>,
    pub(super) distance_sizes: [u32; 2],
    /// The same for per-vertex inputs (geometry, hull and domain shaders).
    pub(super) in_distance_offsets: Vec<(bool, u32, u32)>,
    pub(super) in_distance_sizes: [u32; 2],
    /// A hull shader's `InputPatch` size: its patch-constant function's
    /// must be the same.
    pub(super) hull_input_points: Option<u32>,
    pub(super) builtins: Vec<(spirv::BuiltIn, IoDir, ir::Handle<ir::GlobalVariable>)>,
    /// `SV_DepthGreaterEqual` / `SV_DepthLessEqual` promise the depth
    /// only moves one way: `DepthGreater` / `DepthLess`.
    pub(super) depth_mode: Option<spirv::ExecutionMode>,
    /// Per-vertex variables by direction and semantic (upper case), made
    /// once and shared by every reader.
    pub(super) vertex_vars: FxHashMap<(IoDir, String), VertexIo>,
    /// Locations fixed in advance, by semantic (upper case): hull shader
    /// outputs and domain shader inputs are numbered in the alphabetical
    /// order of their semantics, as DXC does, so that the two stages
    /// agree whatever order their parameters come in.
    pub(super) sorted_in: FxHashMap<String, u32>,
    pub(super) sorted_out: FxHashMap<String, u32>,
    /// Location variables made now are per-patch (hull shader
    /// patch-constant outputs, domain shader patch-constant inputs).
    pub(super) patch: bool,
    /// The tessellation domain (hull and domain shaders).
    pub(super) domain: Option<Domain>,
    /// The locations taken so far, to find two variables on one.
    pub(super) claims: Vec<super::locations::Claim>,
}

impl<'s, 'a> FnCtx<'s, 'a> {
    /// DXC's rule: either every user-semantic stage variable of a direction
    /// has `[[vk::location]]` or none has, since automatic locations could
    /// land on explicit ones.
    pub(super) fn check_location_mix(&mut self, io: &Io) {
        for (explicit, auto, what) in [
            (io.explicit_in, io.auto_in, "inputs"),
            (io.explicit_out, io.auto_out, "outputs"),
        ] {
            if let (Some(e), Some(a)) = (explicit, auto) {
                self.s.push(
                    Diagnostic::error(
                        codes::BAD_ATTRIBUTE,
                        format!("some stage {what} have `[[vk::location]]` and some do not"),
                    )
                    .label(a, "this one gets an automatic location")
                    .label(e, "this one has an explicit location")
                    .note("give every input and output with a user semantic a `[[vk::location]]`, or none"),
                );
            }
        }
    }

    /// `None` after reporting a stage input or output of unsized array
    /// type (Vulkan has runtime arrays only in buffers and descriptor
    /// arrays).
    fn sized_stage_variable(&mut self, ty: TyId, what: &str, name: &str, span: Span) -> Option<()> {
        if !matches!(self.s.types.get(ty), crate::sema::types::Ty::Array(_, None)) {
            return Some(());
        }
        self.s.push(
            Diagnostic::error(
                codes::UNSIZED_ARRAY,
                format!("stage {what} `{name}` is an unsized array"),
            )
            .label(span, "give it a size"),
        );
        None
    }

    /// `[[vk::builtin("HelperInvocation")]] bool`: the built-in stays a
    /// `bool`, where a location variable of a `bool` is a `uint`.
    fn helper_invocation_input(
        &mut self,
        ty: TyId,
        span: Span,
    ) -> Option<ir::Handle<ir::Expression>> {
        let g = self.s.builtin_input(
            spirv::BuiltIn::HelperInvocation,
            "gl_HelperInvocation",
            crate::sema::types::BOOL,
        );
        let b = self.s.ir_ty(crate::sema::types::BOOL);
        let pty = self.ptr_type(b, ir::AddressSpace::Input);
        let p = self.add(ir::Expression::GlobalVariable(g), pty);
        let v = self.add(ir::Expression::Load { pointer: p }, b);
        let c = self.cast(Val::expr(crate::sema::types::BOOL, v), ty, span);
        self.value(&c)
    }

    /// An input that is a system value's built-in variable: `sv` is its
    /// built-in, variable name and natural type.
    fn system_value_input(
        &mut self,
        io: &mut Io,
        ty: TyId,
        (b, vname, nat): (spirv::BuiltIn, &'static str, TyKind),
        (sname, sspan): (Symbol, Span),
        name: &str,
        span: Span,
    ) -> Option<ir::Handle<ir::Expression>> {
        let nt = self.natural_type(nat);
        let ok = match (nat, self.s.types.get(ty)) {
            (TyKind::Uint | TyKind::Uint3, Ty::Scalar(s))
            | (TyKind::Uint | TyKind::Uint3, Ty::Vector(s, _)) => s.is_int(),
            (TyKind::Float4 | TyKind::Float3 | TyKind::Float, Ty::Scalar(s))
            | (TyKind::Float4 | TyKind::Float3 | TyKind::Float, Ty::Vector(s, _)) => {
                s.is_float()
            }
            (TyKind::Bool, Ty::Scalar(_)) => true,
            _ => false,
        };
        let fits = match (nat, self.s.types.get(ty)) {
            (TyKind::Uint3 | TyKind::Float3, Ty::Vector(_, n)) => *n <= 3,
            (TyKind::Uint, Ty::Vector(..)) => false,
            _ => true,
        };
        if !ok || !fits {
            self.s.push(
                Diagnostic::error(
                    codes::SEMANTIC_TYPE,
                    format!("`{sname}` cannot have type `{}`", self.s.ty_name(ty)),
                )
                .label(span, format!("`{name}` is `{}`", self.s.ty_name(ty)))
                .label(sspan, format!("`{sname}` is a `{}`", self.s.ty_name(nt))),
            );
            return None;
        }
        let g = self.builtin_var(io, b, IoDir::Input, vname, nt);
        self.name_builtin(g, sname.as_str());
        let it = self.s.ir_ty(nt);
        let pty = self.ptr_type(it, ir::AddressSpace::Input);
        let p = self.add(ir::Expression::GlobalVariable(g), pty);
        let v = self.add(ir::Expression::Load { pointer: p }, it);
        let v = self.minus_draw_base(io, b, v, span);
        let c = self.cast(Val::expr(nt, v), ty, span);
        self.value(&c)
    }

    /// Builds the value of an entry input of type `ty` from stage inputs.
    pub(super) fn stage_input(
        &mut self,
        io: &mut Io,
        ty: TyId,
        sem: Option<(Symbol, Span)>,
        interp: Option<ir::Interpolation>,
        sampling: Option<ir::Sampling>,
        vk: VkLoc,
        name: &str,
        span: Span,
    ) -> Option<ir::Handle<ir::Expression>> {
        self.sized_stage_variable(ty, "input", name, span)?;
        if sem.is_none() {
            if let Some(sid) = self.s.types.as_struct(ty) {
                let info = self.s.types.struct_info(sid).clone();
                let mut comps = Vec::new();
                if let Some(b) = info.base {
                    comps.push(self.stage_input(
                        io,
                        b,
                        None,
                        None,
                        None,
                        VkLoc::default(),
                        name,
                        span,
                    )?);
                }
                for f in &info.fields {
                    if f.bits.is_some() {
                        self.s
                            .unsupported("bit-fields in entry point parameters", f.span);
                        return None;
                    }
                    let fname = format!("{name}.{}", f.name);
                    let first = self.s.module.globals.len();
                    comps.push(self.stage_input(
                        io,
                        f.ty,
                        f.semantic,
                        f.interp.or(interp),
                        f.sampling.or(sampling),
                        VkLoc::field(f),
                        &fname,
                        f.span,
                    )?);
                    self.s.decorate_field_vars(first, f);
                }
                return Some(self.compose(ty, comps));
            }
            self.s.push(
                Diagnostic::error(
                    codes::BAD_SEMANTIC,
                    format!("entry point parameter `{name}` has no semantic"),
                )
                .label(
                    span,
                    format!("needs a semantic such as `: {}`", example_semantic(self.s.stage, IoDir::Input)),
                ),
            );
            return None;
        }
        let (sname, sspan) = sem?;
        if vk.builtin == Some(spirv::BuiltIn::HelperInvocation) {
            return self.helper_invocation_input(ty, span);
        }
        if let Some(inner) = super::tess::tess_factor_semantic(sname.as_str())
            && self.s.stage == Stage::Domain
        {
            return self.load_tess_factor(io, ty, inner, span, sspan);
        }
        if let Some(v) =
            self.stage_sysval_input(io, ty, (sname, sspan), interp, sampling, name, span)
        {
            return v;
        }
        if let Some(sv) = system_value(self.s.stage, IoDir::Input, sname.as_str()) {
            return self.system_value_input(io, ty, sv, (sname, sspan), name, span);
        }
        if self.wrong_stage_semantic(sname, sspan, IoDir::Input) {
            return None;
        }
        if (sname.as_str().to_ascii_lowercase().starts_with("sv_")
            && !passes_through(self.s.stage)
            && !arbitrary_here(self.s.stage, IoDir::Input, sname.as_str()))
            || matches!(self.s.stage, Stage::Compute)
        {
            self.s.push(
                Diagnostic::error(
                    codes::BAD_SEMANTIC,
                    format!("`{sname}` is not an input of {} shaders", self.s.stage.name()),
                )
                .label(sspan, "unknown or unsupported here")
                .note(if let Some(w) = valid_in(sname.as_str()) {
                    format!("`{sname}` is {w}")
                } else if matches!(self.s.stage, Stage::Compute) {
                    "compute shaders take SV_DispatchThreadID, SV_GroupID, SV_GroupThreadID and SV_GroupIndex".to_string()
                } else {
                    "check the semantic's spelling and stage".to_string()
                }),
            );
            return None;
        }
        // A user semantic: its `[[vk::location]]`, or the next location.
        let location = self.user_location(io, IoDir::Input, ty, sname, vk, span, sspan);
        self.claim_input(io, vk, location, ty, (sname, sspan));
        // Vulkan has no bool stage variables (VUID-StandaloneSpirv-Input-07290):
        // DXC passes them as uint.
        let var_ty = self.io_type(ty);
        let it = self.s.ir_ty(var_ty);
        let interpolation = interp.or_else(|| {
            // Vulkan: integer fragment inputs must be Flat.
            (self.s.stage == Stage::Pixel
                && self.s.types.component(ty).is_some_and(|c| !c.is_float()))
            .then_some(ir::Interpolation::Flat)
        });
        // Read per vertex: an array of the three vertices' values.
        // (Not `bool`s, which are `uint` variables: DXC refuses them too.)
        let per_vertex = self.s.entry.vertex.enabled
            && interp == Some(ir::Interpolation::Flat)
            && var_ty == ty
            && matches!(self.s.types.get(ty), Ty::Scalar(_) | Ty::Vector(..));
        if self.s.entry.vertex.enabled && interp == Some(ir::Interpolation::Flat) && !per_vertex {
            self.s.entry.vertex.unsupported.push(name.to_string());
        }
        let var_it = if per_vertex {
            self.s.module.ty(ir::TypeInner::Array {
                base: it,
                size: ir::ArraySize::Constant(3),
                stride: None,
            })
        } else {
            it
        };
        let g = self.s.module.globals.append(ir::GlobalVariable {
            name: Some(format!("in.var.{sname}")),
            space: ir::AddressSpace::Input,
            ty: var_it,
            init: None,
            binding: None,
            io: Some(ir::Binding::Location {
                location,
                index: None,
                // `PerVertexKHR` replaces `Flat`.
                interpolation: if self.s.stage == Stage::Pixel && !per_vertex {
                    interpolation
                } else {
                    None
                },
                sampling: if self.s.stage == Stage::Pixel {
                    sampling
                } else {
                    None
                },
                // A domain shader's inputs outside its output patch are
                // the patch constants.
                patch: self.s.stage == Stage::Domain,
            }),
            precise: false,
            invariant: false,
            semantic: Some(sname.to_string()),
            counter: None,
            user_type: None,
        });
        let pty = self.ptr_type(it, ir::AddressSpace::Input);
        let p = if per_vertex {
            self.s
                .module
                .io_decorations
                .push((g, spirv::Decoration::PerVertexKHR));
            self.s.entry.vertex.by_name.insert(
                name.to_string(),
                VertexInput {
                    var: g,
                    elem: it,
                    var_ty,
                },
            );
            // A plain read is the first vertex's value.
            let apty = self.ptr_type(var_it, ir::AddressSpace::Input);
            let a = self.add(ir::Expression::GlobalVariable(g), apty);
            self.add(ir::Expression::AccessIndex { base: a, index: 0 }, pty)
        } else {
            self.add(ir::Expression::GlobalVariable(g), pty)
        };
        let v = self.add(ir::Expression::Load { pointer: p }, it);
        if var_ty == ty {
            return Some(v);
        }
        let c = self.cast(Val::expr(var_ty, v), ty, span);
        self.value(&c)
    }

    /// A stage-only system value in another stage or direction: reported
    /// with the rule.
    pub(super) fn wrong_stage_semantic(&mut self, sname: Symbol, sspan: Span, dir: IoDir) -> bool {
        let Some((stages, only_dir, what)) = stage_only(sname.as_str()) else {
            return false;
        };
        let stage = self.s.stage;
        // The tessellation factors are outputs of hull shaders and inputs
        // of domain shaders.
        let tess = super::tess::tess_factor_semantic(sname.as_str()).is_some();
        let right = if tess {
            (stage == Stage::Hull && dir == IoDir::Output)
                || (stage == Stage::Domain && dir == IoDir::Input)
        } else {
            stages.contains(&stage) && dir == only_dir
        };
        if right {
            return false;
        }
        let here = if dir == IoDir::Input {
            "an input"
        } else {
            "an output"
        };
        self.s.push(
            Diagnostic::error(
                codes::BAD_SEMANTIC,
                format!(
                    "`{sname}` is {what} only, not {here} of {} shaders",
                    stage.name()
                ),
            )
            .label(
                sspan,
                format!("not available to {} shaders here", stage.name()),
            ),
        );
        true
    }

    /// The type of the stage variable for a value of type `ty`: bools
    /// become uints.
    pub(super) fn io_type(&mut self, ty: TyId) -> TyId {
        match self.s.types.component(ty) {
            Some(Sc::Bool) if matches!(self.s.types.get(ty), Ty::Scalar(_) | Ty::Vector(..)) => {
                self.s.types.with_component(ty, Sc::U32)
            }
            _ => ty,
        }
    }

    /// Locations a value takes (see [`super::arrayed::location_count`]).
    pub(super) fn location_count(&self, ty: TyId) -> u32 {
        super::arrayed::location_count(self.s, ty)
    }

    /// `VertexIndex - BaseVertex` / `InstanceIndex - BaseInstance` when
    /// `-fvk-support-nonzero-base-vertex` / `-instance` ask for D3D's
    /// numbering from the draw's first vertex or instance; else `v`.
    fn minus_draw_base(
        &mut self,
        io: &mut Io,
        b: spirv::BuiltIn,
        v: ir::Handle<ir::Expression>,
        span: Span,
    ) -> ir::Handle<ir::Expression> {
        use spirv::BuiltIn as B;
        let (base, name) = match b {
            B::VertexIndex if self.s.opts.nonzero_base_vertex => (B::BaseVertex, "gl_BaseVertex"),
            B::InstanceIndex if self.s.opts.nonzero_base_instance => {
                (B::BaseInstance, "gl_BaseInstance")
            }
            _ => return v,
        };
        // An `int`, as `SV_StartVertexLocation` declares it.
        let g = self.builtin_var(io, base, IoDir::Input, name, types::INT);
        let int = self.s.ir_ty(types::INT);
        let pty = self.ptr_type(int, ir::AddressSpace::Input);
        let p = self.add(ir::Expression::GlobalVariable(g), pty);
        let l = self.add(ir::Expression::Load { pointer: p }, int);
        let c = self.cast(Val::expr(types::INT, l), types::UINT, span);
        let Some(base) = self.value(&c) else { return v };
        let uint = self.s.ir_ty(types::UINT);
        self.add(
            ir::Expression::Binary {
                op: ir::BinaryOperator::Subtract,
                left: v,
                right: base,
                precise: false,
            },
            uint,
        )
    }

    /// Stores `v` to the built-in output that the system-value semantic
    /// `sname` names, when it names one; false otherwise.
    fn store_system_value(
        &mut self,
        io: &mut Io,
        v: ir::Handle<ir::Expression>,
        ty: TyId,
        sname: Symbol,
        precise: bool,
        span: Span,
    ) -> bool {
        let Some((b, vname, nat)) = system_value(self.s.stage, IoDir::Output, sname.as_str())
        else {
            return false;
        };
        io.depth_mode = match sname.as_str().to_ascii_lowercase().as_str() {
            "sv_depthgreaterequal" => Some(spirv::ExecutionMode::DepthGreater),
            "sv_depthlessequal" => Some(spirv::ExecutionMode::DepthLess),
            _ => io.depth_mode,
        };
        let nt = self.natural_type(nat);
        let g = self.builtin_var(io, b, IoDir::Output, vname, nt);
        self.name_builtin(g, sname.as_str());
        self.s.module.globals[g].precise |= precise;
        let c = self.cast(Val::expr(ty, v), nt, span);
        let Some(h) = self.value(&c) else { return true };
        let it = self.s.ir_ty(nt);
        let pty = self.ptr_type(it, ir::AddressSpace::Output);
        let p = self.add(ir::Expression::GlobalVariable(g), pty);
        self.stmt(ir::Statement::Store {
            pointer: p,
            value: h,
        });
        true
    }

    /// Stores an entry result (or out parameter) of type `ty` to stage
    /// outputs. `modes` are the interpolation modifiers of the parameter
    /// (struct members' own ones take precedence).
    pub(super) fn stage_output(
        &mut self,
        io: &mut Io,
        v: ir::Handle<ir::Expression>,
        ty: TyId,
        sem: Option<(Symbol, Span)>,
        modes: (Option<ir::Interpolation>, Option<ir::Sampling>),
        precise: bool,
        vk: VkLoc,
        name: &str,
        span: Span,
    ) {
        if self
            .sized_stage_variable(ty, "output", name, span)
            .is_none()
        {
            return;
        }
        if sem.is_none() {
            if let Some(sid) = self.s.types.as_struct(ty) {
                let info = self.s.types.struct_info(sid).clone();
                let mut idx = 0;
                if let Some(b) = info.base {
                    let bt = self.s.ir_ty(b);
                    let e = self.add(ir::Expression::AccessIndex { base: v, index: 0 }, bt);
                    self.stage_output(io, e, b, None, modes, precise, VkLoc::default(), name, span);
                    idx = 1;
                }
                let _ = idx;
                for f in info.fields.iter() {
                    if f.bits.is_some() {
                        self.s
                            .unsupported("bit-fields in entry point results", f.span);
                        return;
                    }
                    let ft = self.s.ir_ty(f.ty);
                    let e = self.add(
                        ir::Expression::AccessIndex {
                            base: v,
                            index: f.member,
                        },
                        ft,
                    );
                    let fname = format!("{name}.{}", f.name);
                    // `[[vk::builtin("PointSize")]]`: the point size of
                    // vertex, domain and geometry shader outputs.
                    if f.vk_builtin.is_some_and(|b| b.as_str() == "PointSize")
                        && matches!(
                            self.s.stage,
                            Stage::Vertex | Stage::Domain | Stage::Geometry
                        )
                    {
                        let g = self.builtin_var(
                            io,
                            spirv::BuiltIn::PointSize,
                            IoDir::Output,
                            "gl_PointSize",
                            crate::sema::types::FLOAT,
                        );
                        let c = self.cast(Val::expr(f.ty, e), crate::sema::types::FLOAT, f.span);
                        let Some(h) = self.value(&c) else { return };
                        let it = self.s.ir_ty(crate::sema::types::FLOAT);
                        let pty = self.ptr_type(it, ir::AddressSpace::Output);
                        let p = self.add(ir::Expression::GlobalVariable(g), pty);
                        self.stmt(ir::Statement::Store {
                            pointer: p,
                            value: h,
                        });
                        continue;
                    }
                    let first = self.s.module.globals.len();
                    self.stage_output(
                        io,
                        e,
                        f.ty,
                        f.semantic,
                        (f.interp.or(modes.0), f.sampling.or(modes.1)),
                        precise || f.precise,
                        VkLoc::field(f),
                        &fname,
                        f.span,
                    );
                    self.s.decorate_field_vars(first, f);
                }
                return;
            }
            self.s.push(
                Diagnostic::error(
                    codes::BAD_SEMANTIC,
                    format!("entry point output `{name}` has no semantic"),
                )
                .label(
                    span,
                    format!("needs a semantic such as `: {}`", example_semantic(self.s.stage, IoDir::Output)),
                ),
            );
            return;
        }
        let Some((sname, sspan)) = sem else { return };
        if let Some(inner) = super::tess::tess_factor_semantic(sname.as_str())
            && self.s.stage == Stage::Hull
            && io.patch
        {
            self.store_tess_factor(io, v, ty, inner, precise, span, sspan);
            return;
        }
        if let Some(d) = distance_semantic(sname.as_str())
            && matches!(
                self.s.stage,
                Stage::Vertex | Stage::Domain | Stage::Geometry
            )
        {
            self.store_distance(io, v, ty, d, span);
            return;
        }
        if self.stage_sysval_output(io, v, ty, (sname, sspan), precise, name, span) {
            return;
        }
        if self.store_system_value(io, v, ty, sname, precise, span) {
            return;
        }
        let lower = sname.as_str().to_ascii_lowercase();
        let location = if let Some(n) = lower.strip_prefix("sv_target") {
            if self.s.stage != Stage::Pixel {
                self.s.error(
                    codes::BAD_SEMANTIC,
                    format!("`{sname}` is an output of pixel shaders only"),
                    sspan,
                    "not here",
                );
                return;
            }
            vk.location.unwrap_or_else(|| n.parse::<u32>().unwrap_or(0))
        } else if self.wrong_stage_semantic(sname, sspan, IoDir::Output) {
            return;
        } else if (lower.starts_with("sv_")
            && !passes_through(self.s.stage)
            && !arbitrary_here(self.s.stage, IoDir::Output, &lower))
            || self.s.stage == Stage::Compute
            || self.s.stage == Stage::Pixel
        {
            let mut d = Diagnostic::error(
                codes::BAD_SEMANTIC,
                format!(
                    "`{sname}` is not an output of {} shaders",
                    self.s.stage.name()
                ),
            )
            .label(sspan, "unknown or unsupported here");
            if let Some(w) = valid_in(sname.as_str()) {
                d = d.note(format!("`{sname}` is {w}"));
            }
            self.s.push(d);
            return;
        } else {
            self.user_location(io, IoDir::Output, ty, sname, vk, span, sspan)
        };
        let patch = io.patch;
        self.claim_location(io, IoDir::Output, patch, vk, location, ty, (sname, sspan));
        let var_ty = self.io_type(ty);
        let v = if var_ty == ty {
            v
        } else {
            let c = self.cast(Val::expr(ty, v), var_ty, span);
            match self.value(&c) {
                Some(h) => h,
                None => return,
            }
        };
        let it = self.s.ir_ty(var_ty);
        // Vertex, geometry, domain and mesh shader outputs carry their interpolation
        // modifiers as decorations, integers `Flat`, like the pixel shader
        // inputs they feed: DXC's mapping (SPIR-V.rst, "Interpolation
        // modes") decorates both sides. Pixel shader outputs must have none
        // (VUID-StandaloneSpirv-Flat-06202).
        let (interpolation, sampling) = if matches!(
            self.s.stage,
            Stage::Vertex | Stage::Mesh | Stage::Geometry | Stage::Domain
        ) {
            let integer = self.s.types.component(ty).is_some_and(|c| !c.is_float());
            (
                modes.0.or(integer.then_some(ir::Interpolation::Flat)),
                modes.1,
            )
        } else {
            (None, None)
        };
        let g = self.s.module.globals.append(ir::GlobalVariable {
            name: Some(format!("out.var.{sname}")),
            space: ir::AddressSpace::Output,
            ty: it,
            init: None,
            binding: None,
            io: Some(ir::Binding::Location {
                location,
                index: vk.index.filter(|_| self.s.stage == Stage::Pixel),
                interpolation,
                sampling,
                patch: io.patch,
            }),
            precise,
            invariant: false,
            semantic: Some(sname.to_string()),
            counter: None,
            user_type: None,
        });
        let pty = self.ptr_type(it, ir::AddressSpace::Output);
        let p = self.add(ir::Expression::GlobalVariable(g), pty);
        self.stmt(ir::Statement::Store {
            pointer: p,
            value: v,
        });
    }
}

/// Geometry, hull and domain shaders pass system values they have no
/// built-in for (`SV_InstanceID`, `SV_IsFrontFace`…) to the next stage as
/// ordinary user semantics, as DXC does.
/// A semantic to suggest for an entry input or output of `stage` that has
/// none (what the quick fix inserts).
fn example_semantic(stage: Stage, dir: IoDir) -> &'static str {
    match (stage, dir) {
        (Stage::Compute | Stage::Mesh | Stage::Amplification, IoDir::Input) => "SV_DispatchThreadID",
        (Stage::Vertex, IoDir::Input) => "POSITION",
        (Stage::Pixel, IoDir::Output) => "SV_Target",
        (Stage::Vertex | Stage::Domain | Stage::Geometry, IoDir::Output) => "SV_Position",
        _ => "TEXCOORD0",
    }
}

fn passes_through(stage: Stage) -> bool {
    matches!(stage, Stage::Geometry | Stage::Hull | Stage::Domain)
}
