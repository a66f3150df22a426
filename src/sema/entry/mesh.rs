//! Mesh and amplification shaders (SPIR-V.rst, "Mesh and Amplification
//! Shaders"; D3D12 mesh shader spec): `[outputtopology]` and the output
//! counts as execution modes, the `out vertices`/`out indices`/`out
//! primitives` arrays as arrayed stage outputs (per-primitive ones
//! decorated `PerPrimitiveEXT`), the payload (`in payload` of a mesh
//! shader, the groupshared argument of `DispatchMesh`) in
//! `TaskPayloadWorkgroupEXT`, and `SetMeshOutputCounts`/`DispatchMesh`.
//!
//! Mesh outputs are shared by the whole thread group and written element
//! by element from many threads, so an assignment to `verts[i].field`
//! stores straight into the output variable of that field
//! ([`FnCtx::mesh_assign`]); the parameter itself is never copied.

use super::VkLoc;
use super::arrayed::VertexIo;
use super::io::Io;
use super::semantics::IoDir;
use crate::diag::{Diagnostic, codes};
use crate::front::ast;
use crate::front::attributes::Attr;
use crate::intern::Symbol;
use crate::ir;
use crate::ir::Stage;
use crate::sema::body::place::Val;
use crate::sema::body::{FnCtx, LocalSym};
use crate::sema::types::scope::FuncDeclId;
use crate::sema::types::{self, Sc, Ty, TyId};
use crate::sema::{Dir, ParamSig, Sema};
use crate::span::Span;
use spirv::ExecutionMode as EM;

/// D3D12: a mesh shader outputs at most 256 vertices and 256 primitives.
const MAX_OUTPUTS: u32 = 256;

/// Which output array a mesh shader parameter is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MeshArray {
    Vertices,
    Indices,
    Primitives,
}

impl MeshArray {
    fn name(self) -> &'static str {
        match self {
            MeshArray::Vertices => "vertices",
            MeshArray::Indices => "indices",
            MeshArray::Primitives => "primitives",
        }
    }
}

/// The primitive a mesh shader outputs (`[outputtopology]`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(in crate::sema) enum Topology {
    Point,
    Line,
    Triangle,
}

impl Topology {
    /// Vertices per primitive: the length of an `indices` element.
    fn vertices(self) -> u8 {
        match self {
            Topology::Point => 1,
            Topology::Line => 2,
            Topology::Triangle => 3,
        }
    }
}

/// One output array of the mesh shader: the parameter (name and span, to
/// tell it from a local of the same name, and its array type) and its
/// variables.
#[derive(Clone, Debug)]
pub(in crate::sema) struct MeshOutput {
    name: Symbol,
    span: Span,
    kind: MeshArray,
    ty: TyId,
    pub(super) tree: VertexIo,
    /// SPV_NV_mesh_shader's `PrimitiveIndicesNV`: one flat `uint` array,
    /// this many indices per primitive (`tree` is unused).
    pub(super) flat: Option<(ir::Handle<ir::GlobalVariable>, u32)>,
}

impl MeshOutput {
    pub(in crate::sema) fn kind(&self) -> MeshArray {
        self.kind
    }
    /// The parameter's array type.
    pub(in crate::sema) fn ty(&self) -> TyId {
        self.ty
    }
}

/// The mesh and amplification state of the entry point.
#[derive(Default)]
pub struct MeshState {
    /// The output topology, once `[outputtopology]` is read.
    topology: Option<Topology>,
    pub(super) outputs: Vec<MeshOutput>,
    /// Amplification shaders: the groupshared variables some code passes to
    /// `DispatchMesh` (found before declarations, so that they are made in
    /// `TaskPayload` memory).
    pub(in crate::sema) payload_names: Vec<Symbol>,
}

