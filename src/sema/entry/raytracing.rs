//! Libraries (`lib_6_x`) and the ray tracing stages they hold.
//!
//! A library profile compiles every `[shader("…")]` function of the file
//! into one module, each as an entry point of its stage with its own
//! wrapper and interface (DXC ignores `-E` for libraries).
//!
//! Ray tracing entries take no stage inputs or outputs: their parameters
//! are the ray payload, the hit attributes or the callable data, in the
//! storage classes of SPV_KHR_ray_tracing (SPIR-V.rst, "Raytracing Shader
//! Stages"):
//! - ray generation and intersection: no parameters;
//! - closest-hit and any-hit: `inout` payload (IncomingRayPayloadKHR) and
//!   `in` attributes (HitAttributeKHR);
//! - miss: `inout` payload;
//! - callable: `inout` callable data (IncomingCallableDataKHR);
//!
//! every one a user struct, and the entry returns `void`. The wrapper
//! copies the payload into a temporary for the user's function and back
//! after it, as for any `inout` parameter.

use super::super::{Dir, Sema};
use crate::diag::{Diagnostic, codes};
use crate::front::attributes::Attr;
use crate::ir::Stage;
use crate::ir::{self, RayStorage};
use crate::sema::ParamSig;
use crate::sema::body::FnCtx;
use crate::sema::decl::find_attr;
use crate::sema::types::scope::FuncDeclId;
use crate::sema::types::{self, Ty, TyId};

/// What the wrapper of a ray tracing entry copies back after the user's
/// function returns: each temporary and the incoming global it came from.
#[derive(Default)]
pub(in crate::sema) struct RayParams {
    copy_back: Vec<(
        ir::Handle<ir::Expression>,
        ir::Handle<ir::GlobalVariable>,
        ir::Handle<ir::Type>,
    )>,
}

/// The parameters a ray tracing stage's entry takes: the storage of each,
/// and what it is called in messages.
fn stage_params(stage: Stage) -> &'static [(RayStorage, Dir, &'static str)] {
    const PAYLOAD: (RayStorage, Dir, &str) =
        (RayStorage::IncomingPayload, Dir::InOut, "ray payload");
    const ATTRIBUTES: (RayStorage, Dir, &str) =
        (RayStorage::HitAttribute, Dir::In, "hit attributes");
    match stage {
        Stage::ClosestHit | Stage::AnyHit => &[PAYLOAD, ATTRIBUTES],
        Stage::Miss => &[PAYLOAD],
        Stage::Callable => &[(
            RayStorage::IncomingCallableData,
            Dir::InOut,
            "callable data",
        )],
        _ => &[],
    }
}

/// How a stage's parameters are written in messages and notes.
fn signature_help(stage: Stage, name: &str) -> String {
    match stage {
        Stage::ClosestHit | Stage::AnyHit => format!(
            "{} shader is `void {name}(inout Payload payload, in Attributes attributes)`, with `Payload` and `Attributes` structs",
            stage.with_article()
        ),
        Stage::Miss => format!(
            "a miss shader is `void {name}(inout Payload payload)`, with `Payload` a struct"
        ),
        Stage::Callable => {
            format!("a callable shader is `void {name}(inout Data data)`, with `Data` a struct")
        }
        _ => format!(
            "{} shader is `void {name}()`: no parameters",
            stage.with_article()
        ),
    }
}

