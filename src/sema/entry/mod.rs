//! The entry point: picking the function `-E` names, its attributes
//! (`[numthreads]`), and the wrapper DXC builds around it (SPIR-V.rst,
//! "Entry function wrapper"): the IR entry function takes no arguments; it
//! runs the non-constant `static` initialisers, loads stage inputs (builtins
//! for system values, locations for user semantics, struct parameters
//! assembled field by field), calls the user's function, and stores the
//! results to stage outputs.

pub mod arrayed;
pub mod geometry;
pub mod interface;
pub mod io;
pub mod library;
pub mod locations;
pub mod mesh;
pub mod mesh_calls;
pub mod mesh_nv;
pub mod mesh_store;
pub mod node;
pub mod patch;
pub mod raytracing;
pub mod semantics;
pub mod spirv_io;
pub mod sysvals;
pub mod tess;
pub mod vertex;

use super::{Dir, Sema};
use crate::diag::{Diagnostic, codes};
use crate::front::ast;
use crate::front::attributes::Attr;
use crate::intern::Symbol;
use crate::ir;
use crate::ir::Stage;
use crate::sema::body::{FnBuilder, FnCtx};
use crate::sema::decl::find_attr;
use crate::sema::types::resolve::Env;
use crate::sema::types::scope::{FuncDeclId, GLOBAL_SCOPE, Sym};
use crate::sema::types::{self};
use io::Io;

/// `[[vk::location(L)]]` and `[[vk::index(I)]]` of a stage variable.
#[derive(Clone, Copy, Default)]
pub(super) struct VkLoc {
    pub(super) location: Option<u32>,
    pub(super) index: Option<u32>,
    /// `[[vk::ext_decorate(/* BuiltIn */ 11, b)]]`: the variable is this
    /// built-in instead of a location.
    pub(super) builtin: Option<spirv::BuiltIn>,
}

impl<'a> Sema<'a> {
    /// The `vk::location`/`vk::index` attributes of an entry parameter.
    fn vk_loc(&mut self, attrs: &'a [ast::Attribute], id: FuncDeclId) -> VkLoc {
        let env = crate::sema::types::resolve::Env::at(self.decls.funcs[id].scope);
        let mut get = |kind: Attr| {
            find_attr(attrs, kind)
                .and_then(|a| a.args.first())
                .and_then(|e| self.const_int(e, &env))
                .map(|v| v as u32)
        };
        let location = get(Attr::VkLocation);
        let index = get(Attr::VkIndex);
        let (ext_location, builtin) = self.ext_stage_binding(attrs, &env);
        let vk_builtin = find_attr(attrs, Attr::VkBuiltin)
            .and_then(|a| a.string_arg(0))
            .and_then(spirv_io::vk_builtin);
        VkLoc {
            location: location.or(ext_location),
            index,
            builtin: builtin.or(vk_builtin),
        }
    }

    fn find_entry(&mut self) -> Option<FuncDeclId> {
        let name = Symbol::intern(&self.opts.entry);
        let list = match self.scopes.lookup_in(GLOBAL_SCOPE, name) {
            Some(Sym::Funcs(l)) => l.clone(),
            _ => Vec::new(),
        };
        let found: Vec<FuncDeclId> = list
            .into_iter()
            .filter(|id| {
                let d = &self.decls.funcs[*id];
                !d.is_template && d.def.is_some()
            })
            .collect();
        if let Some(&id) = found.first() {
            return Some(id);
        }
        // Functions that look like entry points (`[numthreads]`, other
        // stage attributes, semantics on parameters or result) first.
        let mut defined: Vec<(bool, String)> = self
            .decls
            .funcs
            .values()
            .filter(|d| {
                d.def.is_some() && d.this_ty.is_none() && self.scopes.get(d.scope).parent.is_none()
            })
            .map(|d| {
                let f = d.def.unwrap_or(d.ast);
                let entry_like = !f.attrs.is_empty()
                    || f.return_annotations.semantic.is_some()
                    || f.params.iter().any(|p| p.annotations.semantic.is_some());
                (!entry_like, d.name.to_string())
            })
            .collect();
        defined.sort();
        defined.dedup();
        let mut d = Diagnostic::error(
            codes::ENTRY_NOT_FOUND,
            format!("entry point `{}` is not defined", self.opts.entry),
        );
        // A near miss first: `-E Main` for `main`.
        let want = self.opts.entry.to_ascii_lowercase();
        if let Some((_, close)) = defined
            .iter()
            .filter(|(_, n)| {
                crate::diag::suggest::edit_distance(&n.to_ascii_lowercase(), &want) <= 2
            })
            .min_by_key(|(_, n)| {
                crate::diag::suggest::edit_distance(&n.to_ascii_lowercase(), &want)
            })
        {
            d = d.note(format!("did you mean `{close}`?"));
        }
        const SHOWN: usize = 12;
        let names: Vec<&str> = defined
            .iter()
            .take(SHOWN)
            .map(|(_, n)| n.as_str())
            .collect();
        d = if defined.is_empty() {
            d.note("the file defines no functions")
        } else if defined.len() > SHOWN {
            d.note(format!(
                "functions defined: {}, and {} more",
                names.join(", "),
                defined.len() - SHOWN
            ))
        } else {
            d.note(format!("functions defined: {}", names.join(", ")))
        };
        d = d.note("pick the entry point with -E NAME");
        self.push(d);
        None
    }

