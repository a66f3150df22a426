//! Work graph objects and intrinsics (SM 6.8) → SPV_AMDX_shader_enqueue:
//! the methods of node inputs, outputs and output records, their
//! indexing, `GetRemainingRecursionLevels()`, and `Barrier(…)` with
//! memory flags or an object.
//!
//! Inputs are pointers to the entry's `NodePayload` variable: `Get(i)` and
//! `[i]` are access chains, `Count()` is OpNodePayloadArrayLengthAMDX.
//! An output is a node index: `Get{Thread,Group}NodeOutputRecords(n)`
//! allocates (OpAllocateNodePayloadsAMDX, Invocation or Workgroup
//! visibility) a payload array of the output's type, which names the node;
//! `OutputComplete()` enqueues it. The empty outputs' `*IncrementOutputCount`
//! allocate and enqueue at once.

use crate::diag::{Diagnostic, codes};
use crate::front::ast;
use crate::intern::Symbol;
use crate::ir::{self, NodeOperation};
use crate::sema::ReadOnly;
use crate::sema::body::FnCtx;
use crate::sema::body::place::{Place, Val, ValKind};
use crate::sema::calls::Arg;
use crate::sema::types::node::NodeObj;
use crate::sema::types::{self, Ty, TyId};
use crate::span::Span;
use spirv::{MemorySemantics as MS, Scope};

/// `Barrier` memory type flags (Work Graphs spec, "Barrier").
const UAV_MEMORY: i64 = 0x1;
const GROUP_SHARED_MEMORY: i64 = 0x2;
const NODE_INPUT_MEMORY: i64 = 0x4;
const NODE_OUTPUT_MEMORY: i64 = 0x8;
/// `Barrier` semantic flags.
const GROUP_SYNC: i64 = 0x1;
const GROUP_SCOPE: i64 = 0x2;
const DEVICE_SCOPE: i64 = 0x4;

impl<'s, 'a> FnCtx<'s, 'a> {
    /// A call of a work graph intrinsic named `name` (with its arguments
    /// as written, for constant flags); `None` when `name` is not one.
    pub(in crate::sema) fn node_intrinsic(
        &mut self,
        name: Symbol,
        written: &'a [ast::Expr],
        args: &[Arg],
        span: Span,
    ) -> Option<Val> {
        match name.as_str() {
            "Barrier" => Some(self.barrier(written, args, span)),
            "GetRemainingRecursionLevels" => {
                if !args.is_empty() {
                    return Some(self.error(
                        codes::WRONG_ARG_COUNT,
                        "`GetRemainingRecursionLevels` takes no arguments",
                        span,
                        "wrong number of arguments",
                    ));
                }
                if !self.node_stage_ok("GetRemainingRecursionLevels", span) {
                    return Some(Val::error());
                }
                let g = self.s.builtin_input(
                    spirv::BuiltIn::RemainingRecursionLevelsAMDX,
                    "RemainingRecursionLevels",
                    types::UINT,
                );
                let u = self.s.ir_ty(types::UINT);
                let pty = self.ptr_type(u, ir::AddressSpace::Input);
                let p = self.add(ir::Expression::GlobalVariable(g), pty);
                let v = self.add(ir::Expression::Load { pointer: p }, u);
                Some(Val::expr(types::UINT, v))
            }
            _ => None,
        }
    }

    /// Work graph operations exist in node shaders only (a library's
    /// functions are checked by the entries that reach them).
    fn node_stage_ok(&mut self, what: &str, span: Span) -> bool {
        let stage = self.s.stage;
        if matches!(stage, crate::ir::Stage::Node | crate::ir::Stage::Library) {
            return true;
        }
        self.s.push(
            Diagnostic::error(
                codes::NODE_OBJECT,
                format!(
                    "`{what}` is available in node shaders only, not in {} shaders",
                    stage.name()
                ),
            )
            .label(span, "not in a node shader"),
        );
        false
    }

