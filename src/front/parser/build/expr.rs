//! Expressions (with their depth) and literals.

use super::*;
use crate::diag::codes;
use crate::front::ast::{self, ExprKind};
use crate::front::parser::MAX_NESTING;
use crate::intern::Symbol;
use crate::span::{Loc, Span};

impl ParseCtx<'_> {
    // ---- expressions ------------------------------------------------------

    /// Makes a node whose deepest child has depth `child_depth`, or an
    /// error node when it would be too deep.
    pub fn node(&self, kind: ExprKind, span: Span, child_depth: u32) -> PExpr {
        if child_depth == POISON {
            return poisoned(span);
        }
        let depth = child_depth + 1;
        if depth > MAX_NESTING as u32 {
            self.push_diag(
                crate::diag::Diagnostic::error(
                    codes::EXPR_TOO_DEEP,
                    "expression too deeply nested",
                )
                .label(
                    span,
                    format!("this expression nests more than {MAX_NESTING} levels deep"),
                )
                .note("split it into several statements with intermediate variables"),
            );
            return poisoned(span);
        }
        PExpr {
            expr: Box::new(ast::Expr { kind, span }),
            depth,
        }
    }

    pub fn leaf(&self, kind: ExprKind, span: Span) -> PExpr {
        PExpr {
            expr: Box::new(ast::Expr { kind, span }),
            depth: 1,
        }
    }

    /// Starts a run of binary operators with its first operand.
    pub fn seq_start(&self, e: PExpr, span: Span) -> BinSeq {
        BinSeq::One(e, span)
    }

    /// Adds `op operand` to a run of binary operators.
    pub fn seq_push(&self, seq: BinSeq, op: ast::BinaryOp, e: PExpr, span: Span) -> BinSeq {
        match seq {
            BinSeq::One(first, first_span) => BinSeq::Two(first, first_span, op, e, span),
            BinSeq::Two(a, a_span, a_op, b, b_span) => {
                // The first operand's operator is never read.
                let mut v = Vec::with_capacity(4);
                v.extend([(a_op, a, a_span), (a_op, b, b_span), (op, e, span)]);
                BinSeq::Many(v)
            }
            BinSeq::Many(mut v) => {
                v.push((op, e, span));
                BinSeq::Many(v)
            }
        }
    }

    /// Builds the tree of a run of binary operators: C precedence, all
    /// left-associative (operator-precedence parsing with two stacks).
    pub fn binary_seq(&self, seq: BinSeq) -> PExpr {
        let items = match seq {
            BinSeq::One(e, _) => return e,
            // `a op b`, the common case: no stacks needed.
            BinSeq::Two(a, a_span, op, b, b_span) => {
                return self.binary(op, a, b, Span::new(a_span.lo, b_span.hi));
            }
            BinSeq::Many(v) => v,
        };
        let mut operands: Vec<(PExpr, Span)> = Vec::with_capacity(items.len());
        let mut ops: Vec<ast::BinaryOp> = Vec::with_capacity(items.len());
        let reduce = |operands: &mut Vec<(PExpr, Span)>, op: ast::BinaryOp| {
            if let (Some((b, bs)), Some((a, as_))) = (operands.pop(), operands.pop()) {
                let span = Span::new(as_.lo, bs.hi);
                operands.push((self.binary(op, a, b, span), span));
            }
        };
        for (i, (op, e, span)) in items.into_iter().enumerate() {
            if i > 0 {
                while let Some(&top) = ops.last() {
                    if precedence(top) < precedence(op) {
                        break;
                    }
                    ops.pop();
                    reduce(&mut operands, top);
                }
                ops.push(op);
            }
            operands.push((e, span));
        }
        while let Some(op) = ops.pop() {
            reduce(&mut operands, op);
        }
        match operands.pop() {
            Some((e, _)) => e,
            None => self.leaf(ExprKind::Error, Span::default()),
        }
    }

    pub fn unary(&self, op: ast::UnaryOp, e: PExpr, span: Span) -> PExpr {
        let d = e.depth;
        self.node(ExprKind::Unary(op, e.expr), span, d)
    }

    pub fn binary(&self, op: ast::BinaryOp, a: PExpr, b: PExpr, span: Span) -> PExpr {
        let d = deeper(a.depth, b.depth);
        self.node(ExprKind::Binary(op, a.expr, b.expr), span, d)
    }

    pub fn assign(&self, op: Option<ast::BinaryOp>, a: PExpr, b: PExpr, span: Span) -> PExpr {
        let d = deeper(a.depth, b.depth);
        self.node(ExprKind::Assign(op, a.expr, b.expr), span, d)
    }

    pub fn ternary(&self, c: PExpr, a: PExpr, b: PExpr, span: Span) -> PExpr {
        let d = deeper(c.depth, deeper(a.depth, b.depth));
        self.node(ExprKind::Ternary(c.expr, a.expr, b.expr), span, d)
    }

    pub fn comma(&self, a: PExpr, b: PExpr, span: Span) -> PExpr {
        let d = deeper(a.depth, b.depth);
        self.node(ExprKind::Comma(a.expr, b.expr), span, d)
    }

    pub fn cast(&self, ty: Box<ast::TypeSpec>, e: PExpr, span: Span) -> PExpr {
        let d = e.depth;
        self.node(ExprKind::Cast(ty, e.expr), span, d)
    }

    pub fn construct(&self, ty: Box<ast::TypeSpec>, args: (Vec<ast::Expr>, u32), span: Span) -> PExpr {
        let (args, d) = args;
        self.node(ExprKind::Construct(ty, args.into_boxed_slice()), span, d)
    }

    /// `v<int, bool>` where `v` is a variable template: the static member
    /// of the struct template it stands for ([`VAR_TEMPLATE_MEMBER`]).
    pub fn var_template_use(
        &self,
        template: ast::Path,
        args: Vec<ast::TemplateArg>,
        span: Span,
    ) -> PExpr {
        let ty = self.named_type(template, Some(args), span);
        let mut path = self.type_qualifier(ty);
        path.segments.push(ast::Ident {
            name: Symbol::intern(VAR_TEMPLATE_MEMBER),
            span,
        });
        self.leaf(ExprKind::Name(path), span)
    }

    pub fn call(
        &self,
        callee: ast::Path,
        template_args: Option<Vec<ast::TemplateArg>>,
        args: (Vec<ast::Expr>, u32),
        span: Span,
    ) -> PExpr {
        let (args, d) = args;
        if callee.is_single() && callee.last().name == self.get_attribute_at_vertex {
            self.vertex_attribute_call.set(true);
        }
        self.node(
            ExprKind::Call(Box::new(ast::CallExpr {
                callee,
                template_args: template_args.map(Vec::into_boxed_slice),
                args: args.into_boxed_slice(),
            })),
            span,
            d,
        )
    }

    pub fn method_call(
        &self,
        object: PExpr,
        method: ast::Ident,
        template_args: Option<Vec<ast::TemplateArg>>,
        args: (Vec<ast::Expr>, u32),
        span: Span,
    ) -> PExpr {
        let (args, d) = args;
        let d = deeper(d, object.depth);
        self.node(
            ExprKind::MethodCall {
                object: object.expr,
                method,
                template_args: template_args.map(Vec::into_boxed_slice),
                args: args.into_boxed_slice(),
            },
            span,
            d,
        )
    }

    pub fn member(&self, object: PExpr, field: ast::Ident, span: Span) -> PExpr {
        let d = object.depth;
        self.node(ExprKind::Member(object.expr, field), span, d)
    }

    pub fn index(&self, object: PExpr, index: PExpr, span: Span) -> PExpr {
        let d = deeper(object.depth, index.depth);
        self.node(ExprKind::Index(object.expr, index.expr), span, d)
    }

    pub fn init_list(&self, items: Vec<(Box<ast::Initializer>, u32)>, span: Span) -> PExpr {
        let d = items.iter().map(|i| i.1).max().unwrap_or(0);
        let items = items.into_iter().map(|i| *i.0).collect();
        self.node(ExprKind::InitList(items), span, d)
    }

    pub fn sizeof_expr(&self, e: PExpr, span: Span) -> PExpr {
        let d = e.depth;
        self.node(ExprKind::SizeOfExpr(e.expr), span, d)
    }

    // ---- literals ---------------------------------------------------------

    /// An integer literal: decimal, `0x` hex or `0` octal, with `u`/`l`/`ll`
    /// suffixes in any case and order.
    pub fn int_lit(&self, text: Symbol, span: Span) -> PExpr {
        let s = text.as_str();
        if let Some(value) = plain_decimal(s) {
            // Most literals (`0`, `1`, `16`): no suffix, no radix prefix.
            return self.leaf(
                ExprKind::Literal(ast::Literal::Int {
                    value,
                    suffix: ast::IntSuffix::None,
                }),
                span,
            );
        }
        let digits_end = s
            .bytes()
            .rposition(|b| !matches!(b, b'u' | b'U' | b'l' | b'L'))
            .map_or(0, |i| i + 1);
        let (digits, suffix) = s.split_at(digits_end);
        let has_u = suffix.bytes().any(|b| matches!(b, b'u' | b'U'));
        let has_l = suffix.bytes().any(|b| matches!(b, b'l' | b'L'));
        let suffix = match (has_u, has_l) {
            (false, false) => ast::IntSuffix::None,
            (true, false) => ast::IntSuffix::U,
            (false, true) => ast::IntSuffix::L,
            (true, true) => ast::IntSuffix::UL,
        };
        let (radix, body) = crate::front::int_radix(digits);
        let parsed = match short_decimal(radix, body) {
            Some(v) => Ok(v),
            None => u64::from_str_radix(body, radix),
        };
        let value = match parsed {
            Ok(v) => v,
            Err(e) => {
                let too_large = matches!(e.kind(), std::num::IntErrorKind::PosOverflow);
                if too_large {
                    self.error(
                        codes::BAD_LITERAL,
                        span,
                        "integer literal is too large",
                        "does not fit in 64 bits",
                    );
                } else {
                    self.error(
                        codes::BAD_LITERAL,
                        span,
                        "invalid digit in integer literal",
                        if radix == 8 {
                            "a literal starting with `0` is octal"
                        } else {
                            "invalid digit"
                        },
                    );
                }
                0
            }
        };
        self.leaf(ExprKind::Literal(ast::Literal::Int { value, suffix }), span)
    }

    /// A floating-point literal: the digits as written, and the suffix.
    pub fn float_lit(&self, text: Symbol, span: Span) -> PExpr {
        // The text keeps its suffix: interning the digits alone as well cost
        // a second lookup per literal.
        let suffix = match text.as_str().as_bytes().last() {
            Some(b'f' | b'F') => ast::FloatSuffix::F,
            Some(b'h' | b'H') => ast::FloatSuffix::H,
            Some(b'l' | b'L') => ast::FloatSuffix::L,
            _ => ast::FloatSuffix::None,
        };
        self.leaf(
            ExprKind::Literal(ast::Literal::Float { text, suffix }),
            span,
        )
    }

    /// Adjacent string literals, concatenated, escapes processed.
    pub fn string_lit(&self, parts: Vec<(Loc, Symbol, Loc)>, span: Span) -> PExpr {
        let mut out = String::new();
        for (l, s, r) in parts {
            let t = s.as_str();
            let inner = t
                .strip_prefix('"')
                .and_then(|t| t.strip_suffix('"'))
                .unwrap_or(t);
            self.unescape(inner, sp(l, r), &mut out);
        }
        // Every string HLSL has ends up a SPIR-V string (a `printf` format,
        // an extension or instruction set name, a decoration), which ends
        // at its first NUL.
        if out.contains('\0') {
            self.error(
                codes::BAD_LITERAL,
                span,
                "a string cannot hold a NUL character (a SPIR-V string ends at the first one)",
                "here",
            );
            out = out.replace('\0', "");
        }
        self.leaf(
            ExprKind::Literal(ast::Literal::String(Symbol::intern(&out))),
            span,
        )
    }

    /// `'a'`: an integer with the character's value.
    pub fn char_lit(&self, text: Symbol, span: Span) -> PExpr {
        let t = text.as_str();
        let inner = t
            .strip_prefix('\'')
            .and_then(|t| t.strip_suffix('\''))
            .unwrap_or(t);
        let mut s = String::new();
        self.unescape(inner, span, &mut s);
        let mut chars = s.chars();
        let value = match (chars.next(), chars.next()) {
            (Some(c), None) => c as u64,
            _ => {
                self.error(
                    codes::BAD_LITERAL,
                    span,
                    "a character literal must hold exactly one character",
                    "here",
                );
                0
            }
        };
        self.leaf(
            ExprKind::Literal(ast::Literal::Int {
                value,
                suffix: ast::IntSuffix::None,
            }),
            span,
        )
    }

    fn unescape(&self, s: &str, span: Span, out: &mut String) {
        let mut it = s.chars();
        while let Some(c) = it.next() {
            if c != '\\' {
                out.push(c);
                continue;
            }
            match it.next() {
                Some('n') => out.push('\n'),
                Some('t') => out.push('\t'),
                Some('r') => out.push('\r'),
                Some('0') => out.push('\0'),
                Some('a') => out.push('\x07'),
                Some('b') => out.push('\x08'),
                Some('f') => out.push('\x0C'),
                Some('v') => out.push('\x0B'),
                Some(c @ ('\\' | '"' | '\'' | '?')) => out.push(c),
                Some(c) => {
                    self.warn(
                        codes::UNKNOWN_ESCAPE,
                        span,
                        &format!("unknown escape sequence `\\{c}`"),
                        "in this literal",
                    );
                    out.push(c);
                }
                None => out.push('\\'),
            }
        }
    }
}

