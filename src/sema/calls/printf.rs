//! `printf(format, values…)` (SPIR-V.rst: NonSemantic.DebugPrintf): the
//! format is a string literal or a `string` variable, the values are
//! numeric scalars or vectors.

use crate::diag::codes;
use crate::front::ast;
use crate::ir;
use crate::sema::body::FnCtx;
use crate::sema::body::place::Val;
use crate::sema::types::scope::Sym;
use crate::sema::types::{Sc, Shape};
use crate::span::Span;

impl<'s, 'a> FnCtx<'s, 'a> {
    pub(in crate::sema) fn printf(&mut self, args: &'a [ast::Expr], span: Span) -> Val {
        let Some((first, rest)) = args.split_first() else {
            return self.error(
                codes::NO_MATCHING_OVERLOAD,
                "`printf` needs a format string",
                span,
                "no arguments",
            );
        };
        let format = match &first.kind {
            ast::ExprKind::Literal(ast::Literal::String(s)) => Some(s.as_str().to_string()),
            ast::ExprKind::Name(p) if p.is_single() => {
                match self.s.scopes.lookup(self.fb.scope, p.last().name) {
                    Some(&Sym::Global(g)) => self.s.decls.globals[g].text.clone(),
                    _ => None,
                }
            }
            _ => None,
        };
        let Some(format) = format else {
            let _ = self.lower_args(args);
            return self.error(
                codes::NO_MATCHING_OVERLOAD,
                "the format of `printf` must be a string literal or a `string` variable",
                first.span,
                "not a string",
            );
        };
        let mut values = Vec::with_capacity(rest.len());
        for a in rest {
            let v = self.expr(a);
            if v.is_error() {
                return Val::error();
            }
            let numeric = self.s.types.component(v.ty).is_some_and(|c| c != Sc::Bool)
                && !matches!(self.s.types.shape(v.ty), Some(Shape::Matrix(..)) | None);
            if !numeric {
                let t = self.s.ty_name(v.ty);
                return self.error(
                    codes::NO_MATCHING_OVERLOAD,
                    format!("`printf` prints numbers and vectors of them, not `{t}`"),
                    a.span,
                    "cannot be printed",
                );
            }
            match self.value(&v) {
                Some(h) => values.push(h),
                None => return Val::error(),
            }
        }
        self.stmt(ir::Statement::DebugPrintf {
            format,
            args: values,
        });
        Val::void()
    }
}
