//! Work graphs (SM 6.8 node shaders) → SPV_AMDX_shader_enqueue: node
//! entries compiled with `lib_6_8` for Vulkan 1.3, checked instruction by
//! instruction (execution modes and their constant operands, payload array
//! types and their decorations, the NodePayloadAMDX input variable, the
//! node instructions and what they are given).
//!
//! Debian's spirv-val (2023.1, the one in PATH and CI) does not know the
//! ShaderEnqueueAMDX capability. Set `HLSLC_SPIRV_VAL_NEW` to a newer
//! spirv-val (SPIRV-Tools 2025.5 knows it) to validate these modules too;
//! without it each test prints that the validation was not run. No Vulkan
//! driver the tests reach (lavapipe, the NVIDIA one) offers
//! VK_AMDX_shader_enqueue, so nothing here runs on a device.

use crate::tests::common::{self, Spv};
use rspirv::dr::{Instruction, Operand};
use spirv::{Capability, Decoration, ExecutionMode, Op, StorageClass};

const ARGS: &[&str] = &["-T", "lib_6_8", "-fspv-target-env=vulkan1.3"];

fn compile_with(src: &str, extra: &[&str]) -> Spv {
    let mut args: Vec<&str> = ARGS.to_vec();
    args.extend_from_slice(extra);
    let (ok, text, words) = crate::tests::raytracing::compile_result(src, &args);
    assert!(ok, "compile failed:\n{text}\n--- source ---\n{src}");
    match std::env::var("HLSLC_SPIRV_VAL_NEW") {
        Ok(program) if !program.is_empty() => {
            if let Err(e) = common::spirv_val_program(&program, &words, "vulkan1.3", &[]) {
                panic!("{e}\n{}\n--- source ---\n{src}", common::spirv_dis(&words));
            }
        }
        _ => println!(
            "spirv-val not run: HLSLC_SPIRV_VAL_NEW names no spirv-val that knows SPV_AMDX_shader_enqueue"
        ),
    }
    Spv {
        module: flat_module(&words),
    }
}

/// The module's instructions, parsed with rspirv but not placed in
/// sections (rspirv's loader does not know where `OpExecutionModeId` and
/// `OpConstantStringAMDX` go): capabilities, extensions, the memory model
/// and entry points where `Spv` looks for them, the rest in one list.
fn flat_module(words: &[u32]) -> rspirv::dr::Module {
    struct Flat(rspirv::dr::Module);
    impl rspirv::binary::Consumer for Flat {
        fn initialize(&mut self) -> rspirv::binary::ParseAction {
            rspirv::binary::ParseAction::Continue
        }
        fn finalize(&mut self) -> rspirv::binary::ParseAction {
            rspirv::binary::ParseAction::Continue
        }
        fn consume_header(&mut self, h: rspirv::dr::ModuleHeader) -> rspirv::binary::ParseAction {
            self.0.header = Some(h);
            rspirv::binary::ParseAction::Continue
        }
        fn consume_instruction(&mut self, i: Instruction) -> rspirv::binary::ParseAction {
            let m = &mut self.0;
            match i.class.opcode {
                Op::Capability => m.capabilities.push(i),
                Op::Extension => m.extensions.push(i),
                Op::MemoryModel => m.memory_model = Some(i),
                Op::EntryPoint => m.entry_points.push(i),
                _ => m.types_global_values.push(i),
            }
            rspirv::binary::ParseAction::Continue
        }
    }
    let mut flat = Flat(rspirv::dr::Module::new());
    rspirv::binary::parse_words(words, &mut flat).expect("rspirv parses the module");
    flat.0
}

fn compile(src: &str) -> Spv {
    compile_with(src, &[])
}

fn error(src: &str) -> String {
    crate::tests::raytracing::compile_error(src, ARGS)
}

