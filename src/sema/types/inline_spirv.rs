//! The types of inline SPIR-V that the compiler itself provides in the
//! `vk` namespace: `vk::ext_result_id<T>`, the result of an
//! `ext_instruction` function used as a value of `T`, and the types a
//! shader writes as their SPIR-V instruction, `vk::SpirvType<opcode,
//! size, alignment, operands…>` (with a layout in buffers) and
//! `vk::SpirvOpaqueType<opcode, operands…>` (none). An operand is a type,
//! `vk::integral_constant<T, v>` (the id of a constant) or
//! `vk::Literal<vk::integral_constant<T, v>>` (the value as literal words).

use super::scope::TypeEntry;
use super::{Sc, Ty, TyId, Types};
use crate::diag::{Diagnostic, codes};
use crate::front::ast;
use crate::ir;
use crate::sema::Sema;
use crate::sema::types::resolve::Env;
use crate::span::Span;
use rspirv::grammar::INSTRUCTION_TABLE;

/// A `vk::SpirvType` or `vk::SpirvOpaqueType`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct SpirvTy {
    /// An `OpType…` opcode of core SPIR-V.
    pub opcode: u32,
    /// The size and alignment in bytes of a `vk::SpirvType`; `None` for an
    /// opaque type, which has no layout.
    pub layout: Option<(u32, u32)>,
    pub operands: Vec<SpirvTyOperand>,
}

/// An operand of a [`SpirvTy`].
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum SpirvTyOperand {
    Type(TyId),
    /// `vk::integral_constant<T, v>`: a constant of the scalar `T`.
    Constant(Sc, i64),
    /// `vk::Literal<vk::integral_constant<T, v>>`: `v` as literal words.
    Literal(Sc, i64),
}

impl SpirvTy {
    /// The name diagnostics show.
    pub fn name(&self, types: &Types) -> String {
        let mut parts = vec![self.opcode.to_string()];
        if let Some((size, align)) = self.layout {
            parts.push(size.to_string());
            parts.push(align.to_string());
        }
        for o in &self.operands {
            parts.push(match *o {
                SpirvTyOperand::Type(t) => types.name(t),
                SpirvTyOperand::Constant(s, v) => {
                    format!("vk::integral_constant<{}, {v}>", s.name())
                }
                SpirvTyOperand::Literal(s, v) => {
                    format!("vk::Literal<vk::integral_constant<{}, {v}> >", s.name())
                }
            });
        }
        let kind = if self.layout.is_some() {
            "SpirvType"
        } else {
            "SpirvOpaqueType"
        };
        format!("vk::{kind}<{}>", parts.join(", "))
    }
}

impl Types {
    /// The IR form of a [`SpirvTy`]: its operands' types and words.
    pub(super) fn ir_spirv_type(
        &mut self,
        module: &mut ir::Module,
        layouts: &mut super::layout::Layouts,
        t: &SpirvTy,
    ) -> ir::SpirvType {
        let mut operands = Vec::with_capacity(t.operands.len());
        for o in &t.operands {
            match *o {
                SpirvTyOperand::Type(ty) => {
                    operands.push(ir::SpirvTypeOperand::Type(
                        self.ir_type(module, layouts, ty),
                    ));
                }
                SpirvTyOperand::Constant(s, v) => {
                    let s = s.concrete();
                    let bits = s.width() as u32 * 8;
                    let mask = if bits >= 64 {
                        u64::MAX
                    } else {
                        (1 << bits) - 1
                    };
                    operands.push(ir::SpirvTypeOperand::Constant(s.ir(), v as u64 & mask));
                }
                SpirvTyOperand::Literal(s, v) => {
                    operands.push(ir::SpirvTypeOperand::Literal(v as u32));
                    if s.concrete().width() == 8 {
                        operands.push(ir::SpirvTypeOperand::Literal((v as u64 >> 32) as u32));
                    }
                }
            }
        }
        ir::SpirvType {
            opcode: t.opcode,
            operands,
        }
    }
}

