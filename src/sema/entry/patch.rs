//! The per-stage parts of the entry wrapper for geometry, hull and domain
//! shaders: vertex-array and patch parameters, stream parameters, and the
//! hull shader's tail (SPIR-V.rst, "Patch Constant Function"): the
//! control point is stored at `InvocationId` of the per-vertex outputs,
//! then after a barrier invocation 0 alone runs the patch-constant
//! function, which reads the whole output patch back from those outputs.

use super::VkLoc;
use super::arrayed::user_semantics;
use super::io::Io;
use super::semantics::IoDir;
use super::tess::{Domain, HullAttrs};
use crate::diag::{Diagnostic, codes};
use crate::front::ast;
use crate::intern::Symbol;
use crate::ir;
use crate::ir::Stage;
use crate::sema::body::FnCtx;
use crate::sema::types::scope::FuncDeclId;
use crate::sema::types::{self, Ty, TyId};
use crate::sema::{Dir, ParamSig, Sema};
use crate::span::Span;
use rustc_hash::FxHashMap;

/// `InputPatch` (`Some(false)`) or `OutputPatch` (`Some(true)`) as the
/// written type of parameter `i` of function `id`.
pub(super) fn patch_param(s: &Sema<'_>, id: FuncDeclId, i: usize) -> Option<bool> {
    let d = &s.decls.funcs[id];
    let f = d.def.unwrap_or(d.ast);
    let p = f.params.get(i)?;
    match &p.ty.kind {
        ast::TypeSpecKind::Named { path, .. } => match path.last().name.as_str() {
            "InputPatch" => Some(false),
            "OutputPatch" => Some(true),
            _ => None,
        },
        _ => None,
    }
}

/// What an entry point's stage adds to the wrapper: execution modes, and
/// for hull shaders their attributes.
#[derive(Default)]
pub(super) struct StageSetup {
    pub(super) modes: Vec<(spirv::ExecutionMode, Vec<u32>)>,
    domain: Option<Domain>,
    pub(super) hull: Option<HullAttrs>,
}

impl StageSetup {
    /// Sets up the interface state before the parameters are loaded:
    /// the domain, the sorted locations, the geometry shader's streams.
    pub(super) fn prepare<'a>(
        &self,
        cx: &mut FnCtx<'_, 'a>,
        io: &mut Io,
        sig: &crate::sema::Sig<'a>,
        entry: &str,
    ) {
        io.domain = self.domain;
        // Per-vertex clip and cull distance inputs, packed as outputs are.
        let mut distances = Vec::new();
        for p in sig.params.iter().filter(|p| p.dir == Dir::In) {
            let ty = match *cx.s.types.get(p.ty) {
                Ty::Array(e, Some(_)) => e,
                _ => continue,
            };
            cx.collect_distances(ty, p.semantic, &mut distances);
        }
        distances.sort_unstable();
        distances.dedup_by(|a, b| a.0 == b.0 && a.1 == b.1);
        for (cull, n, count) in distances {
            let size = &mut io.in_distance_sizes[usize::from(cull)];
            io.in_distance_offsets.push((cull, n, *size));
            *size += count;
        }
        match cx.s.stage {
            Stage::Geometry => cx.setup_streams(io, &sig.params, entry),
            Stage::Hull => {
                let pcf = self
                    .hull
                    .as_ref()
                    .and_then(|h| h.patch_constant_func)
                    .and_then(|f| cx.s.decls.funcs[f].sig.clone());
                let leaves = cx.s.hull_output_semantics(sig, pcf.as_ref());
                io.sorted_out = cx.s.sorted_locations(leaves);
            }
            Stage::Domain => {
                let leaves = cx.s.domain_input_semantics(sig);
                io.sorted_in = cx.s.sorted_locations(leaves);
            }
            _ => {}
        }
        // `-fvk-stage-io-order=alpha`: every stage's user semantics take
        // their locations in alphabetical order (hull outputs and domain
        // inputs always do, to match each other).
        if cx.s.opts.stage_io_order_alpha {
            if io.sorted_in.is_empty() {
                let leaves = cx.s.domain_input_semantics(sig);
                io.sorted_in = cx.s.sorted_locations(leaves);
            }
            if io.sorted_out.is_empty() {
                let leaves = cx.s.hull_output_semantics(sig, None);
                io.sorted_out = cx.s.sorted_locations(leaves);
            }
        }
    }
}