    /// `[numthreads(x, y, z)]`: required for compute, mesh and
    /// amplification shaders; each count at least 1, x and y at most 1024,
    /// z at most 64, and at most 1024 threads in total (D3D11+).
    fn numthreads(&mut self, id: FuncDeclId) -> [u32; 3] {
        let f = self.decls.funcs[id].def.unwrap_or(self.decls.funcs[id].ast);
        let decl = self.decls.funcs[id].ast;
        let attr = find_attr(&f.attrs, Attr::NumThreads)
            .or_else(|| find_attr(&decl.attrs, Attr::NumThreads));
        let Some(a) = attr else {
            self.push(
                Diagnostic::error(
                    codes::NUMTHREADS_MISSING,
                    format!(
                        "{} entry point `{}` has no `[numthreads]` attribute",
                        self.stage.name(),
                        f.name.last().name
                    ),
                )
                .label(f.name.span, "declared here")
                .note(
                    "add `[numthreads(X, Y, Z)]` before the function to give the thread group size",
                ),
            );
            return [1, 1, 1];
        };
        if a.args.len() != 3 {
            return [1, 1, 1]; // the parser reported it
        }
        let env = crate::sema::types::resolve::Env::at(self.decls.funcs[id].scope);
        let mut out = [1u32; 3];
        let limits = [1024i64, 1024, 64];
        let mut ok = true;
        for i in 0..3 {
            let Some(v) = self.const_int(&a.args[i], &env) else {
                ok = false;
                continue;
            };
            if v < 1 || v > limits[i] {
                self.error(
                    codes::NUMTHREADS_INVALID,
                    format!(
                        "thread group size {} must be between 1 and {}, not {v}",
                        ["X", "Y", "Z"][i],
                        limits[i]
                    ),
                    a.args[i].span,
                    "out of range",
                );
                ok = false;
                continue;
            }
            out[i] = v as u32;
        }
        let total = out[0] as u64 * out[1] as u64 * out[2] as u64;
        if ok && total > 1024 {
            self.push(
                Diagnostic::error(
                    codes::NUMTHREADS_INVALID,
                    format!("a thread group of {}x{}x{} = {total} threads is more than the limit of 1024", out[0], out[1], out[2]),
                )
                .label(a.span, "too many threads"),
            );
        }
        out
    }

    pub(super) fn lower_entry_point(&mut self) {
        if self.stage == Stage::Library {
            self.lower_library_entries();
            return;
        }
        let Some(id) = self.find_entry() else {
            return;
        };
        if !self.check_entry_shader_attribute(id) {
            return;
        }
        let entry_name = self
            .opts
            .entrypoint_name
            .clone()
            .unwrap_or_else(|| self.opts.entry.clone());
        self.lower_entry_function(id, entry_name);
    }