/// The groupshared variables named as the payload (4th argument) of a
/// `DispatchMesh` call anywhere in `items`.
pub(in crate::sema) fn dispatch_payloads(items: &[ast::Item]) -> Vec<Symbol> {
    let mut out = Vec::new();
    for item in items {
        match item {
            ast::Item::Function(f) => {
                if let Some(body) = &f.body {
                    out.extend(crate::sema::decl::ast_scan::call_arg_roots(
                        body,
                        "DispatchMesh",
                        3,
                    ));
                }
            }
            ast::Item::Namespace(ns) => out.extend(dispatch_payloads(&ns.items)),
            _ => {}
        }
    }
    out
}

/// The mesh modifier of a parameter, with its span.
pub(in crate::sema) fn mesh_modifier(p: &ParamSig<'_>) -> Option<(Option<MeshArray>, Span)> {
    p.modifiers.list.iter().find_map(|&(m, span)| match m {
        ast::Modifier::Vertices => Some((Some(MeshArray::Vertices), span)),
        ast::Modifier::Indices => Some((Some(MeshArray::Indices), span)),
        ast::Modifier::Primitives => Some((Some(MeshArray::Primitives), span)),
        ast::Modifier::Payload => Some((None, span)),
        _ => None,
    })
}

impl<'a> Sema<'a> {
    /// Picks SPV_EXT_mesh_shader, or SPV_NV_mesh_shader ([`Sema::nv_mesh`]);
    /// the EXT extension needs SPIR-V 1.4.
    fn choose_mesh_extension(&mut self, fspan: Span) {
        if self.nv_mesh() {
            self.module.vendor.mesh_nv = true;
            return;
        }
        if self.opts.target_env.spirv_version() < (1, 4) {
            self.push(
                Diagnostic::error(
                    codes::BAD_OPTION,
                    format!(
                        "SPV_EXT_mesh_shader needs SPIR-V 1.4, but -fspv-target-env={} gives SPIR-V {}.{}",
                        self.opts.target_env.name(),
                        self.opts.target_env.spirv_version().0,
                        self.opts.target_env.spirv_version().1
                    ),
                )
                .label(fspan, format!("{} shader", self.stage.name()))
                .note("use -fspv-target-env=vulkan1.1spirv1.4 or later, or allow SPV_NV_mesh_shader instead"),
            );
        }
    }