fn id(o: &Operand) -> u32 {
    match *o {
        Operand::IdRef(i) | Operand::IdScope(i) | Operand::IdMemorySemantics(i) => i,
        ref other => panic!("not an id: {other:?}"),
    }
}

impl Spv {
    fn const_u32(&self, id: u32) -> u32 {
        match self.def(id).operands.first() {
            Some(Operand::LiteralBit32(v)) => *v,
            o => panic!("%{id} is not a 32-bit constant: {o:?}"),
        }
    }
    /// The constant values of an `OpExecutionModeId`'s operands.
    fn mode_id(&self, mode: ExecutionMode) -> Option<Vec<u32>> {
        self.all(Op::ExecutionModeId)
            .into_iter()
            .find(|i| i.operands[1] == Operand::ExecutionMode(mode))
            .map(|i| i.operands[2..].iter().map(id).collect())
    }
    fn has_mode(&self, mode: ExecutionMode) -> bool {
        self.all(Op::ExecutionMode)
            .iter()
            .any(|i| i.operands[1] == Operand::ExecutionMode(mode))
    }
    fn local_size(&self) -> Vec<Operand> {
        self.all(Op::ExecutionMode)
            .into_iter()
            .find(|i| i.operands[1] == Operand::ExecutionMode(ExecutionMode::LocalSize))
            .map(|i| i.operands[2..].to_vec())
            .expect("LocalSize")
    }
    /// The ids an `OpDecorateId … d` on `target` names.
    fn decoration_ids(&self, target: u32, d: Decoration) -> Option<Vec<u32>> {
        self.all(Op::DecorateId)
            .into_iter()
            .find(|i| id(&i.operands[0]) == target && i.operands[1] == Operand::Decoration(d))
            .map(|i| i.operands[2..].iter().map(id).collect())
    }
    fn decorated(&self, target: u32, d: Decoration) -> bool {
        self.all(Op::Decorate)
            .iter()
            .any(|i| id(&i.operands[0]) == target && i.operands[1] == Operand::Decoration(d))
    }
    /// The `OpConstantStringAMDX` text of `id`.
    fn string_constant(&self, id: u32) -> String {
        let i = self.def(id);
        assert_eq!(i.class.opcode, Op::ConstantStringAMDX);
        match &i.operands[0] {
            Operand::LiteralString(s) => s.clone(),
            o => panic!("not a string: {o:?}"),
        }
    }
    /// The pointee of pointer type `ptr` and its storage class.
    fn pointee(&self, ptr: u32) -> (StorageClass, u32) {
        let t = self.def(ptr);
        assert_eq!(t.class.opcode, Op::TypePointer);
        match t.operands[0] {
            Operand::StorageClass(c) => (c, id(&t.operands[1])),
            ref o => panic!("not a pointer: {o:?}"),
        }
    }
    fn one(&self, op: Op) -> &Instruction {
        let all = self.all(op);
        assert_eq!(all.len(), 1, "expected one {op:?}, found {}", all.len());
        all[0]
    }
}