impl<'a> Sema<'a> {
    /// Every `[shader("…")]` function of a library, in declaration order,
    /// lowered as an entry point of its stage with what it reaches.
    pub(super) fn lower_library_entries(&mut self) {
        let entries = self.shader_entries();
        let exports = self.exported_functions();
        if entries.is_empty() && exports.is_empty() {
            self.push(
                Diagnostic::error(
                    codes::ENTRY_NOT_FOUND,
                    "the library has no entry points",
                )
                .note("mark each entry function with its stage, e.g. `[shader(\"raygeneration\")]`; a library profile (lib_6_x) compiles every such function"),
            );
            return;
        }
        for (id, stage) in entries {
            self.stage = stage;
            self.entry.wrapper = None;
            self.entry.user = None;
            self.entry.ray_payload = None;
            self.entry.uses_derivatives = false;
            self.entry.streams.clear();
            let name = self.decls.funcs[id].name.to_string();
            self.lower_entry_function(id, name);
            self.drain_worklist();
            if let Some(w) = self.entry.wrapper {
                let span = self.decls.funcs[id].ast.name.span;
                self.check_stage_uses(w, stage, span);
            }
            self.finish_entry_point();
        }
        self.stage = Stage::Library;
        // `export` functions are compiled whether or not an entry calls
        // them (DXC's library does the same): a linker may.
        self.entry.wrapper = None;
        self.entry.user = None;
        for id in exports {
            self.func_ir(id);
        }
        self.drain_worklist();
    }

    /// The global, non-template functions with a body declared `export`.
    fn exported_functions(&self) -> Vec<FuncDeclId> {
        let funcs = &self.decls.funcs;
        funcs
            .ids()
            .filter(|&id| {
                let d = &funcs[id];
                d.def.is_some() && !d.is_template && d.this_ty.is_none() && self.is_exported(id)
            })
            .collect()
    }

    /// The global functions with a body and a `[shader("…")]` attribute
    /// naming a stage, once per name; unknown stage names are reported.
    fn shader_entries(&mut self) -> Vec<(FuncDeclId, Stage)> {
        let mut out: Vec<(FuncDeclId, Stage)> = Vec::new();
        let ids: Vec<FuncDeclId> = self.decls.funcs.ids().collect();
        for id in ids {
            let d = &self.decls.funcs[id];
            if d.def.is_none()
                || d.is_template
                || d.this_ty.is_some()
                || self.scopes.get(d.scope).parent.is_some()
            {
                continue;
            }
            if out.iter().any(|(o, _)| self.decls.funcs[*o].name == d.name) {
                continue;
            }
            let Some((named, span)) = self.shader_attribute(id) else {
                continue;
            };
            match named.as_deref().and_then(Stage::from_attribute_name) {
                Some(stage) => out.push((id, stage)),
                None => {
                    self.push(
                        Diagnostic::error(
                            codes::BAD_ATTRIBUTE,
                            format!(
                                "`shader` names no stage hlslc knows: {}",
                                named.map_or("(not a string)".to_string(), |n| format!("\"{n}\""))
                            ),
                        )
                        .label(span, "unknown stage")
                        .note("the stages are \"vertex\", \"pixel\", \"geometry\", \"hull\", \"domain\", \"compute\", \"mesh\", \"amplification\", \"raygeneration\", \"intersection\", \"anyhit\", \"closesthit\", \"miss\" and \"callable\""),
                    );
                }
            }
        }
        out
    }

    /// The `[shader("…")]` attribute of a function (on its definition or
    /// its declaration): the string it names (`None` if not a string) and
    /// its span.
    fn shader_attribute(&self, id: FuncDeclId) -> Option<(Option<String>, crate::span::Span)> {
        let d = &self.decls.funcs[id];
        let on_def = d.def.and_then(|f| find_attr(&f.attrs, Attr::Shader));
        let a = on_def.or_else(|| find_attr(&d.ast.attrs, Attr::Shader))?;
        Some((a.string_arg(0).map(str::to_string), a.span))
    }