    /// `Barrier(memory_flags, semantic_flags)` and `Barrier(object,
    /// semantic_flags)` (SM 6.8), as DXC maps them: UAV → Uniform,
    /// groupshared → Workgroup, node output → Output memory, with
    /// AcquireRelease; memory scope QueueFamily for `DEVICE_SCOPE`,
    /// Workgroup for `GROUP_SCOPE`, else Invocation (the first two and
    /// Output memory are the Vulkan memory model's: the backend switches
    /// to it); `GROUP_SYNC` makes it a control barrier of the workgroup.
    /// An object barrier orders all memory its kind could be in.
    fn barrier(&mut self, written: &'a [ast::Expr], args: &[Arg], span: Span) -> Val {
        if args.iter().any(|a| a.val.is_error()) {
            return Val::error();
        }
        if args.len() != 2 {
            return self.error(
                codes::WRONG_ARG_COUNT,
                format!("`Barrier` takes 2 arguments, {} given", args.len()),
                span,
                "wrong number of arguments",
            );
        }
        let object = self.s.types.is_resource(args[0].val.ty)
            || matches!(self.s.types.get(args[0].val.ty), Ty::Node(..));
        let memory_flags = if object {
            UAV_MEMORY | GROUP_SHARED_MEMORY | NODE_INPUT_MEMORY | NODE_OUTPUT_MEMORY
        } else {
            match self.barrier_flag(&written[0], &args[0], "memory type") {
                Some(f) => f,
                None => return Val::error(),
            }
        };
        let Some(sem) = self.barrier_flag(&written[1], &args[1], "semantic") else {
            return Val::error();
        };
        let mut semantics = MS::RELAXED;
        if memory_flags & UAV_MEMORY != 0 {
            semantics |= MS::UNIFORM_MEMORY;
        }
        if memory_flags & GROUP_SHARED_MEMORY != 0 {
            semantics |= MS::WORKGROUP_MEMORY;
        }
        if memory_flags & NODE_OUTPUT_MEMORY != 0 {
            semantics |= MS::OUTPUT_MEMORY;
        }
        if !semantics.is_empty() {
            semantics |= MS::ACQUIRE_RELEASE;
        }
        let memory = if sem & DEVICE_SCOPE != 0 {
            Scope::QueueFamily
        } else if sem & GROUP_SCOPE != 0 {
            Scope::Workgroup
        } else {
            Scope::Invocation
        };
        // Vulkan: an Invocation-scope barrier orders nothing
        // (VUID-StandaloneSpirv-None-04641 wants Relaxed semantics there,
        // and VUID-StandaloneSpirv-MemorySemantics-10869 forbids a Relaxed
        // OpMemoryBarrier): without a group sync there is nothing to emit.
        let execution = (sem & GROUP_SYNC != 0).then_some(Scope::Workgroup);
        if memory == Scope::Invocation {
            if execution.is_none() {
                return Val::void();
            }
            semantics = MS::RELAXED;
        }
        self.stmt(ir::Statement::ScopedBarrier {
            execution,
            memory,
            semantics,
        });
        Val::void()
    }

    /// A constant flags argument of `Barrier`.
    fn barrier_flag(&mut self, e: &'a ast::Expr, a: &Arg, what: &str) -> Option<i64> {
        if let ValKind::Const(k) = &a.val.kind {
            return Some(k.as_i64());
        }
        let env = crate::sema::body::cx_env!(self);
        let mark = self.s.diagnostic_mark();
        let v = self.s.const_int(e, &env);
        self.s.drop_diagnostics_since(mark, |_| true);
        if v.is_none() {
            self.s.error(
                codes::NOT_CONSTANT,
                format!("the {what} flags of `Barrier` must be constant"),
                a.span,
                "not a constant",
            );
        }
        v
    }

