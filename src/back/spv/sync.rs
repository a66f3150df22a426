//! Atomics, barriers and wave operations (SPIR-V.rst, "Synchronization
//! intrinsics", "Shader Model 6.0+ Wave Intrinsics").

use super::expr::Shape;
use super::function::FunctionWriter;
use super::{BackResult, internal, needs_newer_target, unsupported};
use crate::ir::{self, AtomicFunction, Expression, Handle, Scalar, ScalarKind, SubgroupOperation};
use rspirv::dr::Operand;
use spirv::{BuiltIn, Capability, GroupOperation, MemorySemantics, Op, Scope, StorageClass, Word};

impl FunctionWriter<'_, '_> {
    fn scope(&mut self, scope: Scope) -> Word {
        self.w.device_scope_used |= scope == Scope::Device;
        self.w.const_u32(scope as u32)
    }

    /// `*MemoryBarrier[WithGroupSync]`: memory scope Device when buffers
    /// or images are involved, else Workgroup; AcquireRelease plus the
    /// storage classes made visible; Workgroup execution scope for the
    /// `WithGroupSync` forms (SPIR-V.rst, "Synchronization intrinsics").
    pub fn write_barrier(&mut self, memory: ir::BarrierMemory, execution: bool) -> BackResult<()> {
        let mut semantics = MemorySemantics::RELAXED;
        if memory.workgroup {
            semantics |= MemorySemantics::WORKGROUP_MEMORY;
        }
        if memory.device {
            semantics |= MemorySemantics::UNIFORM_MEMORY;
        }
        if memory.image {
            semantics |= MemorySemantics::IMAGE_MEMORY;
        }
        if !semantics.is_empty() {
            semantics |= MemorySemantics::ACQUIRE_RELEASE;
        }
        // A barrier that orders no memory (the hull shader's, before its
        // patch-constant function) has the Invocation memory scope: Vulkan
        // allows Workgroup only in compute-like stages
        // (VUID-StandaloneSpirv-None-04639).
        let memory_scope = if memory.device || memory.image {
            Scope::Device
        } else if memory.workgroup {
            Scope::Workgroup
        } else {
            Scope::Invocation
        };
        self.emit_barrier(
            execution.then_some(Scope::Workgroup),
            memory_scope,
            semantics,
        )
    }

    /// `OpControlBarrier` with an execution scope, else `OpMemoryBarrier`.
    fn emit_barrier(
        &mut self,
        execution: Option<Scope>,
        memory: Scope,
        semantics: MemorySemantics,
    ) -> BackResult<()> {
        let memory_scope = self.scope(memory);
        let semantics = self.w.const_u32(semantics.bits());
        let mut operands = Vec::with_capacity(3);
        let op = match execution {
            Some(e) => {
                operands.push(Operand::IdScope(self.scope(e)));
                Op::ControlBarrier
            }
            None => Op::MemoryBarrier,
        };
        operands.push(Operand::IdScope(memory_scope));
        operands.push(Operand::IdMemorySemantics(semantics));
        self.emit_void(op, operands)
    }

    /// SM 6.8 `Barrier(…)`: the scopes and semantics sema computed.
    pub fn write_scoped_barrier(
        &mut self,
        execution: Option<Scope>,
        memory: Scope,
        semantics: MemorySemantics,
    ) -> BackResult<()> {
        // Node output memory and the queue family scope exist in the
        // Vulkan memory model only (the writer switches to it).
        if memory == Scope::QueueFamily || semantics.contains(MemorySemantics::OUTPUT_MEMORY) {
            self.w.capability(Capability::VulkanMemoryModel);
        }
        self.emit_barrier(execution, memory, semantics)
    }

