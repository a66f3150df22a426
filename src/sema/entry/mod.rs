//! The entry point: picking the function `-E` names, its attributes
//! (`[numthreads]`), and the wrapper DXC builds around it (SPIR-V.rst,
//! "Entry function wrapper"): the IR entry function takes no arguments; it
//! runs the non-constant `static` initialisers, loads stage inputs (builtins
//! for system values, locations for user semantics, struct parameters
//! assembled field by field), calls the user's function, and stores the
//! results to stage outputs.

use super::{Dir, Sema};
use crate::diag::{Diagnostic, codes};
use crate::front::ast;
use crate::intern::Symbol;
use crate::ir;
use crate::options::Stage;
use crate::sema::body::place::Val;
use crate::sema::body::{FnBuilder, FnCtx};
use crate::sema::decl::find_attr;
use crate::sema::types::scope::{FuncDeclId, GLOBAL_SCOPE, Sym};
use crate::sema::types::{self, Sc, Ty, TyId};
use crate::span::Span;

/// Direction of a stage interface variable.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum IoDir {
    Input,
    Output,
}

/// A system-value semantic as a builtin: the builtin, its natural HLSL
/// type, and the name DXC gives the variable.
/// `SV_ClipDistanceN` → `(false, N)`, `SV_CullDistanceN` → `(true, N)`.
fn distance_semantic(sem: &str) -> Option<(bool, u32)> {
    let s = sem.to_ascii_lowercase();
    let (cull, rest) = if let Some(r) = s.strip_prefix("sv_clipdistance") {
        (false, r)
    } else {
        (true, s.strip_prefix("sv_culldistance")?)
    };
    let n = if rest.is_empty() {
        0
    } else {
        rest.parse().ok()?
    };
    Some((cull, n))
}

fn system_value(
    stage: Stage,
    dir: IoDir,
    sem: &str,
) -> Option<(spirv::BuiltIn, &'static str, TyKind)> {
    use spirv::BuiltIn as B;
    let s = sem.to_ascii_lowercase();
    Some(match (stage, dir, s.as_str()) {
        (
            Stage::Compute | Stage::Mesh | Stage::Amplification,
            IoDir::Input,
            "sv_dispatchthreadid",
        ) => (
            B::GlobalInvocationId,
            "gl_GlobalInvocationID",
            TyKind::Uint3,
        ),
        (Stage::Compute | Stage::Mesh | Stage::Amplification, IoDir::Input, "sv_groupid") => {
            (B::WorkgroupId, "gl_WorkGroupID", TyKind::Uint3)
        }
        (Stage::Compute | Stage::Mesh | Stage::Amplification, IoDir::Input, "sv_groupthreadid") => {
            (B::LocalInvocationId, "gl_LocalInvocationID", TyKind::Uint3)
        }
        (Stage::Compute | Stage::Mesh | Stage::Amplification, IoDir::Input, "sv_groupindex") => (
            B::LocalInvocationIndex,
            "gl_LocalInvocationIndex",
            TyKind::Uint,
        ),
        (Stage::Vertex, IoDir::Input, "sv_vertexid") => {
            (B::VertexIndex, "gl_VertexIndex", TyKind::Uint)
        }
        (Stage::Vertex, IoDir::Input, "sv_instanceid") => {
            (B::InstanceIndex, "gl_InstanceIndex", TyKind::Uint)
        }
        (Stage::Vertex | Stage::Domain | Stage::Geometry, IoDir::Output, "sv_position") => {
            (B::Position, "gl_Position", TyKind::Float4)
        }
        (Stage::Pixel, IoDir::Input, "sv_position") => {
            (B::FragCoord, "gl_FragCoord", TyKind::Float4)
        }
        (Stage::Pixel, IoDir::Input, "sv_isfrontface") => {
            (B::FrontFacing, "gl_FrontFacing", TyKind::Bool)
        }
        (Stage::Pixel, IoDir::Input, "sv_sampleindex") => {
            (B::SampleId, "gl_SampleID", TyKind::Uint)
        }
        (Stage::Pixel | Stage::Geometry, IoDir::Input, "sv_primitiveid") => {
            (B::PrimitiveId, "gl_PrimitiveID", TyKind::Uint)
        }
        (Stage::Pixel, IoDir::Output, "sv_depth") => (B::FragDepth, "gl_FragDepth", TyKind::Float),
        _ => return None,
    })
}