    /// `obj.method(args)` on a work graph object.
    pub(in crate::sema) fn node_method(
        &mut self,
        obj: Val,
        kind: NodeObj,
        record: Option<TyId>,
        slot: u32,
        method: ast::Ident,
        args: Vec<Arg>,
        span: Span,
    ) -> Val {
        if args.iter().any(|a| a.val.is_error()) {
            return Val::error();
        }
        let m = method.name.as_str();
        let has = node_methods(kind, record.is_some());
        if !has.contains(&m) {
            let mut d = Diagnostic::error(
                codes::NODE_OBJECT,
                format!("`{}` has no method `{m}`", self.s.ty_name(obj.ty)),
            )
            .label(method.span, "unknown method");
            d = if has.is_empty() {
                d.note("it has no methods")
            } else {
                d.note(format!("its methods are {}", has.join(", ")))
            };
            self.s.push(d);
            return Val::error();
        }
        let arity: &[usize] = match m {
            "Get"
                if matches!(
                    kind,
                    NodeObj::GroupInputs { .. } | NodeObj::ThreadRecords | NodeObj::GroupRecords
                ) =>
            {
                &[0, 1]
            }
            "Get" | "Count" | "IsValid" | "OutputComplete" | "FinishedCrossGroupSharing" => &[0],
            _ => &[1],
        };
        if !arity.contains(&args.len()) {
            return self.error(
                codes::WRONG_ARG_COUNT,
                format!(
                    "`{m}` does not take {} argument{}",
                    args.len(),
                    if args.len() == 1 { "" } else { "s" }
                ),
                span,
                "wrong number of arguments",
            );
        }
        if !self.node_stage_ok(m, span) {
            return Val::error();
        }
        match m {
            "Get" => {
                let index = match args.first() {
                    Some(a) => self.arg_as(a, types::UINT),
                    None => Some(self.uint_literal(0)),
                };
                match (index, record) {
                    (Some(i), Some(r)) => self.node_record(&obj, kind, r, i, span),
                    _ => Val::error(),
                }
            }
            "Count" => self.node_count(&obj, span),
            "FinishedCrossGroupSharing" => self.finished_cross_group_sharing(&obj, record, span),
            "OutputComplete" => {
                let Some(p) = self.node_payloads(&obj, span) else {
                    return Val::error();
                };
                self.stmt(ir::Statement::Node {
                    op: NodeOperation::Enqueue,
                    args: vec![p],
                    result: None,
                });
                Val::void()
            }
            "IsValid" => {
                let Some(decl) = self.node_output_decl(slot, span) else {
                    return Val::error();
                };
                let Some(index) = self.value(&obj) else {
                    return Val::error();
                };
                let bt = self.s.ir_ty(types::BOOL);
                let r = self.add(ir::Expression::NodeResult, bt);
                self.stmt(ir::Statement::Node {
                    op: NodeOperation::IsValid {
                        payload: decl.payload,
                    },
                    args: vec![index],
                    result: Some(r),
                });
                Val::expr(types::BOOL, r)
            }
            _ => {
                let group = m.contains("Group");
                let Some(count) = self.arg_as(&args[0], types::UINT) else {
                    return Val::error();
                };
                let Some((ptr, records)) = self.allocate(&obj, record, slot, group, count, span)
                else {
                    return Val::error();
                };
                if m.ends_with("IncrementOutputCount") {
                    // Empty records: counted once enqueued.
                    self.stmt(ir::Statement::Node {
                        op: NodeOperation::Enqueue,
                        args: vec![ptr],
                        result: None,
                    });
                    return Val::void();
                }
                Val::expr(records, ptr)
            }
        }
    }

    fn uint_literal(&mut self, v: u32) -> ir::Handle<ir::Expression> {
        let u = self.s.ir_ty(types::UINT);
        self.add(ir::Expression::Literal(ir::Literal::U32(v)), u)
    }

    /// The output an output object stands for, by its parameter.
    fn node_output_decl(
        &mut self,
        slot: u32,
        span: Span,
    ) -> Option<super::super::entry::node::NodeOutputDecl> {
        let found = slot
            .checked_sub(1)
            .and_then(|i| self.s.entry.node.outputs.get(i as usize).copied().flatten());
        if found.is_none() {
            self.unsupported(
                "a node output that is not a parameter of the node's own function",
                span,
            );
        }
        found
    }

    /// `Get{Thread,Group}NodeOutputRecords(count)`: the allocated payload
    /// array (a pointer) and the HLSL type of the records object.
    fn allocate(
        &mut self,
        obj: &Val,
        record: Option<TyId>,
        slot: u32,
        group: bool,
        count: ir::Handle<ir::Expression>,
        span: Span,
    ) -> Option<(ir::Handle<ir::Expression>, TyId)> {
        let decl = self.node_output_decl(slot, span)?;
        let index = self.value(obj)?;
        let pty = self.ptr_type(decl.payload, ir::AddressSpace::NodePayload);
        let r = self.add(ir::Expression::NodeResult, pty);
        self.stmt(ir::Statement::Node {
            op: NodeOperation::Allocate { group },
            args: vec![count, index],
            result: Some(r),
        });
        let kind = if group {
            NodeObj::GroupRecords
        } else {
            NodeObj::ThreadRecords
        };
        let ty = self.s.types.intern(Ty::Node(kind, record, 0));
        Some((r, ty))
    }

    /// The pointer to the payload array of an input or records object.
    fn node_payloads(&mut self, obj: &Val, span: Span) -> Option<ir::Handle<ir::Expression>> {
        match &obj.kind {
            ValKind::Place(Place::Ptr { ptr, .. }) => Some(*ptr),
            ValKind::Expr(h) => Some(*h),
            ValKind::Void => {
                self.s.error(
                    codes::NODE_OBJECT,
                    format!("this `{}` holds no records yet", self.s.ty_name(obj.ty)),
                    span,
                    "not assigned",
                );
                None
            }
            _ => None,
        }
    }

    /// Record `index` of an input or records object: a place in
    /// `NodePayload` storage (read-only for inputs without `RW`).
    fn node_record(
        &mut self,
        obj: &Val,
        kind: NodeObj,
        record: TyId,
        index: ir::Handle<ir::Expression>,
        span: Span,
    ) -> Val {
        let Some(base) = self.node_payloads(obj, span) else {
            return Val::error();
        };
        let mem = self.s.ir_ty(record);
        let pty = self.ptr_type(mem, ir::AddressSpace::NodePayload);
        let ptr = self.add(ir::Expression::Access { base, index }, pty);
        let read_only = (!kind.writable()).then_some(ReadOnly::Resource(span));
        Val::place(
            record,
            Place::Ptr {
                ptr,
                mem,
                space: ir::AddressSpace::NodePayload,
            },
            read_only,
        )
    }