    /// `Interlocked*` and buffer counters: scope Workgroup for groupshared,
    /// Device otherwise; relaxed (None) semantics as DXC emits.
    pub fn write_atomic(
        &mut self,
        pointer: Handle<Expression>,
        fun: AtomicFunction,
        value: Option<Handle<Expression>>,
        compare: Option<Handle<Expression>>,
        result: Option<Handle<Expression>>,
    ) -> BackResult<()> {
        use AtomicFunction as A;
        let pv = self.pointer(pointer)?;
        let ir::TypeInner::Scalar(scalar) = self.w.ir_type(pv.pointee)?.inner else {
            return Err(internal("atomic on a non-scalar"));
        };
        let ty = self.w.scalar_type(scalar);
        let p = self.pointer_id(&pv)?;
        let scope = self.scope(if pv.class == StorageClass::Workgroup {
            Scope::Workgroup
        } else {
            Scope::Device
        });
        let relaxed = self.w.const_u32(MemorySemantics::RELAXED.bits());
        if scalar.width == 8 {
            self.w.capability(Capability::Int64Atomics);
        }
        let value_id = |s: &mut Self| -> BackResult<Word> {
            match value {
                Some(v) => s.value(v),
                None => Err(internal(format!("atomic {fun:?} without a value"))),
            }
        };
        let float = scalar.kind == ScalarKind::Float;
        let op = match fun {
            A::Add if float => {
                self.w.capability(match scalar.width {
                    2 => Capability::AtomicFloat16AddEXT,
                    8 => Capability::AtomicFloat64AddEXT,
                    _ => Capability::AtomicFloat32AddEXT,
                });

                Op::AtomicFAddEXT
            }
            A::Add => Op::AtomicIAdd,
            A::Exchange => Op::AtomicExchange,
            A::Store => Op::AtomicStore,
            _ if float => {
                return Err(unsupported(format!("atomic {fun:?} on floats")));
            }
            A::Subtract => Op::AtomicISub,
            A::And => Op::AtomicAnd,
            A::InclusiveOr => Op::AtomicOr,
            A::ExclusiveOr => Op::AtomicXor,
            A::Min if scalar.kind == ScalarKind::Sint => Op::AtomicSMin,
            A::Min => Op::AtomicUMin,
            A::Max if scalar.kind == ScalarKind::Sint => Op::AtomicSMax,
            A::Max => Op::AtomicUMax,
            A::CompareExchange => Op::AtomicCompareExchange,
        };
        let mut operands = vec![
            Operand::IdRef(p),
            Operand::IdScope(scope),
            Operand::IdMemorySemantics(relaxed),
        ];
        match fun {
            A::CompareExchange => {
                // Equal and Unequal semantics, then the value and the
                // comparator.
                operands.push(Operand::IdMemorySemantics(relaxed));
                let v = value_id(self)?;
                let Some(c) = compare else {
                    return Err(internal("compare-exchange without a comparator"));
                };
                let c = self.value(c)?;
                operands.push(Operand::IdRef(v));
                operands.push(Operand::IdRef(c));
            }
            _ => {
                let v = value_id(self)?;
                operands.push(Operand::IdRef(v));
            }
        }
        if fun == A::Store {
            return self.emit_void(op, operands);
        }
        let id = self.emit_value(op, ty, operands)?;
        if let Some(r) = result {
            self.set_result(r, id)?;
        }
        Ok(())
    }

    /// Loads a `uint` built-in input that the backend declares itself.
    fn load_builtin(&mut self, builtin: BuiltIn) -> BackResult<Word> {
        let var = self.w.builtin_input(builtin, Scalar::U32);
        self.w.function_uses[self.handle.index()]
            .builtins
            .insert(var);
        let u32_ty = self.w.scalar_type(Scalar::U32);
        self.emit_value(Op::Load, u32_ty, [Operand::IdRef(var)])
    }

    /// `WaveGetLaneIndex()`: the SubgroupLocalInvocationId built-in.
    fn lane_index(&mut self) -> BackResult<Word> {
        self.load_builtin(BuiltIn::SubgroupLocalInvocationId)
    }

    /// Wave operations: OpGroupNonUniform* with Subgroup scope; lane
    /// count and index are the SubgroupSize and SubgroupLocalInvocationId
    /// built-ins. They need SPIR-V 1.3 (Vulkan 1.1).
    /// SPV_NV_shader_subgroup_partitioned: `WaveMatch`, `WaveMultiPrefix*`.
    fn partitioned(&mut self) {
        self.w.capability(Capability::GroupNonUniformPartitionedNV);
    }

