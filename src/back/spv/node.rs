//! Work graphs (SM 6.8 node shaders) → SPV_AMDX_shader_enqueue: the
//! payload array types and their decorations, the execution modes of a
//! node entry point, and the node instructions (allocate, enqueue,
//! validity, count, finish writing).

use super::function::{FunctionWriter, PointerValue};
use super::writer::Writer;
use super::{BackResult, internal};
use crate::back::spv::inst;
use crate::ir::{self, Expression, Handle, NodeLaunch, NodeOperation};
use rspirv::dr::{Instruction, Operand};
use smallvec::SmallVec;
use spirv::{Capability, Decoration, ExecutionMode, Op, Scope, StorageClass, Word};

impl Writer<'_> {
    /// The capability and extension every work graph instruction, type,
    /// storage class and execution mode needs.
    pub fn shader_enqueue_capabilities(&mut self) {
        self.capability(Capability::ShaderEnqueueAMDX);
    }

    /// `OpConstantStringAMDX "name"`: node names are ids of string
    /// constants (one per distinct name).
    fn node_name(&mut self, name: &str) -> Word {
        if let Some(&id) = self.types.node_names.get(name) {
            return id;
        }
        let id = self.id();
        self.globals.push(inst(
            Op::ConstantStringAMDX,
            None,
            Some(id),
            vec![Operand::LiteralString(name.to_string())],
        ));
        self.types.node_names.insert(name.to_string(), id);
        id
    }

    fn decorate_id(&mut self, target: Word, decoration: Decoration, ids: &[Word]) {
        let mut operands = vec![Operand::IdRef(target), Operand::Decoration(decoration)];
        operands.extend(ids.iter().map(|&v| Operand::IdRef(v)));
        self.instruction(super::requirements::DECORATE_ID);
        self.annotations
            .push(inst(Op::DecorateId, None, None, operands));
    }

    /// `OpTypeNodePayloadArrayAMDX` of `payload`, with the decorations
    /// that say how many records it holds and, for outputs, which node
    /// they go to. Each IR type gets its own id: two outputs of the same
    /// record type are different types, told apart by their decorations.
    pub fn node_payload_array_type(
        &mut self,
        payload: Handle<ir::Type>,
        max_payloads: Option<u32>,
        output: Option<&ir::NodeTarget>,
    ) -> BackResult<Word> {
        self.shader_enqueue_capabilities();
        let payload = self.type_id(payload)?;
        // The ids a decoration names must come before the type it decorates
        // (SPIR-V 2.4, OpDecorateId), so they are declared first.
        let mut with_ids: Vec<(Decoration, Word)> = Vec::new();
        let mut plain = Vec::new();
        if let Some(t) = output {
            with_ids.push((Decoration::PayloadNodeNameAMDX, self.node_name(&t.name)));
            if t.base_index != 0 {
                let base = self.const_u32(t.base_index);
                with_ids.push((Decoration::PayloadNodeBaseIndexAMDX, base));
            }
        }
        if let Some(n) = max_payloads {
            with_ids.push((Decoration::NodeMaxPayloadsAMDX, self.const_u32(n)));
        }
        if let Some(t) = output {
            if let Some(shared) = t.shares_limits_with {
                let shared = self.type_id(shared)?;
                with_ids.push((Decoration::NodeSharesPayloadLimitsWithAMDX, shared));
            }
            if t.sparse {
                plain.push(Decoration::PayloadNodeSparseArrayAMDX);
            }
            if let Some(n) = t.array_size {
                with_ids.push((Decoration::PayloadNodeArraySizeAMDX, self.const_u32(n)));
            }
        }
        let id = self.id();
        self.globals.push(inst(
            Op::TypeNodePayloadArrayAMDX,
            None,
            Some(id),
            vec![Operand::IdRef(payload)],
        ));
        for (d, operand) in with_ids {
            self.decorate_id(id, d, &[operand]);
        }
        for d in plain {
            self.decorate(id, d, &[]);
        }
        Ok(id)
    }

    /// The decorations sema put on record structs: `TrackFinishWritingAMDX`
    /// and `PayloadDispatchIndirectAMDX` on the `SV_DispatchGrid` member.
    pub fn decorate_record(&mut self, h: Handle<ir::Type>, id: Word) {
        let ir = self.ir;
        let mut any = false;
        for &(t, member, d) in &ir.record_decorations {
            if t != h {
                continue;
            }
            any = true;
            match member {
                Some(m) => self.decorate_member(id, m, d, &[]),
                None => self.decorate(id, d, &[]),
            }
        }
        if any {
            self.shader_enqueue_capabilities();
        }
    }

    /// The execution modes of a node entry point (their operands are ids
    /// of constants, so `OpExecutionModeId`).
    pub fn node_entry_modes(
        &mut self,
        node: &ir::NodeEntry,
        function: Word,
        modes: &mut Vec<Instruction>,
    ) -> BackResult<()> {
        self.shader_enqueue_capabilities();
        for &t in &node.outputs {
            self.type_id(t)?;
        }
        let mut literal = |mode: ExecutionMode| {
            modes.push(inst(
                Op::ExecutionMode,
                None,
                None,
                vec![Operand::IdRef(function), Operand::ExecutionMode(mode)],
            ));
        };
        // A thread launch node is a coalescing one whose groups have one
        // thread (and so one record).
        if matches!(node.launch, NodeLaunch::Coalescing | NodeLaunch::Thread) {
            literal(ExecutionMode::CoalescingAMDX);
        }
        let mut with_ids: Vec<(ExecutionMode, Vec<Word>)> = Vec::new();
        if let Some(n) = node.max_recursion {
            with_ids.push((ExecutionMode::MaxNodeRecursionAMDX, vec![self.const_u32(n)]));
        }
        if let Some(g) = node.dispatch_grid {
            let ids = g.iter().map(|&v| self.const_u32(v)).collect();
            with_ids.push((ExecutionMode::StaticNumWorkgroupsAMDX, ids));
        }
        if let Some(g) = node.max_dispatch_grid {
            let ids = g.iter().map(|&v| self.const_u32(v)).collect();
            with_ids.push((ExecutionMode::MaxNumWorkgroupsAMDX, ids));
        }
        if let Some(i) = node.index {
            with_ids.push((ExecutionMode::ShaderIndexAMDX, vec![self.const_u32(i)]));
        }
        if let Some((name, index)) = &node.share_input {
            let name = self.node_name(name);
            let index = self.const_u32(*index);
            with_ids.push((ExecutionMode::SharesInputWithAMDX, vec![name, index]));
        }
        // `IsApiEntryAMDX` defaults to true; a node sharing another's input
        // must say false (SPV_AMDX_shader_enqueue).
        let api_entry = if node.program_entry {
            Some(true)
        } else if node.share_input.is_some() {
            Some(false)
        } else {
            None
        };
        if let Some(b) = api_entry {
            let b = self.constants_bool(b);
            with_ids.push((ExecutionMode::IsApiEntryAMDX, vec![b]));
        }
        if !with_ids.is_empty() {
            self.instruction(super::requirements::EXECUTION_MODE_ID);
        }
        for (mode, ids) in with_ids {
            let mut ops = vec![Operand::IdRef(function), Operand::ExecutionMode(mode)];
            ops.extend(ids.into_iter().map(Operand::IdRef));
            modes.push(inst(Op::ExecutionModeId, None, None, ops));
        }
        Ok(())
    }

    fn constants_bool(&mut self, b: bool) -> Word {
        self.literal(ir::Literal::Bool(b))
    }
}

