//! The numbers of the NonSemantic.Shader.DebugInfo.100 extended
//! instruction set that hlslc writes: instruction opcodes, debug-info
//! flags, base type encodings and composite tags, as the set's
//! specification (Khronos SPIRV-Registry, `nonsemantic/
//! NonSemantic.Shader.DebugInfo.100`) numbers them. Every operand of
//! these instructions is an id; numbers are passed as `OpConstant`s of
//! 32-bit unsigned integer type.

/// The name in `OpExtInstImport`.
pub const SET_NAME: &str = "NonSemantic.Shader.DebugInfo.100";

/// Extended instruction opcodes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u32)]
pub enum DebugOp {
    InfoNone = 0,
    CompilationUnit = 1,
    TypeBasic = 2,
    TypeArray = 5,
    TypeVector = 6,
    TypeFunction = 8,
    TypeComposite = 10,
    TypeMember = 11,
    GlobalVariable = 18,
    Function = 20,
    LexicalBlock = 21,
    Scope = 23,
    InlinedAt = 25,
    LocalVariable = 26,
    Declare = 28,
    Value = 29,
    Expression = 31,
    Source = 35,
    FunctionDefinition = 101,
    SourceContinued = 102,
    Line = 103,
    EntryPoint = 107,
    TypeMatrix = 108,
}

/// `DebugInfoFlags` bits.
pub mod flags {
    /// `FlagIsPublic` (both access bits).
    pub const PUBLIC: u32 = 0x3;
    /// `FlagIsLocal`: a variable local to a function.
    pub const LOCAL: u32 = 0x4;
    /// `FlagIsDefinition`.
    pub const DEFINITION: u32 = 0x8;
}

/// `DebugBaseTypeAttributeEncoding`.
pub mod encoding {
    pub const BOOLEAN: u32 = 2;
    pub const FLOAT: u32 = 3;
    pub const SIGNED: u32 = 4;
    pub const UNSIGNED: u32 = 6;
}

/// `DebugCompositeType`: a `struct`.
pub const TAG_STRUCTURE: u32 = 1;

/// The `Version` operand of `DebugCompilationUnit`.
pub const DEBUG_INFO_VERSION: u32 = 100;
/// The DWARF version the information follows.
pub const DWARF_VERSION: u32 = 4;
/// `SourceLanguage` HLSL (SPIR-V 3.2).
pub const LANGUAGE_HLSL: u32 = 5;

/// The most bytes of source text in one `OpString` (an instruction holds
/// at most 65535 words, two of them the opcode and the result id, and the
/// string's terminating NUL is in the last word): longer text continues in
/// `DebugSourceContinued`.
pub const MAX_STRING_BYTES: usize = (65535 - 2) * 4 - 1;
