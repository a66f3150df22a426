//! Calls of functions declared `[[vk::ext_instruction(opcode[, "set"])]]`:
//! no body, the call is the instruction itself. Each parameter gives one
//! operand: a value's id, a pointer's id (`[[vk::ext_reference]]`), or a
//! literal word (`[[vk::ext_literal]]`, the argument a constant).

use super::{Arg, Viable};
use crate::diag::{Diagnostic, codes};
use crate::front::attributes::Attr;
use crate::ir::{self, SpirvOperand};
use crate::sema::body::FnCtx;
use crate::sema::body::place::{Place, Val, ValKind};
use crate::sema::decl::find_attr;
use crate::sema::decl::inline_spirv::{kernel_only, kernel_only_error};
use crate::sema::types::{self, resolve::Env};
use crate::span::Span;
use rspirv::grammar::{INSTRUCTION_TABLE, OperandKind};

impl<'s, 'a> FnCtx<'s, 'a> {
    /// Whether the chosen function is an `ext_instruction` one.
    pub(in crate::sema) fn is_spirv_instruction(&self, chosen: &Viable<'a>) -> bool {
        let decl = &self.s.decls.funcs[chosen.id];
        find_attr(&decl.ast.attrs, Attr::VkExtInstruction).is_some()
    }

    /// A call of an `ext_instruction` function: the raw instruction.
    pub(in crate::sema) fn emit_spirv_instruction(
        &mut self,
        chosen: &Viable<'a>,
        args: Vec<Arg>,
        span: Span,
    ) -> Val {
        let decl = &self.s.decls.funcs[chosen.id];
        let (fattrs, scope) = (&decl.ast.attrs, decl.scope);
        let scope = chosen.inst.as_ref().map_or(scope, |(_, s)| *s);
        let Some(attr) = find_attr(fattrs, Attr::VkExtInstruction) else {
            return Val::error();
        };
        let env = Env::at(scope);
        self.s.require_spirv_features(fattrs, &env);
        let set = attr.string_arg(1).map(str::to_string);
        if let Some(name) = &set
            && !known_instruction_set(name)
        {
            self.s.push(
                Diagnostic::error(
                    codes::BAD_ATTRIBUTE,
                    format!("`{name}` is not an extended instruction set SPIR-V knows"),
                )
                .label(attr.span, "no such instruction set")
                .note("the sets are GLSL.std.450, the SPV_AMD_* ones, DebugInfo, OpenCL.DebugInfo.100, and any named NonSemantic.*"),
            );
            return Val::error();
        }
        let Some(opcode) = self.s.const_int(&attr.args[0], &env) else {
            return Val::error();
        };
        let opcode = match u32::try_from(opcode) {
            Ok(op) if set.is_some() || spirv::Op::from_u32(op).is_some() => op,
            _ => {
                self.s.push(
                    Diagnostic::error(
                        codes::BAD_ATTRIBUTE,
                        format!("{opcode} is not a SPIR-V opcode"),
                    )
                    .label(attr.args[0].span, "no instruction has this number")
                    .note("without an instruction set, the number is an opcode of core SPIR-V"),
                );
                return Val::error();
            }
        };
        if set.is_none()
            && let Some(g) = INSTRUCTION_TABLE.lookup_opcode(opcode)
        {
            if let Some(cap) = kernel_only(g.capabilities) {
                let what = format!("`Op{}`", g.opname);
                self.s.push(kernel_only_error(what, cap, attr.span));
                return Val::error();
            }
            // Types and constants belong to the module, not to a body.
            if g.opname.starts_with("Type")
                || g.opname.starts_with("Constant")
                || g.opname.starts_with("SpecConstant")
            {
                return self.unsupported(
                    format!(
                        "`Op{}` through `vk::ext_instruction` (it belongs outside functions)",
                        g.opname
                    ),
                    span,
                );
            }
            let gives = g
                .operands
                .iter()
                .any(|o| matches!(o.kind, OperandKind::IdResultType));
            if gives == (chosen.sig.ret == types::VOID) {
                let decl = &self.s.decls.funcs[chosen.id];
                let (fspan, name) = (decl.ast.name.span, decl.name);
                self.s.push(
                    Diagnostic::error(
                        codes::TYPE_MISMATCH,
                        if gives {
                            format!(
                                "`Op{}` gives a value, but `{name}` returns `void`",
                                g.opname
                            )
                        } else {
                            format!("`Op{}` gives no value, but `{name}` returns one", g.opname)
                        },
                    )
                    .label(span, "this call")
                    .label(fspan, "declared here")
                    .note("the return type of the function is the instruction's result type"),
                );
                return Val::error();
            }
            let decl = &self.s.decls.funcs[chosen.id];
            let types = &self.s.types;
            let is_pointer = |t| match types.get(t) {
                types::Ty::Spirv(t) => {
                    t.opcode == spirv::Op::TypePointer as u32
                        || t.opcode == spirv::Op::TypeUntypedPointerKHR as u32
                }
                types::Ty::BufferPointer(..) => true,
                _ => false,
            };
            if let Some(d) =
                super::spirv_operands::check(g, &chosen.sig, decl.name.as_str(), is_pointer)
            {
                self.s.push(d.label(span, "this call"));
                return Val::error();
            }
        }
        let mut inst = ir::SpirvInstruction {
            opcode,
            set,
            operands: Vec::new(),
        };
        let mut ids = Vec::new();
        for (i, p) in chosen.sig.params.iter().enumerate() {
            let default;
            let a = match args.get(i) {
                Some(a) => a,
                None => {
                    // A default argument, read where the function was
                    // declared (overload resolution saw that it has one).
                    let Some(d) = p.default else {
                        return Val::error();
                    };
                    let saved = std::mem::replace(&mut self.fb.scope, scope);
                    default = self.lower_arg(d);
                    self.fb.scope = saved;
                    &default
                }
            };
            if find_attr(p.attrs, Attr::VkExtLiteral).is_some() {
                let Some(word) = self.spirv_literal(a) else {
                    return Val::error();
                };
                inst.operands.push(SpirvOperand::Literal(word));
                continue;
            }
            let id = if find_attr(p.attrs, Attr::VkExtReference).is_some() {
                if let ValKind::Place(Place::Ptr { space, .. }) = a.val.kind
                    && !self.s.check_reference_class(p.attrs, &env, space, a.span)
                {
                    return Val::error();
                }
                self.spirv_reference(a, p.ty)
            } else {
                let c = self.convert(a.val.clone(), p.ty, a.span);
                self.value(&c)
            };
            let Some(id) = id else {
                return Val::error();
            };
            inst.operands.push(SpirvOperand::Arg(ids.len() as u32));
            ids.push(id);
        }
        if inst.set.is_none()
            && let Some(missing) = missing_memory_operands(&inst)
        {
            self.s.push(
                Diagnostic::error(
                    codes::BAD_ATTRIBUTE,
                    format!(
                        "the memory operand bits take {missing} more operand{} than the call gives",
                        if missing == 1 { "" } else { "s" }
                    ),
                )
                .label(span, "too few operands after the memory operand bits")
                .note("the bits Aligned (0x2), MakePointerAvailable (0x8) and MakePointerVisible (0x10) each take an operand after the bits: the alignment, or the scope id"),
            );
            return Val::error();
        }
        let result = (chosen.sig.ret != types::VOID).then(|| {
            let rt = self.s.ir_ty(chosen.sig.ret);
            self.add(ir::Expression::SpirvResult, rt)
        });
        self.stmt(ir::Statement::Spirv {
            inst: Box::new(inst),
            args: ids,
            result,
        });
        match result {
            Some(r) => Val::expr(chosen.sig.ret, r),
            None => Val::void(),
        }
    }