    /// The execution modes of a mesh shader: the output topology and the
    /// vertex and primitive counts; checks the output parameters.
    pub(super) fn mesh_modes(
        &mut self,
        id: FuncDeclId,
        params: &[ParamSig<'a>],
    ) -> Vec<(EM, Vec<u32>)> {
        let fspan = self.decls.funcs[id].ast.name.span;
        self.choose_mesh_extension(fspan);
        let mut modes = Vec::new();
        let topology = match self.entry_attr(id, Attr::OutputTopology) {
            None => {
                self.missing_entry_attr(id, Attr::OutputTopology, "[outputtopology(\"triangle\")]");
                None
            }
            Some(a) => match a.string_arg(0).map(str::to_ascii_lowercase).as_deref() {
                Some("triangle") => Some(Topology::Triangle),
                Some("line") => Some(Topology::Line),
                Some("point") => Some(Topology::Point),
                Some(other) => {
                    self.push(
                        Diagnostic::error(
                            codes::BAD_ATTRIBUTE,
                            format!("unknown output topology \"{other}\""),
                        )
                        .label(a.span, "expected \"triangle\", \"line\" or \"point\""),
                    );
                    None
                }
                None => None,
            },
        };
        if let Some(t) = topology {
            modes.push((
                match t {
                    Topology::Triangle => EM::OutputTrianglesEXT,
                    Topology::Line => EM::OutputLinesEXT,
                    Topology::Point => EM::OutputPoints,
                },
                Vec::new(),
            ));
        }
        self.entry.mesh.topology = topology;
        let mut seen: Vec<(MeshArray, Span, u32)> = Vec::new();
        for p in params {
            let Some((Some(kind), mspan)) = mesh_modifier(p) else {
                continue;
            };
            if p.dir != Dir::Out {
                self.error(
                    codes::BAD_SEMANTIC,
                    format!("a `{}` array must be an `out` parameter", kind.name()),
                    mspan,
                    "add `out`",
                );
                continue;
            }
            let Ty::Array(elem, Some(n)) = *self.types.get(p.ty) else {
                self.push(
                    Diagnostic::error(
                        codes::SEMANTIC_TYPE,
                        format!(
                            "a `{}` parameter is an array of one dimension, not `{}`",
                            kind.name(),
                            self.ty_name(p.ty)
                        ),
                    )
                    .label(
                        p.span,
                        "declare it as an array, e.g. `out vertices V verts[64]`",
                    ),
                );
                continue;
            };
            if matches!(self.types.get(elem), Ty::Array(..)) {
                self.error(
                    codes::SEMANTIC_TYPE,
                    format!("a `{}` parameter is an array of one dimension", kind.name()),
                    p.span,
                    "an array of arrays",
                );
                continue;
            }
            if let Some(&(_, first, _)) = seen.iter().find(|(k, _, _)| *k == kind) {
                self.push(
                    Diagnostic::error(
                        codes::BAD_SEMANTIC,
                        format!("a mesh shader has one `{}` parameter", kind.name()),
                    )
                    .label(mspan, "second one")
                    .label(first, "first one"),
                );
                continue;
            }
            if n > MAX_OUTPUTS {
                self.push(
                    Diagnostic::error(
                        codes::SEMANTIC_TYPE,
                        format!(
                            "a mesh shader outputs at most {MAX_OUTPUTS} {}, not {n}",
                            if kind == MeshArray::Vertices {
                                "vertices"
                            } else {
                                "primitives"
                            }
                        ),
                    )
                    .label(p.span, format!("{n} elements")),
                );
            }
            if kind == MeshArray::Indices
                && let Some(t) = topology
            {
                self.check_indices_type(elem, t, p.span);
            }
            seen.push((kind, mspan, n));
        }
        let count = |k: MeshArray| seen.iter().find(|s| s.0 == k).map(|s| s.2);
        match count(MeshArray::Vertices) {
            Some(n) => modes.push((EM::OutputVertices, vec![n])),
            None => self.push(
                Diagnostic::error(
                    codes::BAD_SEMANTIC,
                    format!(
                        "mesh shader entry point `{}` has no `out vertices` parameter",
                        self.decls.funcs[id].name
                    ),
                )
                .label(fspan, "declared here")
                .note("add a parameter such as `out vertices VertexOut verts[64]`"),
            ),
        }
        match count(MeshArray::Indices) {
            Some(n) => {
                if let Some(m) = count(MeshArray::Primitives)
                    && m != n
                    && let Some(&(_, span, _)) = seen.iter().find(|s| s.0 == MeshArray::Primitives)
                {
                    self.push(
                        Diagnostic::error(
                            codes::SEMANTIC_TYPE,
                            format!(
                                "the `primitives` array has {m} elements but the `indices` array {n}"
                            ),
                        )
                        .label(span, "one element per primitive, as `indices` has"),
                    );
                }
                modes.push((EM::OutputPrimitivesEXT, vec![n]));
            }
            None => self.push(
                Diagnostic::error(
                    codes::BAD_SEMANTIC,
                    format!(
                        "mesh shader entry point `{}` has no `out indices` parameter",
                        self.decls.funcs[id].name
                    ),
                )
                .label(fspan, "declared here")
                .note("add a parameter such as `out indices uint3 tris[128]`"),
            ),
        }
        modes
    }

    /// The element of an `indices` array: `uint3` for triangles, `uint2`
    /// for lines, `uint` for points.
    fn check_indices_type(&mut self, elem: TyId, t: Topology, span: Span) {
        let n = t.vertices();
        let ok = match *self.types.get(elem) {
            Ty::Scalar(Sc::U32) => n == 1,
            Ty::Vector(Sc::U32, k) => k == n,
            _ => false,
        };
        if !ok {
            let want = if n == 1 {
                "uint".to_string()
            } else {
                format!("uint{n}")
            };
            let topo = match t {
                Topology::Point => "point",
                Topology::Line => "line",
                Topology::Triangle => "triangle",
            };
            self.push(
                Diagnostic::error(
                    codes::SEMANTIC_TYPE,
                    format!(
                        "the indices of a {topo} mesh are `{want}`, not `{}`",
                        self.ty_name(elem)
                    ),
                )
                .label(span, format!("declare the elements as `{want}`"))
                .note(format!(
                    "[outputtopology(\"{topo}\")] gives each primitive {n} vertex {}",
                    if n == 1 { "index" } else { "indices" }
                )),
            );
        }
    }

    /// Amplification shaders: the extension, and `DispatchMesh`'s payload.
    pub(super) fn amplification_setup(&mut self, id: FuncDeclId) {
        let fspan = self.decls.funcs[id].ast.name.span;
        self.choose_mesh_extension(fspan);
    }

    /// The payload variable of `DispatchMesh`: made in `TaskPayload`
    /// memory instead of `Workgroup` (SPV_EXT_mesh_shader).
    pub(in crate::sema) fn groupshared_space(&self, name: Symbol) -> ir::AddressSpace {
        if self.stage == Stage::Amplification
            && !self.nv_mesh()
            && self.entry.mesh.payload_names.contains(&name)
        {
            ir::AddressSpace::TaskPayload
        } else {
            ir::AddressSpace::Workgroup
        }
    }
}

impl<'s, 'a> FnCtx<'s, 'a> {
    /// The argument for a mesh or amplification shader parameter that is
    /// an output array or the payload; `None` for the others. Reports user
    /// semantics, which these stages do not have as inputs or plain outputs.
    pub(super) fn mesh_param(
        &mut self,
        io: &mut Io,
        p: &ParamSig<'a>,
        vk: VkLoc,
        name: &str,
    ) -> Option<Option<ir::Handle<ir::Expression>>> {
        match mesh_modifier(p) {
            Some((Some(kind), _)) if self.s.stage == Stage::Mesh && p.dir == Dir::Out => {
                Some(self.mesh_output(io, kind, p, vk, name))
            }
            // Reported with the execution modes.
            Some((Some(_), _)) if self.s.stage == Stage::Mesh => Some(None),
            Some((None, mspan)) if self.s.stage == Stage::Mesh => {
                Some(self.mesh_payload_input(p, mspan))
            }
            Some((_, mspan)) => {
                self.s.error(
                    codes::BAD_SEMANTIC,
                    format!(
                        "this modifier marks mesh shader parameters; this is {}",
                        super::mesh_calls::a_shader(self.s.stage)
                    ),
                    mspan,
                    "mesh shaders only",
                );
                Some(None)
            }
            None => {
                let builtin = crate::sema::decl::find_attr(p.attrs, Attr::VkBuiltin).is_some();
                if let Some((sem, sspan)) = p.semantic
                    && !builtin
                    && !sem.as_str().to_ascii_lowercase().starts_with("sv_")
                    && self.s.types.as_struct(p.ty).is_none()
                {
                    self.s.push(
                        Diagnostic::error(
                            codes::BAD_SEMANTIC,
                            format!(
                                "user semantic `{sem}` on a parameter of {}",
                                super::mesh_calls::a_shader(self.s.stage)
                            ),
                        )
                        .label(sspan, "not a system value")
                        .note(if self.s.stage == Stage::Mesh {
                            "a mesh shader's outputs are its `out vertices` and `out primitives` arrays; it reads other data through `in payload` and resources"
                        } else {
                            "an amplification shader reads only system values; it passes data on through `DispatchMesh`'s payload"
                        }),
                    );
                    return Some(None);
                }
                None
            }
        }
    }

