//! Tessellation: the hull shader's attributes (`[domain]`,
//! `[partitioning]`, `[outputtopology]`, `[outputcontrolpoints]`,
//! `[patchconstantfunc]`, `[maxtessfactor]`) and the domain shader's
//! `[domain]` as execution modes (SPIR-V.rst, "Hull Entry Point
//! Attributes"), and the tessellation factors `SV_TessFactor` /
//! `SV_InsideTessFactor`, which are the `TessLevelOuter` (4 floats) and
//! `TessLevelInner` (2 floats) built-ins of which each domain uses the
//! first 3 and 1 (tri), 4 and 2 (quad) or 2 and 0 (isoline).

use super::io::Io;
use super::semantics::IoDir;
use crate::diag::{Diagnostic, codes};
use crate::front::ast;
use crate::front::attributes::Attr;
use crate::ir;
use crate::sema::Sema;
use crate::sema::body::FnCtx;
use crate::sema::body::place::Val;
use crate::sema::decl::find_attr;
use crate::sema::types::scope::{FuncDeclId, GLOBAL_SCOPE, Sym};
use crate::sema::types::{self, Sc, Ty, TyId};
use crate::span::Span;
use spirv::ExecutionMode as EM;

/// A tessellation domain.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Domain {
    Tri,
    Quad,
    Isoline,
}

impl Domain {
    /// How many `SV_TessFactor` values the domain has.
    pub fn outer(self) -> u32 {
        match self {
            Domain::Tri => 3,
            Domain::Quad => 4,
            Domain::Isoline => 2,
        }
    }
    /// How many `SV_InsideTessFactor` values the domain has.
    pub fn inner(self) -> u32 {
        match self {
            Domain::Tri => 1,
            Domain::Quad => 2,
            Domain::Isoline => 0,
        }
    }
    pub fn name(self) -> &'static str {
        match self {
            Domain::Tri => "tri",
            Domain::Quad => "quad",
            Domain::Isoline => "isoline",
        }
    }
    fn mode(self) -> EM {
        match self {
            Domain::Tri => EM::Triangles,
            Domain::Quad => EM::Quads,
            Domain::Isoline => EM::Isolines,
        }
    }
}

/// `SV_TessFactor` → `Some(false)`, `SV_InsideTessFactor` → `Some(true)`.
pub(super) fn tess_factor_semantic(sem: &str) -> Option<bool> {
    match sem.to_ascii_lowercase().as_str() {
        "sv_tessfactor" => Some(false),
        "sv_insidetessfactor" => Some(true),
        _ => None,
    }
}

/// What the hull shader's attributes say.
pub(super) struct HullAttrs {
    pub(super) modes: Vec<(EM, Vec<u32>)>,
    pub(super) domain: Option<Domain>,
    pub(super) control_points: u32,
    pub(super) patch_constant_func: Option<FuncDeclId>,
}

