//! Work graph node entry points (SM 6.8 `[Shader("node")]`) →
//! SPV_AMDX_shader_enqueue: a GLCompute entry point whose attributes
//! become execution modes (`[NodeLaunch("coalescing")]` →
//! `CoalescingAMDX`, `[NodeDispatchGrid]` → `StaticNumWorkgroupsAMDX`…),
//! whose input record parameter is a `NodePayloadAMDX` variable of an
//! `OpTypeNodePayloadArrayAMDX`, and whose outputs are payload array types
//! naming the nodes they feed. The record objects are compile-time values
//! (`Ty::Node`); their methods are in `calls/node.rs`.

use crate::diag::{Diagnostic, codes};
use crate::front::ast;
use crate::front::attributes::Attr;
use crate::ir;
use crate::sema::body::FnCtx;
use crate::sema::body::place::{Place, Val};
use crate::sema::decl::find_attr;
use crate::sema::types::node::NodeObj;
use crate::sema::types::scope::FuncDeclId;
use crate::sema::types::{Sc, Ty, TyId};
use crate::sema::{ParamSig, ReadOnly, Sema, Sig};
use crate::span::Span;

/// The node entry being lowered: its input variable and its outputs.
#[derive(Default)]
pub struct NodeState {
    /// The input records' `NodePayload` variable.
    pub input: Option<NodeInput>,
    /// The outputs, by parameter index.
    pub outputs: Vec<Option<NodeOutputDecl>>,
}

/// A node's input record parameter: its variable, and where it is
/// declared.
#[derive(Clone, Copy)]
pub struct NodeInput {
    pub var: ir::Handle<ir::GlobalVariable>,
    pub span: Span,
}

/// An output parameter: the payload array type its records are allocated
/// as (which names the node they go to).
#[derive(Clone, Copy)]
pub struct NodeOutputDecl {
    pub payload: ir::Handle<ir::Type>,
}

/// The integer arguments of an attribute, as constants.
type AttrInts = Option<Vec<u32>>;