#[test]
fn broadcasting_node_reads_its_record() {
    let spv = compile(
        r#"
struct Rec { uint a; float b; };
RWBuffer<uint> o;
[Shader("node")]
[NodeLaunch("broadcasting")]
[NodeDispatchGrid(4, 2, 1)]
[NumThreads(8, 1, 1)]
[NodeIsProgramEntry]
void main(DispatchNodeInputRecord<Rec> input) { o[0] = input.Get().a; }
"#,
    );
    assert!(spv.has_capability(Capability::ShaderEnqueueAMDX));
    assert!(spv.has_extension("SPV_AMDX_shader_enqueue"));
    let eps = spv.entry_points();
    assert_eq!(eps.len(), 1);
    assert_eq!(eps[0].0, spirv::ExecutionModel::GLCompute);
    assert_eq!(
        spv.local_size(),
        [8, 1, 1].map(Operand::LiteralBit32).to_vec()
    );
    let grid = spv
        .mode_id(ExecutionMode::StaticNumWorkgroupsAMDX)
        .expect("grid");
    assert_eq!(
        grid.iter().map(|&c| spv.const_u32(c)).collect::<Vec<_>>(),
        [4, 2, 1]
    );
    let entry = spv
        .mode_id(ExecutionMode::IsApiEntryAMDX)
        .expect("api entry");
    assert_eq!(spv.def(entry[0]).class.opcode, Op::ConstantTrue);
    assert!(!spv.has_mode(ExecutionMode::CoalescingAMDX));
    // The input: a NodePayloadAMDX variable of a payload array of Rec, in
    // the interface, read through an access chain of record 0, member 0.
    let inputs = spv.variables_in(StorageClass::NodePayloadAMDX);
    assert_eq!(inputs.len(), 1);
    assert!(eps[0].2.contains(&inputs[0]));
    let (_, arr) = spv.pointee(spv.def(inputs[0]).result_type.expect("type"));
    assert_eq!(spv.def(arr).class.opcode, Op::TypeNodePayloadArrayAMDX);
    assert!(
        spv.decoration_ids(arr, Decoration::NodeMaxPayloadsAMDX)
            .is_none()
    );
    let chain = spv
        .all(Op::AccessChain)
        .into_iter()
        .find(|i| id(&i.operands[0]) == inputs[0])
        .expect("access chain into the input");
    assert_eq!(spv.const_u32(id(&chain.operands[1])), 0);
    assert_eq!(spv.const_u32(id(&chain.operands[2])), 0);
}

#[test]
fn coalescing_node_counts_and_indexes_its_records() {
    let spv = compile(
        r#"
struct Rec { uint a; uint b; };
RWBuffer<uint> o;
[Shader("node")]
[NodeLaunch("coalescing")]
[NumThreads(32, 1, 1)]
void main([MaxRecords(16)] RWGroupNodeInputRecords<Rec> recs, uint i : SV_GroupIndex) {
    if (i < recs.Count()) recs[i].b = recs.Get(i).a + 1;
}
"#,
    );
    assert!(spv.has_mode(ExecutionMode::CoalescingAMDX));
    assert!(
        spv.mode_id(ExecutionMode::StaticNumWorkgroupsAMDX)
            .is_none()
    );
    let input = spv.variables_in(StorageClass::NodePayloadAMDX)[0];
    let (_, arr) = spv.pointee(spv.def(input).result_type.expect("type"));
    let max = spv
        .decoration_ids(arr, Decoration::NodeMaxPayloadsAMDX)
        .expect("max");
    assert_eq!(spv.const_u32(max[0]), 16);
    let count = spv.one(Op::NodePayloadArrayLengthAMDX);
    assert_eq!(id(&count.operands[0]), input);
    // One record written through the input (read-write records).
    let stores = spv.all(Op::Store);
    assert!(stores.iter().any(|s| {
        let p = spv.def(id(&s.operands[0]));
        p.class.opcode == Op::AccessChain && id(&p.operands[0]) == input
    }));
}

#[test]
fn thread_node_is_a_coalescing_group_of_one() {
    let spv = compile(
        r#"
struct Rec { uint a; };
RWBuffer<uint> o;
[Shader("node")]
[NodeLaunch("thread")]
void main(ThreadNodeInputRecord<Rec> r) { o[r.Get().a] = 1; }
"#,
    );
    assert!(spv.has_mode(ExecutionMode::CoalescingAMDX));
    assert_eq!(
        spv.local_size(),
        [1, 1, 1].map(Operand::LiteralBit32).to_vec()
    );
    let input = spv.variables_in(StorageClass::NodePayloadAMDX)[0];
    let (_, arr) = spv.pointee(spv.def(input).result_type.expect("type"));
    let max = spv
        .decoration_ids(arr, Decoration::NodeMaxPayloadsAMDX)
        .expect("max");
    assert_eq!(spv.const_u32(max[0]), 1);
}

