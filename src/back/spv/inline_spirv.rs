//! Inline SPIR-V: the raw instructions of `[[vk::ext_instruction]]`
//! functions, written as the shader spelled them, and the extended
//! instruction sets they import.

use crate::back::spv::inst;
use super::function::FunctionWriter;
use super::types::{RawOperand, SpvType};
use super::writer::Writer;
use super::{BackResult, internal};
use crate::ir::{self, Expression, Handle, SpirvOperand, TypeInner};
use rspirv::dr::{Instruction, Operand};
use rspirv::grammar::INSTRUCTION_TABLE;
use spirv::{Capability, Op, Word};

impl Writer<'_> {
    /// The id of the extended instruction set `name`, imported on first
    /// use (`GLSL.std.450` shares the import the backend's own math uses).
    /// A `NonSemantic.*` set brings SPV_KHR_non_semantic_info, which
    /// SPIR-V before 1.6 requires of its import (a shader's inline SPIR-V
    /// need not name it).
    pub fn ext_inst_set(&mut self, name: &str) -> Word {
        if name == "GLSL.std.450" {
            return self.glsl_std();
        }
        if let Some(&id) = self.ext_sets.get(name) {
            return id;
        }
        if name.starts_with("NonSemantic.") {
            self.extension("SPV_KHR_non_semantic_info");
        }
        let id = self.id();
        self.ext_sets.insert(name.to_string(), id);
        id
    }

    /// The `OpExtInstImport`s of the sets `ext_inst_set` handed out.
    pub fn ext_set_imports(&self) -> impl Iterator<Item = Instruction> + '_ {
        self.ext_sets.iter().map(|(name, &id)| {
            inst(
                Op::ExtInstImport,
                None,
                Some(id),
                vec![Operand::LiteralString(name.clone())],
            )
        })
    }
}

impl Writer<'_> {
    /// The id of a type written as its SPIR-V instruction. The types the
    /// backend also makes itself (scalars, vectors, arrays, pointers…) go
    /// through its cache, so that the module declares each once
    /// (spirv-val rejects two declarations of one non-aggregate type).
    pub fn spirv_type(&mut self, t: &ir::SpirvType) -> BackResult<Word> {
        let op = Op::from_u32(t.opcode)
            .ok_or_else(|| internal(format!("unknown type opcode {}", t.opcode)))?;
        let mut operands = Vec::with_capacity(t.operands.len());
        for o in &t.operands {
            operands.push(match *o {
                ir::SpirvTypeOperand::Type(h) => RawOperand::Id(self.type_id(h)?),
                ir::SpirvTypeOperand::Constant(s, v) => {
                    RawOperand::Id(self.const_scalar(s, v as i64))
                }
                ir::SpirvTypeOperand::Literal(w) => RawOperand::Literal(w),
            });
        }
        use RawOperand::{Id, Literal};
        let known = match (op, operands.as_slice()) {
            (Op::TypeBool, []) => Some(SpvType::Bool),
            (
                Op::TypeInt,
                &[
                    Literal(bits @ (8 | 16 | 32 | 64)),
                    Literal(signed @ (0 | 1)),
                ],
            ) => Some(SpvType::Int {
                width: (bits / 8) as u8,
                signed: signed == 1,
            }),
            (Op::TypeFloat, &[Literal(bits @ (16 | 32 | 64))]) => Some(SpvType::Float {
                width: (bits / 8) as u8,
            }),
            (Op::TypeVector, &[Id(component), Literal(size @ 2..=4)]) => Some(SpvType::Vector {
                component,
                size: size as u8,
            }),
            (Op::TypeRuntimeArray, &[Id(element)]) => Some(SpvType::RuntimeArray {
                element,
                stride: None,
            }),
            (Op::TypePointer, &[Literal(class), Id(pointee)]) => {
                spirv::StorageClass::from_u32(class)
                    .map(|class| SpvType::Pointer { pointee, class })
            }
            (Op::TypeSampler, []) => Some(SpvType::Sampler),
            (Op::TypeAccelerationStructureKHR, []) => {
                self.acceleration_structure_capabilities();
                Some(SpvType::AccelerationStructure)
            }
            (Op::TypeRayQueryKHR, []) => {
                self.ray_query_capabilities();
                Some(SpvType::RayQuery)
            }
            _ => None,
        };
        let t = match known {
            Some(t) => t,
            None => {
                self.instruction_capability(op);
                SpvType::Raw { op, operands }
            }
        };
        Ok(self.spv_type(t))
    }

    /// The `OpExecutionMode`/`OpExecutionModeId` instructions of
    /// `vk::ext_execution_mode*` for the entry function `function`, with the
    /// modes' capabilities.
    pub fn spirv_execution_modes(&mut self, function: Word) -> Vec<Instruction> {
        let ir = self.ir;
        let mut modes = Vec::new();
        for m in &ir.spirv_execution_modes {
            let mut operands = vec![Operand::IdRef(function), Operand::ExecutionMode(m.mode)];
            let op = match &m.operands {
                ir::SpirvModeOperands::Literals(words) => {
                    operands.extend(words.iter().map(|&w| Operand::LiteralBit32(w)));
                    Op::ExecutionMode
                }
                ir::SpirvModeOperands::Ids(values) => {
                    for &(s, v) in values {
                        operands.push(Operand::IdRef(self.const_scalar(s, v)));
                    }
                    self.instruction(super::requirements::EXECUTION_MODE_ID);
                    Op::ExecutionModeId
                }
            };
            self.execution_mode_capabilities(m.mode);
            modes.push(inst(op, None, None, operands));
        }
        modes
    }

    /// The capability a storage class the shader named needs, when the
    /// module has none of those that enable it.
    pub fn storage_class_capability(&mut self, class: spirv::StorageClass) {
        let caps = Operand::StorageClass(class).required_capabilities();
        let enabled = |c: &Capability| {
            self.capabilities.contains(c) || self.ir.required_capabilities.contains(c)
        };
        if let Some(&first) = caps.first()
            && !caps.iter().any(enabled)
        {
            self.capability(first);
        }
    }

    /// The capability and extension an instruction needs, when the module
    /// has none of the capabilities that enable it (`OpReadClockKHR` needs
    /// `ShaderClockKHR`, `OpTypeCooperativeMatrixKHR`
    /// `CooperativeMatrixKHR`).
    pub fn instruction_capability(&mut self, op: Op) {
        let Some(grammar) = INSTRUCTION_TABLE.lookup_opcode(op as u32) else {
            return;
        };
        let enabled = |c: &Capability| {
            self.capabilities.contains(c) || self.ir.required_capabilities.contains(c)
        };
        if let Some(&first) = grammar.capabilities.first()
            && !grammar.capabilities.iter().any(enabled)
        {
            self.capability(first);
        }
    }
}

