//! Debug information in function bodies: `DebugFunctionDefinition`, the
//! `DebugScope` of the code (the function, a `{}` block, a function inlined
//! at a call with its `DebugInlinedAt`), a `DebugLine` per statement, and
//! `DebugLocalVariable`s with their `DebugDeclare` or `DebugValue`.
//!
//! A `DebugScope` or `DebugLine` holds until the next one or the end of
//! its SPIR-V block (NonSemantic.Shader.DebugInfo.100), so both are
//! written again after every label.

use super::table::{self, DebugOp};
use super::{DebugLoc, function_signature};
use crate::back::spv::BackResult;
use crate::back::spv::function::{FunctionWriter, Value};
use crate::ir::{DebugInfo, DebugScope, Expression, Handle};
use crate::span::Span;
use spirv::{StorageClass, Word};

/// One open scope: the debug scope and where it is inlined.
#[derive(Clone, Copy, Debug)]
struct Scope {
    scope: Word,
    inlined: Option<Word>,
}

/// The debug state of the function being written.
#[derive(Clone, Debug)]
pub(in crate::back::spv) struct BodyDebug {
    /// The open scopes, the function's own first.
    scopes: Vec<Scope>,
    /// Scopes opened before the IR block being written; an `End` there
    /// closes only scopes the block opened.
    base: usize,
    /// Where the code being written comes from.
    line: Option<DebugLoc>,
}

/// What `debug_enter_block` saves for `debug_leave_block`.
pub(in crate::back::spv) struct SavedScope {
    base: usize,
    line: Option<DebugLoc>,
}

impl FunctionWriter<'_, '_> {
    /// Starts the function's debug information in its first block: its
    /// `DebugScope` and `DebugFunctionDefinition`. Nothing without debug
    /// information, or for a function without source.
    pub(in crate::back::spv) fn debug_begin_function(&mut self, id: Word) -> BackResult<()> {
        if self.w.debug.is_none() || self.fun.span.is_dummy() {
            return Ok(());
        }
        let fun = self.fun;
        let Some(dbg_fn) =
            self.w
                .debug_function(&fun.name, fun.span, Some(function_signature(fun)))
        else {
            return Ok(());
        };
        self.debug = Some(BodyDebug {
            scopes: vec![Scope {
                scope: dbg_fn,
                inlined: None,
            }],
            base: 1,
            line: None,
        });
        self.debug_write_scope()?;
        let def = self
            .w
            .debug_instruction(DebugOp::FunctionDefinition, &[dbg_fn, id]);
        self.emit(def)
    }

    /// After a label: the scope and line that hold here.
    pub(in crate::back::spv) fn debug_after_label(&mut self) -> BackResult<()> {
        if self.debug.is_none() {
            return Ok(());
        }
        self.debug_write_scope()?;
        self.debug_write_line()
    }

    /// An IR block starts: scopes it opens end with it.
    pub(in crate::back::spv) fn debug_enter_block(&mut self) -> Option<SavedScope> {
        let d = self.debug.as_mut()?;
        let saved = SavedScope {
            base: d.base,
            line: d.line,
        };
        d.base = d.scopes.len();
        Some(saved)
    }

    /// The IR block ends: the scopes it opened close, and the code after
    /// it belongs to the statement the block is part of.
    pub(in crate::back::spv) fn debug_leave_block(
        &mut self,
        saved: Option<SavedScope>,
    ) -> BackResult<()> {
        let (Some(saved), Some(d)) = (saved, self.debug.as_mut()) else {
            return Ok(());
        };
        let closed = d.scopes.len() > d.base;
        d.scopes.truncate(d.base.max(1));
        d.base = saved.base;
        d.line = saved.line;
        if self.current.is_some() {
            if closed {
                self.debug_write_scope()?;
            }
            self.debug_write_line()?;
        }
        Ok(())
    }

    /// A `Statement::Debug`.
    pub(in crate::back::spv) fn write_debug(&mut self, info: &DebugInfo) -> BackResult<()> {
        if self.debug.is_none() {
            return Ok(());
        }
        match info {
            DebugInfo::Line(span) => {
                let loc = self.w.debug_loc(*span);
                if let (Some(loc), Some(d)) = (loc, self.debug.as_mut()) {
                    d.line = Some(loc);
                    self.debug_write_line()?;
                }
                Ok(())
            }
            DebugInfo::Begin(DebugScope::Lexical(span)) => self.debug_lexical_block(*span),
            DebugInfo::Begin(DebugScope::Inlined {
                function,
                decl,
                call,
            }) => self.debug_inlined(function, *decl, *call),
            DebugInfo::End => {
                let Some(d) = self.debug.as_mut() else {
                    return Ok(());
                };
                if d.scopes.len() > d.base.max(1) {
                    d.scopes.pop();
                    self.debug_write_scope()?;
                }
                Ok(())
            }
            DebugInfo::Variable {
                value,
                name,
                span,
                arg,
            } => self.debug_variable(*value, name, *span, *arg),
        }
    }

    fn top_scope(&self) -> Option<Scope> {
        self.debug.as_ref().and_then(|d| d.scopes.last().copied())
    }