#[derive(Clone, Copy, Debug)]
enum TyKind {
    Uint,
    Uint3,
    Float,
    Float4,
    Bool,
}

/// State of one entry point's interface while it is built.
#[derive(Default)]
struct Io {
    next_in: u32,
    next_out: u32,
    /// Where a user-semantic input / output got its location from
    /// `[[vk::location]]` (the span) and where one got it automatically:
    /// DXC rejects a mix, as the automatic ones could collide.
    explicit_in: Option<Span>,
    auto_in: Option<Span>,
    explicit_out: Option<Span>,
    auto_out: Option<Span>,
    /// The `SV_ClipDistanceN` / `SV_CullDistanceN` outputs, packed into
    /// one float array each (SPIR-V.rst, "ClipDistance & CullDistance"):
    /// `(cull, N, offset)`, and the arrays' sizes.
    distance_offsets: Vec<(bool, u32, u32)>,
    distance_sizes: [u32; 2],
    builtins: Vec<(spirv::BuiltIn, IoDir, ir::Handle<ir::GlobalVariable>)>,
}

/// `[[vk::location(L)]]` and `[[vk::index(I)]]` of a stage variable.
#[derive(Clone, Copy, Default)]
struct VkLoc {
    location: Option<u32>,
    index: Option<u32>,
}

impl<'a> Sema<'a> {
    /// An Input built-in read by an intrinsic (one global per built-in).
    pub fn builtin_input(
        &mut self,
        b: spirv::BuiltIn,
        name: &str,
        ty: TyId,
    ) -> ir::Handle<ir::GlobalVariable> {
        if let Some((h, _)) = self.module.globals.iter().find(|(_, g)| {
            g.io == Some(ir::Binding::BuiltIn(b)) && g.space == ir::AddressSpace::Input
        }) {
            return h;
        }
        let it = self.ir_ty(ty);
        self.module.globals.append(ir::GlobalVariable {
            name: Some(name.into()),
            space: ir::AddressSpace::Input,
            ty: it,
            init: None,
            binding: None,
            io: Some(ir::Binding::BuiltIn(b)),
            precise: false,
            invariant: false,
            semantic: None,
            counter: None,
        })
    }