    /// SPV_NV_shader_subgroup_partitioned: `WaveMatch` of `v`, and the
    /// `WaveMultiPrefix*` operations of `v` within partition `mask`.
    fn write_partitioned(
        &mut self,
        op: SubgroupOperation,
        first: Handle<Expression>,
        v: Word,
        mask: Word,
        rt: Word,
    ) -> BackResult<Word> {
        use SubgroupOperation as S;
        let scope = self.scope(Scope::Subgroup);
        Ok(match op {
            S::Match => {
                self.partitioned();
                self.emit_value(Op::GroupNonUniformPartitionNV, rt, [Operand::IdRef(v)])?
            }
            S::MultiPrefixSum
            | S::MultiPrefixProduct
            | S::MultiPrefixBitAnd
            | S::MultiPrefixBitOr
            | S::MultiPrefixBitXor => {
                self.partitioned();
                let Some(scalar) = self.shape(first)?.scalar() else {
                    return Err(internal("wave arithmetic on a non-numeric value"));
                };
                let o = group_arithmetic(op, scalar.kind)?;
                self.emit_value(
                    o,
                    rt,
                    [
                        Operand::IdScope(scope),
                        Operand::GroupOperation(GroupOperation::PartitionedExclusiveScanNV),
                        Operand::IdRef(v),
                        Operand::IdRef(mask),
                    ],
                )?
            }
            S::MultiPrefixCountBits => {
                // The ballot within the partition, counted below this lane.
                self.w.capability(Capability::GroupNonUniformBallot);
                let p = v;
                let uvec4 = self.w.vector_type(Scalar::U32, 4);
                let ballot = self.emit_value(
                    Op::GroupNonUniformBallot,
                    uvec4,
                    [Operand::IdScope(scope), Operand::IdRef(p)],
                )?;
                let within = self.emit_value(
                    Op::BitwiseAnd,
                    uvec4,
                    [Operand::IdRef(ballot), Operand::IdRef(mask)],
                )?;
                self.emit_value(
                    Op::GroupNonUniformBallotBitCount,
                    rt,
                    [
                        Operand::IdScope(scope),
                        Operand::GroupOperation(GroupOperation::ExclusiveScan),
                        Operand::IdRef(within),
                    ],
                )?
            }
            _ => return Err(internal(format!("{op:?} is not a partitioned operation"))),
        })
    }

    /// `IsHelperLane` and `ReadClock`, which need no GroupNonUniform:
    /// written, true; any other operation, false.
    fn write_lane_state(
        &mut self,
        op: SubgroupOperation,
        result: Handle<Expression>,
    ) -> BackResult<bool> {
        use SubgroupOperation as S;
        if op == S::IsHelperLane {
            self.w.capability(Capability::DemoteToHelperInvocation);

            let result_ty = self.expr_type(result)?;
            let rt = self.w.type_id(result_ty)?;
            let id = self.emit_value(Op::IsHelperInvocationEXT, rt, [])?;
            self.set_result(result, id)?;
            return Ok(true);
        }
        if let S::ReadClock { device } = op {
            // SPV_KHR_shader_clock: a 64-bit clock, no SPIR-V 1.3 needed.
            self.w.capability(Capability::ShaderClockKHR);

            let rt = self.w.type_id(self.expr_type(result)?)?;
            let scope = self.scope(if device {
                Scope::Device
            } else {
                Scope::Subgroup
            });
            let id = self.emit_value(Op::ReadClockKHR, rt, [Operand::IdScope(scope)])?;
            self.set_result(result, id)?;
            return Ok(true);
        }
        Ok(false)
    }

    /// `QuadReadAcrossX/Y/Diagonal` of `v`.
    fn quad_swap(&mut self, op: SubgroupOperation, v: Word, rt: Word) -> BackResult<Word> {
        use SubgroupOperation as S;
        let scope = self.scope(Scope::Subgroup);
        self.w.capability(Capability::GroupNonUniformQuad);
        let direction = match op {
            S::QuadReadAcrossX => 0,
            S::QuadReadAcrossY => 1,
            _ => 2,
        };
        let d = self.w.const_u32(direction);
        self.emit_value(
            Op::GroupNonUniformQuadSwap,
            rt,
            [
                Operand::IdScope(scope),
                Operand::IdRef(v),
                Operand::IdRef(d),
            ],
        )
    }

