//! Rules on the entry signature of vertex, pixel, geometry, hull and
//! domain shaders, checked before the wrapper is built: each semantic
//! once per direction, `vk::index` for dual-source blending only,
//! `vk::builtin`'s types, stages and directions, no interpolation of
//! integers, the type of a vertex shader's `SV_Position`, and the hull
//! shader's `SV_OutputControlPointID`.

use crate::diag::{Diagnostic, codes};
use crate::front::ast;
use crate::front::attributes::Attr;
use crate::intern::Symbol;
use crate::ir;
use crate::ir::Stage;
use crate::sema::decl::find_attr;
use crate::sema::types::resolve::Env;
use crate::sema::types::scope::FuncDeclId;
use crate::sema::types::{self, Sc, Ty, TyId};
use crate::sema::{Dir, Sema, Sig};
use crate::span::Span;
use rustc_hash::FxHashMap;

/// `vk::location`, `vk::index` and `vk::builtin` of one declaration: each
/// value with where it is written.
#[derive(Clone, Copy, Default)]
struct VkAttrs {
    location: Option<(Option<u32>, Span)>,
    index: Option<(Option<u32>, Span)>,
    builtin: Option<(Option<Symbol>, Span)>,
}

/// One stage variable as the signature declares it: a parameter, the
/// result, or a member of a struct without a semantic of its own.
struct Leaf {
    /// An element of a per-vertex array (geometry, hull and domain shader
    /// inputs): a signature apart from the per-patch values.
    arrayed: bool,
    input: bool,
    output: bool,
    ty: TyId,
    semantic: Option<(Symbol, Span)>,
    /// The declaration's own interpolation modifiers.
    interp: Option<ir::Interpolation>,
    sampling: Option<ir::Sampling>,
    vk: VkAttrs,
    span: Span,
}

impl<'a> Sema<'a> {
    /// Checks the interface rules of entry `id` with signature `sig`.
    pub(super) fn check_interface(&mut self, id: FuncDeclId, sig: &Sig<'a>) {
        if !matches!(
            self.stage,
            Stage::Vertex | Stage::Pixel | Stage::Geometry | Stage::Hull | Stage::Domain
        ) {
            return;
        }
        let leaves = self.interface_leaves(id, sig);
        self.check_duplicate_semantics(&leaves);
        for l in &leaves {
            self.check_vk_index(l);
            for (on, input) in [(l.input, true), (l.output, false)] {
                if on {
                    self.check_vk_builtin(l, input);
                    self.check_integer_interpolation(l, input);
                    self.check_vs_position(l, input);
                }
            }
        }
        if self.stage == Stage::Hull
            && !leaves.iter().any(|l| {
                l.input
                    && l.semantic.is_some_and(|(s, _)| {
                        s.as_str().eq_ignore_ascii_case("SV_OutputControlPointID")
                    })
            })
        {
            let f = self.decls.funcs[id].def.unwrap_or(self.decls.funcs[id].ast);
            self.push(
                Diagnostic::error(
                    codes::BAD_SEMANTIC,
                    "a hull shader entry point needs an `SV_OutputControlPointID` parameter",
                )
                .label(f.name.span, "has none")
                .note("the entry runs once per output control point and writes the one this parameter numbers: add e.g. `uint id : SV_OutputControlPointID`"),
            );
        }
    }