    /// The `vk::location`/`vk::index` attributes of an entry parameter.
    fn vk_loc(&mut self, attrs: &'a [ast::Attribute], id: FuncDeclId) -> VkLoc {
        let env = crate::sema::types::resolve::Env::at(self.decls.funcs[id].scope);
        let mut get = |name: &str| {
            find_attr(attrs, name)
                .and_then(|a| a.args.first())
                .and_then(|e| self.const_int(e, &env))
                .map(|v| v as u32)
        };
        VkLoc {
            location: get("vk::location"),
            index: get("vk::index"),
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
        let attr =
            find_attr(&f.attrs, "numthreads").or_else(|| find_attr(&decl.attrs, "numthreads"));
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
            self.error(
                codes::NUMTHREADS_INVALID,
                format!("`numthreads` takes 3 arguments, {} given", a.args.len()),
                a.span,
                "expected `numthreads(X, Y, Z)`",
            );
            return [1, 1, 1];
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
            self.push(Diagnostic::error(
                codes::UNSUPPORTED,
                "not supported yet: library targets (lib_6_x)",
            ));
            return;
        }
        let Some(id) = self.find_entry() else {
            return;
        };
        let wg = if matches!(
            self.stage,
            Stage::Compute | Stage::Mesh | Stage::Amplification
        ) {
            self.numthreads(id)
        } else {
            [0, 0, 0]
        };
        let Some(user) = self.func_ir(id) else {
            return;
        };
        let Some(sig) = self.decls.funcs[id].sig.clone() else {
            return;
        };
        let fspan = self.decls.funcs[id].ast.name.span;
        let entry_name = self
            .opts
            .entrypoint_name
            .clone()
            .unwrap_or_else(|| self.opts.entry.clone());
        self.module.functions[user].name = format!("src.{}", self.opts.entry);
        self.entry.user = Some(user);
        let wrapper = self.module.functions.append(ir::Function {
            name: entry_name.clone(),
            ..Default::default()
        });
        self.work.set_name(wrapper, entry_name.clone(), fspan);
        self.entry.wrapper = Some(wrapper);
        let shell = std::mem::take(&mut self.module.functions[wrapper]);
        let param_locs: Vec<VkLoc> = sig
            .params
            .iter()
            .map(|p| self.vk_loc(p.attrs, id))
            .collect();
        // `[[vk::location(N)]]` before the function places its result.
        let fdecl = self.decls.funcs[id].def.unwrap_or(self.decls.funcs[id].ast);
        let ret_loc = self.vk_loc(&fdecl.attrs, id);
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
        cx.collect_distances(sig.ret, sig.ret_semantic, &mut distances);
        for p in sig.params.iter().filter(|p| p.dir != Dir::In) {
            cx.collect_distances(p.ty, p.semantic, &mut distances);
        }
        distances.sort_unstable();
        for (cull, n, count) in distances {
            let size = &mut io.distance_sizes[usize::from(cull)];
            io.distance_offsets.push((cull, n, *size));
            *size += count;
        }
        if cx.s.stage == Stage::Compute && sig.ret != types::VOID {
            cx.s.error(
                codes::BAD_SEMANTIC,
                "a compute shader entry point must return `void`",
                fspan,
                "returns a value",
            );
        }
        let mut args = Vec::new();
        let mut outs = Vec::new();
        for (p, &vk) in sig.params.iter().zip(&param_locs) {
            let pname = p.name.map(|n| n.to_string()).unwrap_or_default();
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
                    outs.push((tmp, it, p.clone(), vk));
                }
            }
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
        if let Some(r) = result {
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
        }
        for (tmp, it, p, vk) in outs {
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
        }
        cx.check_location_mix(&io);
        cx.stmt(ir::Statement::Return { value: None });
        let f = cx.finish();
        self.module.functions[wrapper] = f;
        let execution_modes = self.entry_attribute_modes(id);
        self.module.entry_points.push(ir::EntryPoint {
            name: entry_name,
            stage: self.stage,
            function: wrapper,
            workgroup_size: wg,
            execution_modes,
            patch_constant_function: None,
        });
    }
}

