//! The preprocessor on in-memory files: every directive and macro form,
//! locations through expansions and includes, limits, `-P` text and the CLI.

use crate::diag::Diagnostics;
use crate::front::lexer::{PpToken, Token, flags};
use crate::front::preprocess::{PreprocessOptions, Preprocessed, preprocess, tokens_to_text};
use crate::intern::Symbol;
use crate::source::SourceMap;
use crate::{FileLoader, MemoryLoader};
use std::cell::RefCell;
use std::collections::HashMap;
use std::path::{Path, PathBuf};

struct Run {
    out: Preprocessed,
    sm: SourceMap,
    diags: Diagnostics,
}

impl Run {
    /// The output token texts joined by single spaces (`#pragma(TEXT)` for
    /// pragma tokens).
    fn text(&self) -> String {
        join(&self.out.tokens)
    }
    fn codes(&self) -> Vec<&'static str> {
        self.diags.iter().map(|d| d.code.0).collect()
    }
    fn messages(&self) -> Vec<String> {
        self.diags.iter().map(|d| d.message.clone()).collect()
    }
    /// The output token with text `text` (the `n`th such).
    fn token(&self, text: &str, n: usize) -> PpToken {
        *self
            .out
            .tokens
            .iter()
            .filter(|t| t.sym.as_str() == text)
            .nth(n)
            .unwrap_or_else(|| panic!("no token '{text}' #{n} in {}", self.text()))
    }
    /// "file:line:col" of where a token was spelled.
    fn spelled_at(&self, t: PpToken) -> String {
        self.sm.describe(t.span.lo)
    }
    /// The macro names of the expansions a token went through, innermost first.
    fn expansions(&self, t: PpToken) -> Vec<String> {
        self.sm
            .resolve(t.span)
            .expect("resolves")
            .expansions
            .iter()
            .map(|(m, _)| m.as_str().to_string())
            .collect()
    }
    fn rendered(&self) -> String {
        crate::diag::render_to_string(
            &self.diags.list,
            &self.sm,
            crate::diag::DiagnosticFormat::Short,
        )
    }
}