impl<'a> Sema<'a> {
    /// The attributes of node entry `id` (reporting what is wrong with
    /// them) and its thread group size; the input variable and output
    /// types are made for the wrapper.
    pub(super) fn node_entry(
        &mut self,
        id: FuncDeclId,
        sig: &Sig<'a>,
    ) -> (Option<Box<ir::NodeEntry>>, [u32; 3]) {
        let f = self.decls.funcs[id].def.unwrap_or(self.decls.funcs[id].ast);
        let fspan = f.name.span;
        let launch = match find_attr(&f.attrs, Attr::NodeLaunch) {
            None => ir::NodeLaunch::Broadcasting,
            // The registry checked that the launch is a string.
            Some(a) => match a.string_arg(0).map(str::to_ascii_lowercase).as_deref() {
                None => return (None, [1, 1, 1]),
                Some(launch) => match launch {
                    "broadcasting" => ir::NodeLaunch::Broadcasting,
                    "coalescing" => ir::NodeLaunch::Coalescing,
                    "thread" => ir::NodeLaunch::Thread,
                    "mesh" => {
                        self.unsupported("mesh nodes (`NodeLaunch(\"mesh\")`)", a.span);
                        return (None, [1, 1, 1]);
                    }
                    other => {
                        self.push(
                                Diagnostic::error(
                                    codes::NODE_ENTRY,
                                    format!("`{other}` is not a node launch"),
                                )
                                .label(a.span, "unknown launch")
                                .note("the launches are \"broadcasting\", \"coalescing\", \"thread\" and \"mesh\""),
                            );
                        return (None, [1, 1, 1]);
                    }
                },
            },
        };
        let env = crate::sema::types::resolve::Env::at(self.decls.funcs[id].scope);
        // The registry checked the number of arguments.
        let ints = |s: &mut Self, kind: Attr| -> (AttrInts, Option<Span>) {
            let Some(a) = find_attr(&f.attrs, kind) else {
                return (None, None);
            };
            let name = kind.spelling();
            let mut out = Vec::new();
            for e in &a.args {
                match s.const_int(e, &env) {
                    Some(v) if (1..=i64::from(u32::MAX)).contains(&v) => out.push(v as u32),
                    Some(v) => {
                        s.error(
                            codes::NODE_ENTRY,
                            format!("`{name}` needs positive counts, not {v}"),
                            e.span,
                            "out of range",
                        );
                        return (None, Some(a.span));
                    }
                    None => return (None, Some(a.span)),
                }
            }
            (Some(out), Some(a.span))
        };
        let (grid, grid_span) = ints(self, Attr::NodeDispatchGrid);
        let (max_grid, max_grid_span) = ints(self, Attr::NodeMaxDispatchGrid);
        let (recursion, _) = ints(self, Attr::NodeMaxRecursionDepth);
        let grid3 = |v: AttrInts| v.map(|v| [v[0], v[1], v[2]]);
        let mut node = ir::NodeEntry {
            launch,
            program_entry: find_attr(&f.attrs, Attr::NodeIsProgramEntry).is_some(),
            index: None,
            share_input: None,
            dispatch_grid: grid3(grid),
            max_dispatch_grid: grid3(max_grid),
            max_recursion: recursion.map(|v| v[0]),
            outputs: Vec::new(),
        };
        self.node_grid_rules(&node, grid_span, max_grid_span, fspan);
        if let Some((_, index)) = self.node_name_attr(&f.attrs, Attr::NodeId, &env) {
            node.index = index;
        }
        if let Some((name, index)) = self.node_name_attr(&f.attrs, Attr::NodeShareInputOf, &env) {
            node.share_input = Some((name, index.unwrap_or(0)));
        }
        let wg = if launch == ir::NodeLaunch::Thread {
            self.thread_node_size(id)
        } else {
            self.numthreads(id)
        };
        self.entry.node = NodeState::default();
        self.node_parameters(launch, sig);
        node.outputs = self
            .entry
            .node
            .outputs
            .iter()
            .flatten()
            .map(|o| o.payload)
            .collect();
        (Some(Box::new(node)), wg)
    }

    /// A broadcasting node has a dispatch grid, fixed or bounded (exactly
    /// one); the other launches have none (Work Graphs spec, "Shader
    /// function attributes").
    fn node_grid_rules(
        &mut self,
        node: &ir::NodeEntry,
        grid: Option<Span>,
        max_grid: Option<Span>,
        fspan: Span,
    ) {
        match (node.launch, grid, max_grid) {
            (ir::NodeLaunch::Broadcasting, None, None) => self.push(
                Diagnostic::error(
                    codes::NODE_ENTRY,
                    "a broadcasting node needs `[NodeDispatchGrid(x, y, z)]` or `[NodeMaxDispatchGrid(x, y, z)]`",
                )
                .label(fspan, "broadcasting node")
                .note("`NodeLaunch` is \"broadcasting\" when not given"),
            ),
            (ir::NodeLaunch::Broadcasting, Some(a), Some(b)) => self.push(
                Diagnostic::error(
                    codes::NODE_ENTRY,
                    "`NodeDispatchGrid` and `NodeMaxDispatchGrid` cannot both be given",
                )
                .label(b, "second grid")
                .label(a, "first grid"),
            ),
            (ir::NodeLaunch::Broadcasting, ..) => {}
            (_, Some(s), _) | (_, None, Some(s)) => self.error(
                codes::NODE_ENTRY,
                "only broadcasting nodes have a dispatch grid",
                s,
                "not a broadcasting node",
            ),
            _ => {}
        }
    }