/// Binding strength of a binary operator (higher binds tighter).
fn precedence(op: ast::BinaryOp) -> u8 {
    use ast::BinaryOp::*;
    match op {
        Mul | Div | Rem => 10,
        Add | Sub => 9,
        Shl | Shr => 8,
        Lt | Gt | Le | Ge => 7,
        Eq | Ne => 6,
        BitAnd => 5,
        BitXor => 4,
        BitOr => 3,
        LogicalAnd => 2,
        LogicalOr => 1,
    }
}

/// The value of a literal that is only decimal digits, at most 19 and not
/// starting with `0` unless it is `0` (octal): what the general path of
/// [`ParseCtx::int_lit`] gives it, without its scans for a suffix and a
/// radix.
fn plain_decimal(s: &str) -> Option<u64> {
    let b = s.as_bytes();
    if b.len() > 1 && b[0] == b'0' {
        return None;
    }
    short_decimal(10, s)
}

/// The value of a decimal literal of at most 19 digits (most literals),
/// which cannot overflow `u64`: a plain loop, cheaper than the general
/// `from_str_radix`, which handles the rest (and reports their errors).
fn short_decimal(radix: u32, body: &str) -> Option<u64> {
    if radix != 10 || body.is_empty() || body.len() > 19 {
        return None;
    }
    body.bytes().try_fold(0u64, |v, b| {
        b.is_ascii_digit().then(|| v * 10 + u64::from(b - b'0'))
    })
}
