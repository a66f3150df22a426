//! `SetMeshOutputCounts` and `DispatchMesh`, and the rules on where they
//! are called that can be seen in the source: the D3D12 mesh shader spec
//! has `SetMeshOutputCounts` called at most once, in uniform control
//! flow, and `DispatchMesh` called exactly once, last, in uniform control
//! flow.

use crate::diag::{Diagnostic, codes};
use crate::front::ast::{self, ExprKind, StmtKind};
use crate::intern::Symbol;
use crate::ir;
use crate::ir::Stage;
use crate::sema::Sema;
use crate::sema::body::FnCtx;
use crate::sema::body::place::{Place, Val};
use crate::sema::types::scope::FuncDeclId;
use crate::sema::types::{self, TyId};
use crate::span::Span;

/// D3D12: the payload of `DispatchMesh` is at most 16 KB.
const MAX_PAYLOAD_BYTES: u64 = 16 * 1024;

/// Thread-varying system values: a branch on them is not uniform.
const VARYING: &[&str] = &["sv_groupthreadid", "sv_groupindex", "sv_dispatchthreadid"];

impl<'s, 'a> FnCtx<'s, 'a> {
    /// `SetMeshOutputCounts(v, p)` and `DispatchMesh(x, y, z, payload)`;
    /// `None` for other names.
    pub(in crate::sema) fn mesh_call(
        &mut self,
        name: Symbol,
        args: &'a [ast::Expr],
        span: Span,
    ) -> Option<Val> {
        let (want, stage) = match name.as_str() {
            "SetMeshOutputCounts" => (2, Stage::Mesh),
            "DispatchMesh" => (4, Stage::Amplification),
            _ => return None,
        };
        if self.s.stage != stage && self.s.stage != Stage::Library {
            for a in args {
                let _ = self.expr(a);
            }
            return Some(self.error(
                codes::STAGE_STATEMENT,
                format!(
                    "`{name}` is called in {} shaders; this is {}",
                    stage.name(),
                    a_shader(self.s.stage)
                ),
                span,
                format!("{} shaders only", stage.name()),
            ));
        }
        if args.len() != want {
            for a in args {
                let _ = self.expr(a);
            }
            return Some(self.error(
                codes::WRONG_ARG_COUNT,
                format!("`{name}` takes {want} arguments, {} given", args.len()),
                span,
                if want == 2 {
                    "expected `SetMeshOutputCounts(vertices, primitives)`"
                } else {
                    "expected `DispatchMesh(x, y, z, payload)`"
                },
            ));
        }
        let mut counts = Vec::new();
        for a in &args[..want.min(3)] {
            let v = self.expr_as(a, types::UINT);
            counts.push(self.value(&v));
        }
        if want == 2 {
            if let [Some(_), Some(p)] = counts[..]
                && self.s.nv_mesh()
            {
                self.nv_set_mesh_outputs(p);
            } else if let [Some(v), Some(p)] = counts[..] {
                self.stmt(ir::Statement::SetMeshOutputs {
                    vertices: v,
                    primitives: p,
                });
            }
            return Some(Val::void());
        }
        let payload = self.dispatch_payload(&args[3]);
        if let ([Some(x), Some(y), Some(z)], Some(p)) = (&counts[..], payload) {
            // The threads' writes to the payload are seen by the mesh
            // shaders (DXC emits this barrier too).
            self.stmt(ir::Statement::Barrier {
                memory: ir::BarrierMemory {
                    workgroup: true,
                    ..Default::default()
                },
                execution: true,
            });
            match p {
                (ptr, Some(ty)) => self.nv_dispatch_mesh([*x, *y, *z], ptr, ty),
                (ptr, None) => self.stmt(ir::Statement::EmitMeshTasks {
                    x: *x,
                    y: *y,
                    z: *z,
                    payload: Some(ptr),
                }),
            }
        }
        Some(Val::void())
    }

