//! The SPIR-V backend: IR → SPIR-V words with rspirv, following DXC's
//! HLSL→SPIR-V mapping (`docs/SPIR-V.rst` in DirectXShaderCompiler).
//!
//! One file per concern:
//! - `writer.rs`: the module as a whole (header, capabilities, extensions,
//!   globals, functions, assembling the sections in SPIR-V's order);
//! - `types.rs`: the type cache and layout decorations;
//! - `constant.rs`: the constant cache and constant expressions;
//! - `function.rs`: function bodies, statements and structured control flow;
//! - `expr.rs`: expressions;
//! - `math.rs`: arithmetic on matrices, conversions and GLSL.std.450 math;
//! - `image.rs`: sampling, fetches, reads, writes and queries of images;
//! - `raytracing.rs`: ray tracing and ray query instructions, storage
//!   classes and capabilities;
//! - `sync.rs`: atomics, barriers and wave (subgroup) operations;
//! - `interface.rs`: entry points, built-ins, locations and bindings;
//! - `mesh.rs`: mesh and amplification shaders (SPV_EXT/NV_mesh_shader);
//! - `node.rs`: work graph nodes (SPV_AMDX_shader_enqueue);
//! - `nonsemantic.rs`: `printf` and `DebugBreak` (NonSemantic.DebugPrintf,
//!   NonSemantic.DebugBreak);
//! - `inline_spirv.rs`: the shader's own raw instructions, types,
//!   decorations and execution modes (`vk::ext_instruction`…);
//! - `device_address.rs`: device pointers (SPV_KHR_physical_storage_buffer);
//! - `requirements.rs`: the capabilities, extensions and models a module
//!   needs, derived and checked against the target in one place;
//! - `debug/`: source-level debug information (NonSemantic.Shader.DebugInfo.100).
//!
//! The output is deterministic: the same module and options give the same
//! words, byte for byte (ids are handed out in IR order, capabilities and
//! extensions are sorted).

mod constant;
mod control;
mod debug;
mod device_address;
mod expr;
mod function;
mod image;
mod inline_spirv;
mod interface;
mod math;
mod mesh;
mod node;
mod nonsemantic;
mod raytracing;
mod requirements;
mod sync;
mod types;
mod writer;

pub use debug::DebugInput;

use crate::diag::{Diagnostic, codes};
use crate::ir;
use crate::ir::TargetEnv;

/// What the backend needs to know beyond the IR.
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// `-fspv-target-env`: picks the SPIR-V version and what it may use.
    pub target_env: TargetEnv,
    /// Emit `OpName`/`OpMemberName` for functions, variables, struct types
    /// and members.
    pub debug_names: bool,
    /// `-fspv-entrypoint-name=`: the name given to the entry point in
    /// `OpEntryPoint` (the module must have exactly one entry point).
    pub entry_point_name: Option<String>,
    /// `-fvk-invert-y`: negate `Position.y` when it is written by a vertex,
    /// domain or geometry shader.
    pub invert_y: bool,
    /// `-fvk-use-dx-position-w`: a pixel shader reading `SV_Position` sees
    /// `1 / FragCoord.w` in `w`, as in Direct3D.
    pub dx_position_w: bool,
    /// `-fspv-reflect`: HLSL semantics, resource types and counter links
    /// as decorations (SPV_GOOGLE_hlsl_functionality1, SPV_GOOGLE_user_type).
    pub spv_reflect: bool,
    /// `-fspv-extension=`: the extensions the module may declare (empty:
    /// any), checked in `requirements.rs`.
    pub allowed_extensions: Vec<String>,
    /// Globals to declare although no entry point uses them
    /// (`-fspv-preserve-bindings`, `-fspv-preserve-interface`); the rest
    /// of the unused ones are left out, as DXC leaves them out
    /// ([`ir::Module::declared_globals`]).
    pub keep_unused: ir::KeepUnused,
}

/// Writes `module` as SPIR-V words.
///
/// An `Err` means the target cannot express something in the module (for
/// example wave operations on Vulkan 1.0), that hlslc does not support it
/// yet (`E0004`), or that the IR broke one of its invariants (`E0003`, a
/// bug in hlslc).
#[cfg_attr(not(test), allow(dead_code))] // the compiler uses `write_with_debug`
pub fn write(module: &ir::Module, options: &Options) -> Result<Vec<u32>, Diagnostic> {
    write_with_debug(module, options, None)
}