    /// The wrapper of entry function `id` (at the stage `self.stage`),
    /// named `entry_name` in `OpEntryPoint`, and its IR entry point.
    pub(super) fn lower_entry_function(&mut self, id: FuncDeclId, entry_name: String) {
        let mut node = None;
        let wg = if matches!(
            self.stage,
            Stage::Compute | Stage::Mesh | Stage::Amplification
        ) {
            self.numthreads(id)
        } else if self.stage == Stage::Node
            && let Some(sig) = self.decls.funcs[id].sig.clone()
        {
            let (n, wg) = self.node_entry(id, &sig);
            node = n;
            wg
        } else {
            [0, 0, 0]
        };
        self.check_mesh_calls(id);
        let Some(user) = self.func_ir(id) else {
            return;
        };
        self.undecorate_entry(user);
        let Some(sig) = self.decls.funcs[id].sig.clone() else {
            return;
        };
        if self.stage.is_ray_tracing() && !self.check_ray_tracing_signature(id, &sig) {
            return;
        }
        let stage_setup = self.stage_setup(id, &sig);
        self.check_interface(id, &sig);
        let fspan = self.decls.funcs[id].ast.name.span;
        self.module.functions[user].name = format!("src.{}", self.decls.funcs[id].name);
        self.entry.user = Some(user);
        let wrapper = self.module.functions.append(ir::Function {
            name: entry_name.clone(),
            span: fspan,
            ..Default::default()
        });
        self.work.set_name(wrapper, entry_name.clone(), fspan);
        self.entry.wrapper = Some(wrapper);
        let shell = std::mem::take(&mut self.module.functions[wrapper]);
        let (param_locs, param_decos): (Vec<VkLoc>, Vec<_>) = sig
            .params
            .iter()
            .map(|p| (self.vk_loc(p.attrs, id), self.stage_decorations(p.attrs, id)))
            .unzip();
        // `[[vk::location(N)]]` before the function places its result.
        let fdecl = self.decls.funcs[id].def.unwrap_or(self.decls.funcs[id].ast);
        let ret_loc = self.vk_loc(&fdecl.attrs, id);
        let ret_decos = self.stage_decorations(&fdecl.attrs, id);
        let fb = FnBuilder::new(shell, wrapper, types::VOID, GLOBAL_SCOPE);
        let mut cx = FnCtx::new(self, fb);
        cx.fb.locals.push();
        // Non-constant static initialisers run first, in declaration order.
        let inits = cx.s.entry.static_inits.clone();
        for (g, init, scope) in inits {
            cx.fb.scope = scope;
            let gv = cx.global_val(g);
            let (_, v) = cx.lower_initializer(gv.ty, init);
            if let (Some(p), Some(h)) = (gv.as_place().cloned(), cx.value(&v)) {
                cx.write_place(&p, gv.ty, h);
            }
        }
        cx.fb.scope = GLOBAL_SCOPE;
        let mut io = Io::default();
        let mut distances = Vec::new();
        if cx.s.stage == Stage::Pixel {
            // A pixel shader reads the distances the stage before wrote.
            for p in sig.params.iter().filter(|p| p.dir != Dir::Out) {
                cx.collect_distances(p.ty, p.semantic, &mut distances);
            }
        } else {
            cx.collect_distances(sig.ret, sig.ret_semantic, &mut distances);
            for p in sig.params.iter().filter(|p| p.dir != Dir::In) {
                cx.collect_distances(p.ty, p.semantic, &mut distances);
            }
        }
        distances.sort_unstable();
        for (cull, n, count) in distances {
            let size = &mut io.distance_sizes[usize::from(cull)];
            io.distance_offsets.push((cull, n, *size));
            *size += count;
        }
        stage_setup.prepare(&mut cx, &mut io, &sig, &entry_name);
        let value_refused = cx.refuse_compute_value(sig.ret, fspan);
        let mut args = Vec::new();
        let mut outs = Vec::new();
        let mut ray = raytracing::RayParams::default();
        for (i, (p, &vk)) in sig.params.iter().zip(&param_locs).enumerate() {
            let first_var = cx.s.module.globals.len();
            let decorate = |cx: &mut FnCtx| cx.s.decorate_stage_vars(first_var, &param_decos[i], vk);
            if let Some(arg) = cx.node_param(p) {
                args.push(arg);
                continue;
            }
            if let Some(arg) = cx.ray_tracing_param(&mut ray, i, p) {
                args.push(arg);
                continue;
            }
            let pname = p.name.map(|n| n.to_string()).unwrap_or_default();
            if p.dir != Dir::Out {
                cx.s.vertex_root(p.name, p.span);
            }
            if let Some(arg) = cx.stage_param(&mut io, id, i, p, vk, &pname) {
                let arg = arg.unwrap_or_else(|| {
                    let it = cx.s.ir_ty(p.ty);
                    cx.zero(it)
                });
                args.push(arg);
                decorate(&mut cx);
                continue;
            }
            match p.dir {
                Dir::In => {
                    let v = cx.stage_input(
                        &mut io, p.ty, p.semantic, p.interp, p.sampling, vk, &pname, p.span,
                    );
                    match v {
                        Some(h) => args.push(h),
                        None => {
                            let it = cx.s.ir_ty(p.ty);
                            args.push(cx.zero(it));
                        }
                    }
                }
                Dir::Out | Dir::InOut => {
                    let (tmp, it) = cx.temp(p.ty);
                    if p.dir == Dir::InOut
                        && let Some(h) = cx.stage_input(
                            &mut io, p.ty, p.semantic, p.interp, p.sampling, vk, &pname, p.span,
                        )
                    {
                        cx.stmt(ir::Statement::Store {
                            pointer: tmp,
                            value: h,
                        });
                    }
                    args.push(tmp);
                    outs.push((tmp, it, p.clone(), vk, i));
                }
            }
            decorate(&mut cx);
        }
        cx.s.work.record_call(wrapper, user, fspan);
        let result = if sig.ret == types::VOID {
            None
        } else {
            let rt = cx.s.ir_ty(sig.ret);
            Some(cx.add(ir::Expression::CallResult(user), rt))
        };
        cx.stmt(ir::Statement::Call {
            function: user,
            arguments: args,
            result,
        });
        cx.ray_tracing_copy_back(ray);
        let mut patch_constant_function = None;
        if let Some(hull) = &stage_setup.hull {
            patch_constant_function = cx.hull_tail(&mut io, hull, result, &sig, ret_loc, fspan);
        } else if let Some(r) = result
            && !value_refused
        {
            let first_var = cx.s.module.globals.len();
            cx.stage_output(
                &mut io,
                r,
                sig.ret,
                sig.ret_semantic,
                (None, None),
                sig.ret_precise,
                ret_loc,
                "result",
                fspan,
            );
            cx.s.decorate_stage_vars(first_var, &ret_decos, ret_loc);
        }
        for (tmp, it, p, vk, i) in outs {
            let first_var = cx.s.module.globals.len();
            let v = cx.add(ir::Expression::Load { pointer: tmp }, it);
            let pname = p.name.map(|n| n.to_string()).unwrap_or_default();
            cx.stage_output(
                &mut io,
                v,
                p.ty,
                p.semantic,
                (p.interp, p.sampling),
                p.precise,
                vk,
                &pname,
                p.span,
            );
            cx.s.decorate_stage_vars(first_var, &param_decos[i], vk);
        }
        cx.check_location_mix(&io);
        cx.stmt(ir::Statement::Return { value: None });
        let f = cx.finish();
        self.module.functions[wrapper] = f;
        let streams = self
            .entry
            .streams
            .iter()
            .map(|s| s.outputs.clone())
            .collect();
        let execution_modes = self.entry_execution_modes(id, stage_setup.modes, io.depth_mode);
        self.module.entry_points.push(ir::EntryPoint {
            name: entry_name,
            stage: self.stage,
            function: wrapper,
            workgroup_size: wg,
            node,
            execution_modes,
            patch_constant_function,
            streams,
        });
    }
}