impl<'a> Sema<'a> {
    /// The built-in inline SPIR-V type `path` names (`vk::ext_result_id<T>`,
    /// `vk::ext_type<id>`, `vk::SpirvType<…>`, `vk::SpirvOpaqueType<…>`),
    /// if it names one.
    pub(in crate::sema) fn inline_spirv_type(
        &mut self,
        path: &'a ast::Path,
        args: Option<&'a [ast::TemplateArg]>,
        env: &Env,
        span: Span,
    ) -> Option<TypeEntry> {
        let [vk, name] = path.segments.as_slice() else {
            return None;
        };
        if path.global || path.qualifier.is_some() || vk.name.as_str() != "vk" {
            return None;
        }
        let ty = match name.name.as_str() {
            // The id of a value of `T`: in hlslc the value itself.
            "ext_result_id" => match args {
                Some([arg]) => self.template_type_arg(arg, env),
                _ => {
                    self.error(
                        codes::BAD_TEMPLATE_ARGS,
                        "`vk::ext_result_id` takes one type argument",
                        span,
                        "expected `vk::ext_result_id<T>`",
                    );
                    super::ERROR
                }
            },
            "ext_type" => match args {
                Some([a]) => match self.spirv_type_number(a, env) {
                    Some(id) => self.ext_type(id, span),
                    None => super::ERROR,
                },
                _ => {
                    self.error(
                        codes::BAD_TEMPLATE_ARGS,
                        "`vk::ext_type` takes one constant, the id of a `vk::ext_type_def`",
                        span,
                        "expected `vk::ext_type<id>`",
                    );
                    super::ERROR
                }
            },
            "SpirvType" => self.spirv_type(args.unwrap_or_default(), true, env, span),
            "SpirvOpaqueType" => self.spirv_type(args.unwrap_or_default(), false, env, span),
            _ => return None,
        };
        Some(TypeEntry {
            ty,
            major: None,
            features: None,
        })
    }

    /// Whether `opcode` is that of a SPIR-V type instruction; error `code`
    /// at `span` if not.
    pub(in crate::sema) fn type_opcode(
        &mut self,
        opcode: u32,
        code: crate::diag::codes::Code,
        span: Span,
    ) -> bool {
        let is_type = INSTRUCTION_TABLE
            .lookup_opcode(opcode)
            .is_some_and(|g| g.opname.starts_with("Type"));
        if !is_type {
            self.push(
                Diagnostic::error(
                    code,
                    format!("{opcode} is not the opcode of a SPIR-V type instruction"),
                )
                .label(span, "not an `OpType…` opcode")
                .note("the numbers are those of the SPIR-V specification's instruction tables"),
            );
        }
        is_type
    }

    /// `vk::SpirvType<opcode, size, alignment, operands…>` (`sized`) or
    /// `vk::SpirvOpaqueType<opcode, operands…>`.
    fn spirv_type(
        &mut self,
        args: &'a [ast::TemplateArg],
        sized: bool,
        env: &Env,
        span: Span,
    ) -> TyId {
        let fixed = if sized { 3 } else { 1 };
        if args.len() < fixed {
            let form = if sized {
                "vk::SpirvType<opcode, size, alignment, operands...>"
            } else {
                "vk::SpirvOpaqueType<opcode, operands...>"
            };
            self.error(
                codes::BAD_TEMPLATE_ARGS,
                format!("`{form}` needs at least {fixed} arguments"),
                span,
                "too few template arguments",
            );
            return super::ERROR;
        }
        let mut numbers = Vec::new();
        for a in &args[..fixed] {
            let Some(n) = self.spirv_type_number(a, env) else {
                return super::ERROR;
            };
            numbers.push((n, a));
        }
        let (opcode, op_arg) = numbers[0];
        if !self.type_opcode(opcode, codes::BAD_TEMPLATE_ARGS, arg_span(op_arg)) {
            return super::ERROR;
        }
        let layout = if sized {
            let (size, _) = numbers[1];
            let (align, a) = numbers[2];
            if !align.is_power_of_two() {
                self.error(
                    codes::BAD_TEMPLATE_ARGS,
                    format!("the alignment of a `vk::SpirvType` is a power of two, not {align}"),
                    arg_span(a),
                    "not a power of two",
                );
                return super::ERROR;
            }
            Some((size, align))
        } else {
            None
        };
        let mut operands = Vec::new();
        for a in &args[fixed..] {
            match self.spirv_type_operand(a, env) {
                Some(o) => operands.push(o),
                None => return super::ERROR,
            }
        }
        // The acceleration structure is a type HLSL has: as that resource
        // a global of it is a descriptor, as DXC makes it.
        if layout.is_none()
            && operands.is_empty()
            && opcode == spirv::Op::TypeAccelerationStructureKHR as u32
        {
            let r = Ty::Resource(
                super::ResKind::RaytracingAccelerationStructure,
                None,
            );
            return self.types.intern(r);
        }
        self.types.intern(Ty::Spirv(Box::new(SpirvTy {
            opcode,
            layout,
            operands,
        })))
    }