fn join(tokens: &[PpToken]) -> String {
    tokens
        .iter()
        .map(|t| {
            if t.kind == Token::Pragma {
                format!("#pragma({})", t.sym.as_str())
            } else {
                t.sym.as_str().to_string()
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

fn run_with(loader: &dyn FileLoader, main: &str, options: &PreprocessOptions) -> Run {
    let mut sm = SourceMap::new();
    let mut diags = Diagnostics::new();
    let out = preprocess(Path::new(main), loader, options, &mut sm, &mut diags);
    Run { out, sm, diags }
}

fn run_files(files: &[(&str, &str)], options: &PreprocessOptions) -> Run {
    let mut l = MemoryLoader::new();
    for (p, t) in files {
        l.add(*p, *t);
    }
    run_with(&l, files[0].0, options)
}

/// Preprocesses one file, `main.hlsl`, with default options.
fn run(text: &str) -> Run {
    run_files(&[("main.hlsl", text)], &PreprocessOptions::default())
}

/// Preprocesses one file and expects no diagnostics.
fn clean(text: &str) -> String {
    let r = run(text);
    assert!(
        r.diags.is_empty(),
        "unexpected diagnostics:\n{}",
        r.rendered()
    );
    r.text()
}

// ---------------------------------------------------------------------------
// Macros

#[test]
fn object_like_macros_expand_and_rescan() {
    assert_eq!(
        clean("#define N 4\n#define M N * N\nfloat a[M];\n"),
        "float a [ 4 * 4 ] ;"
    );
    // A keyword can be a macro name.
    assert_eq!(
        clean("#define in inout\nvoid f(in float x);"),
        "void f ( inout float x ) ;"
    );
    // Empty body.
    assert_eq!(clean("#define E\nE x E;"), "x ;");
}

#[test]
fn function_like_macros_take_arguments() {
    assert_eq!(
        clean("#define SQ(x) ((x)*(x))\nSQ(a+1)"),
        "( ( a + 1 ) * ( a + 1 ) )"
    );
    assert_eq!(
        clean("#define MAX(a, b) ((a) > (b) ? (a) : (b))\nMAX(f(1, 2), (3, 4))"),
        "( ( f ( 1 , 2 ) ) > ( ( 3 , 4 ) ) ? ( f ( 1 , 2 ) ) : ( ( 3 , 4 ) ) )"
    );
    // Empty argument, and zero parameters.
    assert_eq!(clean("#define ID(x) [x]\n#define Z() z\nID() Z()"), "[ ] z");
    // Arguments are expanded before substitution.
    assert_eq!(
        clean("#define A 1\n#define ID(x) x\nID(A) ID(ID(A))"),
        "1 1"
    );
}

#[test]
fn function_like_name_without_parenthesis_is_not_invoked() {
    assert_eq!(clean("#define f(x) <x>\nf + f\n(1) f"), "f + < 1 > f");
    // A directive between the name and `(` ends the chance of an invocation.
    assert_eq!(clean("#define f(x) <x>\nf\n#define Y 2\n(Y)"), "f ( 2 )");
    // The name at the end of an included file does not take `(` from the includer.
    let r = run_files(
        &[
            ("main.hlsl", "#define f(x) <x>\n#include \"h.h\"\n(1)"),
            ("h.h", "f\n"),
        ],
        &PreprocessOptions::default(),
    );
    assert_eq!(r.text(), "f ( 1 )");
}

#[test]
fn stringify_and_paste() {
    assert_eq!(
        clean("#define S(x) #x\nS(a  +   \"q\\n\"  'c') S( ) S(\\)"),
        r#""a + \"q\\n\" 'c'" "" "\""#
    );
    assert_eq!(
        clean(
            "#define CAT(a, b) a ## b\nCAT(float, 4) CAT(x, ) CAT(, y) [CAT(,)] CAT(1, 2.5f) CAT(<, <=)"
        ),
        "float4 x y [ ] 12.5f <<="
    );
    // `##` operands are not pre-expanded; `#` neither; XSTR forces it.
    assert_eq!(
        clean(
            "#define N 3\n#define CAT(a, b) a##b\n#define S(x) #x\n#define XS(x) S(x)\nCAT(N, N) S(N) XS(N)"
        ),
        "NN \"N\" \"3\""
    );
    // A pasted name is looked up again.
    assert_eq!(
        clean("#define xy 9\n#define CAT(a, b) a##b\nCAT(x, y)"),
        "9"
    );
    // Chained pastes with an empty middle operand.
    assert_eq!(
        clean("#define C3(a, b, c) a##b##c\nC3(x, , z) C3(, , w)"),
        "xz w"
    );
}

#[test]
fn invalid_paste_is_an_error() {
    let r = run("#define CAT(a, b) a ## b\nCAT(+, -)");
    assert_eq!(r.codes(), ["E0116"]);
    assert_eq!(r.text(), "+ -");
}

#[test]
fn variadic_macros() {
    assert_eq!(
        clean("#define V(fmt, ...) p(fmt, __VA_ARGS__)\nV(\"a\", 1, (2, 3), 4)"),
        "p ( \"a\" , 1 , ( 2 , 3 ) , 4 )"
    );
    assert_eq!(
        clean("#define S(...) #__VA_ARGS__\nS(a,b,  c)"),
        "\"a,b, c\""
    );
    // GNU comma elision and named variable arguments.
    assert_eq!(
        clean("#define G(f, ...) f(0 , ## __VA_ARGS__)\nG(a) G(b, 1, 2)"),
        "a ( 0 ) b ( 0 , 1 , 2 )"
    );
    assert_eq!(clean("#define N(args...) [args]\nN(1, 2)"), "[ 1 , 2 ]");
    // Omitted variable arguments.
    assert_eq!(clean("#define V(a, ...) a|__VA_ARGS__|\nV(1)"), "1 | |");
}

/// C99 6.10.3.5 examples 3 and 7: the classic conformance cases for
/// rescanning, painting, `#` and `##`, and variadic macros.
#[test]
fn c99_standard_examples() {
    let text = r#"#define x 3
#define f(a) f(x * (a))
#undef x
#define x 2
#define g f
#define z z[0]
#define h g(~
#define m(a) a(w)
#define w 0,1
#define t(a) a
#define p() int
#define q(x) x
#define r(x,y) x ## y
#define str(x) # x
f(y+1) + f(f(z)) % t(t(g)(0) + t)(1);
g(x+(3,4)-w) | h 5) & m
(f)^m(m);
p() i[q()] = { q(1), r(2,3), r(4,), r(,5), r(,) };
char c[2][6] = { str(hello), str() };
"#;
    let expected = "f(2 * (y+1)) + f(2 * (f(2 * (z[0])))) % f(2 * (0)) + t(1);
f(2 * (2+(3,4)-0,1)) | f(2 * (~ 5)) & f(2 * (0,1))^m(0,1);
int i[] = { 1, 23, 4, 5, };
char c[2][6] = { \"hello\", \"\" };";
    assert_eq!(clean(text), spaced(expected));

    let text = r#"#define debug(...) fprintf(stderr, __VA_ARGS__)
#define showlist(...) puts(#__VA_ARGS__)
#define report(test, ...) ((test)?puts(#test): printf(__VA_ARGS__))
debug("Flag");
debug("X = %d\n", x);
showlist(The first, second, and third items.);
report(x>y, "x is %d but y is %d", x, y);
"#;
    let expected = r#"fprintf(stderr, "Flag" );
fprintf(stderr, "X = %d\n", x );
puts( "The first, second, and third items." );
((x>y)?puts("x>y"): printf("x is %d but y is %d", x, y));"#;
    assert_eq!(clean(text), spaced(expected));
}

/// Re-lexes expected C text into space-separated tokens.
fn spaced(text: &str) -> String {
    let (toks, errs) = crate::front::lexer::lex(text);
    assert!(errs.is_empty());
    toks.iter()
        .filter(|t| t.kind != Token::Newline)
        .map(|t| &text[t.start as usize..t.end as usize])
        .collect::<Vec<_>>()
        .join(" ")
}

#[test]
fn recursion_is_guarded() {
    // C99 6.10.3.4p4: unspecified, clang and GCC give `2*9*g`.
    assert_eq!(
        clean("#define f(a) a*g\n#define g(a) f(a)\nf(2)(9)"),
        "2 * 9 * g"
    );
    assert_eq!(clean("#define x x\n#define y z y\nx y"), "x z y");
    // Mutual recursion stops at the first repeat.
    assert_eq!(clean("#define a b\n#define b a\na b"), "a b");
    // A name painted inside its own expansion stays painted when it later
    // reaches an argument.
    assert_eq!(clean("#define f(x) x f\nf(1)(2)"), "1 f ( 2 )");
    assert_eq!(clean("#define f(x) x f\n#define g f\ng(3)(4)"), "3 f ( 4 )");
    assert_eq!(clean("#define ID(x) x\n#define s ID(s)\ns"), "s");
}

#[test]
fn redefinition_warns_only_when_different() {
    let r = run(
        "#define A 1 + 2\n#define A 1 + 2\n#define A 1 +  2\n#define A 1+2\n#define B(x) x\n#define B(y) y\nA",
    );
    assert_eq!(r.codes(), ["W0102", "W0102"]);
    assert_eq!(r.text(), "1 + 2");
    let d = &r.diags.list[0];
    assert_eq!(r.sm.describe(d.labels[0].span.lo), "main.hlsl:4:9");
    assert_eq!(r.sm.describe(d.labels[1].span.lo), "main.hlsl:3:9");
}

#[test]
fn malformed_defines_are_errors() {
    for (text, msg) in [
        ("#define\n", "#define expects a macro name"),
        ("#define 3 x\n", "macro name must be an identifier"),
        (
            "#define defined\n",
            "'defined' cannot be used as a macro name",
        ),
        ("#define f(x\n", "missing ')' in macro parameter list"),
        (
            "#define f(x y) x\n",
            "expected ',' or ')' in macro parameter list",
        ),
        ("#define f(x, x) x\n", "duplicate macro parameter 'x'"),
        ("#define f(1) x\n", "invalid token in macro parameter list"),
        (
            "#define f(x) #y\n",
            "'#' is not followed by a macro parameter",
        ),
        (
            "#define f(x) ## x\n",
            "'##' cannot appear at either end of a macro expansion",
        ),
        (
            "#define f x ##\n",
            "'##' cannot appear at either end of a macro expansion",
        ),
        ("#undef\n", "#undef expects a macro name"),
    ] {
        let r = run(text);
        assert_eq!(r.codes(), ["E0105"], "{text}");
        assert_eq!(r.messages(), [msg], "{text}");
    }
    // `#` in an object-like macro is an ordinary token.
    assert_eq!(clean("#define H # x\nH"), "# x");
}

#[test]
fn argument_errors() {
    let r = run("#define f(a, b) a b\nf(1) f(1, 2, 3) after");
    assert_eq!(r.codes(), ["E0107", "E0107"]);
    assert_eq!(
        r.messages(),
        [
            "macro 'f' takes 2 arguments, but 1 was given",
            "macro 'f' takes 2 arguments, but 3 were given"
        ]
    );
    assert_eq!(r.text(), "after");
    let r = run("#define f(a) a\nf(1, (2)\nint x;\n");
    assert_eq!(r.codes(), ["E0106"]);
    assert_eq!(
        r.sm.describe(r.diags.list[0].labels[0].span.lo),
        "main.hlsl:2:2"
    );
    // Not across the end of an included file either.
    let r = run_files(
        &[
            ("main.hlsl", "#define f(a) a\n#include \"h.h\"\n)"),
            ("h.h", "f(1\n"),
        ],
        &PreprocessOptions::default(),
    );
    assert_eq!(r.codes(), ["E0106"]);
    assert_eq!(r.text(), ")");
}

#[test]
fn directives_inside_macro_arguments() {
    assert_eq!(
        clean("#define f(x) [x]\nf(\n#ifdef NOPE\n a\n#else\n b\n#endif\n)"),
        "[ b ]"
    );
    let r = run_files(
        &[
            ("main.hlsl", "#define f(x) x\nf(\n#include \"h.h\"\n)"),
            ("h.h", "h\n"),
        ],
        &PreprocessOptions::default(),
    );
    assert_eq!(r.codes(), ["E0111"]);
}

#[test]
fn deeply_nested_invocations_do_not_recurse() {
    let depth = 1000;
    let text = format!(
        "#define f(x) x\n#define one 1\n{}one{}",
        "f(".repeat(depth),
        ")".repeat(depth)
    );
    assert_eq!(clean(&text), "1");
}

#[test]
fn runaway_expansion_stops() {
    let mut text = String::from("#define A0 x\n");
    for i in 1..=40 {
        text.push_str(&format!("#define A{i} A{} A{}\n", i - 1, i - 1));
    }
    text.push_str("A40 after\n");
    let r = run(&text);
    assert_eq!(r.codes(), ["E0113"]);
    assert!(r.out.tokens.is_empty());
    assert_eq!(
        r.sm.describe(r.diags.list[0].labels[0].span.lo),
        "main.hlsl:42:1"
    );
}

/// The limit is per expansion: several large (legitimate) expansions
/// together may produce more.
#[test]
fn expansion_limit_is_per_expansion() {
    let mut text = String::from("#define A0 x\n");
    for i in 1..=18 {
        text.push_str(&format!("#define A{i} A{} A{}\n", i - 1, i - 1));
    }
    text.push_str("A18 A18 A18\n");
    let r = run(&text);
    assert!(r.diags.is_empty(), "{}", r.rendered());
    assert_eq!(r.out.tokens.len(), 3 << 18);
}

#[test]
fn runaway_expansion_through_arguments_stops() {
    let mut text = String::from("#define D(x) x x\n");
    text.push_str(&"D(".repeat(40));
    text.push('1');
    text.push_str(&")".repeat(40));
    let r = run(&text);
    assert_eq!(r.codes(), ["E0113"]);
}

// ---------------------------------------------------------------------------
// Conditionals

#[test]
fn conditional_groups() {
    let text = "#define TYPE 2
#if TYPE == 1
one
#elif TYPE == 2
two
#elif TYPE == 2
again
#else
other
#endif
#ifdef TYPE
has
#endif
#ifndef TYPE
not
#else
else
#endif
#undef TYPE
#if defined(TYPE) || defined TYPE
wrong
#elif !defined(TYPE) && UNDEFINED == 0
undefined_is_zero
#endif
#if 0
#if 1
nested_skipped
#else
#error not reached
#endif
@ ` don't care ' \" stray text is skipped
#elif 1
taken
#endif
";
    assert_eq!(clean(text), "two has else undefined_is_zero taken");
}

#[test]
fn if_expressions() {
    for (e, v) in [
        ("1 + 2 * 3 == 7", true),
        ("(1 + 2) * 3 == 9", true),
        ("-1 < 0", true),
        ("-1 < 0u", false),
        ("0xFFFFFFFFFFFFFFFF == -1", true),
        ("18446744073709551615 > 0", true),
        ("1 << 63 < 0", true),
        ("7 / 2 == 3 && -7 / 2 == -3 && -7 % 2 == -1", true),
        ("1 ? 2 : 0", true),
        ("0 ? 1 : 0u - 1 > 0", true),
        ("0 && 1 / 0", true == false),
        ("1 || 1 / 0", true),
        ("0 ? 1 / 0 : 1", true),
        ("'A' == 65 && '\\n' == 10 && '\\x41' == 65", true),
        ("~0 == -1 && !0 && !!5", true),
        ("(2, 3) == 3", true),
        ("true && !false", true),
        ("__LINE__ == 1", true),
        ("017 == 15 && 0x10 == 16 && 10ul == 10", true),
        (
            "(1 ^ 3) == 2 && (5 & 3) == 1 && (4 | 1) == 5 && (16 >> 2) == 4",
            true,
        ),
        ("-9223372036854775807 - 1 < 0", true),
    ] {
        let got = clean(&format!("#if {e}\nyes\n#else\nno\n#endif\n"));
        assert_eq!(got, if v { "yes" } else { "no" }, "#if {e}");
    }
}

#[test]
fn if_expression_errors() {
    for (e, code, msg) in [
        (
            "1 / 0",
            "E0109",
            "division by zero in preprocessor expression",
        ),
        (
            "1 % (2 - 2)",
            "E0109",
            "remainder by zero in preprocessor expression",
        ),
        (
            "1 +",
            "E0108",
            "expected a value in preprocessor expression",
        ),
        ("", "E0108", "expected an expression after the directive"),
        ("(1", "E0108", "missing ')' in preprocessor expression"),
        ("1 )", "E0108", "unmatched ')' in preprocessor expression"),
        (
            "1.5",
            "E0108",
            "floating-point literal in preprocessor expression",
        ),
        (
            "\"s\"",
            "E0108",
            "string literal in preprocessor expression",
        ),
        (
            "defined",
            "E0108",
            "'defined' must be followed by a macro name",
        ),
        ("defined(X", "E0108", "missing ')' after 'defined(NAME'"),
        (
            "1 2",
            "E0108",
            "'2' is not a valid operator in a preprocessor expression",
        ),
        (
            "1 ? 2",
            "E0108",
            "expected ':' to complete the '?:' expression",
        ),
        ("099", "E0108", "invalid digit '9' in octal constant"),
    ] {
        let r = run(&format!("#if {e}\nyes\n#else\nno\n#endif\n"));
        assert_eq!(r.codes(), [code], "#if {e}");
        assert_eq!(r.messages(), [msg], "#if {e}");
        // An erroneous condition is false.
        assert_eq!(r.text(), "no", "#if {e}");
    }
    // Deep nesting is an error, not a stack overflow.
    let r = run(&format!(
        "#if {}1{}\n#endif\n",
        "(".repeat(100_000),
        ")".repeat(100_000)
    ));
    assert_eq!(r.codes(), ["E0108"]);
    let r = run(&format!("#if {}1\n#endif\n", "-".repeat(100_000)));
    assert_eq!(r.codes(), ["E0108"]);
}

#[test]
fn defined_inside_a_macro_expansion() {
    assert_eq!(
        clean("#define IS_X defined(X)\n#define X\n#if IS_X && !defined IS_Y\nok\n#endif"),
        "ok"
    );
    // `##` operands are not expanded, so this finds FEATURE_ON whatever
    // FEATURE is.
    assert_eq!(
        clean(
            "#define HAS(x) defined(x ## _ON)\n#define FEATURE_ON\n#define FEATURE 0\n#if HAS(FEATURE) && !HAS(OTHER)\nok\n#endif"
        ),
        "ok"
    );
    // An argument is expanded first: an empty macro leaves `defined()`, an
    // error (as in clang).
    let r = run("#define HAS(x) defined(x)\n#define Y\n#if HAS(Y)\n#endif\n");
    assert_eq!(r.codes(), ["E0108"]);
    // A bad `defined` inside a macro body points into the body, with the
    // expansion noted.
    let r = run("#define BAD defined(\n#if BAD\n#endif\n");
    assert_eq!(r.codes(), ["E0108"]);
    let d = &r.diags.list[0];
    assert_eq!(r.sm.describe(d.labels[0].span.lo), "main.hlsl:1:20");
    assert_eq!(r.sm.describe(d.labels[1].span.lo), "main.hlsl:1:13");
    let res = r.sm.resolve(d.labels[0].span).expect("resolves");
    assert_eq!(res.expansions.len(), 1);
    assert_eq!(res.expansions[0].0.as_str(), "BAD");
}

#[test]
fn misplaced_and_unterminated_conditionals() {
    let r = run("#endif\n#else\n#elif 1\n");
    assert_eq!(r.codes(), ["E0104", "E0104", "E0104"]);
    assert_eq!(
        r.messages(),
        [
            "#endif without #if",
            "#else without #if",
            "#elif without #if"
        ]
    );
    let r = run("#if 1\n#else\n#else\n#elif 1\n#endif\n");
    assert_eq!(r.codes(), ["E0104", "E0104"]);
    assert_eq!(r.messages(), ["#else after #else", "#elif after #else"]);
    let r = run("#if 1\n#ifdef X\nint x;\n");
    assert_eq!(r.codes(), ["E0103", "E0103"]);
    // A group opened in an included file must close there.
    let r = run_files(
        &[
            ("main.hlsl", "#include \"h.h\"\n#endif\n"),
            ("h.h", "#if 1\n"),
        ],
        &PreprocessOptions::default(),
    );
    assert_eq!(r.codes(), ["E0103", "E0104"]);
    assert_eq!(r.sm.describe(r.diags.list[0].labels[0].span.lo), "h.h:1:1");
}

#[test]
fn deeply_nested_conditionals_do_not_overflow() {
    let n = 200_000;
    let text = format!("{}x\n{}", "#if 1\n".repeat(n), "#endif\n".repeat(n));
    assert_eq!(clean(&text), "x");
    let text = format!(
        "#if 0\n{}x\n{}#else\ny\n#endif\n",
        "#if 1\n".repeat(n),
        "#endif\n".repeat(n)
    );
    assert_eq!(clean(&text), "y");
}

#[test]
fn extra_tokens_warn_and_unknown_directives_fail() {
    let r = run("#if 1\n#else junk\n#endif junk\n#foo bar\n#\n# 5\n");
    assert_eq!(r.codes(), ["W0103", "W0103", "E0102"]);
    assert_eq!(r.messages()[2], "unknown preprocessor directive '#foo'");
    // Unknown directives in skipped groups are fine.
    assert_eq!(clean("#if 0\n#foo\n#endif\nok"), "ok");
}

#[test]
fn error_and_warning_directives() {
    let r =
        run("#warning don't do this\n#if 0\n#error hidden\n#endif\n#error stop: \"now\" // why\nx");
    assert_eq!(r.codes(), ["W0101", "E0114"]);
    assert_eq!(r.messages(), ["don't do this", "stop: \"now\""]);
    assert_eq!(r.text(), "x");
}

// ---------------------------------------------------------------------------
// Lexing problems

#[test]
fn lex_errors_are_reported_in_active_code_only() {
    let r = run("int a = 1;\nint \u{00e9}b;\n#if 0\n\u{00e9} 'x\n#endif\nint c;");
    assert_eq!(r.codes(), ["E0101"]);
    assert_eq!(
        r.sm.describe(r.diags.list[0].labels[0].span.lo),
        "main.hlsl:2:5"
    );
    assert_eq!(r.text(), "int a = 1 ; int b ; int c ;");
    let r = run("a /* never closed\nb c");
    assert_eq!(r.messages(), ["unterminated /* comment"]);
    assert_eq!(r.text(), "a");
    let r = run("a \"open string\nb");
    assert_eq!(r.messages(), ["missing terminating '\"' character"]);
    assert_eq!(r.text(), "a b");
}

// ---------------------------------------------------------------------------
// Includes

/// A loader that counts reads per path.
struct CountingLoader {
    inner: MemoryLoader,
    reads: RefCell<HashMap<PathBuf, usize>>,
}

impl CountingLoader {
    fn new(files: &[(&str, &str)]) -> Self {
        let mut inner = MemoryLoader::new();
        for (p, t) in files {
            inner.add(*p, *t);
        }
        CountingLoader {
            inner,
            reads: RefCell::default(),
        }
    }
    fn reads(&self, p: &str) -> usize {
        self.reads.borrow().get(Path::new(p)).copied().unwrap_or(0)
    }
}

impl FileLoader for CountingLoader {
    fn read(&self, path: &Path) -> std::io::Result<String> {
        *self
            .reads
            .borrow_mut()
            .entry(path.to_path_buf())
            .or_default() += 1;
        self.inner.read(path)
    }
    fn exists(&self, path: &Path) -> bool {
        self.inner.exists(path)
    }
}

fn with_dirs(dirs: &[&str]) -> PreprocessOptions {
    PreprocessOptions {
        include_dirs: dirs.iter().map(PathBuf::from).collect(),
        ..Default::default()
    }
}

#[test]
fn quote_includes_search_the_including_directory_then_dash_i() {
    let r = run_files(
        &[
            (
                "src/main.hlsl",
                "#include \"a.h\"\n#include \"sub/b.h\"\n#include \"c.h\"\nend",
            ),
            ("src/a.h", "src_a"),
            ("inc/a.h", "inc_a"),
            ("src/sub/b.h", "#include \"../a.h\"\n#include \"d.h\"\n"),
            ("src/sub/d.h", "sub_d"),
            ("inc/c.h", "inc_c"),
        ],
        &with_dirs(&["inc"]),
    );
    assert!(r.diags.is_empty(), "{}", r.rendered());
    assert_eq!(r.text(), "src_a src_a sub_d inc_c end");
    // Windows-style separators are accepted.
    let w = run_files(
        &[("main.hlsl", "#include \"sub\\x.h\"\n"), ("sub/x.h", "x")],
        &PreprocessOptions::default(),
    );
    assert!(w.diags.is_empty(), "{}", w.rendered());
    assert_eq!(w.text(), "x");
    assert_eq!(
        r.out.dependencies,
        [
            "src/main.hlsl",
            "src/a.h",
            "src/sub/b.h",
            "src/sub/d.h",
            "inc/c.h"
        ]
        .map(PathBuf::from)
    );
}

#[test]
fn angle_includes_search_only_dash_i_in_order() {
    let files = [
        (
            "main.hlsl",
            "#include <vk/x.h>\n#define H <y.h>\n#include H\n",
        ),
        ("vk/x.h", "local"),
        ("one/vk/x.h", "one_x"),
        ("two/vk/x.h", "two_x"),
        ("two/y.h", "two_y"),
    ];
    let r = run_files(&files, &with_dirs(&["one", "two"]));
    assert!(r.diags.is_empty(), "{}", r.rendered());
    assert_eq!(r.text(), "one_x two_y");
    let r = run_files(&files, &with_dirs(&["two", "one"]));
    assert_eq!(r.text(), "two_x two_y");
    // Without -I, <…> finds nothing (not even next to the includer).
    let r = run_files(&files, &PreprocessOptions::default());
    assert_eq!(r.codes(), ["E0110", "E0110"]);
}

#[test]
fn include_by_macro_and_errors() {
    let r = run_files(
        &[
            ("main.hlsl", "#define F \"f.h\"\n#include F\n"),
            ("f.h", "in_f"),
        ],
        &PreprocessOptions::default(),
    );
    assert_eq!(r.text(), "in_f");
    let r = run_files(
        &[(
            "main.hlsl",
            "#include \"missing.h\"\n#include\n#include 3\n#include <x.h\nafter",
        )],
        &with_dirs(&["inc"]),
    );
    assert_eq!(r.codes(), ["E0110", "E0111", "E0111", "E0111"]);
    assert_eq!(r.text(), "after");
    assert_eq!(
        r.diags.list[0].notes,
        ["searched the including file's directory and the -I directories: ., inc"]
    );
}

/// A header read twice (no guard) is lexed once: each inclusion's tokens,
/// lex issues and skipped group are where that inclusion's file is.
#[test]
fn a_header_read_twice_is_placed_twice() {
    let r = run_files(
        &[
            ("main.hlsl", "#include \"h.h\"\nmid\n#include \"h.h\"\n"),
            ("h.h", "int x = 1 \u{20AC} ;\n#if 0 // c\n  \nskipped\n#endif\n"),
        ],
        &PreprocessOptions::default(),
    );
    assert_eq!(r.text(), "int x = 1 ; mid int x = 1 ;");
    let (a, b) = (r.token("x", 0), r.token("x", 1));
    assert_eq!(r.spelled_at(a), "h.h:1:5");
    assert_eq!(r.spelled_at(b), "h.h:1:5");
    assert_ne!(r.sm.file_of(a.span.lo), r.sm.file_of(b.span.lo));
    assert_eq!(r.codes(), ["E0101", "E0101"]);
    let at = |span: crate::span::Span| (r.sm.file_of(span.lo), r.sm.describe(span.lo));
    let issues: Vec<_> = r.diags.iter().map(|d| at(d.labels[0].span)).collect();
    assert_eq!(issues[0], (r.sm.file_of(a.span.lo), "h.h:1:11".to_string()));
    assert_eq!(issues[1], (r.sm.file_of(b.span.lo), "h.h:1:11".to_string()));
    // A skipped group starts at the first token or newline after its
    // directive's line: here the newline of the line of spaces.
    let skipped: Vec<_> = r.sm.skipped().iter().map(|s| at(*s)).collect();
    assert_eq!(skipped[0], (r.sm.file_of(a.span.lo), "h.h:3:3".to_string()));
    assert_eq!(skipped[1], (r.sm.file_of(b.span.lo), "h.h:3:3".to_string()));
}

#[test]
fn pragma_once_and_include_guards_skip_rereading() {
    let loader = CountingLoader::new(&[
        (
            "main.hlsl",
            "#include \"once.h\"\n#include \"guard.h\"\n#include \"./once.h\"\n#include \"guard.h\"\n#include \"plain.h\"\n#include \"plain.h\"\n#include \"notguard.h\"\n#include \"notguard.h\"\n",
        ),
        ("once.h", "#pragma once\nonce"),
        (
            "guard.h",
            "// comment\n#ifndef GUARD_H\n#define GUARD_H\nguard\n#endif // GUARD_H\n\n",
        ),
        ("plain.h", "plain"),
        // An #else branch means the file is not skippable.
        (
            "notguard.h",
            "#ifndef NG\n#define NG\nfirst\n#else\nsecond\n#endif\n",
        ),
    ]);
    let r = run_with(&loader, "main.hlsl", &PreprocessOptions::default());
    assert!(r.diags.is_empty(), "{}", r.rendered());
    assert_eq!(r.text(), "once guard plain plain first second");
    for f in ["once.h", "guard.h", "plain.h", "notguard.h"] {
        assert_eq!(loader.reads(f), 1, "{f} read once");
    }
    // guard.h entered once: only one file entry for it in the source map.
    let entries = r.sm.files().filter(|(_, f)| f.name == "guard.h").count();
    assert_eq!(entries, 1);
    let entries = r.sm.files().filter(|(_, f)| f.name == "plain.h").count();
    assert_eq!(entries, 2);
    // The #if !defined form is recognised as well, and an #undef re-opens it.
    let loader = CountingLoader::new(&[
        (
            "main.hlsl",
            "#include \"g.h\"\n#include \"g.h\"\n#undef G\n#include \"g.h\"\n",
        ),
        ("g.h", "#if !defined(G)\n#define G\ng\n#endif\n"),
    ]);
    let r = run_with(&loader, "main.hlsl", &PreprocessOptions::default());
    assert_eq!(r.text(), "g g");
    assert_eq!(r.sm.files().filter(|(_, f)| f.name == "g.h").count(), 2);
}

#[test]
fn include_cycles_and_depth_stop() {
    let r = run_files(
        &[
            ("main.hlsl", "#include \"a.h\"\n"),
            ("a.h", "#include \"b.h\"\n"),
            ("b.h", "#include \"a.h\"\n"),
        ],
        &PreprocessOptions::default(),
    );
    assert_eq!(r.codes(), ["E0112"]);
    assert_eq!(
        r.diags.list[0].notes[0],
        "an include cycle: a.h → b.h → a.h; add an include guard or #pragma once"
    );
    assert_eq!(
        r.sm.describe(r.diags.list[0].labels[0].span.lo),
        "main.hlsl:1:1"
    );
    // A file that includes itself twice would take 2^200 steps without the stop.
    let r = run_files(
        &[
            ("main.hlsl", "#include \"s.h\"\n"),
            ("s.h", "x\n#include \"s.h\"\n#include \"s.h\"\n"),
        ],
        &PreprocessOptions::default(),
    );
    assert_eq!(r.codes(), ["E0112"]);
    // After a fatal error no tokens are passed on.
    assert!(r.out.tokens.is_empty());
    // A chain of distinct files just deeper than the limit.
    let names: Vec<String> = (0..=200).map(|i| format!("f{i}.h")).collect();
    let texts: Vec<String> = (0..=200)
        .map(|i| format!("#include \"f{}.h\"\n", i + 1))
        .collect();
    let mut files: Vec<(&str, &str)> = vec![("main.hlsl", "#include \"f0.h\"\n")];
    files.extend(
        names
            .iter()
            .map(String::as_str)
            .zip(texts.iter().map(String::as_str)),
    );
    let r = run_files(&files, &PreprocessOptions::default());
    assert_eq!(r.codes(), ["E0112"]);
    assert_eq!(
        r.diags.list[0].notes[0],
        "the chain: f0.h → f1.h → f2.h → f3.h → f4.h → f5.h → …"
    );
}

// ---------------------------------------------------------------------------
// Locations

#[test]
fn locations_of_body_argument_and_included_tokens() {
    let r = run_files(
        &[
            (
                "main.hlsl",
                "#define ADD(a, b) (a + b)\n#define TWICE(x) ADD(x, x)\n#include \"h.h\"\nint v = TWICE(k);\n",
            ),
            ("h.h", "\n  int h;\n"),
        ],
        &PreprocessOptions::default(),
    );
    assert!(r.diags.is_empty(), "{}", r.rendered());
    assert_eq!(r.text(), "int h ; int v = ( k + k ) ;");
    // Included tokens keep their file location; the file knows its includer.
    let h = r.token("h", 0);
    assert_eq!(r.spelled_at(h), "h.h:2:7");
    let file = r.sm.file_of(h.span.lo).expect("a file token");
    assert_eq!(
        r.sm.include_chain(file),
        [(r.sm.file_of(r.token("v", 0).span.lo).unwrap(), 3)]
    );
    // `+` is spelled in ADD's body and went through ADD inside TWICE.
    let plus = r.token("+", 0);
    assert_eq!(r.spelled_at(plus), "main.hlsl:1:22");
    assert_eq!(r.expansions(plus), ["ADD", "TWICE"]);
    // `k` is spelled at the call site, as an argument.
    let k = r.token("k", 1);
    assert_eq!(r.spelled_at(k), "main.hlsl:4:15");
    assert!(k.span.lo.is_expansion());
    // The whole expansion is shown at the outermost invocation.
    let site = r.sm.expansion_site(plus.span);
    assert_eq!(r.sm.describe(site.lo), "main.hlsl:4:9");
    // Directly from the file: file locations.
    let v = r.token("v", 0);
    assert!(!v.span.lo.is_expansion());
    assert_eq!(r.spelled_at(v), "main.hlsl:4:5");
}

#[test]
fn pasted_and_stringified_tokens_have_locations() {
    let r = run("#define CAT(a, b) a##b\n#define S(x) #x\nCAT(fl, oat) S(q)\n");
    let f = r.token("float", 0);
    assert_eq!(r.spelled_at(f), "main.hlsl:3:5");
    assert_eq!(r.expansions(f), ["CAT"]);
    let s = r.token("\"q\"", 0);
    assert_eq!(r.spelled_at(s), "main.hlsl:2:14");
}

#[test]
fn flags_mark_spaces_and_line_starts() {
    let r = run("a b\n  c(d)\n#define M x y\nM z\n");
    let f = |t: &str| r.token(t, 0).flags & (flags::SPACE_BEFORE | flags::LINE_START);
    assert_eq!(f("a"), flags::LINE_START);
    assert_eq!(f("b"), flags::SPACE_BEFORE);
    assert_eq!(f("c"), flags::SPACE_BEFORE | flags::LINE_START);
    assert_eq!(f("("), 0);
    assert_eq!(f("x"), flags::LINE_START);
    assert_eq!(f("y"), flags::SPACE_BEFORE);
    assert_eq!(f("z"), flags::SPACE_BEFORE);
}

// ---------------------------------------------------------------------------
// Built-ins, #line, pragmas, -D, predefined macros

#[test]
fn builtin_macros_and_line_directive() {
    let text = "__LINE__ __FILE__\n#line 100\n__LINE__\n#line 7 \"other.hlsl\"\n__LINE__ __FILE__\n#define L __LINE__\nL\n__COUNTER__ __COUNTER__\n#if defined(__FILE__) && defined(__LINE__)\nyes\n#endif\n";
    assert_eq!(
        clean(text),
        "1 \"main.hlsl\" 100 7 \"other.hlsl\" 9 0 1 yes"
    );
    let r = run("#line x\n#line 5 6\n");
    assert_eq!(r.codes(), ["E0115", "E0115"]);
    // GNU line markers (as cpp writes) work like #line.
    assert_eq!(
        clean("# 40 \"gen.hlsl\" 1\n__LINE__ __FILE__"),
        "40 \"gen.hlsl\""
    );
}

#[test]
fn line_of_a_multi_line_invocation_is_its_start() {
    // From a macro body: the line of the invocation.
    assert_eq!(clean("#define F(x) __LINE__ x\nF(\n1\n)"), "2 1");
    // In an argument: where it is written (expanded before substitution).
    assert_eq!(clean("#define ID(x) x\nID(\n__LINE__\n)"), "3");
}

#[test]
fn pragmas_become_tokens() {
    let r = run(
        "#pragma once\n#pragma pack_matrix( row_major )\nint x;\n_Pragma(\"pack_matrix(column_major)\") int y;\n#define P _Pragma(\"message(\\\"hi\\\")\")\nP\n",
    );
    assert!(r.diags.is_empty(), "{}", r.rendered());
    assert_eq!(
        r.text(),
        "#pragma(pack_matrix( row_major )) int x ; #pragma(pack_matrix(column_major)) int y ; #pragma(message(\"hi\"))"
    );
    let p = r.out.tokens[0];
    assert_eq!(p.kind, Token::Pragma);
    assert_eq!(r.spelled_at(p), "main.hlsl:2:9");
    let r = run("_Pragma(x) y");
    assert_eq!(r.codes(), ["E0117"]);
    assert_eq!(r.text(), "x ) y");
}

#[test]
fn command_line_defines() {
    let options = PreprocessOptions {
        defines: vec![
            ("FOO".into(), None),
            ("BAR".into(), Some("3".into())),
            ("F(x)".into(), Some("x+1".into())),
            ("EMPTY".into(), Some(String::new())),
            ("TWO_LINES".into(), Some("a\nb".into())),
        ],
        ..Default::default()
    };
    let r = run_files(&[("main.hlsl", "FOO BAR F(2) [EMPTY] TWO_LINES")], &options);
    assert!(r.diags.is_empty(), "{}", r.rendered());
    assert_eq!(r.text(), "1 3 2 + 1 [ ] a b");
    assert_eq!(r.out.dependencies, [PathBuf::from("main.hlsl")]);
    // The definition is located in "<command line>".
    assert_eq!(r.spelled_at(r.token("3", 0)), "<command line>:2:13");
    let options = PreprocessOptions {
        defines: vec![("1X".into(), None)],
        ..Default::default()
    };
    let r = run_files(&[("main.hlsl", "")], &options);
    assert_eq!(r.codes(), ["E0105"]);
}

fn predefined(profile: &str, f: impl FnOnce(&mut crate::Options)) -> PreprocessOptions {
    let mut o = crate::Options {
        profile: crate::options::Profile::parse(profile),
        ..Default::default()
    };
    f(&mut o);
    o.preprocess_options()
}

#[test]
fn predefined_macros_follow_the_profile() {
    let probe = "__SHADER_TARGET_STAGE __SHADER_TARGET_MAJOR __SHADER_TARGET_MINOR __HLSL_VERSION __spirv__ __hlsl_dx_compiler __SPIRV_MAJOR_VERSION__ __SPIRV_MINOR_VERSION__
#if __SHADER_TARGET_STAGE == __SHADER_STAGE_COMPUTE
compute
#elif __SHADER_TARGET_STAGE == __SHADER_STAGE_PIXEL
pixel
#elif __SHADER_TARGET_STAGE == __SHADER_STAGE_AMPLIFICATION
amplification
#endif
#ifdef __HLSL_ENABLE_16_BIT
half16
#endif
#if __DXC_VERSION_MAJOR >= 1
dxc
#endif
";
    let r = run_files(&[("main.hlsl", probe)], &predefined("cs_6_0", |_| {}));
    assert!(r.diags.is_empty(), "{}", r.rendered());
    assert_eq!(r.text(), "5 6 0 2021 1 1 1 0 compute dxc");
    let r = run_files(
        &[("main.hlsl", probe)],
        &predefined("ps_6_5", |o| {
            o.enable_16bit_types = true;
            o.hlsl_version = 2018;
            o.target_env = crate::options::TargetEnv::Vulkan1_2;
        }),
    );
    assert_eq!(r.text(), "0 6 5 2018 1 1 1 5 pixel half16 dxc");
    let r = run_files(&[("main.hlsl", probe)], &predefined("as_6_5", |_| {}));
    assert_eq!(r.text(), "14 6 5 2021 1 1 1 0 amplification dxc");
    // Without a profile, no target stage (and no stage matches).
    let m = crate::Options::default().preprocess_options().predefined;
    assert!(m.iter().all(|(n, _)| n.as_str() != "__SHADER_TARGET_STAGE"));
    assert!(
        m.iter()
            .any(|(n, v)| n.as_str() == "__SHADER_STAGE_MESH" && *v == 13)
    );
    assert!(
        m.iter()
            .any(|(n, v)| n.as_str() == "__SHADER_STAGE_LIBRARY" && *v == 6)
    );
}

fn numbers(list: &[(&str, u32)]) -> PreprocessOptions {
    PreprocessOptions {
        predefined: list.iter().map(|&(n, v)| (Symbol::intern(n), v)).collect(),
        ..Default::default()
    }
}

/// Predefined macros are located in `<built-in>`, and a redefinition
/// points there, whether the macro was used before (so entered in the
/// table) or not (waiting to be).
#[test]
fn predefined_macros_are_located_in_built_in() {
    let options = numbers(&[("A", 1), ("BB", 22)]);
    let r = run_files(&[("main.hlsl", "A BB\n#define A 3\n")], &options);
    assert_eq!(r.text(), "1 22");
    assert_eq!(r.spelled_at(r.token("22", 0)), "<built-in>:2:12");
    assert_eq!(r.codes(), ["W0102"], "{}", r.rendered());
    let previous = r.diags.list[0].labels[1].span.lo;
    assert_eq!(r.sm.describe(previous), "<built-in>:1:9");
    let r = run_files(&[("main.hlsl", "#define BB 5\nBB\n#define A 1\n")], &options);
    assert_eq!(r.text(), "5");
    assert_eq!(r.codes(), ["W0102"], "{}", r.rendered());
    let previous = r.diags.list[0].labels[1].span.lo;
    assert_eq!(r.sm.describe(previous), "<built-in>:2:9");
}

/// A predefined macro not used yet is defined for `#ifdef`, `defined`,
/// include guards and `#undef`, and expands from a macro's body as from
/// the text; one defined twice is redefined; a name that is no
/// identifier is reported as `#define` reports it.
#[test]
fn predefined_macros_wait_for_their_first_use() {
    let options = numbers(&[("A", 1), ("BB", 22), ("C", 4294967295)]);
    let text = "#ifdef BB\nyes\n#endif\n#if defined(A) && A == 1 && defined C\nok\n#endif\n\
                #undef BB\n#ifndef BB\ngone\n#endif\nBB\n#define F A C\nF\n#include \"g.h\"\n";
    let r = run_files(&[("main.hlsl", text), ("g.h", "#ifndef A\nno\n#endif\n")], &options);
    assert!(r.diags.is_empty(), "{}", r.rendered());
    assert_eq!(r.text(), "yes ok gone BB 1 4294967295");
    assert_eq!(r.spelled_at(r.token("4294967295", 0)), "<built-in>:3:11");
    let r = run_files(&[("main.hlsl", "A")], &numbers(&[("A", 1), ("A", 20)]));
    assert_eq!(r.text(), "20");
    assert_eq!(r.codes(), ["W0102"], "{}", r.rendered());
    assert_eq!(r.spelled_at(r.token("20", 0)), "<built-in>:2:11");
    let r = run_files(&[("main.hlsl", "A")], &numbers(&[("A", 1), ("2X", 2)]));
    assert_eq!(r.codes(), ["E0105"], "{}", r.rendered());
    assert_eq!(r.text(), "1");
    let r = run_files(&[("main.hlsl", "A")], &numbers(&[("A", 7), ("defined", 2)]));
    assert_eq!(r.codes(), ["E0105"], "{}", r.rendered());
    assert_eq!(r.text(), "7");
}

/// An expansion with no name in it (`#define N 8`) is written at once
/// rather than pushed for rescanning, and one with a name is rescanned:
/// in the text, in arguments (pre-expanded or not), in `#if`, beside empty
/// expansions, each gives the tokens, spacing and places rescanning gave.
#[test]
fn expansions_without_names_are_written_at_once() {
    let text = "#define N 8\n#define F(x) [x]\n#define G(x) x+x\n#define EMPTY\n\
                #define P (1, 2)\n#define STR \"s\"\na N\nN b\n N\nF(N) F( N ) G(N)G(N)\n\
                #if N == 8 && G(N) == 16\nyes\n#endif\nEMPTY N EMPTY\nx EMPTY N\n\
                F(EMPTY N) F(P) STR N\n#define H F(N)\nH H\n";
    let r = run(text);
    assert!(r.diags.is_empty(), "{}", r.rendered());
    assert_eq!(
        tokens_to_text(&r.out.tokens, &r.sm),
        "#line 7 \"main.hlsl\"\na 8\n8 b\n 8\n[8] [8] 8+8 8+8\n\nyes\n\n      8\nx 8\n\
         [8] [(1, 2)] \"s\" 8\n\n[8] [8]\n"
    );
    for i in 0..15 {
        assert_eq!(r.spelled_at(r.token("8", i)), "main.hlsl:1:11");
    }
    for i in 0..3 {
        assert_eq!(r.expansions(r.token("8", i)), ["N"]);
    }
}

/// The built-in macros are defined before their first use, and a
/// redefinition says it redefines one.
#[test]
fn builtin_macros_are_defined_before_use() {
    let r = run("#if defined(__LINE__) && defined __COUNTER__\nyes\n#endif\n#ifdef _Pragma\nalso\n#endif\n#undef __FILE__\n__FILE__\n#define __LINE__ 9\n__LINE__\n");
    assert_eq!(r.text(), "yes also __FILE__ 9");
    assert_eq!(r.codes(), ["W0102"], "{}", r.rendered());
    assert_eq!(r.diags.list[0].notes, ["this is a built-in macro"]);
}

// ---------------------------------------------------------------------------
// -P text

#[test]
fn text_output_keeps_lines_and_markers() {
    let r = run_files(
        &[
            (
                "main.hlsl",
                "#include \"h.h\"\n#define ADD(a,b) a+b\nint x =ADD(1,2);\n\n    float y;\n#pragma pack_matrix(row_major)\n\n\n\n\n\n\n\n\n\n\n\nlast;\n",
            ),
            ("h.h", "#define PLUS +\nint h PLUS+ 1;\n"),
        ],
        &PreprocessOptions::default(),
    );
    let text = tokens_to_text(&r.out.tokens, &r.sm);
    assert_eq!(
        text,
        "#line 2 \"h.h\"\nint h + + 1;\n#line 3 \"main.hlsl\"\nint x =1+2;\n\n    float y;\n#pragma pack_matrix(row_major)\n#line 18 \"main.hlsl\"\nlast;\n"
    );
}

#[test]
fn text_output_follows_line_directives() {
    let r = run("a\n#line 50 \"gen.fx\"\nb\nc\n");
    let text = tokens_to_text(&r.out.tokens, &r.sm);
    assert_eq!(
        text,
        "#line 1 \"main.hlsl\"\na\n#line 50 \"gen.fx\"\nb\nc\n"
    );
}

// ---------------------------------------------------------------------------
// The command line

/// Random soups of directive and macro fragments: every one must finish
/// without a panic (diagnostics are fine).
#[test]
fn random_input_never_panics() {
    const PIECES: &[&str] = &[
        "#define ",
        "#undef ",
        "#if ",
        "#ifdef ",
        "#ifndef ",
        "#elif ",
        "#else",
        "#endif",
        "#include ",
        "#line ",
        "#pragma ",
        "#error ",
        "#",
        "##",
        "\n",
        " ",
        "(",
        ")",
        ",",
        "...",
        "__VA_ARGS__",
        "defined",
        "f",
        "g",
        "x",
        "f(x)",
        "g(a,b)",
        "1",
        "0",
        "+",
        "/",
        "?",
        ":",
        "\"s\"",
        "'c'",
        "<h.h>",
        "\"h.h\"",
        "_Pragma",
        "__LINE__",
        "__FILE__",
        "__COUNTER__",
        "once",
        "/*",
        "*/",
        "//",
        "\\\n",
        "@",
        "\u{e9}",
        "\"open",
        "'",
        ";",
    ];
    let mut seed: u64 = 0x2545_F491_4F6C_DD1D;
    let mut next = || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    for _ in 0..3000 {
        let len = (next() % 60) as usize;
        let mut text = String::new();
        for _ in 0..len {
            text.push_str(PIECES[(next() % PIECES.len() as u64) as usize]);
        }
        let mut l = MemoryLoader::new();
        l.add("main.hlsl", text.clone());
        l.add("h.h", text.clone());
        let r = run_with(&l, "main.hlsl", &with_dirs(&["."]));
        // Rendering must not panic either.
        let _ = r.rendered();
        let _ = tokens_to_text(&r.out.tokens, &r.sm);
    }
}

/// Each preprocessing number keeps its own spelling (`16_t` and `32_t` were
/// one symbol, the first one's, as if their spelling were fixed).
#[test]
fn preprocessing_numbers_keep_their_spelling() {
    let r = run_files(
        &[("main.hlsl", "#define T(a,b) a##b\nT(float,16_t) T(int,32_t) T(uint,64_t)\n")],
        &PreprocessOptions::default(),
    );
    assert!(r.diags.is_empty(), "{}", r.rendered());
    assert_eq!(r.text(), "float16_t int32_t uint64_t");
}