impl<'a> Sema<'a> {
    /// Execution modes the entry point's attributes ask for (pixel shaders
    /// only), with the capabilities and extensions each needs.
    fn entry_attribute_modes(&mut self, id: FuncDeclId) -> Vec<(spirv::ExecutionMode, Vec<u32>)> {
        use spirv::Capability as C;
        use spirv::ExecutionMode as EM;
        const EARLY_LATE: &str = "SPV_AMD_shader_early_and_late_fragment_tests";
        #[rustfmt::skip]
        let table: &[(&str, &[EM], &[C], &[&str])] = &[
            ("earlydepthstencil", &[EM::EarlyFragmentTests], &[], &[]),
            ("vk::post_depth_coverage", &[EM::PostDepthCoverage],
                &[C::SampleMaskPostDepthCoverage], &["SPV_KHR_post_depth_coverage"]),
            ("vk::early_and_late_tests", &[EM::EarlyAndLateFragmentTestsAMD], &[], &[EARLY_LATE]),
            ("vk::depth_unchanged", &[EM::DepthUnchanged], &[], &[]),
            ("vk::stencil_ref_unchanged_front", &[EM::StencilRefUnchangedFrontAMD],
                &[C::StencilExportEXT], &[EARLY_LATE, "SPV_EXT_shader_stencil_export"]),
            ("vk::stencil_ref_greater_equal_front", &[EM::StencilRefGreaterFrontAMD],
                &[C::StencilExportEXT], &[EARLY_LATE, "SPV_EXT_shader_stencil_export"]),
            ("vk::stencil_ref_less_equal_front", &[EM::StencilRefLessFrontAMD],
                &[C::StencilExportEXT], &[EARLY_LATE, "SPV_EXT_shader_stencil_export"]),
            ("vk::stencil_ref_unchanged_back", &[EM::StencilRefUnchangedBackAMD],
                &[C::StencilExportEXT], &[EARLY_LATE, "SPV_EXT_shader_stencil_export"]),
            ("vk::stencil_ref_greater_equal_back", &[EM::StencilRefGreaterBackAMD],
                &[C::StencilExportEXT], &[EARLY_LATE, "SPV_EXT_shader_stencil_export"]),
            ("vk::stencil_ref_less_equal_back", &[EM::StencilRefLessBackAMD],
                &[C::StencilExportEXT], &[EARLY_LATE, "SPV_EXT_shader_stencil_export"]),
        ];
        let f = self.decls.funcs[id].ast;
        let mut modes = Vec::new();
        for &(name, ems, caps, exts) in table {
            let Some(a) = find_attr(&f.attrs, name) else {
                continue;
            };
            if self.stage != Stage::Pixel {
                self.push(
                    Diagnostic::warning(
                        codes::IGNORED_SYNTAX,
                        format!("`{name}` applies to pixel shaders only and is ignored"),
                    )
                    .label(a.span, "ignored"),
                );
                continue;
            }
            for &cap in caps {
                if !self.module.required_capabilities.contains(&cap) {
                    self.module.required_capabilities.push(cap);
                }
            }
            for &ext in exts {
                if !self.module.required_extensions.iter().any(|e| e == ext) {
                    self.module.required_extensions.push(ext.to_string());
                }
            }
            modes.extend(ems.iter().map(|&m| (m, Vec::new())));
        }
        // One stencil-reference promise per face.
        for face in ["front", "back"] {
            let given: Vec<&ast::Attribute> = ["unchanged", "greater_equal", "less_equal"]
                .iter()
                .filter_map(|k| find_attr(&f.attrs, &format!("vk::stencil_ref_{k}_{face}")))
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
            let (mode, cap) = if x % 2 == 0 && y % 2 == 0 {
                (
                    EM::DerivativeGroupQuadsKHR,
                    spirv::Capability::ComputeDerivativeGroupQuadsKHR,
                )
            } else {
                (
                    EM::DerivativeGroupLinearKHR,
                    spirv::Capability::ComputeDerivativeGroupLinearKHR,
                )
            };
            ep.execution_modes.push((mode, Vec::new()));
            // The KHR extension shares the NV one's capabilities; the NV
            // name is the one SPIR-V tools and drivers of today all know.
            let ext = "SPV_NV_compute_shader_derivatives";
            if !self.module.required_capabilities.contains(&cap) {
                self.module.required_capabilities.push(cap);
            }
            if !self.module.required_extensions.iter().any(|e| e == ext) {
                self.module.required_extensions.push(ext.to_string());
            }
        }
    }
}

impl<'s, 'a> FnCtx<'s, 'a> {
    fn builtin_var(
        &mut self,
        io: &mut Io,
        b: spirv::BuiltIn,
        dir: IoDir,
        name: &str,
        ty: TyId,
    ) -> ir::Handle<ir::GlobalVariable> {
        if let Some(&(_, _, g)) = io.builtins.iter().find(|(x, d, _)| *x == b && *d == dir) {
            return g;
        }
        let it = self.s.ir_ty(ty);
        let g = self.s.module.globals.append(ir::GlobalVariable {
            name: Some(name.into()),
            space: if dir == IoDir::Input {
                ir::AddressSpace::Input
            } else {
                ir::AddressSpace::Output
            },
            ty: it,
            init: None,
            binding: None,
            io: Some(ir::Binding::BuiltIn(b)),
            precise: false,
            invariant: false,
            semantic: None,
            counter: None,
        });
        io.builtins.push((b, dir, g));
        g
    }