    pub fn write_subgroup(
        &mut self,
        op: SubgroupOperation,
        args: &[Handle<Expression>],
        result: Handle<Expression>,
    ) -> BackResult<()> {
        use SubgroupOperation as S;
        if self.write_lane_state(op, result)? {
            return Ok(());
        }
        if !self.w.version_at_least(1, 3) {
            let d = needs_newer_target("a wave operation", (1, 3), self.w.options.target_env);
            let span = self.w.cur_span;
            return Err(if span.is_dummy() {
                d
            } else {
                d.label(span, "a wave operation")
            });
        }
        self.w.capability(Capability::GroupNonUniform);
        let result_ty = self.expr_type(result)?;
        let rt = self.w.type_id(result_ty)?;
        let scope = self.scope(Scope::Subgroup);
        let arg = |s: &mut Self, i: usize| -> BackResult<Word> {
            match args.get(i) {
                Some(&a) => s.value(a),
                None => Err(internal(format!(
                    "wave operation {op:?} lacks argument {i}"
                ))),
            }
        };
        let id = match op {
            S::GetLaneCount => self.load_builtin(BuiltIn::SubgroupSize)?,
            S::GetLaneIndex => self.lane_index()?,
            S::IsFirstLane => {
                self.emit_value(Op::GroupNonUniformElect, rt, [Operand::IdScope(scope)])?
            }
            S::AnyTrue | S::AllTrue => {
                self.w.capability(Capability::GroupNonUniformVote);
                let p = arg(self, 0)?;
                let o = if op == S::AnyTrue {
                    Op::GroupNonUniformAny
                } else {
                    Op::GroupNonUniformAll
                };
                self.emit_value(o, rt, [Operand::IdScope(scope), Operand::IdRef(p)])?
            }
            S::AllEqual => {
                self.w.capability(Capability::GroupNonUniformVote);
                let v = arg(self, 0)?;
                let bool_ty = self.w.bool_type();
                match (self.shape(result)?, self.shape(args[0])?) {
                    // A vector result compares each component.
                    (Shape::Vector(n, _), Shape::Vector(_, s)) => {
                        let st = self.w.scalar_type(s);
                        let mut parts = Vec::with_capacity(n as usize);
                        for i in 0..u32::from(n) {
                            let c = self.extract(st, v, i)?;
                            parts.push(Operand::IdRef(self.emit_value(
                                Op::GroupNonUniformAllEqual,
                                bool_ty,
                                [Operand::IdScope(scope), Operand::IdRef(c)],
                            )?));
                        }
                        self.emit_value(Op::CompositeConstruct, rt, parts)?
                    }
                    _ => self.emit_value(
                        Op::GroupNonUniformAllEqual,
                        rt,
                        [Operand::IdScope(scope), Operand::IdRef(v)],
                    )?,
                }
            }
            S::Ballot => {
                self.w.capability(Capability::GroupNonUniformBallot);
                let p = arg(self, 0)?;
                self.emit_value(
                    Op::GroupNonUniformBallot,
                    rt,
                    [Operand::IdScope(scope), Operand::IdRef(p)],
                )?
            }
            S::ReadLaneAt | S::QuadReadLaneAt => {
                let v = arg(self, 0)?;
                let mut lane = arg(self, 1)?;
                // The broadcasts need a lane that is the same in every
                // invocation: a constant before SPIR-V 1.5, a dynamically
                // uniform id from 1.5 on. HLSL promises neither (each lane
                // may read another, `WaveGetLaneIndex() ^ 2`), and whether
                // an id is uniform is not known here, so only a constant
                // lane broadcasts; any other uses a shuffle (for a quad: of
                // lane `(index & ~3) + lane`).
                let broadcast = self.constant(args[1])?.is_some();
                let o = if op == S::QuadReadLaneAt && broadcast {
                    self.w.capability(Capability::GroupNonUniformQuad);
                    Op::GroupNonUniformQuadBroadcast
                } else if op == S::QuadReadLaneAt {
                    self.w.capability(Capability::GroupNonUniformShuffle);
                    let index = self.lane_index()?;
                    let u32_ty = self.w.scalar_type(Scalar::U32);
                    let mask = self.w.const_u32(!3);
                    let base = self.emit_value(
                        Op::BitwiseAnd,
                        u32_ty,
                        [Operand::IdRef(index), Operand::IdRef(mask)],
                    )?;
                    lane = self.emit_value(
                        Op::IAdd,
                        u32_ty,
                        [Operand::IdRef(base), Operand::IdRef(lane)],
                    )?;
                    Op::GroupNonUniformShuffle
                } else if broadcast {
                    self.w.capability(Capability::GroupNonUniformBallot);
                    Op::GroupNonUniformBroadcast
                } else {
                    self.w.capability(Capability::GroupNonUniformShuffle);
                    Op::GroupNonUniformShuffle
                };
                self.emit_value(
                    o,
                    rt,
                    [
                        Operand::IdScope(scope),
                        Operand::IdRef(v),
                        Operand::IdRef(lane),
                    ],
                )?
            }
            S::ReadLaneFirst => {
                self.w.capability(Capability::GroupNonUniformBallot);
                let v = arg(self, 0)?;
                self.emit_value(
                    Op::GroupNonUniformBroadcastFirst,
                    rt,
                    [Operand::IdScope(scope), Operand::IdRef(v)],
                )?
            }
            S::Sum
            | S::Product
            | S::BitAnd
            | S::BitOr
            | S::BitXor
            | S::Min
            | S::Max
            | S::PrefixSum
            | S::PrefixProduct => {
                self.w.capability(Capability::GroupNonUniformArithmetic);
                let v = arg(self, 0)?;
                let Some(scalar) = self.shape(args[0])?.scalar() else {
                    return Err(internal("wave arithmetic on a non-numeric value"));
                };
                let group = if matches!(op, S::PrefixSum | S::PrefixProduct) {
                    GroupOperation::ExclusiveScan
                } else {
                    GroupOperation::Reduce
                };
                let o = group_arithmetic(op, scalar.kind)?;
                self.emit_value(
                    o,
                    rt,
                    [
                        Operand::IdScope(scope),
                        Operand::GroupOperation(group),
                        Operand::IdRef(v),
                    ],
                )?
            }
            S::CountBits | S::PrefixCountBits => {
                self.w.capability(Capability::GroupNonUniformBallot);
                let p = arg(self, 0)?;
                let uvec4 = self.w.vector_type(Scalar::U32, 4);
                let ballot = self.emit_value(
                    Op::GroupNonUniformBallot,
                    uvec4,
                    [Operand::IdScope(scope), Operand::IdRef(p)],
                )?;
                let group = if op == S::CountBits {
                    GroupOperation::Reduce
                } else {
                    GroupOperation::ExclusiveScan
                };
                self.emit_value(
                    Op::GroupNonUniformBallotBitCount,
                    rt,
                    [
                        Operand::IdScope(scope),
                        Operand::GroupOperation(group),
                        Operand::IdRef(ballot),
                    ],
                )?
            }
            S::QuadReadAcrossX | S::QuadReadAcrossY | S::QuadReadAcrossDiagonal => {
                let v = arg(self, 0)?;
                self.quad_swap(op, v, rt)?
            }
            S::Match
            | S::MultiPrefixSum
            | S::MultiPrefixProduct
            | S::MultiPrefixBitAnd
            | S::MultiPrefixBitOr
            | S::MultiPrefixBitXor
            | S::MultiPrefixCountBits => {
                let v = arg(self, 0)?;
                let mask = if op == S::Match { v } else { arg(self, 1)? };
                self.write_partitioned(op, args[0], v, mask, rt)?
            }
            S::IsHelperLane | S::ReadClock { .. } => {
                return Err(internal(format!("{op:?} is written above")));
            }
        };
        self.set_result(result, id)
    }
}