    /// The stage variables of the signature, struct members one by one.
    fn interface_leaves(&mut self, id: FuncDeclId, sig: &Sig<'a>) -> Vec<Leaf> {
        let env = Env::at(self.decls.funcs[id].scope);
        let mut out = Vec::new();
        for p in &sig.params {
            let (mut ty, mut arrayed) = (p.ty, false);
            match *self.types.get(ty) {
                Ty::Stream(..) => continue,
                // Per-vertex inputs and patches: their elements.
                Ty::Array(e, _)
                    if p.semantic.is_none()
                        && matches!(self.stage, Stage::Geometry | Stage::Hull | Stage::Domain) =>
                {
                    (ty, arrayed) = (e, true);
                }
                _ => {}
            }
            let vk = self.vk_attrs(p.attrs, &env);
            let (input, output) = (p.dir != Dir::Out, p.dir != Dir::In);
            let leaf = Leaf {
                arrayed,
                input,
                output,
                ty,
                semantic: p.semantic,
                interp: p.interp,
                sampling: p.sampling,
                vk,
                span: p.span,
            };
            self.push_leaves(leaf, &mut out);
        }
        if sig.ret != types::VOID {
            let f = self.decls.funcs[id].def.unwrap_or(self.decls.funcs[id].ast);
            let vk = self.vk_attrs(&f.attrs, &env);
            let leaf = Leaf {
                arrayed: false,
                input: false,
                output: true,
                ty: sig.ret,
                semantic: sig.ret_semantic,
                interp: None,
                sampling: None,
                vk,
                span: f.name.span,
            };
            self.push_leaves(leaf, &mut out);
        }
        out
    }

    /// `leaf`, or the members of its struct when it has no semantic.
    fn push_leaves(&self, leaf: Leaf, out: &mut Vec<Leaf>) {
        let sid = match *self.types.get(leaf.ty) {
            Ty::Struct(sid) if leaf.semantic.is_none() => sid,
            _ => {
                out.push(leaf);
                return;
            }
        };
        let info = self.types.struct_info(sid);
        if let Some(b) = info.base {
            self.push_leaves(
                Leaf {
                    ty: b,
                    vk: VkAttrs::default(),
                    ..leaf
                },
                out,
            );
        }
        for f in &info.fields {
            let sp = f.vk_spans;
            let vk = VkAttrs {
                location: sp.location.map(|s| (f.vk_location, s)),
                index: sp.index.map(|s| (f.vk_index, s)),
                builtin: sp.builtin.map(|s| (f.vk_builtin, s)),
            };
            self.push_leaves(
                Leaf {
                    arrayed: leaf.arrayed,
                    input: leaf.input,
                    output: leaf.output,
                    ty: f.ty,
                    semantic: f.semantic,
                    interp: f.interp,
                    sampling: f.sampling,
                    vk,
                    span: f.span,
                },
                out,
            );
        }
    }

    fn vk_attrs(&mut self, attrs: &'a [ast::Attribute], env: &Env) -> VkAttrs {
        let mut int = |kind: Attr| {
            find_attr(attrs, kind).map(|a| {
                let v = a.args.first().and_then(|e| self.const_int(e, env));
                (v.map(|v| v as u32), a.span)
            })
        };
        let location = int(Attr::VkLocation);
        let index = int(Attr::VkIndex);
        let builtin = find_attr(attrs, Attr::VkBuiltin)
            .map(|a| (a.string_arg(0).map(Symbol::intern), a.span));
        VkAttrs {
            location,
            index,
            builtin,
        }
    }

    /// Each semantic names one input and one output at most.
    fn check_duplicate_semantics(&mut self, leaves: &[Leaf]) {
        let mut seen: [FxHashMap<(bool, String), Span>; 2] = Default::default();
        for l in leaves {
            let Some((name, span)) = l.semantic else {
                continue;
            };
            let key = (l.arrayed, name.as_str().to_ascii_uppercase());
            for (on, dir) in [(l.input, 0), (l.output, 1)] {
                if !on {
                    continue;
                }
                if let Some(&first) = seen[dir].get(&key) {
                    let what = ["input", "output"][dir];
                    self.push(
                        Diagnostic::error(
                            codes::BAD_SEMANTIC,
                            format!("{what} semantic `{name}` is used more than once"),
                        )
                        .label(span, "used again here")
                        .label(first, "first used here")
                        .note(format!(
                            "each semantic names one stage {what}: give this one another name or index"
                        )),
                    );
                } else {
                    seen[dir].insert(key.clone(), span);
                }
            }
        }
    }

