//! Types that a shader defines by a call: a function declared
//! `[[vk::ext_type_def(id, opcode)]]` (no body) defines, where it is
//! called, the SPIR-V type `opcode` whose operands are its arguments: an
//! `ext_literal` one as literal words, an `ext_reference` one as the id of
//! its type (`vk::ext_type<M>`), an integer one as the id of a constant.
//! `vk::ext_type<id>` names that type anywhere, globals included, so every
//! such call statement is found before anything is declared
//! ([`ExtTypes::collect`]) and the type is made when first named.
//!
//! A definition that is a type HLSL has (an integer, float or bool
//! scalar, a vector of one, an acceleration structure) is that type, with
//! its layout and values; any other is a `vk::SpirvOpaqueType`.

use crate::diag::{Diagnostic, codes};
use crate::front::ast::{self, ExprKind, StmtKind};
use crate::front::attributes::Attr;
use crate::intern::Symbol;
use crate::sema::Sema;
use crate::sema::decl::find_attr;
use crate::sema::types::inline_spirv::{SpirvTy, SpirvTyOperand};
use crate::sema::types::resolve::Env;
use crate::sema::types::scope::FuncDeclId;
use crate::sema::types::scope::GLOBAL_SCOPE;
use crate::sema::types::{self, ResKind, Sc, Ty, TyId};
use crate::span::Span;
use rustc_hash::{FxHashMap, FxHashSet};

/// The call statements of `ext_type_def` functions and the types made.
#[derive(Default)]
pub struct ExtTypes<'a> {
    /// Call statements `f(args…)` in function bodies whose `f` is the name
    /// of an `ext_type_def` function.
    calls: Vec<(Symbol, &'a [ast::Expr], Span)>,
    /// The types by id; `ERROR` for one that failed (reported once) or
    /// is being made.
    made: FxHashMap<u32, TyId>,
}

impl<'a> ExtTypes<'a> {
    /// Finds the call statements of the `ext_type_def` functions `items`
    /// declare, in every function body of `items`.
    pub fn collect(items: &'a [ast::Item]) -> Self {
        let mut names = FxHashSet::default();
        each_function(items, &mut |f| {
            if find_attr(&f.attrs, Attr::VkExtTypeDef).is_some() {
                names.insert(f.name.last().name);
            }
        });
        let mut calls = Vec::new();
        if !names.is_empty() {
            each_function(items, &mut |f| {
                if let Some(body) = &f.body {
                    block_calls(body, &names, &mut calls);
                }
            });
        }
        ExtTypes {
            calls,
            made: FxHashMap::default(),
        }
    }
}

fn each_function<'a>(items: &'a [ast::Item], f: &mut dyn FnMut(&'a ast::Function)) {
    fn structure<'a>(s: &'a ast::StructDecl, f: &mut dyn FnMut(&'a ast::Function)) {
        for m in &s.members {
            match m {
                ast::StructMember::Method(m) => f(m),
                ast::StructMember::Struct(s) => structure(s, f),
                _ => {}
            }
        }
    }
    for item in items {
        match item {
            ast::Item::Function(func) => f(func),
            ast::Item::Namespace(n) => each_function(&n.items, f),
            ast::Item::Struct(s) => structure(s, f),
            _ => {}
        }
    }
}

type Calls<'a> = Vec<(Symbol, &'a [ast::Expr], Span)>;

fn block_calls<'a>(b: &'a ast::Block, names: &FxHashSet<Symbol>, out: &mut Calls<'a>) {
    for s in &b.stmts {
        stmt_calls(s, names, out);
    }
}