    /// The payload argument of `DispatchMesh`: a groupshared struct
    /// variable (made in `TaskPayload` memory for SPV_EXT_mesh_shader), at
    /// most 16 KB. With SPV_NV_mesh_shader, also its type: the call copies
    /// its members out.
    fn dispatch_payload(
        &mut self,
        a: &'a ast::Expr,
    ) -> Option<(ir::Handle<ir::Expression>, Option<TyId>)> {
        let v = self.expr(a);
        if v.is_error() {
            return None;
        }
        let nv = self.s.nv_mesh();
        let want = if nv {
            ir::AddressSpace::Workgroup
        } else {
            ir::AddressSpace::TaskPayload
        };
        let ptr = match v.as_place() {
            Some(Place::Ptr { ptr, space, .. })
                if *space == want && matches!(a.kind, ExprKind::Name(_)) =>
            {
                *ptr
            }
            _ => {
                self.s.push(
                    Diagnostic::error(
                        codes::TYPE_MISMATCH,
                        "the payload of `DispatchMesh` must be a groupshared variable",
                    )
                    .label(a.span, "not a groupshared variable")
                    .note("declare it as `groupshared Payload name;` and pass `name`"),
                );
                return None;
            }
        };
        self.check_payload_type(v.ty, a.span);
        Some((ptr, nv.then_some(v.ty)))
    }

    /// A payload is a struct of at most 16 KB.
    fn check_payload_type(&mut self, ty: TyId, span: Span) {
        if self.s.types.as_struct(ty).is_none() {
            self.s.push(
                Diagnostic::error(
                    codes::SEMANTIC_TYPE,
                    format!("a payload is a struct, not `{}`", self.s.ty_name(ty)),
                )
                .label(span, "wrap the data in a struct"),
            );
            return;
        }
        let size = self.s.value_size(ty) as u64;
        if size > MAX_PAYLOAD_BYTES {
            self.s.push(
                Diagnostic::error(
                    codes::SEMANTIC_TYPE,
                    format!(
                        "the payload `{}` is {size} bytes, more than the {MAX_PAYLOAD_BYTES} bytes `DispatchMesh` passes",
                        self.s.ty_name(ty)
                    ),
                )
                .label(span, format!("{size} bytes")),
            );
        }
    }
}

/// "a mesh shader", "an amplification shader".
pub(super) fn a_shader(stage: Stage) -> String {
    let name = stage.name();
    let article = if name.starts_with(['a', 'e', 'i', 'o', 'u']) {
        "an"
    } else {
        "a"
    };
    format!("{article} {name} shader")
}

/// One call of the intrinsic a scan looks for.
struct Site {
    span: Span,
    in_loop: bool,
    /// The condition of a branch on a thread-varying value around it.
    varying: Option<Span>,
}

/// Finds the calls of one intrinsic in a function body, and the most of
/// them any one path runs.
struct CallScan<'n> {
    name: &'n str,
    /// The names of the thread-varying parameters.
    varying: &'n [Symbol],
    sites: Vec<Site>,
    /// The second call on one path, and the first.
    twice: Option<(Span, Span)>,
    /// Statements after a call in its block (for `DispatchMesh`).
    after: Option<(Span, Span)>,
}