impl<'a> Sema<'a> {
    /// The attribute `kind` of entry function `id` (definition first).
    pub(super) fn entry_attr(&self, id: FuncDeclId, kind: Attr) -> Option<&'a ast::Attribute> {
        let d = &self.decls.funcs[id];
        let def = d.def.unwrap_or(d.ast);
        find_attr(&def.attrs, kind).or_else(|| find_attr(&d.ast.attrs, kind))
    }

    /// An entry point attribute the stage requires is missing.
    pub(super) fn missing_entry_attr(&mut self, id: FuncDeclId, kind: Attr, example: &str) {
        let attr = kind.spelling();
        let d = &self.decls.funcs[id];
        let (name, span) = (d.name, d.ast.name.span);
        self.push(
            Diagnostic::error(
                codes::BAD_ATTRIBUTE,
                format!(
                    "{} shader entry point `{name}` has no `[{attr}]` attribute",
                    self.stage.name()
                ),
            )
            .label(span, "declared here")
            .note(format!(
                "{} shaders need it: add `{example}` before the function",
                self.stage.name()
            )),
        );
    }

    /// `[domain("tri" | "quad" | "isoline")]` (hull and domain shaders).
    pub(super) fn domain_attr(&mut self, id: FuncDeclId) -> Option<Domain> {
        let Some(a) = self.entry_attr(id, Attr::Domain) else {
            self.missing_entry_attr(id, Attr::Domain, "[domain(\"tri\")]");
            return None;
        };
        let v = a.string_arg(0).map(str::to_ascii_lowercase)?;
        Some(match v.as_str() {
            "tri" => Domain::Tri,
            "quad" => Domain::Quad,
            "isoline" => Domain::Isoline,
            _ => {
                self.error(
                    codes::BAD_ATTRIBUTE,
                    format!("the tessellation domain must be \"tri\", \"quad\" or \"isoline\", not \"{v}\""),
                    a.args[0].span,
                    "unknown domain",
                );
                return None;
            }
        })
    }

    /// The domain shader's execution modes.
    pub(super) fn domain_modes(&mut self, id: FuncDeclId) -> (Vec<(EM, Vec<u32>)>, Option<Domain>) {
        let d = self.domain_attr(id);
        (
            d.map(|d| vec![(d.mode(), Vec::new())]).unwrap_or_default(),
            d,
        )
    }

    /// The hull shader's attributes, checked, as execution modes.
    pub(super) fn hull_attrs(&mut self, id: FuncDeclId) -> Option<HullAttrs> {
        // `[domain]`, `[partitioning]` and `[outputtopology]` may be left
        // to the domain shader: Vulkan takes each from either stage.
        let domain = match self.entry_attr(id, Attr::Domain) {
            Some(_) => self.domain_attr(id),
            None => None,
        };
        let mut modes = Vec::new();
        if let Some(d) = domain {
            modes.push((d.mode(), Vec::new()));
        }
        match self.entry_attr(id, Attr::Partitioning) {
            None => {}
            Some(a) => {
                if let Some(v) = a.string_arg(0).map(str::to_ascii_lowercase) {
                    match v.as_str() {
                        "integer" => modes.push((EM::SpacingEqual, Vec::new())),
                        "fractional_even" => modes.push((EM::SpacingFractionalEven, Vec::new())),
                        "fractional_odd" => modes.push((EM::SpacingFractionalOdd, Vec::new())),
                        "pow2" => {
                            // Vulkan has no power-of-two spacing; DXC emits
                            // none, which leaves the spacing to the domain
                            // shader. Equal spacing of a power-of-two
                            // factor is what pow2 rounds to.
                            self.push(
                                Diagnostic::warning(
                                    codes::IGNORED_SYNTAX,
                                    "Vulkan has no \"pow2\" partitioning: integer (equal) spacing is used",
                                )
                                .label(a.span, "treated as \"integer\""),
                            );
                            modes.push((EM::SpacingEqual, Vec::new()));
                        }
                        _ => {
                            self.error(
                                codes::BAD_ATTRIBUTE,
                                format!("the partitioning must be \"integer\", \"fractional_even\", \"fractional_odd\" or \"pow2\", not \"{v}\""),
                                a.args[0].span,
                                "unknown partitioning",
                            );
                        }
                    }
                }
            }
        }
        if let Some(a) = self.entry_attr(id, Attr::OutputTopology)
            && let Some(v) = a.string_arg(0).map(str::to_ascii_lowercase)
        {
            match v.as_str() {
                "point" => modes.push((EM::PointMode, Vec::new())),
                "triangle_cw" => modes.push((EM::VertexOrderCw, Vec::new())),
                "triangle_ccw" => modes.push((EM::VertexOrderCcw, Vec::new())),
                // Lines need no mode (isolines make lines).
                "line" => {}
                _ => {
                    self.error(
                        codes::BAD_ATTRIBUTE,
                        format!("the output topology must be \"point\", \"line\", \"triangle_cw\" or \"triangle_ccw\", not \"{v}\""),
                        a.args[0].span,
                        "unknown topology",
                    );
                }
            }
        }
        let env = crate::sema::types::resolve::Env::at(self.decls.funcs[id].scope);
        let mut control_points = None;
        match self.entry_attr(id, Attr::OutputControlPoints) {
            None => {
                self.missing_entry_attr(id, Attr::OutputControlPoints, "[outputcontrolpoints(3)]")
            }
            // Arity was checked by the attribute registry.
            Some(a) => {
                if let [e] = a.args.as_slice()
                    && let Some(n) = self.const_int(e, &env)
                {
                    if (1..=32).contains(&n) {
                        control_points = Some(n as u32);
                        modes.push((EM::OutputVertices, vec![n as u32]));
                    } else {
                        self.push(
                            Diagnostic::error(
                                codes::BAD_ATTRIBUTE,
                                format!("a hull shader outputs 1 to 32 control points, not {n}"),
                            )
                            .label(e.span, "out of range"),
                        );
                    }
                }
            }
        }
        if let Some(a) = self.entry_attr(id, Attr::MaxTessFactor) {
            // No SPIR-V equivalent; the value is still checked (arity by the registry).
            if let [e] = a.args.as_slice()
                && let Ok(k) = self.const_eval(e, &env)
            {
                let v = k.as_f64();
                if !(1.0..=64.0).contains(&v) {
                    self.push(
                        Diagnostic::error(
                            codes::BAD_ATTRIBUTE,
                            format!(
                                "the maximum tessellation factor must be between 1 and 64, not {v}"
                            ),
                        )
                        .label(e.span, "out of range"),
                    );
                }
            }
        }
        let patch_constant_func = self.patch_constant_func(id);
        Some(HullAttrs {
            modes,
            domain,
            control_points: control_points?,
            patch_constant_func: Some(patch_constant_func?),
        })
    }

    /// `[patchconstantfunc("name")]`: a function defined at global scope.
    fn patch_constant_func(&mut self, id: FuncDeclId) -> Option<FuncDeclId> {
        let Some(a) = self.entry_attr(id, Attr::PatchConstantFunc) else {
            self.missing_entry_attr(
                id,
                Attr::PatchConstantFunc,
                "[patchconstantfunc(\"PatchConstants\")]",
            );
            return None;
        };
        // The registry checked that the name is a string.
        let name = crate::intern::Symbol::intern(a.string_arg(0)?);
        let found = match self.scopes.lookup_in(GLOBAL_SCOPE, name) {
            Some(Sym::Funcs(l)) => l
                .iter()
                .copied()
                .find(|f| self.decls.funcs[*f].def.is_some() && !self.decls.funcs[*f].is_template),
            _ => None,
        };
        if found.is_none() {
            let mut d = Diagnostic::error(
                codes::BAD_ATTRIBUTE,
                format!("the patch constant function `{name}` is not defined"),
            )
            .label(a.args[0].span, "named here");
            // A near miss among the global functions.
            let want = name.as_str().to_ascii_lowercase();
            let close = self
                .decls
                .funcs
                .values()
                .filter(|d| d.def.is_some() && d.this_ty.is_none())
                .map(|d| d.name.to_string())
                .filter(|n| {
                    crate::diag::suggest::edit_distance(&n.to_ascii_lowercase(), &want) <= 2
                })
                .min_by_key(|n| {
                    crate::diag::suggest::edit_distance(&n.to_ascii_lowercase(), &want)
                });
            if let Some(c) = close {
                d = d.note(format!("did you mean `{c}`?"));
            }
            d = d.note("`patchconstantfunc` names a function defined at global scope that returns the patch's tessellation factors");
            self.push(d);
        }
        found
    }
}