impl<'a> Sema<'a> {
    /// The execution modes and attributes of a geometry, hull or domain
    /// shader entry point.
    pub(super) fn stage_setup(&mut self, id: FuncDeclId, sig: &crate::sema::Sig<'a>) -> StageSetup {
        match self.stage {
            Stage::Geometry => StageSetup {
                modes: self.geometry_modes(id, &sig.params),
                ..StageSetup::default()
            },
            Stage::Mesh => StageSetup {
                modes: self.mesh_modes(id, &sig.params),
                ..StageSetup::default()
            },
            Stage::Amplification => {
                self.amplification_setup(id);
                StageSetup::default()
            }
            Stage::Hull => match self.hull_attrs(id) {
                Some(h) => StageSetup {
                    modes: h.modes.clone(),
                    domain: h.domain,
                    hull: Some(h),
                },
                None => StageSetup::default(),
            },
            Stage::Domain => {
                let (modes, domain) = self.domain_modes(id);
                StageSetup {
                    modes,
                    domain,
                    hull: None,
                }
            }
            _ => StageSetup::default(),
        }
    }

    /// Hull shader outputs and domain shader inputs take locations in the
    /// alphabetical order of their semantics (DXC's rule), so that the two
    /// stages agree whatever the order of parameters and members.
    pub(super) fn sorted_locations(&self, leaves: Vec<(String, u32)>) -> FxHashMap<String, u32> {
        let mut leaves = leaves;
        leaves.sort();
        leaves.dedup_by(|a, b| a.0 == b.0);
        let mut next = 0;
        let mut map = FxHashMap::default();
        for (name, count) in leaves {
            map.insert(name, next);
            next += count;
        }
        map
    }

    /// The user semantics of the hull shader's outputs: control points
    /// and patch constants.
    pub(super) fn hull_output_semantics(
        &self,
        sig: &crate::sema::Sig<'a>,
        pcf: Option<&crate::sema::Sig<'a>>,
    ) -> Vec<(String, u32)> {
        let mut out = Vec::new();
        user_semantics(self, sig.ret, sig.ret_semantic, &mut out);
        for q in sig.params.iter().filter(|q| q.dir != Dir::In) {
            user_semantics(self, q.ty, q.semantic, &mut out);
        }
        if let Some(p) = pcf {
            user_semantics(self, p.ret, p.ret_semantic, &mut out);
            for q in p.params.iter().filter(|q| q.dir != Dir::In) {
                user_semantics(self, q.ty, q.semantic, &mut out);
            }
        }
        out
    }

    /// The user semantics of the domain shader's inputs.
    pub(super) fn domain_input_semantics(&self, sig: &crate::sema::Sig<'a>) -> Vec<(String, u32)> {
        let mut out = Vec::new();
        for p in sig.params.iter().filter(|p| p.dir != Dir::Out) {
            let ty = match *self.types.get(p.ty) {
                Ty::Array(e, Some(_)) => e,
                _ => p.ty,
            };
            user_semantics(self, ty, p.semantic, &mut out);
        }
        out
    }
}

