//! `#if` expressions: C's integer constant expressions (C99 6.10.1), computed
//! in `intmax_t`/`uintmax_t` (64 bits) as clang and DXC do.
//!
//! The caller has already macro-expanded the line and replaced every
//! `defined X` by `1` or `0`; an identifier left over is `0`, except the C++
//! keyword `true` which is `1` (clang's rule, so DXC's). Operands follow the
//! usual arithmetic conversions: if either side is unsigned both are;
//! comparisons and logical operators give a signed `0`/`1`. Signed overflow
//! wraps (clang warns, it does not fail). Division by zero is an error only
//! where the operand is evaluated (`0 && 1 / 0` is fine).

use crate::diag::{Code, codes};
use crate::front::lexer::{PpToken, Token};
use crate::span::Span;

/// The deepest nesting of parentheses, unary operators and `?:` accepted.
/// Bounds the evaluator's recursion (clang's default bracket depth is 256).
pub const MAX_DEPTH: u32 = 256;

/// An `#if` expression's value: 64 bits, signed or unsigned.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Value {
    pub bits: u64,
    pub unsigned: bool,
}

impl Value {
    fn signed(v: i64) -> Value {
        Value {
            bits: v as u64,
            unsigned: false,
        }
    }
    fn boolean(b: bool) -> Value {
        Value::signed(i64::from(b))
    }
    pub fn is_true(self) -> bool {
        self.bits != 0
    }
    fn as_i64(self) -> i64 {
        self.bits as i64
    }
}

/// Why an expression could not be evaluated.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExprError {
    pub span: Span,
    pub message: String,
    /// A short label for the primary span.
    pub label: &'static str,
    pub code: Code,
}

/// Evaluates the tokens of an `#if`/`#elif` line. `end` is where "expected a
/// value" points when the line stops early (the end of the directive).
pub fn evaluate(tokens: &[PpToken], end: Span) -> Result<Value, ExprError> {
    let mut p = Parser {
        toks: tokens,
        pos: 0,
        end,
        depth: 0,
    };
    if tokens.is_empty() {
        return Err(p.error_at(
            end,
            "expected an expression after the directive",
            "expected a value",
        ));
    }
    let v = p.expr(true)?;
    if let Some(t) = p.peek() {
        let message = if t.kind == Token::RParen {
            "unmatched ')' in preprocessor expression".to_string()
        } else {
            format!(
                "'{}' is not a valid operator in a preprocessor expression",
                t.sym.as_str()
            )
        };
        return Err(p.error_at(t.span, message, "unexpected token"));
    }
    Ok(v)
}

struct Parser<'a> {
    toks: &'a [PpToken],
    pos: usize,
    end: Span,
    depth: u32,
}

/// Binary operators and their precedence (higher binds tighter).
fn binary_precedence(t: Token) -> Option<u8> {
    use Token::*;
    Some(match t {
        Star | Slash | Percent => 10,
        Plus | Minus => 9,
        Shl | Shr => 8,
        Lt | Gt | LtEq | GtEq => 7,
        EqEq | NotEq => 6,
        Amp => 5,
        Caret => 4,
        Pipe => 3,
        AmpAmp => 2,
        PipePipe => 1,
        _ => return None,
    })
}