impl<'s, 'a> FnCtx<'s, 'a> {
    /// Checks that a tessellation factor of type `ty` has as many values
    /// as the domain: the count, or `None` after an error.
    fn tess_factor_count(
        &mut self,
        io: &Io,
        ty: TyId,
        inner: bool,
        span: Span,
        sspan: Span,
    ) -> Option<u32> {
        let sem = if inner {
            "SV_InsideTessFactor"
        } else {
            "SV_TessFactor"
        };
        let count = match *self.s.types.get(ty) {
            Ty::Array(e, Some(n))
                if self.s.types.component(e).is_some_and(|c| c.is_float())
                    && matches!(self.s.types.get(e), Ty::Scalar(_)) =>
            {
                Some(n)
            }
            Ty::Scalar(c) | Ty::Vector(c, _) if c.is_float() => {
                self.s.types.shape(ty).map(|s| s.count())
            }
            _ => None,
        };
        let Some(count) = count else {
            self.s.push(
                Diagnostic::error(
                    codes::SEMANTIC_TYPE,
                    format!("`{sem}` cannot have type `{}`", self.s.ty_name(ty)),
                )
                .label(span, "not a float or an array of floats")
                .label(sspan, "a tessellation factor"),
            );
            return None;
        };
        let builtin = if inner { 2 } else { 4 };
        let Some(domain) = io.domain else {
            if count > builtin {
                self.s.push(
                    Diagnostic::error(
                        codes::SEMANTIC_TYPE,
                        format!("`{sem}` has at most {builtin} values, not {count}"),
                    )
                    .label(span, format!("`{}` holds {count}", self.s.ty_name(ty)))
                    .label(sspan, "tessellation factor"),
                );
                return None;
            }
            return Some(count);
        };
        let want = if inner {
            domain.inner()
        } else {
            domain.outer()
        };
        let note = match (domain, inner) {
            (Domain::Tri, false) => {
                "a triangle patch has 3 edge factors: `float Edges[3] : SV_TessFactor`"
            }
            (Domain::Tri, true) => {
                "a triangle patch has 1 inside factor: `float Inside : SV_InsideTessFactor`"
            }
            (Domain::Quad, false) => {
                "a quad patch has 4 edge factors: `float Edges[4] : SV_TessFactor`"
            }
            (Domain::Quad, true) => {
                "a quad patch has 2 inside factors: `float Inside[2] : SV_InsideTessFactor`"
            }
            (Domain::Isoline, false) => {
                "an isoline patch has 2 factors (line count and line detail): `float Factors[2] : SV_TessFactor`"
            }
            (Domain::Isoline, true) => "an isoline patch has no inside factor",
        };
        if count < want || count > builtin {
            self.s.push(
                Diagnostic::error(
                    codes::SEMANTIC_TYPE,
                    format!(
                        "`{sem}` of the \"{}\" domain has {want} value{}, not {count}",
                        domain.name(),
                        if want == 1 { "" } else { "s" }
                    ),
                )
                .label(span, format!("`{}` holds {count}", self.s.ty_name(ty)))
                .label(sspan, "tessellation factor")
                .note(note),
            );
            return None;
        }
        if count > want {
            // DXC accepts the extra values (the built-in has room for
            // them); the tessellator ignores them.
            self.s.push(
                Diagnostic::warning(
                    codes::IGNORED_SYNTAX,
                    format!(
                        "`{sem}` of the \"{}\" domain has {want} value{}; the other {} {} ignored",
                        domain.name(),
                        if want == 1 { "" } else { "s" },
                        count - want,
                        if count - want == 1 { "is" } else { "are" }
                    ),
                )
                .label(span, format!("`{}` holds {count}", self.s.ty_name(ty)))
                .note(note),
            );
        }
        Some(count)
    }