fn stmt_calls<'a>(s: &'a ast::Stmt, names: &FxHashSet<Symbol>, out: &mut Calls<'a>) {
    match &s.kind {
        StmtKind::Expr(e) => {
            if let ExprKind::Call(c) = &e.kind
                && names.contains(&c.callee.last().name)
            {
                out.push((c.callee.last().name, &c.args, e.span));
            }
        }
        StmtKind::Block(b) => block_calls(b, names, out),
        StmtKind::Switch { body, .. } => block_calls(body, names, out),
        StmtKind::If { then, else_, .. } => {
            stmt_calls(then, names, out);
            if let Some(e) = else_ {
                stmt_calls(e, names, out);
            }
        }
        StmtKind::For { body, .. }
        | StmtKind::While { body, .. }
        | StmtKind::DoWhile { body, .. } => stmt_calls(body, names, out),
        _ => {}
    }
}

impl<'a> Sema<'a> {
    /// The id and opcode of `[[vk::ext_type_def(id, opcode)]]` on the
    /// function `f`, if it has the attribute; errors only when `report`.
    pub(in crate::sema) fn type_def_of(
        &mut self,
        f: FuncDeclId,
        report: bool,
    ) -> Option<(u32, u32)> {
        let decl = &self.decls.funcs[f];
        let a = find_attr(&decl.ast.attrs, Attr::VkExtTypeDef)?;
        let env = Env::at(decl.scope);
        let mut words = [0; 2];
        for (w, e) in words.iter_mut().zip(&a.args) {
            let v = if report {
                self.const_int(e, &env)?
            } else {
                self.const_eval(e, &env).ok()?.as_i64()
            };
            match u32::try_from(v) {
                Ok(v) => *w = v,
                Err(_) if report => {
                    self.error(
                        codes::BAD_ATTRIBUTE,
                        format!("{v} does not fit a 32-bit unsigned word"),
                        e.span,
                        "out of range",
                    );
                    return None;
                }
                Err(_) => return None,
            }
        }
        Some((words[0], words[1]))
    }

    /// `vk::ext_type<id>`: the type the `ext_type_def` calls with `id`
    /// define.
    pub(in crate::sema) fn ext_type(&mut self, id: u32, span: Span) -> TyId {
        if let Some(&t) = self.decls.ext_types.made.get(&id) {
            return t;
        }
        self.decls.ext_types.made.insert(id, types::ERROR);
        let defs: Vec<FuncDeclId> = self
            .decls
            .funcs
            .iter()
            .filter(|(_, d)| find_attr(&d.ast.attrs, Attr::VkExtTypeDef).is_some())
            .map(|(f, _)| f)
            .collect();
        let calls = self.decls.ext_types.calls.clone();
        let (mut first, mut seen): (Option<(TyId, Span)>, bool) = (None, false);
        for f in defs {
            if self.type_def_of(f, false).map(|(i, _)| i) != Some(id) {
                continue;
            }
            let (name, params) = {
                let d = &self.decls.funcs[f];
                (d.name, d.ast.params.len())
            };
            for &(callee, args, at) in &calls {
                if callee != name || args.len() != params {
                    continue;
                }
                seen = true;
                let ty = self.define_ext_type(f, args);
                match first {
                    _ if ty == types::ERROR => {}
                    None => first = Some((ty, at)),
                    Some((t, first_at)) if t != ty => {
                        self.push(
                            Diagnostic::error(
                                codes::REDEFINITION,
                                format!("two different definitions of `vk::ext_type<{id}>`"),
                            )
                            .label(at, "defines it again, differently")
                            .label(first_at, "first defined here")
                            .note("each id of `vk::ext_type_def` names one type"),
                        );
                    }
                    Some(_) => {}
                }
            }
        }
        let Some((ty, _)) = first else {
            if seen {
                // Each call that failed was reported.
                return types::ERROR;
            }
            self.push(
                Diagnostic::error(
                    codes::UNKNOWN_TYPE,
                    format!("`vk::ext_type<{id}>` has no definition"),
                )
                .label(span, "no `vk::ext_type_def` call defines this id")
                .note(format!(
                    "call a function declared `[[vk::ext_type_def({id}, opcode)]]` to define it"
                )),
            );
            return types::ERROR;
        };
        self.decls.ext_types.made.insert(id, ty);
        ty
    }