impl<'a> Parser<'a> {
    fn peek(&self) -> Option<&'a PpToken> {
        self.toks.get(self.pos)
    }

    fn error_at(&self, span: Span, message: impl Into<String>, label: &'static str) -> ExprError {
        ExprError {
            span,
            message: message.into(),
            label,
            code: codes::PP_BAD_EXPRESSION,
        }
    }

    /// Enters one level of nesting (parenthesis, unary operator, `?:`).
    fn enter(&mut self, at: Span) -> Result<(), ExprError> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(self.error_at(
                at,
                format!("preprocessor expression nested too deeply (more than {MAX_DEPTH} levels)"),
                "too deep",
            ));
        }
        Ok(())
    }

    /// `expr , expr` (C allows the comma operator in `#if` as an extension
    /// clang accepts).
    fn expr(&mut self, live: bool) -> Result<Value, ExprError> {
        let mut v = self.conditional(live)?;
        while self.peek().is_some_and(|t| t.kind == Token::Comma) {
            self.pos += 1;
            v = self.conditional(live)?;
        }
        Ok(v)
    }

    fn conditional(&mut self, live: bool) -> Result<Value, ExprError> {
        let cond = self.binary(0, live)?;
        let Some(q) = self.peek().filter(|t| t.kind == Token::Question) else {
            return Ok(cond);
        };
        self.enter(q.span)?;
        self.pos += 1;
        let then = self.expr(live && cond.is_true())?;
        match self.peek() {
            Some(t) if t.kind == Token::Colon => self.pos += 1,
            Some(t) => {
                return Err(self.error_at(
                    t.span,
                    format!(
                        "expected ':' in '?:' expression, found '{}'",
                        t.sym.as_str()
                    ),
                    "expected ':'",
                ));
            }
            None => {
                return Err(self.error_at(
                    self.end,
                    "expected ':' to complete the '?:' expression",
                    "expected ':'",
                ));
            }
        }
        let otherwise = self.conditional(live && !cond.is_true())?;
        self.depth -= 1;
        let unsigned = then.unsigned || otherwise.unsigned;
        let v = if cond.is_true() { then } else { otherwise };
        Ok(Value {
            bits: v.bits,
            unsigned,
        })
    }

    /// Precedence climbing over the left-associative binary operators.
    fn binary(&mut self, min_prec: u8, live: bool) -> Result<Value, ExprError> {
        let mut lhs = self.unary(live)?;
        while let Some(op) = self.peek() {
            let Some(prec) = binary_precedence(op.kind) else {
                break;
            };
            if prec < min_prec {
                break;
            }
            self.pos += 1;
            let rhs_live = match op.kind {
                Token::AmpAmp => live && lhs.is_true(),
                Token::PipePipe => live && !lhs.is_true(),
                _ => live,
            };
            let rhs = self.binary(prec + 1, rhs_live)?;
            lhs = self.apply(op, lhs, rhs, live)?;
        }
        Ok(lhs)
    }

    fn apply(&self, op: &PpToken, l: Value, r: Value, live: bool) -> Result<Value, ExprError> {
        use Token::*;
        let unsigned = l.unsigned || r.unsigned;
        let arith = |bits: u64| Value { bits, unsigned };
        let order = if unsigned {
            l.bits.cmp(&r.bits)
        } else {
            l.as_i64().cmp(&r.as_i64())
        };
        Ok(match op.kind {
            Star => arith(l.bits.wrapping_mul(r.bits)),
            Slash | Percent => {
                if r.bits == 0 {
                    if live {
                        return Err(ExprError {
                            span: op.span,
                            message: format!(
                                "{} by zero in preprocessor expression",
                                if op.kind == Slash {
                                    "division"
                                } else {
                                    "remainder"
                                }
                            ),
                            label: "the right operand is zero",
                            code: codes::PP_DIVISION_BY_ZERO,
                        });
                    }
                    arith(0)
                } else if unsigned {
                    arith(if op.kind == Slash {
                        l.bits / r.bits
                    } else {
                        l.bits % r.bits
                    })
                } else {
                    let (a, b) = (l.as_i64(), r.as_i64());
                    arith(if op.kind == Slash {
                        a.wrapping_div(b) as u64
                    } else {
                        a.wrapping_rem(b) as u64
                    })
                }
            }
            Plus => arith(l.bits.wrapping_add(r.bits)),
            Minus => arith(l.bits.wrapping_sub(r.bits)),
            // The result of a shift has the type of its left operand; a shift
            // by the width or more (or by a negative amount) gives 0, or -1
            // for a right shift of a negative signed value.
            Shl | Shr => {
                let amount = if r.unsigned || r.as_i64() >= 0 {
                    r.bits
                } else {
                    u64::MAX
                };
                let bits = if op.kind == Shl {
                    if amount >= 64 { 0 } else { l.bits << amount }
                } else if l.unsigned {
                    if amount >= 64 { 0 } else { l.bits >> amount }
                } else {
                    (l.as_i64() >> amount.min(63)) as u64
                };
                Value {
                    bits,
                    unsigned: l.unsigned,
                }
            }
            Lt => Value::boolean(order.is_lt()),
            Gt => Value::boolean(order.is_gt()),
            LtEq => Value::boolean(order.is_le()),
            GtEq => Value::boolean(order.is_ge()),
            EqEq => Value::boolean(l.bits == r.bits),
            NotEq => Value::boolean(l.bits != r.bits),
            Amp => arith(l.bits & r.bits),
            Caret => arith(l.bits ^ r.bits),
            Pipe => arith(l.bits | r.bits),
            AmpAmp => Value::boolean(l.is_true() && r.is_true()),
            PipePipe => Value::boolean(l.is_true() || r.is_true()),
            _ => {
                return Err(self.error_at(op.span, "not a binary operator", "here"));
            }
        })
    }

    fn unary(&mut self, live: bool) -> Result<Value, ExprError> {
        let Some(t) = self.peek() else {
            return Err(self.error_at(
                self.end,
                "expected a value in preprocessor expression",
                "expected a value",
            ));
        };
        match t.kind {
            Token::Plus | Token::Minus | Token::Tilde | Token::Bang => {
                self.enter(t.span)?;
                self.pos += 1;
                let v = self.unary(live)?;
                self.depth -= 1;
                Ok(match t.kind {
                    Token::Plus => v,
                    Token::Minus => Value {
                        bits: v.bits.wrapping_neg(),
                        unsigned: v.unsigned,
                    },
                    Token::Tilde => Value {
                        bits: !v.bits,
                        unsigned: v.unsigned,
                    },
                    _ => Value::boolean(!v.is_true()),
                })
            }
            Token::LParen => {
                self.enter(t.span)?;
                self.pos += 1;
                let v = self.expr(live)?;
                match self.peek() {
                    Some(c) if c.kind == Token::RParen => self.pos += 1,
                    Some(c) => {
                        return Err(self.error_at(
                            c.span,
                            format!(
                                "expected ')' in preprocessor expression, found '{}'",
                                c.sym.as_str()
                            ),
                            "expected ')'",
                        ));
                    }
                    None => {
                        return Err(ExprError {
                            span: t.span,
                            message: "missing ')' in preprocessor expression".into(),
                            label: "this '(' is not closed",
                            code: codes::PP_BAD_EXPRESSION,
                        });
                    }
                }
                self.depth -= 1;
                Ok(v)
            }
            Token::IntLit => {
                self.pos += 1;
                parse_int(t.sym.as_str()).map_err(|m| self.error_at(t.span, m, "invalid literal"))
            }
            Token::CharLit => {
                self.pos += 1;
                parse_char(t.sym.as_str()).map_err(|m| self.error_at(t.span, m, "invalid literal"))
            }
            Token::True => {
                self.pos += 1;
                Ok(Value::signed(1))
            }
            k if k.is_ident_like() => {
                // C99 6.10.1p4: identifiers left after expansion are 0.
                self.pos += 1;
                Ok(Value::signed(0))
            }
            Token::FloatLit => Err(self.error_at(
                t.span,
                "floating-point literal in preprocessor expression",
                "only integers are allowed here",
            )),
            Token::StringLit => Err(self.error_at(
                t.span,
                "string literal in preprocessor expression",
                "only integers are allowed here",
            )),
            _ => Err(self.error_at(
                t.span,
                format!(
                    "expected a value in preprocessor expression, found '{}'",
                    t.sym.as_str()
                ),
                "expected a value",
            )),
        }
    }
}