    /// The `TessLevelOuter` (float[4]) or `TessLevelInner` (float[2])
    /// built-in.
    fn tess_level_var(
        &mut self,
        io: &mut Io,
        dir: IoDir,
        inner: bool,
    ) -> (ir::Handle<ir::GlobalVariable>, TyId) {
        let (b, name, size) = if inner {
            (spirv::BuiltIn::TessLevelInner, "gl_TessLevelInner", 2)
        } else {
            (spirv::BuiltIn::TessLevelOuter, "gl_TessLevelOuter", 4)
        };
        let arr = self.s.types.array(types::FLOAT, Some(size));
        (self.builtin_var(io, b, dir, name, arr), arr)
    }

    /// Stores a patch-constant function's tessellation factor (its first
    /// values of the built-in array).
    pub(super) fn store_tess_factor(
        &mut self,
        io: &mut Io,
        v: ir::Handle<ir::Expression>,
        ty: TyId,
        inner: bool,
        precise: bool,
        span: Span,
        sspan: Span,
    ) {
        let Some(count) = self.tess_factor_count(io, ty, inner, span, sspan) else {
            return;
        };
        let (g, arr) = self.tess_level_var(io, IoDir::Output, inner);
        self.s.module.globals[g].precise |= precise;
        let at = self.s.ir_ty(arr);
        let apty = self.ptr_type(at, ir::AddressSpace::Output);
        let ft = self.s.ir_ty(types::FLOAT);
        let fpty = self.ptr_type(ft, ir::AddressSpace::Output);
        let elem = self.tess_elem_type(ty);
        let et = self.s.ir_ty(elem);
        let base = self.add(ir::Expression::GlobalVariable(g), apty);
        for i in 0..count {
            let e = if count == 1 && matches!(self.s.types.get(ty), Ty::Scalar(_)) {
                v
            } else {
                self.add(ir::Expression::AccessIndex { base: v, index: i }, et)
            };
            let c = self.cast(Val::expr(elem, e), types::FLOAT, span);
            let Some(h) = self.value(&c) else { return };
            let p = self.add(ir::Expression::AccessIndex { base, index: i }, fpty);
            self.stmt(ir::Statement::Store {
                pointer: p,
                value: h,
            });
        }
    }