/// Records are allocated for the output's node with the visibility of the
/// method, written through the allocated array (not a copy of it), and
/// enqueued by `OutputComplete`.
#[test]
fn output_records_are_allocated_written_and_enqueued() {
    let spv = compile(
        r#"
struct Out { uint v; float w; };
[Shader("node")]
[NodeLaunch("broadcasting")]
[NodeDispatchGrid(1, 1, 1)]
[NumThreads(4, 1, 1)]
void main([MaxRecords(8)] NodeOutput<Out> child,
          [MaxRecordsSharedWith(child)] [NodeID("other", 3)] NodeOutput<Out> second) {
    GroupNodeOutputRecords<Out> g = child.GetGroupNodeOutputRecords(2);
    g[1].v = 7;
    g.OutputComplete();
    ThreadNodeOutputRecords<Out> t = second.GetThreadNodeOutputRecords(1);
    t.Get().w = 2.0;
    t.OutputComplete();
}
"#,
    );
    let allocs = spv.all(Op::AllocateNodePayloadsAMDX);
    assert_eq!(allocs.len(), 2);
    // Workgroup (2) then Invocation (4) visibility; the counts; node index 0.
    let ops: Vec<Vec<u32>> = allocs
        .iter()
        .map(|a| a.operands.iter().map(|o| spv.const_u32(id(o))).collect())
        .collect();
    assert_eq!(ops, [vec![2, 2, 0], vec![4, 1, 0]]);
    let enqueued: Vec<u32> = spv
        .all(Op::EnqueueNodePayloadsAMDX)
        .iter()
        .map(|e| id(&e.operands[0]))
        .collect();
    let allocated: Vec<u32> = allocs.iter().map(|a| a.result_id.expect("id")).collect();
    assert_eq!(enqueued, allocated);
    // The stores go through chains rooted at the allocations.
    for a in &allocated {
        assert!(
            spv.all(Op::AccessChain)
                .iter()
                .any(|c| id(&c.operands[0]) == *a)
        );
    }
    // The payload types: named for their nodes, limits, shared limits,
    // base index.
    let (class, first) = spv.pointee(allocs[0].result_type.expect("type"));
    assert_eq!(class, StorageClass::NodePayloadAMDX);
    let (_, second) = spv.pointee(allocs[1].result_type.expect("type"));
    let name = spv
        .decoration_ids(first, Decoration::PayloadNodeNameAMDX)
        .expect("name");
    assert_eq!(spv.string_constant(name[0]), "child");
    let name = spv
        .decoration_ids(second, Decoration::PayloadNodeNameAMDX)
        .expect("name");
    assert_eq!(spv.string_constant(name[0]), "other");
    let max = spv
        .decoration_ids(first, Decoration::NodeMaxPayloadsAMDX)
        .expect("max");
    assert_eq!(spv.const_u32(max[0]), 8);
    let shared = spv
        .decoration_ids(second, Decoration::NodeSharesPayloadLimitsWithAMDX)
        .expect("shared");
    assert_eq!(shared, [first]);
    let base = spv
        .decoration_ids(second, Decoration::PayloadNodeBaseIndexAMDX)
        .expect("base");
    assert_eq!(spv.const_u32(base[0]), 3);
}

