//! The formatter over every sample and test shader: it changes no token,
//! keeps every comment and preprocessor line (the text without whitespace
//! is the same), and formatting twice changes nothing, in both brace
//! styles and with tabs.

use crate::front::format::{BraceStyle, FormatOptions, format};
use crate::front::lexer::{self, Token};
use std::path::{Path, PathBuf};

fn shaders(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            shaders(&p, out);
        } else if p.extension().is_some_and(|e| e == "hlsl" || e == "hlsli") {
            out.push(p);
        }
    }
}

/// The tokens of `text`: kinds and spellings, line ends left out.
fn tokens(text: &str) -> Vec<(Token, &str)> {
    lexer::lex(text)
        .0
        .iter()
        .filter(|t| t.kind != Token::Newline)
        .map(|t| (t.kind, &text[t.start as usize..t.end as usize]))
        .collect()
}

fn squeezed(text: &str) -> String {
    text.chars().filter(|c| !c.is_whitespace()).collect()
}

#[test]
fn formatting_keeps_tokens_and_comments_and_is_idempotent() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    shaders(&root.join("samples"), &mut files);
    shaders(&root.join("tests/in"), &mut files);
    files.sort();
    assert!(files.len() > 100, "{} shaders", files.len());
    let styles = [
        FormatOptions::default(),
        FormatOptions {
            indent_width: 2,
            use_tabs: true,
            braces: BraceStyle::Allman,
            column_limit: 60,
        },
    ];
    let mut formatted = 0;
    for f in &files {
        let Ok(text) = std::fs::read_to_string(f) else {
            continue;
        };
        for options in &styles {
            // Text the lexer cannot read is left alone.
            let Some(once) = format(&text, options) else {
                continue;
            };
            formatted += 1;
            assert_eq!(tokens(&once), tokens(&text), "{}: tokens changed:\n{once}", f.display());
            assert_eq!(squeezed(&once), squeezed(&text), "{}: text changed:\n{once}", f.display());
            let twice = format(&once, options).expect("formatted text lexes");
            assert_eq!(twice, once, "{}: not idempotent ({options:?})", f.display());
            assert!(!once.lines().any(|l| l.ends_with([' ', '\t'])), "{}", f.display());
            // Formatting a range: line for line, the same tokens.
            let lines = crate::front::format::format_lines(&text, options).unwrap();
            assert!(lines.len() >= text.lines().count(), "{}", f.display());
            for (new, old) in lines.iter().zip(text.lines()) {
                assert_eq!(tokens(new), tokens(old), "{}: {old:?} -> {new:?}", f.display());
            }
        }
    }
    assert!(formatted > 200, "{formatted} formatted");
}