    fn natural_type(&mut self, k: TyKind) -> TyId {
        match k {
            TyKind::Uint => types::UINT,
            TyKind::Uint3 => self.s.types.vector(Sc::U32, 3),
            TyKind::Float => types::FLOAT,
            TyKind::Float4 => self.s.types.vector(Sc::F32, 4),
            TyKind::Bool => types::BOOL,
        }
    }

    /// The `SV_ClipDistanceN`/`SV_CullDistanceN` semantics among the
    /// outputs of type `ty` with semantic `sem` (struct members included):
    /// `(cull, N, components)`.
    fn collect_distances(
        &self,
        ty: TyId,
        sem: Option<(Symbol, Span)>,
        out: &mut Vec<(bool, u32, u32)>,
    ) {
        match sem {
            Some((name, _)) => {
                if let Some((cull, n)) = distance_semantic(name.as_str()) {
                    let count = self.s.types.shape(ty).map_or(1, |s| s.count());
                    out.push((cull, n, count));
                }
            }
            None => {
                if let Some(sid) = self.s.types.as_struct(ty) {
                    let info = self.s.types.struct_info(sid);
                    if let Some(b) = info.base {
                        self.collect_distances(b, None, out);
                    }
                    for f in &info.fields {
                        self.collect_distances(f.ty, f.semantic, out);
                    }
                }
            }
        }
    }

    /// Writes an `SV_ClipDistanceN`/`SV_CullDistanceN` output value into its
    /// elements of the stage's one `ClipDistance`/`CullDistance` array.
    fn store_distance(
        &mut self,
        io: &mut Io,
        v: ir::Handle<ir::Expression>,
        ty: TyId,
        (cull, n): (bool, u32),
        span: Span,
    ) {
        let Some(&(_, _, offset)) = io
            .distance_offsets
            .iter()
            .find(|&&(c, k, _)| c == cull && k == n)
        else {
            return;
        };
        let Some(shape) = self.s.types.shape(ty) else {
            self.s.error(
                codes::BAD_SEMANTIC,
                "a clip or cull distance is a float or a vector of floats",
                span,
                "not a float scalar or vector",
            );
            return;
        };
        let count = shape.count();
        let size = io.distance_sizes[usize::from(cull)];
        let arr = self.s.types.array(types::FLOAT, Some(size));
        let (b, name) = if cull {
            (spirv::BuiltIn::CullDistance, "gl_CullDistance")
        } else {
            (spirv::BuiltIn::ClipDistance, "gl_ClipDistance")
        };
        let g = self.builtin_var(io, b, IoDir::Output, name, arr);
        let float_ty = self.s.types.with_shape(Sc::F32, shape);
        let c = self.cast(Val::expr(ty, v), float_ty, span);
        let Some(h) = self.value(&c) else { return };
        let at = self.s.ir_ty(arr);
        let ft = self.s.ir_ty(types::FLOAT);
        let apty = self.ptr_type(at, ir::AddressSpace::Output);
        let fpty = self.ptr_type(ft, ir::AddressSpace::Output);
        let base = self.add(ir::Expression::GlobalVariable(g), apty);
        for i in 0..count {
            let component = if count == 1 {
                h
            } else {
                self.add(ir::Expression::AccessIndex { base: h, index: i }, ft)
            };
            let p = self.add(
                ir::Expression::AccessIndex {
                    base,
                    index: offset + i,
                },
                fpty,
            );
            self.stmt(ir::Statement::Store {
                pointer: p,
                value: component,
            });
        }
    }