impl FunctionWriter<'_, '_> {
    /// A [`ir::Statement::Spirv`]: the instruction with its operands in
    /// order, a result type and id when it gives a value (always for
    /// `OpExtInst`, whose result type may be void).
    pub fn write_spirv(
        &mut self,
        inst: &ir::SpirvInstruction,
        args: &[Handle<Expression>],
        result: Option<Handle<Expression>>,
    ) -> BackResult<()> {
        let mut operands = Vec::with_capacity(inst.operands.len() + 2);
        for op in &inst.operands {
            operands.push(match *op {
                SpirvOperand::Arg(i) => {
                    let &a = args
                        .get(i as usize)
                        .ok_or_else(|| internal("a raw SPIR-V operand without its argument"))?;
                    Operand::IdRef(self.spirv_operand(a)?)
                }
                SpirvOperand::Literal(v) => Operand::LiteralBit32(v),
                SpirvOperand::Type(t) => Operand::IdRef(self.w.type_id(t)?),
            });
        }
        let result_type = match result {
            Some(r) => Some(self.w.type_id(self.expr_type(r)?)?),
            None => None,
        };
        let id = match &inst.set {
            Some(set) => {
                let set = self.w.ext_inst_set(set);
                let ty = match result_type {
                    Some(t) => t,
                    None => self.w.void_type(),
                };
                operands.splice(
                    0..0,
                    [
                        Operand::IdRef(set),
                        Operand::LiteralExtInstInteger(inst.opcode),
                    ],
                );
                Some(self.emit_value(Op::ExtInst, ty, operands)?)
            }
            None => {
                let op = Op::from_u32(inst.opcode)
                    .ok_or_else(|| internal(format!("unknown opcode {}", inst.opcode)))?;
                self.w.instruction_capability(op);
                match result_type {
                    Some(t) => Some(self.emit_value(op, t, operands)?),
                    None => {
                        self.emit_void(op, operands)?;
                        None
                    }
                }
            }
        };
        match (result, id) {
            (Some(r), Some(id)) => self.set_result(r, id),
            _ => Ok(()),
        }
    }

    /// The id an argument stands for: a pointer's (`[[vk::ext_reference]]`)
    /// or a value's.
    fn spirv_operand(&mut self, a: Handle<Expression>) -> BackResult<Word> {
        if let TypeInner::Pointer { .. } = self.expr_inner(a)? {
            let pv = self.pointer(a)?;
            return self.pointer_id(&pv);
        }
        self.value(a)
    }
}