    /// A constant template argument that fits a SPIR-V word.
    fn spirv_type_number(&mut self, a: &'a ast::TemplateArg, env: &Env) -> Option<u32> {
        let ast::TemplateArg::Expr(e) = a else {
            self.error(
                codes::BAD_TEMPLATE_ARGS,
                "expected a constant, not a type",
                arg_span(a),
                "a type",
            );
            return None;
        };
        let n = self.const_int(e, env)?;
        match u32::try_from(n) {
            Ok(n) => Some(n),
            Err(_) => {
                self.error(
                    codes::BAD_TEMPLATE_ARGS,
                    format!("{n} does not fit a 32-bit unsigned word"),
                    e.span,
                    "out of range",
                );
                None
            }
        }
    }

    /// An operand of a `vk::SpirvType`: a type, `vk::integral_constant<T,
    /// v>` or `vk::Literal<vk::integral_constant<T, v>>`.
    fn spirv_type_operand(&mut self, a: &'a ast::TemplateArg, env: &Env) -> Option<SpirvTyOperand> {
        match a {
            ast::TemplateArg::Type(ts) => {
                if let Some(args) = self.vk_named(ts, "integral_constant") {
                    let (s, v) = self.integral_constant(args, env, ts.span)?;
                    return Some(SpirvTyOperand::Constant(s, v));
                }
                if let Some(args) = self.vk_named(ts, "Literal") {
                    let inner = match args {
                        [ast::TemplateArg::Type(inner)] => {
                            self.vk_named(inner, "integral_constant")
                        }
                        _ => None,
                    };
                    let Some(inner) = inner else {
                        self.error(
                            codes::BAD_TEMPLATE_ARGS,
                            "`vk::Literal` takes a `vk::integral_constant<T, v>`",
                            ts.span,
                            "expected `vk::Literal<vk::integral_constant<T, v> >`",
                        );
                        return None;
                    };
                    let (s, v) = self.integral_constant(inner, env, ts.span)?;
                    return Some(SpirvTyOperand::Literal(s, v));
                }
                let ty = self.template_type_arg(a, env);
                (ty != super::ERROR).then_some(SpirvTyOperand::Type(ty))
            }
            ast::TemplateArg::Expr(e) => match &e.kind {
                ast::ExprKind::Name(_) => {
                    let ty = self.template_type_arg(a, env);
                    (ty != super::ERROR).then_some(SpirvTyOperand::Type(ty))
                }
                _ => {
                    self.push(
                        Diagnostic::error(
                            codes::BAD_TEMPLATE_ARGS,
                            "an operand of a SPIR-V type is a type, a `vk::integral_constant` or a `vk::Literal`",
                        )
                        .label(e.span, "a bare value")
                        .note("write `vk::integral_constant<uint, N>` for the id of a constant, `vk::Literal<vk::integral_constant<uint, N> >` for a literal word"),
                    );
                    None
                }
            },
        }
    }

    /// `ts` as `vk::NAME<args>`: the arguments.
    fn vk_named(&self, ts: &'a ast::TypeSpec, name: &str) -> Option<&'a [ast::TemplateArg]> {
        let ast::TypeSpecKind::Named { path, args } = &ts.kind else {
            return None;
        };
        let [vk, n] = path.segments.as_slice() else {
            return None;
        };
        let named = !path.global
            && path.qualifier.is_none()
            && vk.name.as_str() == "vk"
            && n.name.as_str() == name;
        named.then(|| args.as_deref().unwrap_or_default())
    }

    /// The scalar type and value of `vk::integral_constant<T, v>`.
    fn integral_constant(
        &mut self,
        args: &'a [ast::TemplateArg],
        env: &Env,
        span: Span,
    ) -> Option<(Sc, i64)> {
        let [t, ast::TemplateArg::Expr(v)] = args else {
            self.error(
                codes::BAD_TEMPLATE_ARGS,
                "`vk::integral_constant` takes a type and a constant",
                span,
                "expected `vk::integral_constant<T, v>`",
            );
            return None;
        };
        let ty = self.template_type_arg(t, env);
        let s = match *self.types.get(ty) {
            Ty::Scalar(s) if !s.is_float() => s.concrete(),
            Ty::Error => return None,
            _ => {
                self.error(
                    codes::BAD_TEMPLATE_ARGS,
                    format!(
                        "`vk::integral_constant` needs an integer or bool type, not `{}`",
                        self.types.name(ty)
                    ),
                    arg_span(t),
                    "not an integral type",
                );
                return None;
            }
        };
        let v = self.const_int(v, env)?;
        Some((s, v))
    }
}

fn arg_span(a: &ast::TemplateArg) -> Span {
    match a {
        ast::TemplateArg::Type(t) => t.span,
        ast::TemplateArg::Expr(e) => e.span,
    }
}