    /// `[NodeID("name", index)]`, `[NodeShareInputOf("name", index)]`.
    fn node_name_attr(
        &mut self,
        attrs: &'a [ast::Attribute],
        kind: Attr,
        env: &crate::sema::types::resolve::Env,
    ) -> Option<(String, Option<u32>)> {
        let a = find_attr(attrs, kind)?;
        // The registry checked that the node name is a string.
        let node = a.string_arg(0)?.to_string();
        let index = match a.args.get(1) {
            Some(e) => match self.const_int(e, env) {
                Some(v) if (0..=i64::from(u32::MAX)).contains(&v) => Some(v as u32),
                Some(v) => {
                    self.error(
                        codes::NODE_ENTRY,
                        format!("a node index is not negative: {v}"),
                        e.span,
                        "out of range",
                    );
                    None
                }
                None => None,
            },
            None => None,
        };
        Some((node, index))
    }

    /// A thread launch node runs one thread per record: `[NumThreads]`,
    /// when given, is (1, 1, 1).
    fn thread_node_size(&mut self, id: FuncDeclId) -> [u32; 3] {
        let f = self.decls.funcs[id].def.unwrap_or(self.decls.funcs[id].ast);
        if find_attr(&f.attrs, Attr::NumThreads).is_none() {
            return [1, 1, 1];
        }
        let wg = self.numthreads(id);
        if wg != [1, 1, 1]
            && let Some(a) = find_attr(&f.attrs, Attr::NumThreads)
        {
            self.error(
                codes::NODE_ENTRY,
                "a thread launch node has one thread per group: `[NumThreads(1, 1, 1)]`",
                a.span,
                "more than one thread",
            );
        }
        [1, 1, 1]
    }

    /// Checks the parameters of a node and makes its input variable and
    /// output payload types.
    fn node_parameters(&mut self, launch: ir::NodeLaunch, sig: &Sig<'a>) {
        self.entry.node.outputs = vec![None; sig.params.len()];
        for (i, p) in sig.params.iter().enumerate() {
            let Ty::Node(obj, record, _) = *self.types.get(p.ty) else {
                continue;
            };
            if obj.is_input() {
                self.node_input(launch, obj, record, p);
            } else if matches!(obj, NodeObj::Output | NodeObj::OutputArray) {
                let decl = self.node_output(obj, record, p, &sig.params[..i]);
                self.entry.node.outputs[i] = decl;
            } else {
                self.error(
                    codes::NODE_ENTRY,
                    format!(
                        "a node's parameter cannot be `{}`: output records come from an output's `Get*NodeOutputRecords`",
                        self.ty_name(p.ty)
                    ),
                    p.span,
                    "not an input or output",
                );
            }
        }
    }

    /// The input record parameter: its kind must match the launch, and a
    /// node has one. Its variable holds a payload array in `NodePayload`
    /// storage (for coalescing and thread nodes with its `[MaxRecords]`).
    fn node_input(
        &mut self,
        launch: ir::NodeLaunch,
        obj: NodeObj,
        record: Option<TyId>,
        p: &ParamSig<'a>,
    ) {
        if let Some(prev) = self.entry.node.input {
            self.push(
                Diagnostic::error(codes::NODE_ENTRY, "a node has at most one input")
                    .label(p.span, "second input")
                    .label(prev.span, "first input"),
            );
            return;
        }
        let fits = match launch {
            ir::NodeLaunch::Broadcasting => matches!(obj, NodeObj::DispatchInput { .. }),
            ir::NodeLaunch::Coalescing => {
                matches!(obj, NodeObj::GroupInputs { .. } | NodeObj::EmptyInput)
            }
            ir::NodeLaunch::Thread => matches!(obj, NodeObj::ThreadInput { .. }),
        };
        if !fits {
            let (launch_name, want) = match launch {
                ir::NodeLaunch::Broadcasting => {
                    ("broadcasting", "`[RW]DispatchNodeInputRecord<T>`")
                }
                ir::NodeLaunch::Coalescing => (
                    "coalescing",
                    "`[RW]GroupNodeInputRecords<T>` or `EmptyNodeInput`",
                ),
                ir::NodeLaunch::Thread => ("thread", "`[RW]ThreadNodeInputRecord<T>`"),
            };
            self.push(
                Diagnostic::error(
                    codes::NODE_ENTRY,
                    format!("a {launch_name} node cannot take `{}`", self.ty_name(p.ty)),
                )
                .label(p.span, "input of another launch")
                .note(format!("a {launch_name} node's input is {want}")),
            );
            return;
        }
        let max = match obj {
            NodeObj::GroupInputs { .. } | NodeObj::EmptyInput => {
                Some(self.max_records(p.attrs, p.span).unwrap_or(1))
            }
            NodeObj::ThreadInput { .. } => Some(1),
            _ => None,
        };
        let payload = self.record_ir_type(record);
        let ty = self.module.ty(ir::TypeInner::NodePayloadArray {
            payload,
            max_payloads: max,
            output: None,
        });
        let name = p
            .name
            .map(|n| n.to_string())
            .unwrap_or_else(|| "input".into());
        let var = ir::build::add_global(&mut self.module, &name, ir::AddressSpace::NodePayload, ty);
        self.entry.node.input = Some(NodeInput { var, span: p.span });
    }