    /// With a stage profile (`-T cs_6_5`), an entry whose `[shader("…")]`
    /// names another stage is an error (DXC's too); false then. Ray
    /// tracing stages exist only in libraries.
    pub(super) fn check_entry_shader_attribute(&mut self, id: FuncDeclId) -> bool {
        let Some((Some(named), span)) = self.shader_attribute(id) else {
            return true;
        };
        let Some(stage) = Stage::from_attribute_name(&named) else {
            return true;
        };
        if stage == self.stage {
            return true;
        }
        let name = self.decls.funcs[id].name;
        let profile = self.opts.profile.map(|p| p.to_string()).unwrap_or_default();
        let (code, note) = if stage.is_ray_tracing() {
            (
                codes::RAY_TRACING_ENTRY,
                format!(
                    "{} shaders only exist in libraries: compile with `-T lib_6_3` (or later), which compiles every `[shader]` function",
                    stage.name()
                ),
            )
        } else {
            (
                codes::BAD_ATTRIBUTE,
                format!(
                    "compile it with a {} profile, or remove the attribute",
                    stage.name()
                ),
            )
        };
        self.push(
            Diagnostic::error(
                code,
                format!(
                    "the profile `{profile}` compiles `{name}` as {} shader, but its `shader` attribute says {}",
                    self.stage.with_article(),
                    stage.name()
                ),
            )
            .label(span, format!("{} shader", stage.with_article()))
            .note(note),
        );
        false
    }

    /// Checks a ray tracing entry's signature against its stage; false
    /// (with an error) when it does not fit.
    pub(super) fn check_ray_tracing_signature(
        &mut self,
        id: FuncDeclId,
        sig: &crate::sema::Sig<'a>,
    ) -> bool {
        let stage = self.stage;
        let name = self.decls.funcs[id].name.to_string();
        let fspan = self.decls.funcs[id].ast.name.span;
        let want = stage_params(stage);
        let mut ok = true;
        if sig.ret != types::VOID {
            self.push(
                Diagnostic::error(
                    codes::RAY_TRACING_ENTRY,
                    format!("{} shader returns `void`", stage.with_article()),
                )
                .label(fspan, format!("returns `{}`", self.ty_name(sig.ret)))
                .note(signature_help(stage, &name)),
            );
            ok = false;
        }
        if sig.params.len() != want.len() {
            let mut d = Diagnostic::error(
                codes::RAY_TRACING_ENTRY,
                format!(
                    "{} shader takes {} parameter{}, but `{name}` has {}",
                    stage.with_article(),
                    want.len(),
                    if want.len() == 1 { "" } else { "s" },
                    sig.params.len()
                ),
            );
            d = match sig.params.get(want.len()) {
                Some(extra) => d.label(extra.span, "not a parameter of this stage"),
                None => d.label(fspan, "parameters missing"),
            };
            self.push(d.note(signature_help(stage, &name)));
            return false;
        }
        for (p, &(_, dir, what)) in sig.params.iter().zip(want) {
            if p.ty == types::ERROR {
                ok = false;
                continue;
            }
            if !self.is_user_struct(p.ty) {
                self.push(
                    Diagnostic::error(
                        codes::RAY_TRACING_TYPE,
                        format!(
                            "the {what} of {} shader must be a struct, not `{}`",
                            stage.with_article(),
                            self.ty_name(p.ty)
                        ),
                    )
                    .label(p.span, "not a struct")
                    .note(signature_help(stage, &name)),
                );
                ok = false;
            } else if p.dir != dir {
                let (want_kw, got_kw) = (dir_keyword(dir), dir_keyword(p.dir));
                self.push(
                    Diagnostic::error(
                        codes::RAY_TRACING_ENTRY,
                        format!(
                            "the {what} of {} shader is `{want_kw}`, not `{got_kw}`",
                            stage.with_article()
                        ),
                    )
                    .label(p.span, format!("declare it `{want_kw}`"))
                    .note(signature_help(stage, &name)),
                );
                ok = false;
            }
        }
        ok
    }

    /// A struct (user-declared or a predefined one such as
    /// `BuiltInTriangleIntersectionAttributes`), not an array of them.
    pub(in crate::sema) fn is_user_struct(&self, ty: TyId) -> bool {
        matches!(self.types.get(ty), Ty::Struct(_))
    }

