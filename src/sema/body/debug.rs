//! Source-level debug information (`-Zi`): the `Statement::Debug` markers
//! sema writes into bodies, for the backend's NonSemantic.Shader.DebugInfo.100
//! (a line per statement, `{}` scopes, local variables and parameters).
//! Without debug information nothing is written, so the IR, and the
//! SPIR-V, stay as they are.

use crate::ir;
use crate::sema::body::FnCtx;
use crate::span::Span;

impl<'s, 'a> FnCtx<'s, 'a> {
    /// Whether source-level debug information is asked for.
    pub fn debug_info(&self) -> bool {
        self.s.opts.debug_info
    }

    fn debug(&mut self, info: ir::DebugInfo) {
        if self.debug_info() {
            self.stmt(ir::Statement::Debug(info));
        }
    }

    /// The code that follows comes from `span` (a statement, a loop's
    /// condition or step).
    pub fn debug_line(&mut self, span: Span) {
        self.debug(ir::DebugInfo::Line(span));
    }

    /// A `{}` block starts.
    pub fn debug_begin_block(&mut self, span: Span) {
        self.debug(ir::DebugInfo::Begin(ir::DebugScope::Lexical(span)));
    }

    /// The `{}` block started last ends (after a `return` or `break` the
    /// end of the IR block ends it: nothing may follow a terminator).
    pub fn debug_end_block(&mut self) {
        if !self.terminated() {
            self.debug(ir::DebugInfo::End);
        }
    }

    /// Variable `name` declared at `span` is `value`: a pointer to the
    /// local holding it, or its value; `arg` numbers a parameter.
    pub fn debug_variable(
        &mut self,
        value: ir::Handle<ir::Expression>,
        name: &str,
        span: Span,
        arg: Option<u32>,
    ) {
        if self.debug_info() {
            self.debug(ir::DebugInfo::Variable {
                value,
                name: name.to_string(),
                span,
                arg,
            });
        }
    }
}