impl CallScan<'_> {
    /// The calls in `e`, in evaluation order.
    fn expr(&self, e: &ast::Expr, out: &mut Vec<Span>) {
        match &e.kind {
            ExprKind::Call(c) => {
                let (callee, args) = (&c.callee, &c.args);
                for a in args {
                    self.expr(a, out);
                }
                if callee.is_single() && callee.last().name.as_str() == self.name {
                    out.push(e.span);
                }
            }
            ExprKind::MethodCall { object, args, .. } => {
                self.expr(object, out);
                for a in args {
                    self.expr(a, out);
                }
            }
            ExprKind::Construct(_, args) => {
                for a in args {
                    self.expr(a, out);
                }
            }
            ExprKind::Binary(_, a, b)
            | ExprKind::Comma(a, b)
            | ExprKind::Index(a, b)
            | ExprKind::Assign(_, a, b) => {
                self.expr(a, out);
                self.expr(b, out);
            }
            ExprKind::Ternary(a, b, c) => {
                self.expr(a, out);
                self.expr(b, out);
                self.expr(c, out);
            }
            ExprKind::Unary(_, x)
            | ExprKind::Cast(_, x)
            | ExprKind::Member(x, _)
            | ExprKind::SizeOfExpr(x) => self.expr(x, out),
            _ => {}
        }
    }

    /// Whether `e` reads a thread-varying parameter.
    fn varies(&self, e: &ast::Expr) -> bool {
        match &e.kind {
            ExprKind::Name(p) => p.is_single() && self.varying.contains(&p.last().name),
            ExprKind::Call(c) => c.args.iter().any(|a| self.varies(a)),
            ExprKind::Construct(_, args) => args.iter().any(|a| self.varies(a)),
            ExprKind::MethodCall { object, args, .. } => {
                self.varies(object) || args.iter().any(|a| self.varies(a))
            }
            ExprKind::Binary(_, a, b)
            | ExprKind::Comma(a, b)
            | ExprKind::Index(a, b)
            | ExprKind::Assign(_, a, b) => self.varies(a) || self.varies(b),
            ExprKind::Ternary(a, b, c) => self.varies(a) || self.varies(b) || self.varies(c),
            ExprKind::Unary(_, x) | ExprKind::Cast(_, x) | ExprKind::Member(x, _) => self.varies(x),
            _ => false,
        }
    }

    /// Records the calls of `e`; gives how many there are.
    fn calls(&mut self, e: &ast::Expr, in_loop: bool, varying: Option<Span>) -> Vec<Span> {
        let mut found = Vec::new();
        self.expr(e, &mut found);
        for &span in &found {
            self.sites.push(Site {
                span,
                in_loop,
                varying,
            });
        }
        found
    }

    /// The calls along the path through `stmts` that has the most, as
    /// spans in order (only the first two matter).
    fn block(&mut self, stmts: &[ast::Stmt], in_loop: bool, varying: Option<Span>) -> Vec<Span> {
        let mut path: Vec<Span> = Vec::new();
        for (i, s) in stmts.iter().enumerate() {
            let got = self.stmt(s, in_loop, varying);
            if !got.is_empty()
                && let Some(next) = stmts[i + 1..]
                    .iter()
                    .find(|n| !matches!(n.kind, StmtKind::Return(None) | StmtKind::Empty))
                && self.after.is_none()
            {
                self.after = Some((next.span, got[0]));
            }
            path.extend(got);
            if path.len() >= 2 && self.twice.is_none() {
                self.twice = Some((path[1], path[0]));
            }
        }
        path
    }

    fn stmt(&mut self, s: &ast::Stmt, in_loop: bool, varying: Option<Span>) -> Vec<Span> {
        match &s.kind {
            StmtKind::Expr(e) | StmtKind::Return(Some(e)) => self.calls(e, in_loop, varying),
            StmtKind::Decl(vd) => {
                let mut out = Vec::new();
                for d in &vd.declarators {
                    if let Some(ast::Initializer::Expr(e)) = &d.init {
                        out.extend(self.calls(e, in_loop, varying));
                    }
                }
                out
            }
            StmtKind::Block(b) => self.block(&b.stmts, in_loop, varying),
            StmtKind::If { cond, then, else_ } => {
                let mut out = self.calls(cond, in_loop, varying);
                let v = varying.or_else(|| self.varies(cond).then_some(cond.span));
                let a = self.stmt(then, in_loop, v);
                let b = else_
                    .as_ref()
                    .map(|e| self.stmt(e, in_loop, v))
                    .unwrap_or_default();
                out.extend(if a.len() >= b.len() { a } else { b });
                out
            }
            StmtKind::For {
                init,
                cond,
                step,
                body,
            } => {
                let mut out = init
                    .as_ref()
                    .map(|i| self.stmt(i, in_loop, varying))
                    .unwrap_or_default();
                let v =
                    varying.or_else(|| cond.as_ref().filter(|c| self.varies(c)).map(|c| c.span));
                if let Some(c) = cond {
                    out.extend(self.calls(c, true, v));
                }
                if let Some(e) = step {
                    out.extend(self.calls(e, true, v));
                }
                out.extend(self.stmt(body, true, v));
                out
            }
            StmtKind::While { cond, body } | StmtKind::DoWhile { body, cond } => {
                let v = varying.or_else(|| self.varies(cond).then_some(cond.span));
                let mut out = self.calls(cond, true, v);
                out.extend(self.stmt(body, true, v));
                out
            }
            StmtKind::Switch { selector, body } => {
                let mut out = self.calls(selector, in_loop, varying);
                let v = varying.or_else(|| self.varies(selector).then_some(selector.span));
                let before = self.twice;
                let cases = self.block(&body.stmts, in_loop, v);
                // Cases are alternatives: one call per case is one a path.
                self.twice = before;
                out.extend(cases.into_iter().take(1));
                out
            }
            _ => Vec::new(),
        }
    }
}