/// Parses a C integer literal: decimal, `0x` hex or `0` octal with `u`/`l`
/// suffixes. A value that does not fit `intmax_t` is unsigned (C99 6.4.4.1).
pub fn parse_int(text: &str) -> Result<Value, String> {
    let digits_end = text.find(['u', 'U', 'l', 'L']).unwrap_or(text.len());
    let (digits, suffix) = text.split_at(digits_end);
    let unsigned_suffix = suffix.contains(['u', 'U']);
    let (radix, body) = crate::front::int_radix(digits);
    let mut v: u64 = 0;
    for c in body.chars() {
        let d = c.to_digit(radix).ok_or_else(|| {
            if radix == 8 {
                format!("invalid digit '{c}' in octal constant")
            } else {
                format!("invalid digit '{c}' in integer constant")
            }
        })?;
        v = v
            .checked_mul(u64::from(radix))
            .and_then(|v| v.checked_add(u64::from(d)))
            .ok_or_else(|| format!("integer literal '{text}' is too large for 64 bits"))?;
    }
    Ok(Value {
        bits: v,
        unsigned: unsigned_suffix || v > i64::MAX as u64,
    })
}

/// The value of a character literal: its characters' codes, the first in the
/// highest byte for multi-character literals (as clang does).
pub fn parse_char(text: &str) -> Result<Value, String> {
    let inner = text
        .strip_prefix('\'')
        .and_then(|s| s.strip_suffix('\''))
        .ok_or_else(|| "malformed character literal".to_string())?;
    if inner.is_empty() {
        return Err("empty character constant".into());
    }
    let mut v: u64 = 0;
    let mut it = inner.chars().peekable();
    while let Some(c) = it.next() {
        let code: u64 = if c == '\\' {
            match it.next() {
                Some('n') => 10,
                Some('t') => 9,
                Some('r') => 13,
                Some('a') => 7,
                Some('b') => 8,
                Some('f') => 12,
                Some('v') => 11,
                Some(d @ '0'..='7') => {
                    // Up to three octal digits.
                    let mut n = u64::from(d as u8 - b'0');
                    for _ in 0..2 {
                        match it.peek().and_then(|c| c.to_digit(8)) {
                            Some(d) => {
                                n = (n << 3) | u64::from(d);
                                it.next();
                            }
                            None => break,
                        }
                    }
                    n
                }
                Some('x') => {
                    let mut n: u64 = 0;
                    let mut any = false;
                    while let Some(d) = it.peek().and_then(|c| c.to_digit(16)) {
                        n = (n << 4) | u64::from(d);
                        any = true;
                        it.next();
                    }
                    if !any {
                        return Err("\\x used with no following hex digits".into());
                    }
                    n
                }
                Some(other) => other as u64,
                None => return Err("malformed character literal".into()),
            }
        } else {
            c as u64
        };
        v = (v << 8) | (code & 0xFF);
    }
    Ok(Value::signed(v as i64))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::front::lexer::lex;
    use crate::intern::Symbol;

    /// Lexes `s` into tokens whose spans are their byte offsets plus one.
    fn toks(s: &str) -> Vec<PpToken> {
        let (raw, errors) = lex(s);
        assert!(errors.is_empty(), "{s}");
        raw.iter()
            .map(|t| PpToken {
                kind: t.kind,
                sym: Symbol::intern(&s[t.start as usize..t.end as usize]),
                span: Span::from(t.start + 1..t.end + 1),
                flags: 0,
            })
            .collect()
    }

    fn eval(s: &str) -> Result<Value, ExprError> {
        evaluate(&toks(s), Span::from(100..100))
    }

    fn signed(s: &str) -> i64 {
        let v = eval(s).unwrap_or_else(|e| panic!("{s}: {}", e.message));
        assert!(!v.unsigned, "{s} should be signed");
        v.bits as i64
    }

    fn unsigned(s: &str) -> u64 {
        let v = eval(s).unwrap_or_else(|e| panic!("{s}: {}", e.message));
        assert!(v.unsigned, "{s} should be unsigned");
        v.bits
    }

    #[test]
    fn precedence_and_associativity() {
        assert_eq!(signed("1 + 2 * 3"), 7);
        assert_eq!(signed("10 - 4 - 3"), 3);
        assert_eq!(signed("64 / 4 / 2"), 8);
        assert_eq!(signed("1 << 2 + 1"), 8);
        assert_eq!(signed("1 < 2 == 1"), 1);
        assert_eq!(signed("6 & 3 ^ 1 | 8"), 11);
        assert_eq!(signed("1 || 0 && 0"), 1);
        assert_eq!(signed("0 ? 1 : 0 ? 2 : 3"), 3);
        assert_eq!(signed("1 ? 0 ? 4 : 5 : 6"), 5);
        assert_eq!(signed("-(-3) * +2"), 6);
        assert_eq!(signed("!5 + ~0"), -1);
        assert_eq!(signed("(1, 2, 3)"), 3);
    }

    #[test]
    fn usual_arithmetic_conversions() {
        assert_eq!(unsigned("0u - 1"), u64::MAX);
        assert_eq!(unsigned("-1 + 0u"), u64::MAX);
        // Comparison happens in the common (unsigned) type, gives signed.
        assert_eq!(signed("-1 < 1u"), 0);
        assert_eq!(signed("-1 < 1"), 1);
        assert_eq!(unsigned("9223372036854775808"), 1 << 63);
        assert_eq!(unsigned("1 ? 1 : 2u"), 1);
        assert_eq!(unsigned("-1 / 2u"), u64::MAX / 2);
        assert_eq!(signed("-1 / 2"), 0);
        assert_eq!(signed("-7 % 3"), -1);
    }

    #[test]
    fn shifts_take_the_left_type_and_saturate() {
        assert_eq!(signed("1 << 62"), 1 << 62);
        assert_eq!(signed("1 << 64"), 0);
        assert_eq!(signed("-8 >> 1"), -4);
        assert_eq!(signed("-8 >> 100"), -1);
        assert_eq!(unsigned("0xFFFFFFFFFFFFFFFF >> 60"), 15);
        assert_eq!(signed("1 << 2u"), 4);
        assert_eq!(unsigned("1u << 70"), 0);
        assert_eq!(signed("4 >> -1"), 0);
    }

    #[test]
    fn overflow_wraps() {
        assert_eq!(signed("9223372036854775807 + 1"), i64::MIN);
        assert_eq!(signed("(-9223372036854775807 - 1) / -1"), i64::MIN);
        assert_eq!(signed("(-9223372036854775807 - 1) % -1"), 0);
    }

    #[test]
    fn binary_literals() {
        assert_eq!(signed("0b101 + 0B1"), 6);
        assert_eq!(unsigned("0b1u << 3"), 8);
    }

    #[test]
    fn literals() {
        assert_eq!(
            parse_int("0x1fU"),
            Ok(Value {
                bits: 31,
                unsigned: true
            })
        );
        assert_eq!(
            parse_int("017l"),
            Ok(Value {
                bits: 15,
                unsigned: false
            })
        );
        assert_eq!(
            parse_int("0"),
            Ok(Value {
                bits: 0,
                unsigned: false
            })
        );
        assert!(parse_int("18446744073709551616").is_err());
        assert!(parse_int("08").is_err());
        assert_eq!(signed("'a'"), 97);
        assert_eq!(signed("'\\0'"), 0);
        assert_eq!(signed("'\\101'"), 65);
        assert_eq!(signed("'\\\\'"), 92);
        assert_eq!(signed("'ab'"), 0x6162);
        assert!(parse_char("''").is_err());
        assert_eq!(signed("true + false + other"), 1);
    }

    #[test]
    fn division_by_zero_only_where_evaluated() {
        let e = eval("1 + 4 / (2 - 2)").unwrap_err();
        assert_eq!(e.code, codes::PP_DIVISION_BY_ZERO);
        assert_eq!(e.span, Span::from(7..8), "points at '/'");
        assert_eq!(signed("0 && 1 / 0"), 0);
        assert_eq!(signed("1 || 1 % 0"), 1);
        assert_eq!(signed("1 ? 2 : 1 / 0"), 2);
        assert_eq!(signed("0 ? 1 / 0 : 3"), 3);
        assert!(eval("0 || 1 / 0").is_err());
    }

    #[test]
    fn syntax_errors_point_at_the_problem() {
        let e = eval("1 + * 2").unwrap_err();
        assert_eq!(e.span, Span::from(5..6));
        let e = eval("(1 + 2").unwrap_err();
        assert_eq!(e.message, "missing ')' in preprocessor expression");
        assert_eq!(e.span, Span::from(1..2));
        let e = eval("1 +").unwrap_err();
        assert_eq!(e.span, Span::from(100..100), "at the end of the line");
        assert!(evaluate(&[], Span::from(100..100)).is_err());
        let e = eval("2.0").unwrap_err();
        assert_eq!(
            e.message,
            "floating-point literal in preprocessor expression"
        );
        let e = eval("1 = 1").unwrap_err();
        assert_eq!(
            e.message,
            "'=' is not a valid operator in a preprocessor expression"
        );
    }

    #[test]
    fn nesting_is_bounded() {
        let ok = format!("{}1{}", "(".repeat(200), ")".repeat(200));
        assert_eq!(signed(&ok), 1);
        let deep = format!("{}1{}", "(".repeat(300), ")".repeat(300));
        assert!(
            eval(&deep)
                .unwrap_err()
                .message
                .contains("nested too deeply")
        );
        let deep = format!("{}1", "!".repeat(1000));
        assert!(eval(&deep).is_err());
        let deep = "1 ? 2 : ".repeat(1000) + "3";
        assert!(eval(&deep).is_err());
        // Long flat chains are not nesting.
        let flat = vec!["1"; 10_000].join(" + ");
        assert_eq!(signed(&flat), 10_000);
    }
}