    /// An `out vertices`/`out primitives`/`out indices` array: its output
    /// variables, recorded for the assignments in the body. The argument
    /// is a temporary nothing reads.
    fn mesh_output(
        &mut self,
        io: &mut Io,
        kind: MeshArray,
        p: &ParamSig<'a>,
        vk: VkLoc,
        name: &str,
    ) -> Option<ir::Handle<ir::Expression>> {
        let Ty::Array(elem, Some(n)) = *self.s.types.get(p.ty) else {
            return None;
        };
        let before = self.s.module.globals.len();
        let mut flat = None;
        let tree = if kind == MeshArray::Indices && self.s.nv_mesh() {
            let topology = self.s.entry.mesh.topology?;
            let stride = u32::from(topology.vertices());
            let arr = self
                .s
                .types
                .array(types::UINT, Some(n.saturating_mul(stride)));
            let g = self.builtin_var(
                io,
                spirv::BuiltIn::PrimitiveIndicesNV,
                IoDir::Output,
                "gl_PrimitiveIndicesNV",
                arr,
            );
            flat = Some((g, stride));
            VertexIo::Var {
                g,
                ty: elem,
                var_ty: elem,
            }
        } else if kind == MeshArray::Indices {
            let topology = self.s.entry.mesh.topology?;
            let (b, vname) = match topology {
                Topology::Triangle => (
                    spirv::BuiltIn::PrimitiveTriangleIndicesEXT,
                    "gl_PrimitiveTriangleIndicesEXT",
                ),
                Topology::Line => (
                    spirv::BuiltIn::PrimitiveLineIndicesEXT,
                    "gl_PrimitiveLineIndicesEXT",
                ),
                Topology::Point => (
                    spirv::BuiltIn::PrimitivePointIndicesEXT,
                    "gl_PrimitivePointIndicesEXT",
                ),
            };
            let arr = self.s.types.array(elem, Some(n));
            let g = self.builtin_var(io, b, IoDir::Output, vname, arr);
            VertexIo::Var {
                g,
                ty: elem,
                var_ty: elem,
            }
        } else {
            self.vertex_io(io, IoDir::Output, elem, n, p.semantic, vk, name, p.span)?
        };
        if kind == MeshArray::Primitives {
            let made: Vec<_> = self
                .s
                .module
                .globals
                .iter()
                .filter(|(g, _)| g.index() >= before)
                .map(|(g, _)| g)
                .collect();
            for g in made {
                self.s
                    .module
                    .io_decorations
                    .push((g, spirv::Decoration::PerPrimitiveEXT));
            }
        }
        if let Some(pname) = p.name {
            self.s.entry.mesh.outputs.push(MeshOutput {
                name: pname,
                span: p.span,
                kind,
                ty: p.ty,
                tree,
                flat,
            });
        }
        let (tmp, _) = self.temp(p.ty);
        Some(tmp)
    }