    /// `vk::index` is dual-source blending: pixel shader outputs at
    /// `vk::location(0)`, index 0 or 1.
    fn check_vk_index(&mut self, l: &Leaf) {
        let Some((index, ispan)) = l.vk.index else {
            return;
        };
        if self.stage != Stage::Pixel {
            self.push(
                Diagnostic::error(
                    codes::BAD_ATTRIBUTE,
                    format!(
                        "`vk::index` is for dual-source blending in pixel shaders, not {} shaders",
                        self.stage.name()
                    ),
                )
                .label(ispan, "only pixel shader outputs have a blend index"),
            );
        }
        match l.vk.location {
            None => self.push(
                Diagnostic::error(
                    codes::BAD_ATTRIBUTE,
                    "`vk::index` needs a `vk::location` beside it",
                )
                .label(ispan, "no `vk::location` on this declaration")
                .note("dual-source blending writes both sources at `[[vk::location(0)]]`, with `vk::index(0)` and `vk::index(1)`"),
            ),
            Some((Some(loc), lspan)) if loc != 0 => self.push(
                Diagnostic::error(
                    codes::BAD_ATTRIBUTE,
                    format!("dual-source blending uses location 0, not {loc}"),
                )
                .label(lspan, "must be `vk::location(0)` with `vk::index`"),
            ),
            _ => {}
        }
        if let Some(i) = index
            && i > 1
        {
            self.push(
                Diagnostic::error(
                    codes::BAD_ATTRIBUTE,
                    format!(
                        "`vk::index({i})` is out of range: dual-source blending has index 0 or 1"
                    ),
                )
                .label(ispan, "the first or second source of the blend"),
            );
        }
    }

    /// `[[vk::builtin("…")]]`: no location beside it, the built-in's type,
    /// and the stages and directions where it exists.
    fn check_vk_builtin(&mut self, l: &Leaf, input: bool) {
        let Some((Some(name), bspan)) = l.vk.builtin else {
            return;
        };
        let here = format!(
            "{} shader {}",
            self.stage.name(),
            if input { "input" } else { "output" }
        );
        if let Some((_, lspan)) = l.vk.location {
            self.push(
                Diagnostic::error(
                    codes::BAD_ATTRIBUTE,
                    "`vk::builtin` and `vk::location` exclude each other",
                )
                .label(bspan, "a built-in variable")
                .label(lspan, "has no location"),
            );
        }
        let int32 = matches!(self.types.get(l.ty), Ty::Scalar(Sc::I32 | Sc::U32));
        let (type_ok, want, place_ok, place) = match name.as_str() {
            "HelperInvocation" => (
                matches!(self.types.get(l.ty), Ty::Scalar(Sc::Bool)),
                "a `bool`",
                self.stage == Stage::Pixel && input,
                "pixel shader inputs only",
            ),
            "PointSize" => (
                matches!(self.types.get(l.ty), Ty::Scalar(s) if s.is_float()),
                "a floating-point scalar",
                !((self.stage == Stage::Vertex && input) || (self.stage == Stage::Pixel && !input)),
                "outputs of vertex, hull, domain and geometry shaders and inputs of the stages after them only",
            ),
            "BaseVertex" | "BaseInstance" | "DrawIndex" => (
                int32,
                "an `int` or `uint`",
                self.stage == Stage::Vertex && input,
                "vertex shader inputs only",
            ),
            "DeviceIndex" => (int32, "an `int` or `uint`", input, "inputs only"),
            "ViewportMaskNV" => (
                matches!(*self.types.get(l.ty), Ty::Array(e, _) if matches!(self.types.get(e), Ty::Scalar(Sc::I32))),
                "an array of `int`",
                false,
                "per-primitive outputs of mesh shaders only",
            ),
            _ => return,
        };
        if !type_ok {
            let d = Diagnostic::error(
                codes::SEMANTIC_TYPE,
                format!("built-in `{name}` is {want}, not `{}`", self.ty_name(l.ty)),
            )
            .label(bspan, format!("`{name}` needs {want}"));
            let d = self.declared_label(d, l, bspan);
            self.push(d);
        }
        if !place_ok {
            self.push(
                Diagnostic::error(
                    codes::BAD_ATTRIBUTE,
                    format!("built-in `{name}` cannot be a {here}"),
                )
                .label(bspan, format!("not available as a {here}"))
                .note(format!("`{name}` is for {place}")),
            );
        }
    }