    /// A global of ray tracing storage for a value of HLSL type `ty`.
    pub(in crate::sema) fn ray_global(
        &mut self,
        name: String,
        storage: RayStorage,
        ty: TyId,
    ) -> ir::Handle<ir::GlobalVariable> {
        let it = self.ir_ty(ty);
        ir::build::add_global(&mut self.module, &name, ir::AddressSpace::Ray(storage), it)
    }
}

fn dir_keyword(d: Dir) -> &'static str {
    match d {
        Dir::In => "in",
        Dir::Out => "out",
        Dir::InOut => "inout",
    }
}

impl<'s, 'a> FnCtx<'s, 'a> {
    /// The argument the wrapper passes for parameter `i` of a ray tracing
    /// entry: a temporary loaded from the incoming global (for `inout`,
    /// copied back by [`Self::ray_tracing_copy_back`]), or the attributes'
    /// value. `None` outside ray tracing stages.
    pub(super) fn ray_tracing_param(
        &mut self,
        ray: &mut RayParams,
        i: usize,
        p: &ParamSig<'a>,
    ) -> Option<ir::Handle<ir::Expression>> {
        let stage = self.s.stage;
        if !stage.is_ray_tracing() {
            return None;
        }
        let &(storage, _, _) = stage_params(stage).get(i)?;
        let pname = p
            .name
            .map(|n| n.to_string())
            .unwrap_or_else(|| format!("param{i}"));
        let g = self.s.ray_global(pname, storage, p.ty);
        let it = self.s.ir_ty(p.ty);
        let pty = self.ptr_type(it, ir::AddressSpace::Ray(storage));
        let gp = self.add(ir::Expression::GlobalVariable(g), pty);
        let v = self.add(ir::Expression::Load { pointer: gp }, it);
        if p.dir == Dir::In {
            return Some(v);
        }
        let (tmp, _) = self.temp(p.ty);
        self.stmt(ir::Statement::Store {
            pointer: tmp,
            value: v,
        });
        ray.copy_back.push((tmp, g, it));
        if storage == RayStorage::IncomingPayload {
            self.s.entry.ray_payload = Some((g, it));
        }
        Some(tmp)
    }

    /// Before `IgnoreHit`/`AcceptHitAndEndSearch`, which end the invocation
    /// so that the wrapper's copy-back never runs: in the entry's own
    /// function, stores what its payload parameter holds into the incoming
    /// payload (DXC does the same). A helper's copy of the payload is not
    /// reachable from here, as in DXC.
    pub(in crate::sema) fn ray_payload_before_end_hit(&mut self) {
        let Some((g, it)) = self.s.entry.ray_payload else {
            return;
        };
        if self.s.entry.user != Some(self.fb.handle) {
            return;
        }
        let Some(arg) = self.fb.body.function.arguments.first() else {
            return;
        };
        let arg_ty = arg.ty;
        let param = self.add(ir::Expression::FunctionArgument(0), arg_ty);
        let v = self.add(ir::Expression::Load { pointer: param }, it);
        let space = self.s.module.globals[g].space;
        let pty = self.ptr_type(it, space);
        let gp = self.add(ir::Expression::GlobalVariable(g), pty);
        self.stmt(ir::Statement::Store {
            pointer: gp,
            value: v,
        });
    }

    /// Stores what the user's function left in each `inout` temporary
    /// back to its incoming payload or callable data.
    pub(super) fn ray_tracing_copy_back(&mut self, ray: RayParams) {
        for (tmp, g, it) in ray.copy_back {
            let space = self.s.module.globals[g].space;
            let pty = self.ptr_type(it, space);
            let gp = self.add(ir::Expression::GlobalVariable(g), pty);
            let v = self.add(ir::Expression::Load { pointer: tmp }, it);
            self.stmt(ir::Statement::Store {
                pointer: gp,
                value: v,
            });
        }
    }
}