    /// The type one call of the `ext_type_def` function `f` defines.
    fn define_ext_type(&mut self, f: FuncDeclId, args: &'a [ast::Expr]) -> TyId {
        let Some((_, opcode)) = self.type_def_of(f, true) else {
            return types::ERROR;
        };
        let decl = &self.decls.funcs[f];
        let (fattrs, scope) = (&decl.ast.attrs, decl.scope);
        let op_span =
            find_attr(fattrs, Attr::VkExtTypeDef).map_or(decl.ast.name.span, |a| a.args[1].span);
        let Some(sig) = decl.sig.clone() else {
            return types::ERROR;
        };
        if !self.type_opcode(opcode, codes::BAD_ATTRIBUTE, op_span) {
            return types::ERROR;
        }
        let env = Env::at(GLOBAL_SCOPE);
        let mut operands = Vec::with_capacity(args.len());
        for (p, a) in sig.params.iter().zip(args) {
            let literal = find_attr(p.attrs, Attr::VkExtLiteral).is_some();
            let scalar = match self.types.get(p.ty) {
                Ty::Scalar(s) if !s.is_float() => Some(s.concrete()),
                _ => None,
            };
            let reference = find_attr(p.attrs, Attr::VkExtReference).is_some();
            if !literal && (reference || scalar.is_none()) {
                operands.push(SpirvTyOperand::Type(p.ty));
                continue;
            }
            let sc = scalar.unwrap_or(Sc::U32);
            let Ok(v) = self.const_eval(a, &env) else {
                self.push(
                    Diagnostic::error(
                        codes::NOT_CONSTANT,
                        "an argument of a `vk::ext_type_def` function must be a constant",
                    )
                    .label(a.span, "not a compile-time constant")
                    .note("the type's operands are fixed when the module is written"),
                );
                return types::ERROR;
            };
            let v = v.as_i64();
            operands.push(if literal {
                SpirvTyOperand::Literal(sc, v)
            } else {
                SpirvTyOperand::Constant(sc, v)
            });
        }
        self.require_spirv_features(fattrs, &Env::at(scope));
        let t = SpirvTy {
            opcode,
            layout: None,
            operands,
        };
        match self.hlsl_equivalent(&t) {
            Some(ty) => ty,
            None => self.types.intern(Ty::Spirv(Box::new(t))),
        }
    }

    /// The HLSL type a defined SPIR-V type is, if it is one: scalars,
    /// vectors and the acceleration structure.
    fn hlsl_equivalent(&mut self, t: &SpirvTy) -> Option<TyId> {
        use SpirvTyOperand::{Literal, Type};
        let sc = match (spirv::Op::from_u32(t.opcode)?, t.operands.as_slice()) {
            (spirv::Op::TypeBool, []) => Sc::Bool,
            (spirv::Op::TypeInt, &[Literal(_, bits), Literal(_, signed @ (0 | 1))]) => {
                match (bits, signed) {
                    (16, 0) => Sc::U16,
                    (16, _) => Sc::I16,
                    (32, 0) => Sc::U32,
                    (32, _) => Sc::I32,
                    (64, 0) => Sc::U64,
                    (64, _) => Sc::I64,
                    _ => return None,
                }
            }
            (spirv::Op::TypeFloat, &[Literal(_, bits)]) => match bits {
                16 => Sc::F16,
                32 => Sc::F32,
                64 => Sc::F64,
                _ => return None,
            },
            (spirv::Op::TypeVector, &[Type(c), Literal(_, n @ 2..=4)]) => {
                let Ty::Scalar(s) = *self.types.get(c) else {
                    return None;
                };
                return Some(self.types.vector(s, n as u8));
            }
            (spirv::Op::TypeAccelerationStructureKHR, []) => {
                let r = Ty::Resource(ResKind::RaytracingAccelerationStructure, None);
                return Some(self.types.intern(r));
            }
            _ => return None,
        };
        Some(self.types.scalar(sc))
    }
}