    /// DXC's rule: either every user-semantic stage variable of a direction
    /// has `[[vk::location]]` or none has, since automatic locations could
    /// land on explicit ones.
    fn check_location_mix(&mut self, io: &Io) {
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

    /// Builds the value of an entry input of type `ty` from stage inputs.
    #[allow(clippy::too_many_arguments)]
    fn stage_input(
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
                    comps.push(self.stage_input(
                        io,
                        f.ty,
                        f.semantic,
                        f.interp.or(interp),
                        f.sampling.or(sampling),
                        VkLoc {
                            location: f.vk_location,
                            index: f.vk_index,
                        },
                        &fname,
                        f.span,
                    )?);
                }
                let it = self.s.ir_ty(ty);
                return Some(self.add(
                    ir::Expression::Compose {
                        ty: it,
                        components: comps,
                    },
                    it,
                ));
            }
            self.s.push(
                Diagnostic::error(
                    codes::BAD_SEMANTIC,
                    format!("entry point parameter `{name}` has no semantic"),
                )
                .label(span, "needs a semantic such as `: SV_DispatchThreadID`"),
            );
            return None;
        }
        let (sname, sspan) = sem?;
        if let Some((b, vname, nat)) = system_value(self.s.stage, IoDir::Input, sname.as_str()) {
            let nt = self.natural_type(nat);
            let ok = match (nat, self.s.types.get(ty)) {
                (TyKind::Uint | TyKind::Uint3, Ty::Scalar(s))
                | (TyKind::Uint | TyKind::Uint3, Ty::Vector(s, _)) => s.is_int(),
                (TyKind::Float4 | TyKind::Float, Ty::Scalar(s))
                | (TyKind::Float4 | TyKind::Float, Ty::Vector(s, _)) => s.is_float(),
                (TyKind::Bool, Ty::Scalar(_)) => true,
                _ => false,
            };
            let fits = match (nat, self.s.types.get(ty)) {
                (TyKind::Uint3, Ty::Vector(_, n)) => *n <= 3,
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
            let it = self.s.ir_ty(nt);
            let pty = self.ptr_type(it, ir::AddressSpace::Input);
            let p = self.add(ir::Expression::GlobalVariable(g), pty);
            let v = self.add(ir::Expression::Load { pointer: p }, it);
            let c = self.cast(Val::expr(nt, v), ty, span);
            return self.value(&c);
        }
        if sname.as_str().to_ascii_lowercase().starts_with("sv_")
            || matches!(self.s.stage, Stage::Compute)
        {
            self.s.push(
                Diagnostic::error(
                    codes::BAD_SEMANTIC,
                    format!("`{sname}` is not an input of {} shaders", self.s.stage.name()),
                )
                .label(sspan, "unknown or unsupported here")
                .note(if matches!(self.s.stage, Stage::Compute) {
                    "compute shaders take SV_DispatchThreadID, SV_GroupID, SV_GroupThreadID and SV_GroupIndex"
                } else {
                    "check the semantic's spelling and stage"
                }),
            );
            return None;
        }
        // A user semantic: its `[[vk::location]]`, or the next location.
        let location = match vk.location {
            Some(l) => {
                io.explicit_in.get_or_insert(span);
                l
            }
            None => {
                io.auto_in.get_or_insert(sspan);
                let l = io.next_in;
                io.next_in += self.location_count(ty);
                l
            }
        };
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
        let g = self.s.module.globals.append(ir::GlobalVariable {
            name: Some(format!("in.var.{sname}")),
            space: ir::AddressSpace::Input,
            ty: it,
            init: None,
            binding: None,
            io: Some(ir::Binding::Location {
                location,
                index: None,
                interpolation: if self.s.stage == Stage::Pixel {
                    interpolation
                } else {
                    None
                },
                sampling: if self.s.stage == Stage::Pixel {
                    sampling
                } else {
                    None
                },
                patch: false,
            }),
            precise: false,
            invariant: false,
            semantic: Some(sname.to_string()),
            counter: None,
        });
        let pty = self.ptr_type(it, ir::AddressSpace::Input);
        let p = self.add(ir::Expression::GlobalVariable(g), pty);
        let v = self.add(ir::Expression::Load { pointer: p }, it);
        if var_ty == ty {
            return Some(v);
        }
        let c = self.cast(Val::expr(var_ty, v), ty, span);
        self.value(&c)
    }

    /// The type of the stage variable for a value of type `ty`: bools
    /// become uints.
    fn io_type(&mut self, ty: TyId) -> TyId {
        match self.s.types.component(ty) {
            Some(Sc::Bool) if matches!(self.s.types.get(ty), Ty::Scalar(_) | Ty::Vector(..)) => {
                self.s.types.with_component(ty, Sc::U32)
            }
            _ => ty,
        }
    }

    /// Locations a value takes (one per row of a matrix, per array element).
    fn location_count(&self, ty: TyId) -> u32 {
        match *self.s.types.get(ty) {
            Ty::Matrix(_, r, _) => r as u32,
            Ty::Array(e, n) => self.location_count(e) * n.unwrap_or(1),
            Ty::Struct(sid) => self
                .s
                .types
                .struct_info(sid)
                .fields
                .iter()
                .map(|f| self.location_count(f.ty))
                .sum(),
            _ => 1,
        }
    }

    /// Stores an entry result (or out parameter) of type `ty` to stage
    /// outputs. `modes` are the interpolation modifiers of the parameter
    /// (struct members' own ones take precedence).
    #[allow(clippy::too_many_arguments)]
    fn stage_output(
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
                    self.stage_output(
                        io,
                        e,
                        f.ty,
                        f.semantic,
                        (f.interp.or(modes.0), f.sampling.or(modes.1)),
                        precise || f.precise,
                        VkLoc {
                            location: f.vk_location,
                            index: f.vk_index,
                        },
                        &fname,
                        f.span,
                    );
                }
                return;
            }
            self.s.push(
                Diagnostic::error(
                    codes::BAD_SEMANTIC,
                    format!("entry point output `{name}` has no semantic"),
                )
                .label(span, "needs a semantic such as `: SV_Target`"),
            );
            return;
        }
        let Some((sname, sspan)) = sem else { return };
        if let Some(d) = distance_semantic(sname.as_str())
            && matches!(
                self.s.stage,
                Stage::Vertex | Stage::Domain | Stage::Geometry
            )
        {
            self.store_distance(io, v, ty, d, span);
            return;
        }
        if let Some((b, vname, nat)) = system_value(self.s.stage, IoDir::Output, sname.as_str()) {
            let nt = self.natural_type(nat);
            let g = self.builtin_var(io, b, IoDir::Output, vname, nt);
            self.s.module.globals[g].precise |= precise;
            let c = self.cast(Val::expr(ty, v), nt, span);
            let Some(h) = self.value(&c) else { return };
            let it = self.s.ir_ty(nt);
            let pty = self.ptr_type(it, ir::AddressSpace::Output);
            let p = self.add(ir::Expression::GlobalVariable(g), pty);
            self.stmt(ir::Statement::Store {
                pointer: p,
                value: h,
            });
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
        } else if lower.starts_with("sv_")
            || self.s.stage == Stage::Compute
            || self.s.stage == Stage::Pixel
        {
            self.s.push(
                Diagnostic::error(
                    codes::BAD_SEMANTIC,
                    format!(
                        "`{sname}` is not an output of {} shaders",
                        self.s.stage.name()
                    ),
                )
                .label(sspan, "unknown or unsupported here"),
            );
            return;
        } else if let Some(l) = vk.location {
            io.explicit_out.get_or_insert(span);
            l
        } else {
            io.auto_out.get_or_insert(sspan);
            let l = io.next_out;
            io.next_out += self.location_count(ty);
            l
        };
        if vk.index.is_some() && self.s.stage != Stage::Pixel {
            self.s.error(
                codes::BAD_ATTRIBUTE,
                "`vk::index` applies to pixel shader outputs only",
                span,
                "not a pixel shader output",
            );
        }
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
        // Vertex and mesh shader outputs carry their interpolation
        // modifiers as decorations, integers `Flat`, like the pixel shader
        // inputs they feed: DXC's mapping (SPIR-V.rst, "Interpolation
        // modes") decorates both sides. Pixel shader outputs must have none
        // (VUID-StandaloneSpirv-Flat-06202).
        let (interpolation, sampling) = if matches!(self.s.stage, Stage::Vertex | Stage::Mesh) {
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
                patch: false,
            }),
            precise,
            invariant: false,
            semantic: Some(sname.to_string()),
            counter: None,
        });
        let pty = self.ptr_type(it, ir::AddressSpace::Output);
        let p = self.add(ir::Expression::GlobalVariable(g), pty);
        self.stmt(ir::Statement::Store {
            pointer: p,
            value: v,
        });
    }
}