impl FunctionWriter<'_, '_> {
    /// A [`ir::Statement::Node`].
    pub fn write_node(
        &mut self,
        op: NodeOperation,
        args: &[Handle<Expression>],
        result: Option<Handle<Expression>>,
    ) -> BackResult<()> {
        self.w.shader_enqueue_capabilities();
        let arg = |s: &mut Self, i: usize| match args.get(i) {
            Some(&a) => s.value(a),
            None => Err(internal(format!("node operation {op:?} lacks operand {i}"))),
        };
        let result_type = |s: &mut Self| -> BackResult<Word> {
            match result {
                Some(r) => {
                    let t = s.expr_type(r)?;
                    s.w.type_id(t)
                }
                None => Err(internal(format!("node operation {op:?} has no result"))),
            }
        };
        let id = match op {
            NodeOperation::Allocate { group } => {
                let t = result_type(self)?;
                let scope = if group {
                    Scope::Workgroup
                } else {
                    Scope::Invocation
                };
                let scope = self.w.const_u32(scope as u32);
                let count = arg(self, 0)?;
                let index = arg(self, 1)?;
                Some(self.emit_value(
                    Op::AllocateNodePayloadsAMDX,
                    t,
                    [
                        Operand::IdScope(scope),
                        Operand::IdRef(count),
                        Operand::IdRef(index),
                    ],
                )?)
            }
            NodeOperation::Enqueue => {
                let payloads = arg(self, 0)?;
                self.emit_void(Op::EnqueueNodePayloadsAMDX, [Operand::IdRef(payloads)])?;
                None
            }
            NodeOperation::IsValid { payload } => {
                let t = self.w.bool_type();
                // The operand is a value of the output's payload type (as
                // DXC passes: a pointer to a variable of it); SPIRV-Tools
                // refuses a type there.
                let payload = self.w.type_id(payload)?;
                let payload = self.add_variable(payload, None);
                let index = arg(self, 0)?;
                Some(self.emit_value(
                    Op::IsNodePayloadValidAMDX,
                    t,
                    [Operand::IdRef(payload), Operand::IdRef(index)],
                )?)
            }
            NodeOperation::FinishWriting => {
                let t = self.w.bool_type();
                let payload = arg(self, 0)?;
                Some(self.emit_value(
                    Op::FinishWritingNodePayloadAMDX,
                    t,
                    [Operand::IdRef(payload)],
                )?)
            }
            NodeOperation::Count => {
                let t = self.w.scalar_type(ir::Scalar::U32);
                let payloads = arg(self, 0)?;
                Some(self.emit_value(
                    Op::NodePayloadArrayLengthAMDX,
                    t,
                    [Operand::IdRef(payloads)],
                )?)
            }
        };
        match (result, id) {
            // The allocated array is a pointer that record accesses chain
            // from.
            (Some(r), Some(id)) if matches!(op, NodeOperation::Allocate { .. }) => {
                let pointee = match self.w.ir.types[self.expr_type(r)?].inner {
                    ir::TypeInner::Pointer { base, .. } => base,
                    _ => return Err(internal("a node allocation that gives no pointer")),
                };
                let value = self.new_pointer(PointerValue {
                    root: id,
                    indices: SmallVec::new(),
                    const_indices: SmallVec::new(),
                    class: StorageClass::NodePayloadAMDX,
                    pointee,
                    global: None,
                    non_uniform: false,
                    align: None,
                });
                self.values[r.index()] = value;
                Ok(())
            }
            (Some(r), Some(id)) => self.set_result(r, id),
            _ => Ok(()),
        }
    }
}