impl<'s, 'a> FnCtx<'s, 'a> {
    /// The argument for an entry parameter that is a vertex array, a patch
    /// or a stream; `None` for the other parameters.
    pub(super) fn stage_param(
        &mut self,
        io: &mut Io,
        id: FuncDeclId,
        i: usize,
        p: &ParamSig<'a>,
        vk: VkLoc,
        name: &str,
    ) -> Option<Option<ir::Handle<ir::Expression>>> {
        let stage = self.s.stage;
        // A type that failed to resolve was reported already.
        if p.ty == types::ERROR {
            return Some(None);
        }
        if matches!(stage, Stage::Mesh | Stage::Amplification)
            && let Some(arg) = self.mesh_param(io, p, vk, name)
        {
            return Some(arg);
        }
        if let Ty::Stream(..) = *self.s.types.get(p.ty) {
            if stage != Stage::Geometry {
                self.s.error(
                    codes::BAD_SEMANTIC,
                    format!(
                        "output streams are parameters of geometry shaders, not {} shaders",
                        stage.name()
                    ),
                    p.span,
                    "not a geometry shader",
                );
                return Some(None);
            }
            // The stream's number, in a temporary the callee may update.
            let number = self.s.entry.streams.iter().position(|s| s.param == Some(i));
            let (tmp, _) = self.temp(p.ty);
            let k = self.u32_lit(number.unwrap_or(0) as u32);
            self.stmt(ir::Statement::Store {
                pointer: tmp,
                value: k,
            });
            return Some(Some(tmp));
        }
        if p.dir != Dir::In {
            return None;
        }
        let Ty::Array(elem, Some(n)) = *self.s.types.get(p.ty) else {
            return None;
        };
        let patch = patch_param(self.s, id, i);
        let vertices = match stage {
            Stage::Geometry => super::geometry::input_primitive(&p.modifiers).is_some(),
            Stage::Hull => patch == Some(false),
            Stage::Domain => patch == Some(true),
            _ => false,
        };
        if !vertices {
            // A geometry shader's vertex array without its primitive type
            // (reported with the execution modes).
            if stage == Stage::Geometry && p.semantic.is_none() {
                return Some(None);
            }
            if let Some(out) = patch {
                let what = if out { "OutputPatch" } else { "InputPatch" };
                let right = if out {
                    "domain shaders and patch-constant functions"
                } else {
                    "hull shaders and patch-constant functions"
                };
                self.s.error(
                    codes::BAD_SEMANTIC,
                    format!(
                        "`{what}` is an input of {right}, not of {} shaders",
                        stage.name()
                    ),
                    p.span,
                    "not here",
                );
                return Some(None);
            }
            return None;
        }
        if stage == Stage::Hull {
            io.hull_input_points = Some(n);
        }
        let Some(tree) = self.vertex_io(io, IoDir::Input, elem, n, p.semantic, vk, name, p.span)
        else {
            return Some(None);
        };
        Some(self.load_vertex_io(&tree, n, p.span))
    }