    /// The literal word of an `ext_literal` argument.
    fn spirv_literal(&mut self, a: &Arg) -> Option<u32> {
        match &a.val.kind {
            ValKind::Const(k) => Some(k.as_i64() as u32),
            ValKind::Error => None,
            _ => {
                self.s.push(
                    Diagnostic::error(
                        codes::NOT_CONSTANT,
                        "a `vk::ext_literal` parameter needs a constant argument",
                    )
                    .label(a.span, "not a compile-time constant")
                    .note("the instruction takes the value itself as a literal word"),
                );
                None
            }
        }
    }

    /// The pointer an `ext_reference` argument names, as an id operand.
    fn spirv_reference(&mut self, a: &Arg, ty: types::TyId) -> Option<ir::Handle<ir::Expression>> {
        match &a.val.kind {
            ValKind::Place(Place::Ptr { ptr, .. }) if a.val.ty == ty => Some(*ptr),
            ValKind::Error => None,
            _ => {
                self.s.push(
                    Diagnostic::error(
                        codes::TYPE_MISMATCH,
                        format!(
                            "a `vk::ext_reference` parameter needs a variable of type `{}`",
                            self.s.ty_name(ty)
                        ),
                    )
                    .label(
                        a.span,
                        "not a variable (or element, or member) of this type",
                    )
                    .note("the instruction takes a pointer to the argument"),
                );
                None
            }
        }
    }
}