    /// `Count()`: the records of a coalescing node's input.
    fn node_count(&mut self, obj: &Val, span: Span) -> Val {
        let Some(p) = self.node_payloads(obj, span) else {
            return Val::error();
        };
        let u = self.s.ir_ty(types::UINT);
        let r = self.add(ir::Expression::NodeResult, u);
        self.stmt(ir::Statement::Node {
            op: NodeOperation::Count,
            args: vec![p],
            result: Some(r),
        });
        Val::expr(types::UINT, r)
    }

    /// `FinishedCrossGroupSharing()`: needs a record declared
    /// `[NodeTrackRWInputSharing]` (SPV_AMDX_shader_enqueue: the payload
    /// must be decorated `TrackFinishWritingAMDX`).
    fn finished_cross_group_sharing(&mut self, obj: &Val, record: Option<TyId>, span: Span) -> Val {
        let tracked = record.is_some_and(|r| {
            matches!(self.s.types.get(r), Ty::Struct(sid) if self.s.types.struct_info(*sid).track_rw_sharing)
        });
        if !tracked {
            let shown = record.map(|r| self.s.ty_name(r)).unwrap_or_default();
            self.s.push(
                Diagnostic::error(
                    codes::NODE_OBJECT,
                    format!("`FinishedCrossGroupSharing` needs a record declared `[NodeTrackRWInputSharing]`; `{shown}` is not"),
                )
                .label(span, "record not tracked")
                .note(format!("declare it `struct [NodeTrackRWInputSharing] {shown} {{ … }}`")),
            );
            return Val::error();
        }
        let Some(p) = self.node_payloads(obj, span) else {
            return Val::error();
        };
        let bt = self.s.ir_ty(types::BOOL);
        let r = self.add(ir::Expression::NodeResult, bt);
        self.stmt(ir::Statement::Node {
            op: NodeOperation::FinishWriting,
            args: vec![p],
            result: Some(r),
        });
        Val::expr(types::BOOL, r)
    }

    /// `obj[i]`: a record of a group input or of output records, or one
    /// output of an output array.
    pub(in crate::sema) fn node_index(
        &mut self,
        obj: Val,
        iv: Val,
        ispan: Span,
        span: Span,
    ) -> Val {
        let Ty::Node(kind, record, slot) = *self.s.types.get(obj.ty) else {
            return Val::error();
        };
        let index_arg = Arg {
            val: iv,
            span: ispan,
            vertex: None,
            mesh: None,
            local: None,
        };
        let Some(index) = self.arg_as(&index_arg, types::UINT) else {
            return Val::error();
        };
        match (kind, record) {
            (NodeObj::OutputArray, _) => {
                let ty = self.s.types.intern(Ty::Node(NodeObj::Output, record, slot));
                Val::expr(ty, index)
            }
            (
                NodeObj::GroupInputs { .. } | NodeObj::ThreadRecords | NodeObj::GroupRecords,
                Some(r),
            ) => self.node_record(&obj, kind, r, index, span),
            _ => self.error(
                codes::NODE_OBJECT,
                format!("cannot index `{}`", self.s.ty_name(obj.ty)),
                span,
                "use `Get()` for its record",
            ),
        }
    }
}

/// The methods of a work graph object (Work Graphs spec, "Node input
/// record objects", "Node output objects").
fn node_methods(kind: NodeObj, has_record: bool) -> &'static [&'static str] {
    match (kind, has_record) {
        (NodeObj::DispatchInput { rw: true }, _) => &["Get", "FinishedCrossGroupSharing"],
        (NodeObj::DispatchInput { rw: false } | NodeObj::ThreadInput { .. }, _) => &["Get"],
        (NodeObj::GroupInputs { .. }, _) => &["Get", "Count"],
        (NodeObj::EmptyInput, _) => &["Count"],
        (NodeObj::Output, true) => &[
            "GetThreadNodeOutputRecords",
            "GetGroupNodeOutputRecords",
            "IsValid",
        ],
        (NodeObj::Output, false) => &[
            "ThreadIncrementOutputCount",
            "GroupIncrementOutputCount",
            "IsValid",
        ],
        (NodeObj::OutputArray, _) => &[],
        (NodeObj::ThreadRecords | NodeObj::GroupRecords, _) => &["Get", "OutputComplete"],
    }
}
