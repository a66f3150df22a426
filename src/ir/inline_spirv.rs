//! SPIR-V that the shader spells out itself (DXC's "inline SPIR-V", the
//! HLSL form of GL_EXT_spirv_intrinsics): instructions of functions
//! declared `[[vk::ext_instruction(opcode[, "set"])]]`, types made with
//! `vk::SpirvType`/`vk::SpirvOpaqueType`, and the decorations and
//! execution modes written with `vk::ext_decorate*` and
//! `vk::ext_execution_mode*`. hlslc does not know what such an instruction
//! does: passes keep it where it stands and never fold, merge or drop it.

/// One raw instruction of a [`super::Statement::Spirv`]: its opcode, the
/// extended instruction set when it is an `OpExtInst` of one, and its
/// operands in order.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct SpirvInstruction {
    /// A core opcode, or the instruction's number in `set`.
    pub opcode: u32,
    /// `"GLSL.std.450"`, `"NonSemantic.DebugBreak"`…: the instruction is
    /// `OpExtInst` of this set (imported once per module).
    pub set: Option<String>,
    pub operands: Vec<SpirvOperand>,
}

/// An operand of a raw instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SpirvOperand {
    /// The id of the statement's `args[i]`: a value, or a pointer for a
    /// `[[vk::ext_reference]]` parameter.
    Arg(u32),
    /// A literal word (`[[vk::ext_literal]]`).
    Literal(u32),
}