#[test]
fn output_arrays_validity_and_empty_outputs() {
    let spv = compile(
        r#"
struct Out { uint v; };
RWBuffer<uint> o;
[Shader("node")]
[NodeLaunch("thread")]
void main([NodeArraySize(9)] [AllowSparseNodes] [MaxRecords(2)] NodeOutputArray<Out> outs,
          [MaxRecords(4)] EmptyNodeOutput done) {
    o[0] = outs[5].IsValid();
    done.ThreadIncrementOutputCount(3);
}
"#,
    );
    let valid = spv.one(Op::IsNodePayloadValidAMDX);
    assert_eq!(spv.const_u32(id(&valid.operands[1])), 5);
    // The array's type: sparse, sized, named.
    let arrays: Vec<u32> = spv
        .all(Op::TypeNodePayloadArrayAMDX)
        .iter()
        .filter_map(|t| t.result_id)
        .collect();
    let outs = arrays
        .iter()
        .copied()
        .find(|&t| spv.decorated(t, Decoration::PayloadNodeSparseArrayAMDX))
        .expect("a sparse array");
    let size = spv
        .decoration_ids(outs, Decoration::PayloadNodeArraySizeAMDX)
        .expect("size");
    assert_eq!(spv.const_u32(size[0]), 9);
    // An empty output: allocated (empty struct) and enqueued at once.
    let alloc = spv.one(Op::AllocateNodePayloadsAMDX);
    let ops: Vec<u32> = alloc
        .operands
        .iter()
        .map(|o| spv.const_u32(id(o)))
        .collect();
    assert_eq!(ops, [4, 3, 0]);
    let (_, arr) = spv.pointee(alloc.result_type.expect("type"));
    let rec = spv.def(id(&spv.def(arr).operands[0]));
    assert_eq!(rec.class.opcode, Op::TypeStruct);
    assert!(rec.operands.is_empty());
    let enq = spv.one(Op::EnqueueNodePayloadsAMDX);
    assert_eq!(id(&enq.operands[0]), alloc.result_id.expect("id"));
}

#[test]
fn record_decorations_and_finished_sharing() {
    let spv = compile(
        r#"
struct Inner { uint c; uint3 grid : SV_DispatchGrid; };
struct [NodeTrackRWInputSharing] Rec { uint a; Inner b; };
RWBuffer<uint> o;
[Shader("node")]
[NodeLaunch("broadcasting")]
[NodeMaxDispatchGrid(16, 16, 1)]
[NumThreads(2, 1, 1)]
[NodeMaxRecursionDepth(5)]
void main(RWDispatchNodeInputRecord<Rec> input) {
    if (input.FinishedCrossGroupSharing()) o[0] = GetRemainingRecursionLevels();
}
"#,
    );
    let grid = spv
        .mode_id(ExecutionMode::MaxNumWorkgroupsAMDX)
        .expect("max grid");
    assert_eq!(
        grid.iter().map(|&c| spv.const_u32(c)).collect::<Vec<_>>(),
        [16, 16, 1]
    );
    let depth = spv
        .mode_id(ExecutionMode::MaxNodeRecursionAMDX)
        .expect("recursion");
    assert_eq!(spv.const_u32(depth[0]), 5);
    let input = spv.variables_in(StorageClass::NodePayloadAMDX)[0];
    let finish = spv.one(Op::FinishWritingNodePayloadAMDX);
    assert_eq!(id(&finish.operands[0]), input);
    let (_, arr) = spv.pointee(spv.def(input).result_type.expect("type"));
    let rec = id(&spv.def(arr).operands[0]);
    assert!(spv.decorated(rec, Decoration::TrackFinishWritingAMDX));
    let inner = id(&spv.def(rec).operands[1]);
    let grid_member = spv
        .all(Op::MemberDecorate)
        .into_iter()
        .find(|i| i.operands[2] == Operand::Decoration(Decoration::PayloadDispatchIndirectAMDX));
    let grid_member = grid_member.expect("PayloadDispatchIndirectAMDX");
    assert_eq!(id(&grid_member.operands[0]), inner);
    assert_eq!(grid_member.operands[1], Operand::LiteralBit32(1));
    assert!(
        spv.builtin(spirv::BuiltIn::RemainingRecursionLevelsAMDX)
            .is_some()
    );
}