    /// The hull shader's wrapper after the call of its main function: the
    /// control point's outputs, the barrier, and the patch-constant
    /// function on invocation 0.
    pub(super) fn hull_tail(
        &mut self,
        io: &mut Io,
        attrs: &HullAttrs,
        result: Option<ir::Handle<ir::Expression>>,
        sig: &crate::sema::Sig<'a>,
        ret_loc: VkLoc,
        fspan: Span,
    ) -> Option<ir::Handle<ir::Function>> {
        let n = attrs.control_points;
        let uint = self.natural_type(super::semantics::TyKind::Uint);
        let inv_var = self.builtin_var(
            io,
            spirv::BuiltIn::InvocationId,
            IoDir::Input,
            "gl_InvocationID",
            uint,
        );
        let uit = self.s.ir_ty(types::UINT);
        let upty = self.ptr_type(uit, ir::AddressSpace::Input);
        let ip = self.add(ir::Expression::GlobalVariable(inv_var), upty);
        let inv = self.add(ir::Expression::Load { pointer: ip }, uit);
        if let Some(r) = result {
            let tree = self.vertex_io(
                io,
                IoDir::Output,
                sig.ret,
                n,
                sig.ret_semantic,
                ret_loc,
                "result",
                fspan,
            );
            if let Some(tree) = tree {
                self.store_vertex_io_at(&tree, r, inv, fspan);
            }
        }
        // Every control point is written before invocation 0 reads them.
        self.stmt(ir::Statement::Barrier {
            memory: ir::BarrierMemory::default(),
            execution: true,
        });
        let pcf = attrs.patch_constant_func?;
        let pcf_sig = self.s.decls.funcs[pcf].sig.clone()?;
        let pcf_ir = self.s.func_ir(pcf)?;
        let pspan = self.s.decls.funcs[pcf].ast.name.span;
        let zero = self.u32_lit(0);
        let bool_ty = self.s.ir_ty(types::BOOL);
        let first = self.add(
            ir::Expression::Binary {
                op: ir::BinaryOperator::Equal,
                left: inv,
                right: zero,
                precise: false,
            },
            bool_ty,
        );
        self.push_block();
        let mut args = Vec::new();
        let mut outs = Vec::new();
        for (i, p) in pcf_sig.params.iter().enumerate() {
            let pname = p.name.map(|s| s.to_string()).unwrap_or_default();
            match p.dir {
                Dir::In => {
                    let v = match (patch_param(self.s, pcf, i), self.s.types.get(p.ty).clone()) {
                        (Some(out), Ty::Array(elem, Some(k))) => {
                            if out && k != n {
                                self.s.push(
                                    Diagnostic::error(
                                        codes::SEMANTIC_TYPE,
                                        format!("the patch-constant function's `OutputPatch` has {k} control points, but the hull shader outputs {n}"),
                                    )
                                    .label(p.span, format!("{k} control points"))
                                    .label(fspan, format!("`[outputcontrolpoints({n})]`")),
                                );
                                None
                            } else if let Some(m) =
                                io.hull_input_points.filter(|&m| !out && m != k)
                            {
                                self.s.push(
                                    Diagnostic::error(
                                        codes::SEMANTIC_TYPE,
                                        format!("the patch-constant function's `InputPatch` has {k} control points, but the hull shader's has {m}"),
                                    )
                                    .label(p.span, format!("{k} control points"))
                                    .label(fspan, format!("its `InputPatch` has {m}")),
                                );
                                None
                            } else {
                                let dir = if out { IoDir::Output } else { IoDir::Input };
                                self.vertex_io(
                                    io,
                                    dir,
                                    elem,
                                    k,
                                    None,
                                    VkLoc::default(),
                                    &pname,
                                    p.span,
                                )
                                .and_then(|t| self.load_vertex_io(&t, k, p.span))
                            }
                        }
                        _ => self.stage_input(
                            io,
                            p.ty,
                            p.semantic,
                            p.interp,
                            p.sampling,
                            VkLoc::default(),
                            &pname,
                            p.span,
                        ),
                    };
                    match v {
                        Some(h) => args.push(h),
                        None => {
                            let it = self.s.ir_ty(p.ty);
                            args.push(self.zero(it));
                        }
                    }
                }
                Dir::Out | Dir::InOut => {
                    let (tmp, it) = self.temp(p.ty);
                    args.push(tmp);
                    outs.push((tmp, it, p.clone()));
                }
            }
        }
        self.s.work.record_call(self.fb.handle, pcf_ir, pspan);
        let result = if pcf_sig.ret == types::VOID {
            None
        } else {
            let rt = self.s.ir_ty(pcf_sig.ret);
            Some(self.add(ir::Expression::CallResult(pcf_ir), rt))
        };
        self.stmt(ir::Statement::Call {
            function: pcf_ir,
            arguments: args,
            result,
        });
        io.patch = true;
        let mut has_factors = false;
        if let Some(r) = result {
            has_factors |= self.has_tess_factor(pcf_sig.ret, pcf_sig.ret_semantic);
            self.stage_output(
                io,
                r,
                pcf_sig.ret,
                pcf_sig.ret_semantic,
                (None, None),
                pcf_sig.ret_precise,
                VkLoc::default(),
                "result",
                pspan,
            );
        }
        for (tmp, it, p) in outs {
            has_factors |= self.has_tess_factor(p.ty, p.semantic);
            let v = self.add(ir::Expression::Load { pointer: tmp }, it);
            let pname = p.name.map(|n| n.to_string()).unwrap_or_default();
            self.stage_output(
                io,
                v,
                p.ty,
                p.semantic,
                (p.interp, p.sampling),
                p.precise,
                VkLoc::default(),
                &pname,
                p.span,
            );
        }
        io.patch = false;
        if !has_factors {
            let name = self.s.decls.funcs[pcf].name;
            self.s.push(
                Diagnostic::error(
                    codes::BAD_SEMANTIC,
                    format!("the patch-constant function `{name}` outputs no `SV_TessFactor`"),
                )
                .label(pspan, "declared here")
                .note("return a struct with `float Edges[N] : SV_TessFactor` (and `SV_InsideTessFactor` for tri and quad domains)"),
            );
        }
        let accept = self.pop_block();
        self.stmt(ir::Statement::If {
            condition: first,
            accept,
            reject: Vec::new(),
            control: ir::SelectionControl::None,
        });
        Some(pcf_ir)
    }

    /// Whether a value of type `ty` with semantic `sem` holds `SV_TessFactor`.
    fn has_tess_factor(&self, ty: TyId, sem: Option<(Symbol, Span)>) -> bool {
        match sem {
            Some((s, _)) => super::tess::tess_factor_semantic(s.as_str()) == Some(false),
            None => self.s.types.as_struct(ty).is_some_and(|sid| {
                let info = self.s.types.struct_info(sid);
                info.base.is_some_and(|b| self.has_tess_factor(b, None))
                    || info
                        .fields
                        .iter()
                        .any(|f| self.has_tess_factor(f.ty, f.semantic))
            }),
        }
    }
}