/// Whether `name` is an extended instruction set a validator accepts in
/// `OpExtInstImport`: a set SPIR-V defines, or a non-semantic one (any name
/// with the `NonSemantic.` prefix).
fn known_instruction_set(name: &str) -> bool {
    matches!(
        name,
        "GLSL.std.450"
            | "DebugInfo"
            | "OpenCL.DebugInfo.100"
            | "SPV_AMD_shader_ballot"
            | "SPV_AMD_shader_trinary_minmax"
            | "SPV_AMD_gcn_shader"
            | "SPV_AMD_shader_explicit_vertex_parameter"
    ) || name.strip_prefix("NonSemantic.").is_some_and(|r| !r.is_empty())
}

impl<'s, 'a> FnCtx<'s, 'a> {
    /// `__builtin_spv_CooperativeMatrixLengthKHR<M>()`, which DXC's
    /// compiler provides beside its cooperative matrix header and hlslc's
    /// header uses too: `OpCooperativeMatrixLengthKHR` of the cooperative
    /// matrix type `M` (a `vk::SpirvOpaqueType` of
    /// `OpTypeCooperativeMatrixKHR`), an operand no parameter can pass.
    pub(in crate::sema) fn cooperative_matrix_length(
        &mut self,
        name: crate::intern::Symbol,
        targs: Option<&'a [crate::front::ast::TemplateArg]>,
        args: &[Arg],
        span: Span,
    ) -> Option<Val> {
        const OP_TYPE_COOPERATIVE_MATRIX: u32 = spirv::Op::TypeCooperativeMatrixKHR as u32;
        if name.as_str() != "__builtin_spv_CooperativeMatrixLengthKHR" {
            return None;
        }
        let env = crate::sema::body::cx_env!(self);
        let ty = match targs {
            Some([t]) if args.is_empty() => self.s.template_type_arg(t, &env),
            _ => {
                return Some(self.error(
                    codes::WRONG_ARG_COUNT,
                    "`__builtin_spv_CooperativeMatrixLengthKHR` takes one template argument, the matrix type, and no arguments",
                    span,
                    "expected `__builtin_spv_CooperativeMatrixLengthKHR<M>()`",
                ));
            }
        };
        if ty == types::ERROR {
            return Some(Val::error());
        }
        let is_matrix = matches!(self.s.types.get(ty),
            types::Ty::Spirv(t) if t.opcode == OP_TYPE_COOPERATIVE_MATRIX);
        if !is_matrix {
            return Some(self.error(
                codes::TYPE_MISMATCH,
                format!(
                    "`__builtin_spv_CooperativeMatrixLengthKHR` needs a cooperative matrix type, found `{}`",
                    self.s.ty_name(ty)
                ),
                span,
                "not a `vk::SpirvOpaqueType` of `OpTypeCooperativeMatrixKHR`",
            ));
        }
        let matrix = self.s.ir_ty(ty);
        let uint = self.s.ir_ty(types::UINT);
        let result = self.add(ir::Expression::SpirvResult, uint);
        self.stmt(ir::Statement::Spirv {
            inst: Box::new(ir::SpirvInstruction {
                opcode: spirv::Op::CooperativeMatrixLengthKHR as u32,
                set: None,
                operands: vec![SpirvOperand::Type(matrix)],
            }),
            args: Vec::new(),
            result: Some(result),
        });
        Some(Val::expr(types::UINT, result))
    }
}

/// How many operands an `OpLoad`, `OpStore`, `OpCopyMemory` or
/// `OpCopyMemorySized` lacks after its memory operand bits (a literal):
/// `Aligned`, `MakePointerAvailable` and `MakePointerVisible` each take one
/// (SPIR-V's "Memory Operands"). None when nothing is missing, or for
/// other instructions. Without them the instruction runs past its end and
/// the module cannot be read.
fn missing_memory_operands(inst: &ir::SpirvInstruction) -> Option<usize> {
    use spirv::Op;
    let at = match Op::from_u32(inst.opcode)? {
        Op::Load => 1,
        Op::Store | Op::CopyMemory => 2,
        Op::CopyMemorySized => 3,
        _ => return None,
    };
    let SpirvOperand::Literal(bits) = *inst.operands.get(at)? else {
        return None;
    };
    let needed = (bits & (0x2 | 0x8 | 0x10)).count_ones() as usize;
    let after = inst.operands.len() - at - 1;
    (after < needed).then_some(needed - after)
}