    fn push_scope(&mut self, scope: Scope) -> BackResult<()> {
        if let Some(d) = self.debug.as_mut() {
            d.scopes.push(scope);
        }
        self.debug_write_scope()
    }

    /// `DebugLexicalBlock` of a `{}` in the current scope.
    fn debug_lexical_block(&mut self, span: Span) -> BackResult<()> {
        let (Some(top), Some(loc)) = (self.top_scope(), self.w.debug_loc(span)) else {
            return Ok(());
        };
        let line = self.w.const_u32(loc.line);
        let column = self.w.const_u32(loc.column);
        let block = self.w.debug_inst(
            DebugOp::LexicalBlock,
            &[loc.source, line, column, top.scope],
        );
        self.push_scope(Scope {
            scope: block,
            inlined: top.inlined,
        })
    }

    /// The body of `function` inlined at `call`: its `DebugFunction`, and
    /// a `DebugInlinedAt` of the call's line in the current scope.
    fn debug_inlined(&mut self, function: &str, decl: Span, call: Span) -> BackResult<()> {
        let Some(top) = self.top_scope() else {
            return Ok(());
        };
        let line = match self.w.debug_loc(call) {
            Some(loc) => loc.line,
            None => self
                .debug
                .as_ref()
                .and_then(|d| d.line)
                .map_or(1, |l| l.line),
        };
        let ir = self.w.ir;
        let signature = ir
            .functions
            .iter()
            .find(|(_, f)| f.name == function && f.span == decl)
            .map(|(_, f)| function_signature(f));
        let Some(callee) = self.w.debug_function(function, decl, signature) else {
            return Ok(());
        };
        let line = self.w.const_u32(line);
        let mut ops = vec![line, top.scope];
        ops.extend(top.inlined);
        let inlined = self.w.debug_inst(DebugOp::InlinedAt, &ops);
        self.push_scope(Scope {
            scope: callee,
            inlined: Some(inlined),
        })
    }

    /// A source variable: `DebugLocalVariable` in the current scope, and
    /// `DebugDeclare` of the function variable holding it or `DebugValue`
    /// of its value. Nothing for what has no debug type (resources) or is
    /// no longer a whole variable (an `out` argument into a member).
    fn debug_variable(
        &mut self,
        value: Handle<Expression>,
        name: &str,
        span: Span,
        arg: Option<u32>,
    ) -> BackResult<()> {
        let Some(top) = self.top_scope() else {
            return Ok(());
        };
        let (ty, op, id) = match self.values.get(value.index()) {
            Some(&Value::Pointer(i)) => match self.pointer_at(i) {
                Ok(p) if p.indices.is_empty() && p.class == StorageClass::Function => {
                    (p.pointee, DebugOp::Declare, p.root)
                }
                _ => return Ok(()),
            },
            None => return Ok(()),
            Some(Value::Id(_)) | Some(Value::None) => {
                let ty = self.expr_type(value)?;
                match self.value(value) {
                    Ok(id) => (ty, DebugOp::Value, id),
                    Err(_) => return Ok(()),
                }
            }
        };
        let Some(debug_ty) = self.w.debug_type(ty) else {
            return Ok(());
        };
        let loc = self
            .w
            .debug_loc(span)
            .or_else(|| self.debug.as_ref().and_then(|d| d.line));
        let Some(loc) = loc else {
            return Ok(());
        };
        let name = self.w.debug_string(name);
        let line = self.w.const_u32(loc.line);
        let column = self.w.const_u32(loc.column);
        let flags = self.w.const_u32(table::flags::LOCAL);
        let mut ops = vec![name, debug_ty, loc.source, line, column, top.scope, flags];
        if let Some(n) = arg {
            ops.push(self.w.const_u32(n));
        }
        let known = self
            .w
            .debug
            .as_ref()
            .and_then(|d| d.local_variables.get(&ops).copied());
        let var = match known {
            Some(var) => var,
            None => {
                let var = self.w.debug_inst(DebugOp::LocalVariable, &ops);
                if let Some(d) = self.w.debug.as_mut() {
                    d.local_variables.insert(ops, var);
                }
                var
            }
        };
        let expression = self.w.debug_expression();
        let inst = self.w.debug_instruction(op, &[var, id, expression]);
        self.emit(inst)
    }

    fn debug_write_scope(&mut self) -> BackResult<()> {
        let Some(top) = self.top_scope() else {
            return Ok(());
        };
        let mut ops = vec![top.scope];
        ops.extend(top.inlined);
        let inst = self.w.debug_instruction(DebugOp::Scope, &ops);
        self.emit(inst)
    }

    fn debug_write_line(&mut self) -> BackResult<()> {
        let Some(loc) = self.debug.as_ref().and_then(|d| d.line) else {
            return Ok(());
        };
        let ops = [
            loc.source,
            self.w.const_u32(loc.line),
            self.w.const_u32(loc.end_line),
            self.w.const_u32(loc.column),
            self.w.const_u32(loc.end_column),
        ];
        let inst = self.w.debug_instruction(DebugOp::Line, &ops);
        self.emit(inst)
    }
}