    /// Integers are never interpolated: a pixel shader's integer inputs
    /// take no interpolation modifier but `nointerpolation`. (DXC lets a
    /// vertex shader's outputs keep theirs: they are decorated `Flat`.)
    fn check_integer_interpolation(&mut self, l: &Leaf, input: bool) {
        let applies = self.stage == Stage::Pixel && input;
        let integer = self.types.component(l.ty).is_some_and(|c| !c.is_float());
        let modifier = match (l.interp, l.sampling) {
            (Some(ir::Interpolation::Perspective), _) => "linear",
            (Some(ir::Interpolation::NoPerspective), _) => "noperspective",
            (_, Some(ir::Sampling::Centroid)) => "centroid",
            (_, Some(ir::Sampling::Sample)) => "sample",
            _ => return,
        };
        if !applies || !integer {
            return;
        }
        self.push(
            Diagnostic::error(
                codes::MODIFIER_NOT_ALLOWED,
                format!("`{modifier}` on an integer pixel shader input: integers are not interpolated"),
            )
            .label(l.span, format!("`{}` is an integer type", self.ty_name(l.ty)))
            .note("Vulkan reads integer inputs of pixel shaders from one vertex (`Flat`): drop the modifier or write `nointerpolation`"),
        );
    }

    /// A vertex shader's `SV_Position` is a `float4` of 32-bit floats, or a
    /// struct or one-element array holding only such a vector.
    fn check_vs_position(&mut self, l: &Leaf, input: bool) {
        let Some((name, sspan)) = l.semantic else {
            return;
        };
        if input
            || self.stage != Stage::Vertex
            || !name.as_str().eq_ignore_ascii_case("SV_Position")
            || self.only_float4(l.ty)
        {
            return;
        }
        let d = Diagnostic::error(
            codes::SEMANTIC_TYPE,
            format!(
                "a vertex shader's `{name}` must be a `float4`, not `{}`",
                self.ty_name(l.ty)
            ),
        )
        .label(sspan, "Vulkan's `Position` built-in is a `float4`")
        .note("a vector of four 32-bit floats, or a struct or one-element array holding only one such vector");
        let d = self.declared_label(d, l, sspan);
        self.push(d);
    }

    /// `d` with a label on the declaration of `l` naming its type, unless
    /// the declaration holds `primary` (a parameter's span holds its
    /// attributes and semantic).
    fn declared_label(&self, d: Diagnostic, l: &Leaf, primary: Span) -> Diagnostic {
        if l.span.lo <= primary.lo && primary.hi <= l.span.hi {
            return d;
        }
        d.label(l.span, format!("declared `{}`", self.ty_name(l.ty)))
    }

    /// `float4`, or a struct with one member or one-element array of
    /// such.
    fn only_float4(&self, ty: TyId) -> bool {
        match *self.types.get(ty) {
            Ty::Vector(Sc::F32, 4) => true,
            Ty::Array(e, Some(1)) => self.only_float4(e),
            Ty::Struct(sid) => {
                let info = self.types.struct_info(sid);
                info.base.is_none() && info.fields.len() == 1 && self.only_float4(info.fields[0].ty)
            }
            _ => false,
        }
    }
}