impl<'a> Sema<'a> {
    /// The rules on where the entry point calls `SetMeshOutputCounts`
    /// (mesh) or `DispatchMesh` (amplification), as far as the entry
    /// function's own body shows them.
    pub(super) fn check_mesh_calls(&mut self, id: FuncDeclId) {
        let (name, stage) = match self.stage {
            Stage::Mesh => ("SetMeshOutputCounts", Stage::Mesh),
            Stage::Amplification => ("DispatchMesh", Stage::Amplification),
            _ => return,
        };
        let d = &self.decls.funcs[id];
        let Some(def) = d.def else { return };
        let Some(body) = def.body.as_ref() else {
            return;
        };
        let varying: Vec<Symbol> = d
            .sig
            .iter()
            .flat_map(|s| s.params.iter())
            .filter(|p| {
                p.semantic.is_some_and(|(s, _)| {
                    VARYING.contains(&s.as_str().to_ascii_lowercase().as_str())
                })
            })
            .filter_map(|p| p.name)
            .collect();
        let fspan = d.ast.name.span;
        let mut scan = CallScan {
            name,
            varying: &varying,
            sites: Vec::new(),
            twice: None,
            after: None,
        };
        let path = scan.block(&body.stmts, false, None);
        let _ = path;
        if let Some((second, first)) = scan.twice {
            self.push(
                Diagnostic::error(
                    codes::STAGE_STATEMENT,
                    format!(
                        "`{name}` is called twice on one path through the {} shader",
                        stage.name()
                    ),
                )
                .label(second, "second call")
                .label(first, "first call"),
            );
        }
        for site in &scan.sites {
            if site.in_loop {
                self.push(
                    Diagnostic::error(
                        codes::STAGE_STATEMENT,
                        format!("`{name}` is called in a loop"),
                    )
                    .label(site.span, "may run more than once")
                    .note(format!("{} shader calls it once", stage.with_article())),
                );
            } else if let Some(cond) = site.varying {
                self.push(
                    Diagnostic::error(
                        codes::STAGE_STATEMENT,
                        format!("`{name}` is called in non-uniform control flow"),
                    )
                    .label(site.span, "not every thread of the group may reach this call")
                    .label(cond, "this condition differs between the group's threads")
                    .note("every thread of the group makes the call with the same arguments; move it out of the branch"),
                );
            }
        }
        if stage == Stage::Amplification {
            if scan.sites.is_empty() && !self.any_body_calls(name) {
                self.push(
                    Diagnostic::error(
                        codes::STAGE_STATEMENT,
                        "the amplification shader never calls `DispatchMesh`",
                    )
                    .label(fspan, "entry point")
                    .note("end it with `DispatchMesh(x, y, z, payload)`"),
                );
            }
            if let Some((next, call)) = scan.after {
                self.push(
                    Diagnostic::error(
                        codes::STAGE_STATEMENT,
                        "code after `DispatchMesh` never runs: the call ends the amplification shader",
                    )
                    .label(next, "never runs")
                    .label(call, "the shader ends here"),
                );
            }
        }
    }

    /// Whether any function body of the module calls `name` (a helper may
    /// make the call for the entry point).
    fn any_body_calls(&self, name: &str) -> bool {
        let scan = CallScan {
            name,
            varying: &[],
            sites: Vec::new(),
            twice: None,
            after: None,
        };
        self.decls.funcs.values().any(|d| {
            d.def.and_then(|f| f.body.as_ref()).is_some_and(|b| {
                let mut out = Vec::new();
                for s in &b.stmts {
                    stmt_exprs(s, &mut |e| scan.expr(e, &mut out));
                }
                !out.is_empty()
            })
        })
    }
}

/// Calls `f` on the expressions of `s` and its nested statements.
fn stmt_exprs(s: &ast::Stmt, f: &mut dyn FnMut(&ast::Expr)) {
    match &s.kind {
        StmtKind::Expr(e) | StmtKind::Return(Some(e)) | StmtKind::Case(e) => f(e),
        StmtKind::Decl(vd) => {
            for d in &vd.declarators {
                if let Some(ast::Initializer::Expr(e)) = &d.init {
                    f(e);
                }
            }
        }
        StmtKind::Block(b) => b.stmts.iter().for_each(|s| stmt_exprs(s, f)),
        StmtKind::If { cond, then, else_ } => {
            f(cond);
            stmt_exprs(then, f);
            if let Some(e) = else_ {
                stmt_exprs(e, f);
            }
        }
        StmtKind::For {
            init,
            cond,
            step,
            body,
        } => {
            if let Some(i) = init {
                stmt_exprs(i, f);
            }
            if let Some(c) = cond {
                f(c);
            }
            if let Some(e) = step {
                f(e);
            }
            stmt_exprs(body, f);
        }
        StmtKind::While { cond, body } | StmtKind::DoWhile { body, cond } => {
            f(cond);
            stmt_exprs(body, f);
        }
        StmtKind::Switch { selector, body } => {
            f(selector);
            body.stmts.iter().for_each(|s| stmt_exprs(s, f));
        }
        _ => {}
    }
}