fn group_arithmetic(op: SubgroupOperation, kind: ScalarKind) -> BackResult<Op> {
    use ScalarKind as K;
    use SubgroupOperation as S;
    Ok(match (op, kind) {
        (S::Sum | S::PrefixSum | S::MultiPrefixSum, K::Float) => Op::GroupNonUniformFAdd,
        (S::Sum | S::PrefixSum | S::MultiPrefixSum, K::Sint | K::Uint) => Op::GroupNonUniformIAdd,
        (S::Product | S::PrefixProduct | S::MultiPrefixProduct, K::Float) => {
            Op::GroupNonUniformFMul
        }
        (S::Product | S::PrefixProduct | S::MultiPrefixProduct, K::Sint | K::Uint) => {
            Op::GroupNonUniformIMul
        }
        (S::Min, K::Float) => Op::GroupNonUniformFMin,
        (S::Min, K::Sint) => Op::GroupNonUniformSMin,
        (S::Min, K::Uint) => Op::GroupNonUniformUMin,
        (S::Max, K::Float) => Op::GroupNonUniformFMax,
        (S::Max, K::Sint) => Op::GroupNonUniformSMax,
        (S::Max, K::Uint) => Op::GroupNonUniformUMax,
        (S::BitAnd | S::MultiPrefixBitAnd, K::Sint | K::Uint) => Op::GroupNonUniformBitwiseAnd,
        (S::BitOr | S::MultiPrefixBitOr, K::Sint | K::Uint) => Op::GroupNonUniformBitwiseOr,
        (S::BitXor | S::MultiPrefixBitXor, K::Sint | K::Uint) => Op::GroupNonUniformBitwiseXor,
        (S::BitAnd, K::Bool) => Op::GroupNonUniformLogicalAnd,
        (S::BitOr, K::Bool) => Op::GroupNonUniformLogicalOr,
        (S::BitXor, K::Bool) => Op::GroupNonUniformLogicalXor,
        (op, kind) => return Err(internal(format!("wave {op:?} on {kind:?}"))),
    })
}