    /// `[MaxRecords(n)]` of a parameter.
    fn max_records(&mut self, attrs: &'a [ast::Attribute], span: Span) -> Option<u32> {
        let a = find_attr(attrs, Attr::MaxRecords)?;
        let e = a.args.first()?;
        let env = crate::sema::types::resolve::Env::at(crate::sema::types::scope::GLOBAL_SCOPE);
        match self.const_int(e, &env) {
            Some(v) if (1..=i64::from(u32::MAX)).contains(&v) => Some(v as u32),
            Some(v) => {
                self.error(
                    codes::NODE_ENTRY,
                    format!("`MaxRecords` needs a positive count, not {v}"),
                    e.span,
                    "out of range",
                );
                let _ = span;
                None
            }
            None => None,
        }
    }

    /// An output parameter: the payload array type of its records, which
    /// names the node they are enqueued for.
    fn node_output(
        &mut self,
        obj: NodeObj,
        record: Option<TyId>,
        p: &ParamSig<'a>,
        before: &[ParamSig<'a>],
    ) -> Option<NodeOutputDecl> {
        let env = crate::sema::types::resolve::Env::at(crate::sema::types::scope::GLOBAL_SCOPE);
        let pname = p.name.map(|n| n.to_string()).unwrap_or_default();
        let (name, base_index) = match self.node_name_attr(p.attrs, Attr::NodeId, &env) {
            Some((n, i)) => (n, i.unwrap_or(0)),
            None => (pname, 0),
        };
        let max_payloads = self.max_records(p.attrs, p.span);
        let shares_limits_with = self.shared_limit(p, before);
        let array = obj == NodeObj::OutputArray;
        let unbounded = find_attr(p.attrs, Attr::UnboundedSparseNodes).is_some();
        let array_size = match find_attr(p.attrs, Attr::NodeArraySize) {
            Some(a) if array => a
                .args
                .first()
                .and_then(|e| self.const_int(e, &env))
                .filter(|&v| v >= 1)
                .map(|v| v as u32),
            Some(a) => {
                self.error(
                    codes::NODE_ENTRY,
                    "`NodeArraySize` applies to output arrays",
                    a.span,
                    "not an output array",
                );
                None
            }
            None => None,
        };
        let payload = self.record_ir_type(record);
        let ty = self.module.ty(ir::TypeInner::NodePayloadArray {
            payload,
            max_payloads,
            output: Some(ir::NodeTarget {
                name,
                base_index,
                array_size,
                sparse: unbounded || find_attr(p.attrs, Attr::AllowSparseNodes).is_some(),
                shares_limits_with,
            }),
        });
        Some(NodeOutputDecl { payload: ty })
    }

    /// `[MaxRecordsSharedWith(other)]`: the payload type of the earlier
    /// output parameter it names.
    fn shared_limit(
        &mut self,
        p: &ParamSig<'a>,
        before: &[ParamSig<'a>],
    ) -> Option<ir::Handle<ir::Type>> {
        let a = find_attr(p.attrs, Attr::MaxRecordsSharedWith)?;
        let named = match a.args.first().map(|e| &e.kind) {
            Some(ast::ExprKind::Name(path)) if path.is_single() => path.last().name,
            _ => {
                self.error(
                    codes::NODE_ENTRY,
                    "`MaxRecordsSharedWith` names another output parameter",
                    a.span,
                    "not a parameter name",
                );
                return None;
            }
        };
        let found = before
            .iter()
            .position(|q| q.name == Some(named))
            .and_then(|i| self.entry.node.outputs.get(i).copied().flatten());
        match found {
            Some(d) => Some(d.payload),
            None => {
                self.error(
                    codes::NODE_ENTRY,
                    format!("`{named}` is not an output parameter declared before this one"),
                    a.span,
                    "unknown output",
                );
                None
            }
        }
    }

    /// The IR struct of a record (an empty struct for `Empty*` objects),
    /// with the decorations work graphs give it: `TrackFinishWritingAMDX`
    /// for `[NodeTrackRWInputSharing]`, `PayloadDispatchIndirectAMDX` on
    /// the `SV_DispatchGrid` field (in the record or a struct in it).
    pub(in crate::sema) fn record_ir_type(&mut self, record: Option<TyId>) -> ir::Handle<ir::Type> {
        let Some(record) = record else {
            return self.module.ty(ir::TypeInner::Struct {
                members: Vec::new(),
                size: 0,
            });
        };
        let h = self.ir_ty(record);
        let mut grids = Vec::new();
        self.dispatch_grid_fields(record, 0, &mut grids);
        if grids.len() > 1 {
            self.push(
                Diagnostic::error(
                    codes::NODE_OBJECT,
                    "a record has at most one `SV_DispatchGrid` field",
                )
                .label(grids[1].2, "second one")
                .label(grids[0].2, "first one"),
            );
        }
        for (sty, member, _) in grids {
            let it = self.ir_ty(sty);
            let d = (
                it,
                Some(member),
                spirv::Decoration::PayloadDispatchIndirectAMDX,
            );
            if !self.module.record_decorations.contains(&d) {
                self.module.record_decorations.push(d);
            }
        }
        if let Ty::Struct(sid) = *self.types.get(record)
            && self.types.struct_info(sid).track_rw_sharing
        {
            let d = (h, None, spirv::Decoration::TrackFinishWritingAMDX);
            if !self.module.record_decorations.contains(&d) {
                self.module.record_decorations.push(d);
            }
        }
        h
    }

    /// The `SV_DispatchGrid` fields of struct `ty` and the structs in it:
    /// (struct, IR member, span). Each must be a `uint`, `uint2`, `uint3`
    /// (or 16-bit) or an array of up to three `uint`s.
    fn dispatch_grid_fields(&mut self, ty: TyId, depth: u32, out: &mut Vec<(TyId, u32, Span)>) {
        let Ty::Struct(sid) = *self.types.get(ty) else {
            return;
        };
        if depth > 32 {
            return;
        }
        let fields: Vec<_> = self.types.storage_fields(sid).cloned().collect();
        for f in fields {
            let is_grid = f
                .semantic
                .is_some_and(|(s, _)| s.as_str().eq_ignore_ascii_case("SV_DispatchGrid"));
            if is_grid {
                let span = f.semantic.map_or(f.span, |(_, s)| s);
                if !self.dispatch_grid_type(f.ty) {
                    self.push(
                        Diagnostic::error(
                            codes::NODE_OBJECT,
                            format!("`SV_DispatchGrid` cannot be `{}`", self.ty_name(f.ty)),
                        )
                        .label(span, "wrong type")
                        .note("the dispatch grid is a `uint`, `uint2` or `uint3` (or their 16-bit forms), or an array of up to three `uint`s"),
                    );
                    continue;
                }
                out.push((ty, f.member, span));
            } else {
                self.dispatch_grid_fields(f.ty, depth + 1, out);
            }
        }
    }

    fn dispatch_grid_type(&self, ty: TyId) -> bool {
        let uint = |s: Sc| matches!(s, Sc::U32 | Sc::U16);
        match *self.types.get(ty) {
            Ty::Scalar(s) => uint(s),
            Ty::Vector(s, n) => uint(s) && n <= 3,
            Ty::Array(e, Some(n)) => {
                (1..=3).contains(&n) && matches!(*self.types.get(e), Ty::Scalar(s) if uint(s))
            }
            _ => false,
        }
    }
}

impl<'s, 'a> FnCtx<'s, 'a> {
    /// What the wrapper passes for a node object parameter: nothing of its
    /// own (the user's function reaches the input variable and the output
    /// types through the entry state), so a `uint` 0. `None` for other
    /// parameters. Outside node shaders such a parameter is an error.
    pub(super) fn node_param(&mut self, p: &ParamSig<'a>) -> Option<ir::Handle<ir::Expression>> {
        if !matches!(self.s.types.get(p.ty), Ty::Node(..)) {
            return None;
        }
        if self.s.stage != crate::ir::Stage::Node {
            self.s.push(
                Diagnostic::error(
                    codes::NODE_OBJECT,
                    format!(
                        "`{}` is a work graph object: only node shaders take one",
                        self.s.ty_name(p.ty)
                    ),
                )
                .label(p.span, format!("in {} shader", self.s.stage.with_article()))
                .note("mark the function `[Shader(\"node\")]` to make it a node of a work graph"),
            );
        }
        let u = self.s.ir_ty(crate::sema::types::UINT);
        Some(self.add(ir::Expression::Literal(ir::Literal::U32(0)), u))
    }

    /// What a node object parameter stands for in the body: in the entry's
    /// own function, its input variable or its output (by parameter).
    /// Passed to other functions, node objects are not supported yet.
    pub(in crate::sema) fn node_param_value(&mut self, p: &ParamSig<'a>, idx: u32) -> Val {
        let Ty::Node(obj, record, _) = *self.s.types.get(p.ty) else {
            return Val::error();
        };
        if self.s.stage != crate::ir::Stage::Node && self.s.entry.user == Some(self.fb.handle) {
            // Reported with the wrapper (`node_param`).
            return Val::error();
        }
        let in_entry =
            self.s.stage == crate::ir::Stage::Node && self.s.entry.user == Some(self.fb.handle);
        if !in_entry {
            return self.unsupported("passing work graph objects to functions", p.span);
        }
        if obj.is_input() {
            let Some(input) = self.s.entry.node.input else {
                return Val::error();
            };
            let g = input.var;
            let gty = self.s.module.globals[g].ty;
            let pty = self.ptr_type(gty, ir::AddressSpace::NodePayload);
            let ptr = self.add(ir::Expression::GlobalVariable(g), pty);
            let read_only = (!obj.writable()).then_some(ReadOnly::Resource(p.span));
            return Val::place(
                p.ty,
                Place::Ptr {
                    ptr,
                    mem: gty,
                    space: ir::AddressSpace::NodePayload,
                },
                read_only,
            );
        }
        let slot = idx + 1;
        let ty = self.s.types.intern(Ty::Node(obj, record, slot));
        let u = self.s.ir_ty(crate::sema::types::UINT);
        let zero = self.add(ir::Expression::Literal(ir::Literal::U32(0)), u);
        Val::expr(ty, zero)
    }
}
