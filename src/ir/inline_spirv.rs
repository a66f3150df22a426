//! SPIR-V that the shader spells out itself (DXC's "inline SPIR-V", the
//! HLSL form of GL_EXT_spirv_intrinsics): instructions of functions
//! declared `[[vk::ext_instruction(opcode[, "set"])]]` and the
//! decorations written with `vk::ext_decorate*` (the execution modes of
//! `[[vk::spvexecutionmode]]` are ordinary [`super::EntryPoint`] modes).
//! hlslc does not know what such an instruction does: passes keep it
//! where it stands and never fold, merge or drop it.

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
    /// The id of a type (`OpCooperativeMatrixLengthKHR`'s operand).
    Type(super::Handle<super::Type>),
}

/// The operands after the decoration's number.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum SpirvDecorationOperands {
    /// `ext_decorate(d, literals…)`: `OpDecorate`.
    Literals(Vec<u32>),
    /// `ext_decorate_string(d, "s"…)`: `OpDecorateString`.
    Strings(Vec<String>),
    /// `ext_decorate_id(d, constants…)`: `OpDecorateId` with the ids of
    /// 32-bit unsigned integer constants of these values.
    Ids(Vec<u32>),
}

/// A decoration written with `vk::ext_decorate`, `vk::ext_decorate_id` or
/// `vk::ext_decorate_string`, on a function ([`super::Function`]'s
/// `spirv_decorations`; gone with the function when it is inlined) or a
/// global variable ([`super::Module`]'s `spirv_decorations`).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct SpirvDecoration {
    /// The SPIR-V `Decoration` number (also one rspirv does not know).
    pub decoration: u32,
    pub operands: SpirvDecorationOperands,
}

/// An execution mode a function body asks for with
/// `vk::ext_execution_mode(mode, literals…)` (`OpExecutionMode`) or
/// `vk::ext_execution_mode_id(mode, constants…)` (`OpExecutionModeId`),
/// written on the module's entry point ([`super::Module`]'s
/// `spirv_execution_modes`).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct SpirvExecutionMode {
    pub mode: spirv::ExecutionMode,
    pub operands: SpirvModeOperands,
}

/// The operands after the mode.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum SpirvModeOperands {
    Literals(Vec<u32>),
    /// The ids of constants of these scalar types and values.
    Ids(Vec<(super::Scalar, i64)>),
}

/// A type the shader spells as its SPIR-V instruction
/// (`vk::SpirvType<opcode, size, alignment, operands…>`,
/// `vk::SpirvOpaqueType<opcode, operands…>`): the backend writes
/// `opcode` with a result id and `operands`, once per distinct type.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct SpirvType {
    /// A core `OpType…` opcode.
    pub opcode: u32,
    pub operands: Vec<SpirvTypeOperand>,
}

/// An operand of a [`SpirvType`].
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum SpirvTypeOperand {
    /// The id of a type.
    Type(super::Handle<super::Type>),
    /// The id of a constant (`vk::integral_constant<T, v>`): the value's
    /// bits, zero-extended, in a scalar of that type.
    Constant(super::Scalar, u64),
    /// A literal word (`vk::Literal<vk::integral_constant<T, v>>`; a
    /// 64-bit value gives two).
    Literal(u32),
}
