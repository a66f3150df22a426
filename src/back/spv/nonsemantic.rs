//! `printf` and `DebugBreak`: instructions of non-semantic extended
//! instruction sets (SPV_KHR_non_semantic_info), which drivers may ignore
//! and debugging layers act on.

use super::BackResult;
use super::function::FunctionWriter;
use crate::ir::{Expression, Handle};
use rspirv::dr::Operand;
use spirv::Op;

/// `DebugPrintf` in NonSemantic.DebugPrintf, `DebugBreak` in
/// NonSemantic.DebugBreak: each set's only instruction, number 1.
const ONLY_INSTRUCTION: u32 = 1;

impl FunctionWriter<'_, '_> {
    /// An `OpExtInst` of set `set` with no result value (the import
    /// brings SPV_KHR_non_semantic_info).
    fn non_semantic(&mut self, set: &'static str, operands: Vec<Operand>) -> BackResult<()> {
        let set = self.w.ext_inst_set(set);
        let void = self.w.void_type();
        let mut ops = vec![
            Operand::IdRef(set),
            Operand::LiteralExtInstInteger(ONLY_INSTRUCTION),
        ];
        ops.extend(operands);
        self.emit_value(Op::ExtInst, void, ops).map(|_| ())
    }

    /// `printf(format, args…)`: the format as an OpString, then the values.
    pub fn write_printf(&mut self, format: &str, args: &[Handle<Expression>]) -> BackResult<()> {
        let mut ops = vec![Operand::IdRef(self.w.string(format))];
        for &a in args {
            ops.push(Operand::IdRef(self.value(a)?));
        }
        self.non_semantic("NonSemantic.DebugPrintf", ops)
    }

    /// `DebugBreak()`.
    pub fn write_debug_break(&mut self) -> BackResult<()> {
        self.non_semantic("NonSemantic.DebugBreak", Vec::new())
    }
}