/// Writes `module` as SPIR-V words, with source-level debug information
/// when `debug` is given (`-Zi`).
pub fn write_with_debug(
    module: &ir::Module,
    options: &Options,
    debug: Option<&DebugInput>,
) -> Result<Vec<u32>, Diagnostic> {
    let mut w = writer::Writer::new(module, options);
    if let Some(d) = debug {
        w.begin_debug_info(d);
    }
    w.write()
}

/// SPIR-V disassembly text of a module (rspirv's format).
pub fn disassemble(words: &[u32]) -> String {
    use rspirv::binary::Disassemble;
    match rspirv::dr::load_words(words) {
        // rspirv leaves the last line open; a text file ends with a newline.
        Ok(module) => module.disassemble() + "\n",
        // rspirv's module loader refuses extended instructions among the
        // globals (NonSemantic debug info, `-Zi`): instruction by
        // instruction then, in binary order.
        Err(_) => disassemble_in_order(words),
    }
}

/// Each instruction of `words` as rspirv writes it, in binary order,
/// without the module loader's checks of where instructions may stand.
fn disassemble_in_order(words: &[u32]) -> String {
    use rspirv::binary::{Consumer, Disassemble, ParseAction};
    #[derive(Default)]
    struct Lines(String);
    impl Consumer for Lines {
        fn initialize(&mut self) -> ParseAction {
            ParseAction::Continue
        }
        fn finalize(&mut self) -> ParseAction {
            ParseAction::Continue
        }
        fn consume_header(&mut self, header: rspirv::dr::ModuleHeader) -> ParseAction {
            self.0 += &header.disassemble();
            self.0.push('\n');
            ParseAction::Continue
        }
        fn consume_instruction(&mut self, inst: rspirv::dr::Instruction) -> ParseAction {
            self.0 += &inst.disassemble();
            self.0.push('\n');
            ParseAction::Continue
        }
    }
    let mut lines = Lines::default();
    match rspirv::binary::parse_words(words, &mut lines) {
        Ok(()) => lines.0,
        Err(e) => format!("; could not disassemble: {e}\n"),
    }
}

/// The result of the backend's internal steps.
type BackResult<T> = Result<T, Diagnostic>;

/// An internal compiler error: the IR broke an invariant (cold: the
/// branches that make one are never taken for a valid module).
#[cold]
fn internal(message: impl std::fmt::Display) -> Diagnostic {
    Diagnostic::error(
        codes::INTERNAL,
        format!("internal compiler error in the SPIR-V backend: {message}"),
    )
    .note("this is a bug in hlslc; please report it with the shader that triggers it")
}

/// Valid HLSL that the backend does not translate yet.
#[cold]
fn unsupported(message: impl std::fmt::Display) -> Diagnostic {
    Diagnostic::error(codes::UNSUPPORTED, format!("not supported yet: {message}"))
}

/// A feature the chosen target environment cannot express: it needs SPIR-V
/// `needed` (major, minor); the note names the oldest environment that has it.
fn needs_newer_target(feature: &str, needed: (u8, u8), env: TargetEnv) -> Diagnostic {
    let (major, minor) = env.spirv_version();
    Diagnostic::error(
        codes::TARGET_TOO_OLD,
        format!(
            "{feature} needs SPIR-V {}.{}, but the target is {} (SPIR-V {major}.{minor})",
            needed.0,
            needed.1,
            env.name()
        ),
    )
    .note(format!(
        "choose a newer target environment, e.g. -fspv-target-env={}",
        TargetEnv::oldest_vulkan_with(needed).flag()
    ))
}

/// Appends one instruction to `words` as SPIR-V encodes it (SPIR-V 2.3):
/// word count and opcode, then the result type, the result id and the
/// operands (each as rspirv assembles it).
pub(crate) fn encode(
    words: &mut Vec<u32>,
    op: spirv::Op,
    result_type: Option<spirv::Word>,
    result_id: Option<spirv::Word>,
    operands: &[rspirv::dr::Operand],
) {
    use rspirv::binary::Assemble;
    use rspirv::dr::Operand;
    let start = words.len();
    words.push(op as u32);
    words.extend(result_type);
    words.extend(result_id);
    for operand in operands {
        match *operand {
            // Most operands are one word: written here, without rspirv's
            // dispatch over every kind of operand.
            Operand::IdRef(w) | Operand::LiteralBit32(w) => words.push(w),
            _ => operand.assemble_into(words),
        }
    }
    set_word_count(words, start);
}