    /// A mesh shader's `in payload` struct: the `TaskPayload` variable the
    /// amplification shader wrote, loaded.
    fn mesh_payload_input(
        &mut self,
        p: &ParamSig<'a>,
        mspan: Span,
    ) -> Option<ir::Handle<ir::Expression>> {
        if p.dir != Dir::In {
            self.s.error(
                codes::BAD_SEMANTIC,
                "a `payload` parameter must be an `in` parameter",
                mspan,
                "the mesh shader reads the payload",
            );
            return None;
        }
        if self.s.types.as_struct(p.ty).is_none() {
            self.s.push(
                Diagnostic::error(
                    codes::SEMANTIC_TYPE,
                    format!("a payload is a struct, not `{}`", self.s.ty_name(p.ty)),
                )
                .label(p.span, "wrap the data in a struct"),
            );
            return None;
        }
        if self.s.nv_mesh() {
            return self.nv_payload_input(p.ty);
        }
        let it = self.s.ir_ty(p.ty);
        let name = p
            .name
            .map(|n| n.to_string())
            .unwrap_or_else(|| "payload".into());
        let g = ir::build::add_global(&mut self.s.module, &name, ir::AddressSpace::TaskPayload, it);
        let pty = self.ptr_type(it, ir::AddressSpace::TaskPayload);
        let ptr = self.add(ir::Expression::GlobalVariable(g), pty);
        Some(self.add(ir::Expression::Load { pointer: ptr }, it))
    }