impl<'a> Sema<'a> {
    /// The entry point's execution modes: its attributes', the stage's,
    /// the conservative depth mode, maximal reconvergence and the
    /// user's `[[vk::spvexecutionmode]]`s.
    fn entry_execution_modes(
        &mut self,
        id: FuncDeclId,
        stage_modes: Vec<(spirv::ExecutionMode, Vec<u32>)>,
        depth_mode: Option<spirv::ExecutionMode>,
    ) -> Vec<(spirv::ExecutionMode, Vec<u32>)> {
        let mut execution_modes = self.entry_attribute_modes(id);
        execution_modes.extend(stage_modes);
        execution_modes.extend(depth_mode.map(|m| (m, Vec::new())));
        let maximal = spirv::ExecutionMode::MaximallyReconvergesKHR;
        if self.opts.maximal_reconvergence && !execution_modes.iter().any(|(m, _)| *m == maximal) {
            execution_modes.push((maximal, Vec::new()));
        }
        let decl = &self.decls.funcs[id];
        let (attrs, scope): (&'a [ast::Attribute], _) = (&decl.ast.attrs, decl.scope);
        execution_modes.extend(self.spirv_execution_modes(attrs, &Env::at(scope)));
        execution_modes
    }

    /// Execution modes the entry point's attributes ask for (pixel shaders
    /// only); the backend adds the capabilities and extensions each needs.
    fn entry_attribute_modes(&mut self, id: FuncDeclId) -> Vec<(spirv::ExecutionMode, Vec<u32>)> {
        use spirv::ExecutionMode as EM;
        // An attribute and its execution modes.
        #[rustfmt::skip]
        let table: &[(Attr, &[EM])] = &[
            (Attr::EarlyDepthStencil, &[EM::EarlyFragmentTests]),
            (Attr::VkPostDepthCoverage, &[EM::PostDepthCoverage]),
            (Attr::VkEarlyAndLateTests, &[EM::EarlyAndLateFragmentTestsAMD]),
            (Attr::VkDepthUnchanged, &[EM::DepthUnchanged]),
            // SPIR-V.rst: helper lanes take part in wave operations.
            (Attr::WaveOpsIncludeHelperLanes, &[EM::MaximallyReconvergesKHR, EM::RequireFullQuadsKHR]),
            (Attr::VkStencilRefUnchangedFront, &[EM::StencilRefUnchangedFrontAMD]),
            (Attr::VkStencilRefGreaterEqualFront, &[EM::StencilRefGreaterFrontAMD]),
            (Attr::VkStencilRefLessEqualFront, &[EM::StencilRefLessFrontAMD]),
            (Attr::VkStencilRefUnchangedBack, &[EM::StencilRefUnchangedBackAMD]),
            (Attr::VkStencilRefGreaterEqualBack, &[EM::StencilRefGreaterBackAMD]),
            (Attr::VkStencilRefLessEqualBack, &[EM::StencilRefLessBackAMD]),
        ];
        let f = self.decls.funcs[id].ast;
        let mut modes = Vec::new();
        for &(kind, ems) in table {
            let Some(a) = find_attr(&f.attrs, kind) else {
                continue;
            };
            if self.stage != Stage::Pixel {
                self.push(
                    Diagnostic::warning(
                        codes::IGNORED_SYNTAX,
                        format!(
                            "`{}` applies to pixel shaders only and is ignored",
                            kind.spelling()
                        ),
                    )
                    .label(a.span, "ignored"),
                );
                continue;
            }
            modes.extend(ems.iter().map(|&m| (m, Vec::new())));
        }
        // One stencil-reference promise per face.
        let faces = [
            (
                "front",
                [
                    Attr::VkStencilRefUnchangedFront,
                    Attr::VkStencilRefGreaterEqualFront,
                    Attr::VkStencilRefLessEqualFront,
                ],
            ),
            (
                "back",
                [
                    Attr::VkStencilRefUnchangedBack,
                    Attr::VkStencilRefGreaterEqualBack,
                    Attr::VkStencilRefLessEqualBack,
                ],
            ),
        ];
        for (face, kinds) in faces {
            let given: Vec<&ast::Attribute> = kinds
                .iter()
                .filter_map(|&k| find_attr(&f.attrs, k))
                .collect();
            if given.len() > 1 {
                self.push(
                    Diagnostic::error(
                        codes::BAD_ATTRIBUTE,
                        format!("more than one `vk::stencil_ref_*_{face}` attribute"),
                    )
                    .label(given[1].span, "second one")
                    .label(given[0].span, "first one"),
                );
            }
        }
        modes
    }

    /// Execution modes known once every reachable function is lowered.
    pub(super) fn finish_entry_point(&mut self) {
        let Some(ep) = self.module.entry_points.last_mut() else {
            return;
        };
        use spirv::ExecutionMode as EM;
        // (-Gis and -denorm execution modes are added by
        // `passes::float_controls`.)
        // Derivatives in compute-like shaders (SM 6.6): quads when the
        // group is a whole number of 2x2 quads, else linear groups of 4
        // (SPV_NV/KHR_compute_shader_derivatives).
        if self.entry.uses_derivatives
            && matches!(
                self.stage,
                Stage::Compute | Stage::Mesh | Stage::Amplification
            )
        {
            let [x, y, _] = ep.workgroup_size;
            let mode = if x % 2 == 0 && y % 2 == 0 {
                EM::DerivativeGroupQuadsKHR
            } else {
                EM::DerivativeGroupLinearKHR
            };
            ep.execution_modes.push((mode, Vec::new()));
        }
    }
}

impl FnCtx<'_, '_> {
    /// Reports a compute entry point that returns a value (its value goes
    /// nowhere); whether it did, so that the value is not also reported as
    /// an output without a semantic.
    fn refuse_compute_value(&mut self, ret: types::TyId, span: crate::span::Span) -> bool {
        let refused = self.s.stage == Stage::Compute && ret != types::VOID;
        if refused {
            self.s.error(
                codes::BAD_SEMANTIC,
                "a compute shader entry point must return `void`",
                span,
                "returns a value",
            );
        }
        refused
    }
}
