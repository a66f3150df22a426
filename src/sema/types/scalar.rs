//! HLSL's scalar types as sema sees them ([`Sc`]), literals included.

use crate::ir;

/// A scalar type. Literal types are the types of unsuffixed literals: they
/// adapt to the other operand of an operation (DXC's "literal int/float").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Sc {
    Bool,
    I16,
    U16,
    I32,
    U32,
    I64,
    U64,
    F16,
    F32,
    F64,
    LitInt,
    LitFloat,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScKind {
    Bool,
    Sint,
    Uint,
    Float,
}

impl Sc {
    pub fn kind(self) -> ScKind {
        match self {
            Sc::Bool => ScKind::Bool,
            Sc::I16 | Sc::I32 | Sc::I64 | Sc::LitInt => ScKind::Sint,
            Sc::U16 | Sc::U32 | Sc::U64 => ScKind::Uint,
            Sc::F16 | Sc::F32 | Sc::F64 | Sc::LitFloat => ScKind::Float,
        }
    }
    pub fn is_float(self) -> bool {
        self.kind() == ScKind::Float
    }
    pub fn is_int(self) -> bool {
        matches!(self.kind(), ScKind::Sint | ScKind::Uint)
    }
    pub fn is_signed_int(self) -> bool {
        self.kind() == ScKind::Sint
    }
    pub fn is_literal(self) -> bool {
        matches!(self, Sc::LitInt | Sc::LitFloat)
    }
    /// Width in bytes (literals count as 32-bit, their default type).
    pub fn width(self) -> u8 {
        match self {
            Sc::Bool => 1,
            Sc::I16 | Sc::U16 | Sc::F16 => 2,
            Sc::I32 | Sc::U32 | Sc::F32 | Sc::LitInt | Sc::LitFloat => 4,
            Sc::I64 | Sc::U64 | Sc::F64 => 8,
        }
    }
    /// The type a literal takes when nothing else decides: `int`, `float`.
    pub fn concrete(self) -> Sc {
        match self {
            Sc::LitInt => Sc::I32,
            Sc::LitFloat => Sc::F32,
            s => s,
        }
    }
    pub fn ir(self) -> ir::Scalar {
        match self.concrete() {
            Sc::Bool => ir::Scalar::BOOL,
            Sc::I16 => ir::Scalar::I16,
            Sc::U16 => ir::Scalar::U16,
            Sc::I32 => ir::Scalar::I32,
            Sc::U32 => ir::Scalar::U32,
            Sc::I64 => ir::Scalar::I64,
            Sc::U64 => ir::Scalar::U64,
            Sc::F16 => ir::Scalar::F16,
            Sc::F64 => ir::Scalar::F64,
            _ => ir::Scalar::F32,
        }
    }
    pub fn from_ir(s: ir::Scalar) -> Sc {
        use ir::ScalarKind as K;
        match (s.kind, s.width) {
            (K::Bool, _) => Sc::Bool,
            (K::Sint, 2) => Sc::I16,
            (K::Sint, 8) => Sc::I64,
            (K::Sint, _) => Sc::I32,
            (K::Uint, 2) => Sc::U16,
            (K::Uint, 8) => Sc::U64,
            (K::Uint, _) => Sc::U32,
            (K::Float, 2) => Sc::F16,
            (K::Float, 8) => Sc::F64,
            (K::Float, _) => Sc::F32,
        }
    }
    /// The unsigned type of the same width (for `asuint`, counters…).
    pub fn to_unsigned(self) -> Sc {
        match self.concrete().width() {
            2 => Sc::U16,
            8 => Sc::U64,
            _ => Sc::U32,
        }
    }
    pub fn name(self) -> &'static str {
        match self {
            Sc::Bool => "bool",
            Sc::I16 => "int16_t",
            Sc::U16 => "uint16_t",
            Sc::I32 => "int",
            Sc::U32 => "uint",
            Sc::I64 => "int64_t",
            Sc::U64 => "uint64_t",
            Sc::F16 => "half",
            Sc::F32 => "float",
            Sc::F64 => "double",
            Sc::LitInt => "literal int",
            Sc::LitFloat => "literal float",
        }
    }
    /// Rank in the usual arithmetic conversions: the operand with the
    /// higher rank decides the component type (float beats every integer,
    /// wider beats narrower, unsigned beats signed of the same width).
    pub fn arith_rank(self) -> u32 {
        match self {
            Sc::Bool => 0,
            Sc::LitInt => 1,
            Sc::I16 => 2,
            Sc::U16 => 3,
            Sc::I32 => 4,
            Sc::U32 => 5,
            Sc::I64 => 6,
            Sc::U64 => 7,
            Sc::LitFloat => 8,
            Sc::F16 => 9,
            Sc::F32 => 10,
            Sc::F64 => 11,
        }
    }
}