    /// The mesh output array `path` names, if any: a parameter of the
    /// entry function, or a helper's `out vertices`/`out indices`/`out
    /// primitives` parameter, which stands for the entry's array of that
    /// kind (a mesh shader has one of each).
    /// (Asked at every name an expression reads: the test whether the
    /// entry has mesh outputs at all is inlined there.)
    #[inline]
    pub(in crate::sema) fn mesh_output_named(&self, path: &ast::Path) -> Option<MeshOutput> {
        if self.s.entry.mesh.outputs.is_empty() {
            return None;
        }
        self.mesh_output_of(path)
    }

    /// [`Self::mesh_output_named`] when the entry has mesh outputs.
    fn mesh_output_of(&self, path: &ast::Path) -> Option<MeshOutput> {
        if !path.is_single() {
            return None;
        }
        let name = path.last().name;
        let Some(LocalSym::Var(lv)) = self.fb.locals.lookup(name) else {
            return None;
        };
        let outputs = &self.s.entry.mesh.outputs;
        if Some(self.fb.handle) == self.s.entry.user {
            return outputs
                .iter()
                .find(|o| o.name == name && o.span == lv.span)
                .cloned();
        }
        let &(_, _, kind) = self
            .fb
            .mesh_params
            .iter()
            .find(|(n, sp, _)| *n == name && *sp == lv.span)?;
        outputs.iter().find(|o| o.kind == kind).cloned()
    }

    /// A call's arguments for `out vertices`/`out indices`/`out
    /// primitives` parameters: each is the mesh shader's output array of
    /// that kind, and an output array is passed to no other parameter.
    pub(in crate::sema) fn check_mesh_arguments(
        &mut self,
        chosen: &crate::sema::calls::Viable<'a>,
        args: &[crate::sema::calls::Arg],
    ) -> Result<(), Val> {
        let f = self.s.decls.funcs[chosen.id].name;
        for (i, p) in chosen.sig.params.iter().enumerate() {
            let Some(a) = args.get(i) else { continue };
            let want = mesh_modifier(p).and_then(|(k, _)| k);
            if a.mesh == want {
                continue;
            }
            let msg = match (want, a.mesh) {
                (Some(k), _) => format!(
                    "parameter {i} of `{f}` is `out {}`: pass the mesh shader's `{}` array",
                    k.name(),
                    k.name()
                ),
                (None, Some(k)) => format!(
                    "the mesh shader's `{}` array is passed on only to an `out {}` parameter",
                    k.name(),
                    k.name()
                ),
                (None, None) => continue,
            };
            self.s.push(
                Diagnostic::error(codes::TYPE_MISMATCH, msg)
                    .label(a.span, "this argument")
                    .label(p.span, "parameter declared here"),
            );
            return Err(Val::error());
        }
        Ok(())
    }

    /// A mesh output array used other than by assigning to its elements.
    pub(in crate::sema) fn mesh_output_read(
        &mut self,
        path: &ast::Path,
        span: Span,
    ) -> Option<Val> {
        let out = self.mesh_output_named(path)?;
        Some(self.error(
            codes::NOT_ASSIGNABLE,
            format!(
                "the mesh output array `{}` can only be written, element by element",
                out.name
            ),
            span,
            format!("assign to its elements, e.g. `{}[i] = …`", out.name),
        ))
    }
}