impl Writer<'_> {
    /// The decorations of `vk::ext_decorate*`, on the functions and global
    /// variables in the module.
    pub fn write_spirv_decorations(&mut self) {
        let ir = self.ir;
        let functions = ir.functions.iter().filter_map(|(h, f)| {
            let id = self.function_ids[h.index()]?;
            Some(f.spirv_decorations.iter().map(move |d| (id, d)))
        });
        let functions: Vec<_> = functions.flatten().collect();
        let globals = ir.spirv_decorations.iter().filter_map(|(g, d)| {
            // A global left out as unused has nothing to decorate.
            let id = (*self.global_ids.get(g.index())?)?;
            Some((id, d))
        });
        let globals: Vec<_> = globals.collect();
        for (target, d) in functions.into_iter().chain(globals) {
            self.write_spirv_decoration(target, d);
        }
    }

    /// Declares the constants of `vk::ext_decorate_id` operands before the
    /// globals: SPIR-V wants an id operand defined before its target.
    pub fn spirv_decoration_constants(&mut self) {
        let ir = self.ir;
        let functions = ir.functions.iter().flat_map(|(_, f)| {
            let args = f.arguments.iter().flat_map(|a| &a.spirv_decorations);
            let locals = f.local_variables.iter().flat_map(|(_, l)| &l.spirv_decorations);
            f.spirv_decorations.iter().chain(args).chain(locals)
        });
        let all = functions.chain(ir.spirv_decorations.iter().map(|(_, d)| d));
        for d in all {
            if let ir::SpirvDecorationOperands::Ids(values) = &d.operands {
                for &v in values {
                    self.const_u32(v);
                }
            }
        }
    }

    /// The decorations `ds` of a parameter or local on its id.
    pub fn write_spirv_decorations_on(&mut self, target: Word, ds: &[ir::SpirvDecoration]) {
        for d in ds {
            self.write_spirv_decoration(target, d);
        }
    }

    /// `OpDecorate`, `OpDecorateString` or `OpDecorateId` of `d` on
    /// `target`, with the decoration's capability.
    pub fn write_spirv_decoration(&mut self, target: Word, d: &ir::SpirvDecoration) {
        // The number as a word: the shader may name a decoration rspirv
        // does not know.
        let mut operands = vec![Operand::IdRef(target), Operand::LiteralBit32(d.decoration)];
        let op = match &d.operands {
            ir::SpirvDecorationOperands::Literals(words) => {
                operands.extend(words.iter().map(|&w| Operand::LiteralBit32(w)));
                Op::Decorate
            }
            ir::SpirvDecorationOperands::Strings(strings) => {
                operands.extend(strings.iter().map(|s| Operand::LiteralString(s.clone())));
                Op::DecorateString
            }
            ir::SpirvDecorationOperands::Ids(values) => {
                for &v in values {
                    let c = self.const_u32(v);
                    operands.push(Operand::IdRef(c));
                }
                self.instruction(super::requirements::DECORATE_ID);
                Op::DecorateId
            }
        };
        self.spirv_decoration_features(d);
        self.annotations
            .push(inst(op, None, None, operands));
    }

    /// `OpMemberDecorate` or `OpMemberDecorateString` of `d` on member
    /// `member` of struct type `target`. Sema leaves no id operands here
    /// (SPIR-V has no member form of `OpDecorateId`).
    pub fn write_spirv_member_decoration(
        &mut self,
        target: Word,
        member: u32,
        d: &ir::SpirvDecoration,
    ) -> BackResult<()> {
        let mut operands = vec![
            Operand::IdRef(target),
            Operand::LiteralBit32(member),
            Operand::LiteralBit32(d.decoration),
        ];
        let op = match &d.operands {
            ir::SpirvDecorationOperands::Literals(words) => {
                operands.extend(words.iter().map(|&w| Operand::LiteralBit32(w)));
                Op::MemberDecorate
            }
            ir::SpirvDecorationOperands::Strings(strings) => {
                operands.extend(strings.iter().map(|s| Operand::LiteralString(s.clone())));
                Op::MemberDecorateString
            }
            ir::SpirvDecorationOperands::Ids(_) => {
                return Err(internal(
                    "an id-operand decoration on a struct member".to_string(),
                ));
            }
        };
        self.spirv_decoration_features(d);
        self.annotations
            .push(inst(op, None, None, operands));
        Ok(())
    }

    /// The capability (or else the extensions) the decoration of `d`
    /// needs, when rspirv knows the decoration.
    fn spirv_decoration_features(&mut self, d: &ir::SpirvDecoration) {
        if let Some(dec) = spirv::Decoration::from_u32(d.decoration) {
            let op = Operand::Decoration(dec);
            match op.required_capabilities().first() {
                Some(&cap) => self.capability(cap),
                None => {
                    for ext in op.required_extensions() {
                        self.extension(ext);
                    }
                }
            }
        }
    }
}