#[test]
fn the_layout_is_canonical() {
    let messy = "\
// A compute shader.
#define N  4
RWStructuredBuffer<float> output:register(u0);
[numthreads( 8,1,1 )]
void main(uint3 id:SV_DispatchThreadID)
{
float x=-1.0f*2;   // trailing comment
  if(id.x<N){x+=id.x ;}


    switch(id.y){
    case 0:x=x-  -1;break;
    default:
        x = f( x , 2 )[0];
    }
output[id.x]=x;
}
";
    let attach = "\
// A compute shader.
#define N  4
RWStructuredBuffer<float> output : register(u0);
[numthreads(8, 1, 1)]
void main(uint3 id : SV_DispatchThreadID) {
    float x = -1.0f * 2; // trailing comment
    if (id.x < N) {
        x += id.x;
    }

    switch (id.y) {
    case 0:
        x = x - -1;
        break;
    default:
        x = f(x, 2)[0];
    }
    output[id.x] = x;
}
";
    assert_eq!(format(messy, &FormatOptions::default()).unwrap(), attach);
    let allman = FormatOptions {
        braces: BraceStyle::Allman,
        use_tabs: true,
        ..FormatOptions::default()
    };
    let tabs = format(messy, &allman).unwrap();
    assert!(tabs.contains("void main(uint3 id : SV_DispatchThreadID)\n{\n\tfloat x"), "{tabs}");
    assert!(tabs.contains("\tswitch (id.y)\n\t{\n\tcase 0:"), "{tabs}");
    let clang = FormatOptions::default()
        .with_clang_format("BasedOnStyle: LLVM\nIndentWidth: 2\nUseTab: Never\nColumnLimit: 80\nBreakBeforeBraces: Allman\n");
    assert_eq!(clang.indent_width, 2);
    assert_eq!(clang.column_limit, 80);
    assert_eq!(clang.braces, BraceStyle::Allman);
    assert!(!clang.use_tabs);
    // File-scope attributes go on a line of their own; statement ones and
    // Vulkan's stay.
    let attrs = "[numthreads(8, 1, 1)] [shader(\"compute\")] void main() {\n    [unroll] for (;;) {}\n}\n[[vk::binding(0)]] Texture2D t;\n";
    assert_eq!(
        format(attrs, &FormatOptions::default()).unwrap(),
        "[numthreads(8, 1, 1)] [shader(\"compute\")]\nvoid main() {\n    [unroll] for (;;) {}\n}\n[[vk::binding(0)]] Texture2D t;\n"
    );
    // Bodies without braces are one level deeper.
    let bodies = "void f(int x) {\nif (x)\nx = 1;\nelse\nfor (;;)\nx++;\n}\n";
    assert_eq!(
        format(bodies, &FormatOptions::default()).unwrap(),
        "void f(int x) {\n    if (x)\n        x = 1;\n    else\n        for (;;)\n            x++;\n}\n"
    );
    // A line over `ColumnLimit` breaks after the last comma that fits.
    let narrow = FormatOptions {
        column_limit: 40,
        ..FormatOptions::default()
    };
    let long = "void f() {\n    g(alpha, beta + gamma, delta, epsilon, zeta);\n}\n";
    let wrapped = format(long, &narrow).unwrap();
    assert_eq!(wrapped, "void f() {\n    g(alpha, beta + gamma, delta,\n        epsilon, zeta);\n}\n");
    assert_eq!(format(&wrapped, &narrow).unwrap(), wrapped);
    // A statement's lines are joined where it cannot end; initializer
    // lists keep theirs.
    let broken = "void f(int a,\n  int b) {\n    float x =\n        1;\n    x = a\n      - b;\n    g(a,\n      b);\n    float2 v = { 1,\n        2 };\n}\n";
    assert_eq!(
        format(broken, &FormatOptions::default()).unwrap(),
        "void f(int a, int b) {\n    float x = 1;\n    x = a - b;\n    g(a, b);\n    float2 v = { 1,\n        2 };\n}\n"
    );
    // Template brackets and comparisons, casts.
    let angles = "template<typename T> T id(T x) { return x; }\nTexture2D < float4 > t;\nvector<vector<int,2>,2> v;\nvoid f(int a, int b) {\n    bool c = a<b && b>a, d = a<b;\n    float4 x = (float4) 1 + t.Load<float4>(int3(0, 0, 0)) + id<float>(a>>1);\n    x = (S<T>) 0;\n    return (int) a;\n}\n";
    assert_eq!(
        format(angles, &FormatOptions::default()).unwrap(),
        "template <typename T> T id(T x) {\n    return x;\n}\nTexture2D<float4> t;\nvector<vector<int, 2>, 2> v;\nvoid f(int a, int b) {\n    bool c = a < b && b > a, d = a < b;\n    float4 x = (float4)1 + t.Load<float4>(int3(0, 0, 0)) + id<float>(a >> 1);\n    x = (S<T>)0;\n    return (int)a;\n}\n"
    );
    // An index follows its operand; attributes stand apart.
    let brackets = "void f() {\n    [unroll][loop] for (;;) { m[1] [2] = 0; }\n}\n";
    assert_eq!(
        format(brackets, &FormatOptions::default()).unwrap(),
        "void f() {\n    [unroll] [loop] for (;;) {\n        m[1][2] = 0;\n    }\n}\n"
    );
    // A comment between a head and its body without braces is indented
    // as the body.
    let comment = "void f(int x) {\nif (x)\n// one\nx = 1;\n}\n";
    assert_eq!(
        format(comment, &FormatOptions::default()).unwrap(),
        "void f(int x) {\n    if (x)\n        // one\n        x = 1;\n}\n"
    );
    // A long expression breaks after its loosest operator that fits.
    let sum = "void f() {\n    float z = alpha * beta + gamma * delta;\n}\n";
    let narrow = FormatOptions {
        column_limit: 36,
        ..FormatOptions::default()
    };
    let wrapped_sum = format(sum, &narrow).unwrap();
    assert_eq!(wrapped_sum, "void f() {\n    float z = alpha * beta +\n        gamma * delta;\n}\n");
    assert_eq!(format(&wrapped_sum, &narrow).unwrap(), wrapped_sum);
    // Text the lexer cannot read is not formatted.
    assert_eq!(format("string s = \"open;\n", &FormatOptions::default()), None);
}