/// `Barrier` as DXC maps it: UAV → UniformMemory, groupshared →
/// WorkgroupMemory, node output → OutputMemory (Vulkan memory model),
/// DEVICE_SCOPE → QueueFamily; an object barrier orders all of them.
#[test]
fn barrier_flags_and_objects() {
    let spv = compile(
        r#"
RWBuffer<uint> o;
[Shader("node")]
[NodeLaunch("coalescing")]
[NumThreads(16, 1, 1)]
void main() {
    Barrier(UAV_MEMORY, GROUP_SYNC | GROUP_SCOPE);
    Barrier(GROUP_SHARED_MEMORY, GROUP_SCOPE);
    Barrier(o, DEVICE_SCOPE | GROUP_SYNC);
    Barrier(o, 0);
}
"#,
    );
    let controls: Vec<Vec<u32>> = spv
        .all(Op::ControlBarrier)
        .iter()
        .map(|b| b.operands.iter().map(|o| spv.const_u32(id(o))).collect())
        .collect();
    assert_eq!(controls, [vec![2, 2, 72], vec![2, 5, 4424]]);
    let memory: Vec<Vec<u32>> = spv
        .all(Op::MemoryBarrier)
        .iter()
        .map(|b| b.operands.iter().map(|o| spv.const_u32(id(o))).collect())
        .collect();
    assert_eq!(memory, [vec![2, 264]]);
    assert!(spv.has_capability(Capability::VulkanMemoryModel));
    let model = spv.module.memory_model.as_ref().expect("memory model");
    assert_eq!(
        model.operands[1],
        Operand::MemoryModel(spirv::MemoryModel::Vulkan)
    );
}

#[test]
fn node_ids_and_shared_inputs() {
    let spv = compile(
        r#"
struct Rec { uint a; };
[Shader("node")]
[NodeDispatchGrid(1, 1, 1)]
[NumThreads(1, 1, 1)]
[NodeID("first", 2)]
void first(DispatchNodeInputRecord<Rec> r) {}
[Shader("node")]
[NodeDispatchGrid(1, 1, 1)]
[NumThreads(1, 1, 1)]
[NodeShareInputOf("first", 2)]
void second(DispatchNodeInputRecord<Rec> r) {}
"#,
    );
    let index = spv.mode_id(ExecutionMode::ShaderIndexAMDX).expect("index");
    assert_eq!(spv.const_u32(index[0]), 2);
    let shares = spv
        .mode_id(ExecutionMode::SharesInputWithAMDX)
        .expect("shares");
    assert_eq!(spv.string_constant(shares[0]), "first");
    assert_eq!(spv.const_u32(shares[1]), 2);
    // Sharing another node's input: not an API entry.
    let entry = spv
        .mode_id(ExecutionMode::IsApiEntryAMDX)
        .expect("api entry");
    assert_eq!(spv.def(entry[0]).class.opcode, Op::ConstantFalse);
}

#[test]
fn node_mistakes_are_reported() {
    let e = error("[Shader(\"node\")] [NumThreads(1,1,1)] void main() {}");
    assert!(e.contains("E0622"), "{e}");
    assert!(e.contains("needs `[NodeDispatchGrid"), "{e}");
    let e = error(
        "struct R { uint a; };\n[Shader(\"node\")] [NodeLaunch(\"coalescing\")] [NumThreads(1,1,1)] void main(DispatchNodeInputRecord<R> r) {}",
    );
    assert!(
        e.contains("cannot take `DispatchNodeInputRecord<R>`"),
        "{e}"
    );
    let e = error(
        "[Shader(\"node\")] [NodeLaunch(\"coalescing\")] [NumThreads(1,1,1)] void main(GroupNodeInputRecords<float4> r) {}",
    );
    assert!(e.contains("must be a struct"), "{e}");
    let e = error(
        "[Shader(\"node\")] [NodeLaunch(\"coalescing\")] [NumThreads(1,1,1)] void main(EmptyNodeInput r) { r.Get(); }",
    );
    assert!(e.contains("has no method `Get`"), "{e}");
}