/// [`encode`] for an instruction whose operands are one word each (ids
/// and 32-bit literals). The word count is known up front: one
/// reservation, then each word is written into the room it made (no copy
/// call, no growth check per word, no second pass for the count).
#[inline]
pub(crate) fn encode_words(
    words: &mut Vec<u32>,
    op: spirv::Op,
    result_type: Option<spirv::Word>,
    result_id: Option<spirv::Word>,
    operands: &[spirv::Word],
) {
    let count = 1
        + usize::from(result_type.is_some())
        + usize::from(result_id.is_some())
        + operands.len();
    words.reserve(count);
    let len = words.len();
    let mut spare = words.spare_capacity_mut().iter_mut();
    let mut put = |word: u32| {
        if let Some(slot) = spare.next() {
            slot.write(word);
        }
    };
    put(op as u32 | (count as u32) << 16);
    if let Some(t) = result_type {
        put(t);
    }
    if let Some(id) = result_id {
        put(id);
    }
    for &w in operands {
        put(w);
    }
    // SAFETY: `reserve` left room for `count` words past the length, so
    // each of the `count` calls of `put` above wrote the next of them.
    unsafe { words.set_len(len + count) };
}

/// [`encode_words`] for an instruction without a result whose operands
/// are `head` and then `tail` (a decoration: its target and kind, then
/// its literals), without gathering them first.
#[inline]
pub(crate) fn encode_joined(
    words: &mut Vec<u32>,
    op: spirv::Op,
    head: &[spirv::Word],
    tail: &[spirv::Word],
) {
    let count = 1 + head.len() + tail.len();
    words.reserve(count);
    words.push(op as u32 | (count as u32) << 16);
    words.extend(head.iter().copied());
    words.extend(tail.iter().copied());
}

/// [`encode_words`] for an instruction without a result type whose last
/// operand is a literal string (UTF-8, nul-terminated, padded with nuls to
/// a whole word: SPIR-V 2.2.1).
pub(crate) fn encode_with_string(
    words: &mut Vec<u32>,
    op: spirv::Op,
    result_id: Option<spirv::Word>,
    operands: &[spirv::Word],
    text: &str,
) {
    let start = words.len();
    words.push(op as u32);
    words.extend(result_id);
    words.extend_from_slice(operands);
    let mut chunks = text.as_bytes().chunks_exact(4);
    words.extend(chunks.by_ref().map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])));
    let mut last = [0; 4];
    for (to, &from) in last.iter_mut().zip(chunks.remainder()) {
        *to = from;
    }
    words.push(u32::from_le_bytes(last));
    set_word_count(words, start);
}

/// Puts the word count of the instruction that starts at `start` (and
/// runs to the end of `words`) into its first word.
fn set_word_count(words: &mut [u32], start: usize) {
    let count = (words.len() - start) as u32;
    if let Some(first) = words.get_mut(start) {
        *first |= count << 16;
    }
}

/// `rspirv::dr::Instruction::new` without its cost: that looks the
/// opcode's grammar entry up by a linear search of the whole grammar
/// table (hundreds of comparisons for every instruction written); here
/// each opcode's entry is looked up once per process and kept.
pub(crate) fn inst(
    op: spirv::Op,
    result_type: Option<spirv::Word>,
    result_id: Option<spirv::Word>,
    operands: Vec<rspirv::dr::Operand>,
) -> rspirv::dr::Instruction {
    rspirv::dr::Instruction {
        class: grammar_entry(op),
        result_type,
        result_id,
        operands,
    }
}

/// The grammar entry of `op`, from a direct-mapped cache of entries
/// already looked up (by the opcode's low bits; a collision only costs
/// another search).
fn grammar_entry(op: spirv::Op) -> &'static rspirv::grammar::Instruction<'static> {
    use rspirv::grammar::Instruction as Entry;
    use std::sync::atomic::{AtomicPtr, Ordering};
    const SLOTS: usize = 1024;
    static CACHE: [AtomicPtr<Entry<'static>>; SLOTS] =
        [const { AtomicPtr::new(std::ptr::null_mut()) }; SLOTS];
    let slot = &CACHE[op as usize % SLOTS];
    let cached = slot.load(Ordering::Relaxed);
    // SAFETY: the cache holds only null or pointers made from
    // `&'static` entries of rspirv's grammar table below.
    if let Some(entry) = unsafe { cached.as_ref() }
        && entry.opcode == op
    {
        return entry;
    }
    let entry = rspirv::grammar::INSTRUCTION_TABLE.get(op);
    slot.store(std::ptr::from_ref(entry).cast_mut(), Ordering::Relaxed);
    entry
}
