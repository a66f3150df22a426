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
use crate::front::ast;
use crate::ir::{self, RayStorage};
use crate::options::Stage;
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
            "a {} shader is `void {name}(inout Payload payload, in Attributes attributes)`, with `Payload` and `Attributes` structs",
            stage.name()
        ),
        Stage::Miss => format!(
            "a miss shader is `void {name}(inout Payload payload)`, with `Payload` a struct"
        ),
        Stage::Callable => {
            format!("a callable shader is `void {name}(inout Data data)`, with `Data` a struct")
        }
        _ => format!(
            "a {} shader is `void {name}()`: no parameters",
            stage.name()
        ),
    }
}

impl<'a> Sema<'a> {
    /// Every `[shader("…")]` function of a library, in declaration order,
    /// lowered as an entry point of its stage with what it reaches.
    pub(super) fn lower_library_entries(&mut self) {
        let entries = self.shader_entries();
        if entries.is_empty() {
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
            self.entry.uses_derivatives = false;
            self.entry.streams.clear();
            let name = self.decls.funcs[id].name.to_string();
            self.lower_entry_function(id, name);
            self.drain_worklist();
            self.finish_entry_point();
        }
        self.stage = Stage::Library;
    }

    /// The global functions with a body and a `[shader("…")]` attribute
    /// naming a stage, once per name; unknown stage names are reported.
    fn shader_entries(&mut self) -> Vec<(FuncDeclId, Stage)> {
        let mut out: Vec<(FuncDeclId, Stage)> = Vec::new();
        let ids: Vec<FuncDeclId> = self.decls.funcs.ids().collect();
        for id in ids {
            let d = &self.decls.funcs[id];
            let Some(f) = d.def else { continue };
            if d.is_template || d.this_ty.is_some() || self.scopes.get(d.scope).parent.is_some() {
                continue;
            }
            if out.iter().any(|(o, _)| self.decls.funcs[*o].name == d.name) {
                continue;
            }
            let Some(a) =
                find_attr(&f.attrs, "shader").or_else(|| find_attr(&d.ast.attrs, "shader"))
            else {
                continue;
            };
            let named = match a.args.first().map(|e| &e.kind) {
                Some(ast::ExprKind::Literal(ast::Literal::String(s))) => {
                    Some(s.as_str().to_string())
                }
                _ => None,
            };
            match named.as_deref().and_then(Stage::from_attribute_name) {
                Some(stage) => out.push((id, stage)),
                None => {
                    let span = a.span;
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
                    format!("a {} shader returns `void`", stage.name()),
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
                    "a {} shader takes {} parameter{}, but `{name}` has {}",
                    stage.name(),
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
                            "the {what} of a {} shader must be a struct, not `{}`",
                            stage.name(),
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
                            "the {what} of a {} shader is `{want_kw}`, not `{got_kw}`",
                            stage.name()
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
        self.module.globals.append(ir::GlobalVariable {
            name: Some(name),
            space: ir::AddressSpace::Ray(storage),
            ty: it,
            init: None,
            binding: None,
            io: None,
            precise: false,
            invariant: false,
            semantic: None,
            counter: None,
            user_type: None,
        })
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
        Some(tmp)
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