    /// The scalar type of one tessellation factor value in `ty`.
    fn tess_elem_type(&mut self, ty: TyId) -> TyId {
        match *self.s.types.get(ty) {
            Ty::Array(e, _) => e,
            _ => {
                let c = self.s.types.component(ty).unwrap_or(Sc::F32);
                self.s.types.scalar(c)
            }
        }
    }

    /// Reads a tessellation factor in a domain shader.
    pub(super) fn load_tess_factor(
        &mut self,
        io: &mut Io,
        ty: TyId,
        inner: bool,
        span: Span,
        sspan: Span,
    ) -> Option<ir::Handle<ir::Expression>> {
        let count = self.tess_factor_count(io, ty, inner, span, sspan)?;
        let (g, arr) = self.tess_level_var(io, IoDir::Input, inner);
        let at = self.s.ir_ty(arr);
        let apty = self.ptr_type(at, ir::AddressSpace::Input);
        let p = self.add(ir::Expression::GlobalVariable(g), apty);
        let whole = self.add(ir::Expression::Load { pointer: p }, at);
        let ft = self.s.ir_ty(types::FLOAT);
        let elem = self.tess_elem_type(ty);
        let mut parts = Vec::new();
        for i in 0..count {
            let e = self.add(
                ir::Expression::AccessIndex {
                    base: whole,
                    index: i,
                },
                ft,
            );
            let c = self.cast(Val::expr(types::FLOAT, e), elem, span);
            parts.push(self.value(&c)?);
        }
        if count == 1 && matches!(self.s.types.get(ty), Ty::Scalar(_)) {
            return parts.pop();
        }
        let it = self.s.ir_ty(ty);
        Some(self.add(
            ir::Expression::Compose {
                ty: it,
                components: parts,
            },
            it,
        ))
    }
}
