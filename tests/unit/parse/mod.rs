//! Parser tests: the AST shape of tricky constructs, error recovery, and
//! depth limits. Inputs go through the real preprocessor
//! ([`crate::front::parse_program`]).

use crate::diag::{Diagnostic, Diagnostics};
use crate::front::ast::{self, ExprKind, Item, StmtKind, TypeSpecKind};
use crate::source::SourceMap;
use crate::tests::common;

pub struct Parsed {
    pub unit: ast::TranslationUnit,
    pub diags: Vec<Diagnostic>,
    pub sm: SourceMap,
}

/// Preprocesses and parses `text` as the file `main.hlsl`.
pub fn parse_str(text: &str) -> Parsed {
    let (loader, path) = common::single_file(text);
    let mut sm = SourceMap::new();
    let mut diags = Diagnostics::new();
    let parsed = crate::front::parse_program(
        &path,
        &loader,
        &crate::front::preprocess::PreprocessOptions::default(),
        &mut sm,
        &mut diags,
    );
    Parsed {
        unit: std::sync::Arc::unwrap_or_clone(parsed.unit),
        diags: diags.list,
        sm,
    }
}

/// Parses and asserts there were no diagnostics at all.
pub(super) fn ok(text: &str) -> ast::TranslationUnit {
    let p = parse_str(text);
    if !p.diags.is_empty() {
        panic!(
            "unexpected diagnostics:\n{}",
            crate::diag::render_to_string(&p.diags, &p.sm, crate::diag::DiagnosticFormat::Short)
        );
    }
    p.unit
}

pub(super) fn errors(text: &str) -> Vec<String> {
    parse_str(text)
        .diags
        .iter()
        .filter(|d| d.is_error())
        .map(|d| d.message.clone())
        .collect()
}

pub(super) fn func<'a>(u: &'a ast::TranslationUnit, name: &str) -> &'a ast::Function {
    u.items
        .iter()
        .find_map(|i| match i {
            Item::Function(f) if f.name.last().name.as_str() == name => Some(f),
            _ => None,
        })
        .unwrap_or_else(|| panic!("no function {name}"))
}

pub(super) fn body(f: &ast::Function) -> &[ast::Stmt] {
    &f.body.as_ref().expect("a body").stmts
}

/// The expression of the `i`th statement (an expression statement or a
/// `return`) in `main`.
pub(super) fn expr_of(u: &ast::TranslationUnit, i: usize) -> &ast::Expr {
    match &body(func(u, "main"))[i].kind {
        StmtKind::Expr(e) | StmtKind::Return(Some(e)) => e,
        StmtKind::Decl(d) => match &d.declarators[0].init {
            Some(ast::Initializer::Expr(e)) => e,
            other => panic!("not an expression initializer: {other:?}"),
        },
        other => panic!("not an expression statement: {other:?}"),
    }
}

/// A path as written: `ns::S`, `::g`, `[S<T>]::value` (the template
/// instance qualifier in brackets).
pub(super) fn path_name(path: &ast::Path) -> String {
    let mut s: Vec<String> = path.segments.iter().map(|s| s.name.to_string()).collect();
    if path.global {
        s.insert(0, String::new());
    }
    if let Some(q) = &path.qualifier {
        s.insert(0, format!("[{}]", type_name(&q.0)));
    }
    s.join("::")
}

pub(super) fn type_name(t: &ast::TypeSpec) -> String {
    match &t.kind {
        TypeSpecKind::Named { path, args } => {
            let mut s = path_name(path);
            if let Some(a) = args {
                let inner: Vec<String> = a
                    .iter()
                    .map(|a| match a {
                        ast::TemplateArg::Type(t) => type_name(t),
                        ast::TemplateArg::Expr(e) => show(e),
                    })
                    .collect();
                s.push_str(&format!("<{}>", inner.join(",")));
            }
            s
        }
        TypeSpecKind::Struct(s) => format!(
            "struct {}",
            s.name.map_or("<anon>".to_string(), |n| n.name.to_string())
        ),
        TypeSpecKind::Array { element, dims } => format!("{}[{}]", type_name(element), dims.len()),
    }
}

/// A compact S-expression of an expression, for shape assertions.
pub(super) fn show(e: &ast::Expr) -> String {
    use ast::Literal;
    match &e.kind {
        ExprKind::Literal(Literal::Int { value, .. }) => value.to_string(),
        ExprKind::Literal(Literal::Float { text, .. }) => text.to_string(),
        ExprKind::Literal(Literal::Bool(b)) => b.to_string(),
        ExprKind::Literal(Literal::String(s)) => format!("{:?}", s.as_str()),
        ExprKind::Name(p) => path_name(p),
        ExprKind::This => "this".into(),
        ExprKind::Unary(op, x) => format!("({op:?} {})", show(x)),
        ExprKind::Binary(op, a, b) => format!("({op:?} {} {})", show(a), show(b)),
        ExprKind::Assign(op, a, b) => format!("(= {op:?} {} {})", show(a), show(b)),
        ExprKind::Ternary(c, a, b) => format!("(? {} {} {})", show(c), show(a), show(b)),
        ExprKind::Comma(a, b) => format!("(, {} {})", show(a), show(b)),
        ExprKind::Cast(t, x) => format!("(cast {} {})", type_name(t), show(x)),
        ExprKind::Construct(t, args) => format!("(new {}{})", type_name(t), list(args)),
        ExprKind::Call(c) => format!(
            "(call {}{}{})",
            c.callee
                .segments
                .iter()
                .map(|s| s.name.to_string())
                .collect::<Vec<_>>()
                .join("::"),
            targs(&c.template_args),
            list(&c.args)
        ),
        ExprKind::MethodCall {
            object,
            method,
            template_args,
            args,
        } => format!(
            "(method {} {}{}{})",
            show(object),
            method.name,
            targs(template_args),
            list(args)
        ),
        ExprKind::Member(x, f) => format!("(. {} {})", show(x), f.name),
        ExprKind::Index(a, i) => format!("([] {} {})", show(a), show(i)),
        ExprKind::InitList(v) => format!("{{{}}}", v.len()),
        ExprKind::SizeOfType(t) => format!("(sizeof {})", type_name(t)),
        ExprKind::SizeOfExpr(x) => format!("(sizeof {})", show(x)),
        ExprKind::Error => "<error>".into(),
    }
}

fn list(v: &[ast::Expr]) -> String {
    v.iter().map(|e| format!(" {}", show(e))).collect()
}

fn targs(t: &Option<Box<[ast::TemplateArg]>>) -> String {
    match t {
        None => String::new(),
        Some(a) => {
            let inner: Vec<String> = a
                .iter()
                .map(|a| match a {
                    ast::TemplateArg::Type(t) => type_name(t),
                    ast::TemplateArg::Expr(e) => show(e),
                })
                .collect();
            format!("<{}>", inner.join(","))
        }
    }
}

/// Parses `void main() { BODY }` and shows the first statement's expression.
pub(super) fn expr(body_text: &str) -> String {
    expr_in("", body_text)
}

/// Like [`expr`], with declarations before `main`.
pub(super) fn expr_in(prelude: &str, body_text: &str) -> String {
    let u = ok(&format!("{prelude}\nvoid main() {{ {body_text} }}"));
    show(expr_of(&u, 0))
}

// ---------------------------------------------------------------------------
// Expressions
// ---------------------------------------------------------------------------

#[test]
fn precedence_and_associativity() {
    assert_eq!(expr("a + b * c;"), "(Add a (Mul b c))");
    assert_eq!(expr("a - b - c;"), "(Sub (Sub a b) c)");
    assert_eq!(expr("a = b = c;"), "(= None a (= None b c))");
    assert_eq!(expr("a += b ? c : d;"), "(= Some(Add) a (? b c d))");
    assert_eq!(
        expr("a || b && c | d ^ e & f == g < h << i;"),
        "(LogicalOr a (LogicalAnd b (BitOr c (BitXor d (BitAnd e (Eq f (Lt g (Shl h i))))))))"
    );
    assert_eq!(expr("a, b;"), "(, a b)");
    assert_eq!(expr("-a++;"), "(Neg (PostInc a))");
    assert_eq!(expr("!~--a;"), "(Not (BitNot (PreDec a)))");
}

#[test]
fn casts_versus_parenthesised_expressions() {
    assert_eq!(expr("(float3)x;"), "(cast float3 x)");
    assert_eq!(expr_in("struct S { int a; };", "(S)0;"), "(cast S 0)");
    assert_eq!(expr("(x)+y;"), "(Add x y)");
    assert_eq!(expr("(float)(x) - 1;"), "(Sub (cast float x) 1)");
    assert_eq!(expr("(vector<float,3>)x;"), "(cast vector<float,3> x)");
    assert_eq!(
        expr("(float4(1, 2, 3, 4)).x;"),
        "(. (new float4 1 2 3 4) x)"
    );
    assert_eq!(expr("(int)-x;"), "(cast int (Neg x))");
}

#[test]
fn comparison_chain_is_not_a_template() {
    assert_eq!(expr("a < b > c;"), "(Gt (Lt a b) c)");
    assert_eq!(expr("x < y >> 1;"), "(Lt x (Shr y 1))");
}

#[test]
fn templates_and_split_shift() {
    let u = ok("RWStructuredBuffer<vector<float, 4>> buf; Texture2DMS<float4, 8> ms;");
    let Item::Var(v) = &u.items[0] else { panic!() };
    assert_eq!(type_name(&v.ty), "RWStructuredBuffer<vector<float,4>>");
    let Item::Var(v) = &u.items[1] else { panic!() };
    assert_eq!(type_name(&v.ty), "Texture2DMS<float4,8>");
    // `>>` outside a template list is a shift
    assert_eq!(
        expr("uint x = sizeof(vector<int, 2>) >> 2;"),
        "(Shr (sizeof vector<int,2>) 2)"
    );
}

#[test]
fn method_calls_and_templates() {
    assert_eq!(expr("tex.Sample(s, uv);"), "(method tex Sample s uv)");
    assert_eq!(expr("buf.Load<uint2>(0);"), "(method buf Load<uint2> 0)");
    assert_eq!(
        expr("buf.template Load<uint2>(0);"),
        "(method buf Load<uint2> 0)"
    );
    assert_eq!(expr("a.b.c[2].xyz;"), "(. ([] (. (. a b) c) 2) xyz)");
    assert_eq!(
        expr("vk::RawBufferLoad<float>(addr);"),
        "(call vk::RawBufferLoad<float> addr)"
    );
    assert_eq!(
        expr_in("namespace ns { void f(); }", "ns::f();"),
        "(call ns::f)"
    );
    assert_eq!(expr_in("enum class E { A, B };", "E::B;"), "E::B");
    assert_eq!(expr("this.x;"), "(. this x)");
    assert_eq!(expr("s.sample.line;"), "(. (. s sample) line)");
}

#[test]
fn literals() {
    assert_eq!(expr("0x1Fu;"), "31");
    assert_eq!(expr("017;"), "15");
    // Plain decimal literals and the longest ones.
    assert_eq!(expr("0;"), "0");
    assert_eq!(expr("7;"), "7");
    assert_eq!(expr("123;"), "123");
    assert_eq!(expr("999999999999999999;"), "999999999999999999");
    assert_eq!(expr("18446744073709551615;"), "18446744073709551615");
    // A float literal keeps its text as written, suffix included (sema
    // reads the suffix from `suffix` and parses the digits before it).
    assert_eq!(expr("1.5e-3h;"), "1.5e-3h");
    assert_eq!(expr("\"ab\" \"cd\";"), "\"abcd\"");
    let u = ok("void main() { 3ul; 2.0L; 1.f; }");
    match &body(func(&u, "main"))[0].kind {
        StmtKind::Expr(e) => assert!(matches!(
            e.kind,
            ExprKind::Literal(ast::Literal::Int {
                value: 3,
                suffix: ast::IntSuffix::UL
            })
        )),
        _ => panic!(),
    }
    match &body(func(&u, "main"))[1].kind {
        StmtKind::Expr(e) => assert!(matches!(
            e.kind,
            ExprKind::Literal(ast::Literal::Float {
                suffix: ast::FloatSuffix::L,
                ..
            })
        )),
        _ => panic!(),
    }
    assert_eq!(
        errors("void main() { 99999999999999999999999; }"),
        ["integer literal is too large"]
    );
}

// ---------------------------------------------------------------------------
// Declarations
// ---------------------------------------------------------------------------

pub(super) fn var(u: &ast::TranslationUnit, i: usize) -> &ast::VarDecl {
    match &u.items[i] {
        Item::Var(v) => v,
        other => panic!("item {i} is not a variable: {other:?}"),
    }
}

#[test]
fn globals_with_modifiers_semantics_and_registers() {
    let u = ok("static const float k = 2.0, m[4] = { 1, 2, { 3 }, 4 };
        Texture2D<float4> tex : register(t3, space1);
        SamplerState smp : register(ps_5_0, s0);
        RWBuffer<uint> rw : register(space2);
        cbuffer CB : register(b0) { float4 a : packoffset(c1.y); row_major float4x4 M; };
        tbuffer TB { float b; }
        const static uint idx;");
    let k = var(&u, 0);
    assert!(k.modifiers.has(ast::Modifier::Static) && k.modifiers.has(ast::Modifier::Const));
    assert_eq!(k.declarators.len(), 2);
    assert_eq!(k.declarators[1].array.len(), 1);
    assert!(matches!(&k.declarators[1].init, Some(ast::Initializer::List(v, _)) if v.len() == 4));
    let reg = &var(&u, 1).declarators[0].annotations.registers[0];
    assert_eq!(reg.slot.unwrap().name.as_str(), "t3");
    assert_eq!(reg.space.unwrap().name.as_str(), "space1");
    assert!(reg.profile.is_none());
    let reg = &var(&u, 2).declarators[0].annotations.registers[0];
    assert_eq!(reg.profile.unwrap().name.as_str(), "ps_5_0");
    let reg = &var(&u, 3).declarators[0].annotations.registers[0];
    assert!(reg.slot.is_none() && reg.space.is_some());
    let Item::CBuffer(cb) = &u.items[4] else {
        panic!("{:?}", u.items[4])
    };
    assert_eq!(cb.members.len(), 2);
    let po = cb.members[0].declarators[0]
        .annotations
        .packoffset
        .as_ref()
        .unwrap();
    assert_eq!(po.register.name.as_str(), "c1");
    assert_eq!(po.component.unwrap().name.as_str(), "y");
    assert!(cb.members[1].modifiers.has(ast::Modifier::RowMajor));
    assert!(
        matches!(&u.items[5], Item::Empty),
        "the `;` after a cbuffer"
    );
    assert!(matches!(&u.items[6], Item::CBuffer(c) if c.kind == ast::CBufferKind::TBuffer));
    assert!(var(&u, 7).modifiers.has(ast::Modifier::Static));
}

#[test]
fn functions_parameters_and_semantics() {
    let u = ok("float4 main(in float4 pos : SV_Position, out float2 uv : TEXCOORD0,
                   inout uint n, uniform float s = 1.0) : SV_Target { return pos; }
        void proto(float, int x[3]);
        void none(void);
        [maxvertexcount(3)] void gs(triangle float4 p[3] : SV_Position,
                                    inout TriangleStream<float4> os) {}
        [outputtopology(\"triangle\")] void ms(out indices uint3 tris[2], out vertices float4 verts[3],
                                             in payload float4 payload) {}");
    let f = func(&u, "main");
    assert_eq!(f.params.len(), 4);
    assert!(f.params[0].modifiers.has(ast::Modifier::In));
    assert_eq!(
        f.params[0].annotations.semantic.unwrap().name.as_str(),
        "SV_Position"
    );
    assert!(f.params[3].default.is_some());
    assert_eq!(
        f.return_annotations.semantic.unwrap().name.as_str(),
        "SV_Target"
    );
    let p = func(&u, "proto");
    assert!(p.body.is_none() && p.params[0].name.is_none());
    assert!(func(&u, "none").params.is_empty());
    let gs = func(&u, "gs");
    assert_eq!(gs.attrs[0].name.last().name.as_str(), "maxvertexcount");
    assert!(gs.params[0].modifiers.has(ast::Modifier::Triangle));
    let ms = func(&u, "ms");
    assert!(ms.params[0].modifiers.has(ast::Modifier::Indices));
    assert_eq!(ms.params[2].name.unwrap().name.as_str(), "payload");
}

#[test]
fn attributes_single_and_double_bracket() {
    let u = ok("[numthreads(8, 8, 1)] [shader(\"compute\")] void main() {
            [unroll(4)] for (int i = 0; i < 4; i++) {}
            [loop] while (true) { break; }
            [branch] if (x) {} else {}
            [flatten] [branch] if (y) discard;
        }
        [[vk::binding(0, 1)]] Texture2D t;
        [[vk::push_constant]] ConstantBuffer<S0> pc;
        [[vk::location(2), vk::ext_decorate(1, 2)]] float4 v;");
    let f = func(&u, "main");
    assert_eq!(f.attrs.len(), 2);
    assert_eq!(f.attrs[0].args.len(), 3);
    let st = body(f);
    assert_eq!(st[0].attrs[0].name.last().name.as_str(), "unroll");
    assert_eq!(st[3].attrs.len(), 2);
    let t = var(&u, 1);
    assert_eq!(t.attrs[0].name.segments.len(), 2);
    assert_eq!(var(&u, 3).attrs.len(), 2);
}

#[test]
fn structs_typedefs_enums_namespaces() {
    let u = ok(
        "struct S { float a : TEXCOORD0; nointerpolation uint b; static const int K = 3;
                       float get() { return a; } uint f : 4; };
        struct T : S { S inner; };
        struct V { float v; } vv, ww[2];
        struct { int q; } anon;
        typedef float4 Color, Colors[3];
        typedef struct { int z; } Z;
        Color c; Colors cs; Z z;
        float S::get2() { return a * 2; }
        enum E { A, B = 2, };
        enum class F : uint { X = 1 };
        namespace ns { namespace inner { struct Q { int q; }; } }
        ns::inner::Q q;
        using namespace ns;
        using Alias = vector<float, 3>;
        Alias al;
        interface I { float f(); };
        class C : I { float f() { return 1; } };",
    );
    let Item::Struct(s) = &u.items[0] else {
        panic!()
    };
    assert_eq!(s.members.len(), 5);
    let ast::StructMember::Field(f) = &s.members[4] else {
        panic!()
    };
    assert!(f.declarators[0].bit_width.is_some());
    let Item::Struct(t) = &u.items[1] else {
        panic!()
    };
    assert_eq!(type_name(&t.bases[0]), "S");
    // `struct V {…} vv, ww[2];` is a struct and a variable of it.
    assert!(matches!(&u.items[2], Item::Struct(s) if s.name.unwrap().name.as_str() == "V"));
    assert_eq!(type_name(&var(&u, 3).ty), "V");
    assert_eq!(type_name(&var(&u, 4).ty), "struct <anon>");
    assert!(matches!(&u.items[5], Item::Typedef(t) if t.name.name.as_str() == "Color"));
    assert!(matches!(&u.items[6], Item::Typedef(t) if t.array.len() == 1));
    assert_eq!(type_name(&var(&u, 8).ty), "Color");
    assert_eq!(type_name(&var(&u, 10).ty), "Z");
    let g = func(&u, "get2");
    assert_eq!(g.name.segments.len(), 2);
    let ns_q = u.items.iter().find_map(|i| match i {
        Item::Var(v) if v.declarators[0].name.name.as_str() == "q" => Some(v),
        _ => None,
    });
    assert_eq!(type_name(&ns_q.unwrap().ty), "ns::inner::Q");
    assert!(
        u.items
            .iter()
            .any(|i| matches!(i, Item::Enum(e) if e.scoped && e.underlying.is_some()))
    );
    assert!(
        u.items
            .iter()
            .any(|i| matches!(i, Item::Using(ast::Using::Namespace { .. })))
    );
}

#[test]
fn templates() {
    let u = ok(
        "template<typename T, int N = 2> T sum(T a[N]) { T s = 0; return s; }
        template<typename T> struct Box { T v; T get() { return v; } };
        Box<float4> b;
        template<class T> using Vec = vector<T, 4>;
        Vec<int> vi;
        void main() { float x = sum<float, 3>(arr); float y = sum(arr); Box<Box<int>> bb; }",
    );
    let f = func(&u, "sum");
    assert_eq!(f.template.as_ref().unwrap().params.len(), 2);
    assert_eq!(type_name(&f.return_type), "T");
    assert_eq!(type_name(&var(&u, 2).ty), "Box<float4>");
    assert_eq!(show(expr_of(&u, 0)), "(call sum<float,3> arr)");
    assert_eq!(show(expr_of(&u, 1)), "(call sum arr)");
    // `T` is a type only inside its template.
    assert_eq!(expr("T + 1;"), "(Add T 1)");
}

#[test]
fn names_qualified_by_template_instances() {
    let u = ok(
        "template <typename T> struct Trait { typedef T type; static const uint size = 4; };
        template <typename T> struct Outer { struct Inner { static const int k = 1; }; };
        template <typename T> T zero() { typename Trait<T>::type z = 0; return z; }
        void main() {
            uint a = Trait<half>::size;
            Trait<float>::type b = Outer<Trait<int> >::Inner::k;
            return Outer<Outer<int>>::Inner::k;
        }",
    );
    // `typename Trait<T>::type` declares a local of that type.
    match &body(func(&u, "zero"))[0].kind {
        StmtKind::Decl(d) => assert_eq!(type_name(&d.ty), "[Trait<T>]::type"),
        other => panic!("not a declaration: {other:?}"),
    }
    assert_eq!(show(expr_of(&u, 0)), "[Trait<half>]::size");
    match &body(func(&u, "main"))[1].kind {
        // Without `typename`: `type` is a member type of some struct.
        StmtKind::Decl(d) => assert_eq!(type_name(&d.ty), "[Trait<float>]::type"),
        other => panic!("not a declaration: {other:?}"),
    }
    assert_eq!(show(expr_of(&u, 1)), "[Outer<Trait<int>>]::Inner::k");
    assert_eq!(show(expr_of(&u, 2)), "[Outer<Outer<int>>]::Inner::k");
}

#[test]
fn statements() {
    let u = ok("void main() {
        int a = 1, b[2] = { 1, 2 };
        if (a) a = 2; else if (b[0]) a = 3; else { a = 4; }
        for (;;) break;
        for (a = 0; a < 3; ++a) continue;
        while (a--) {}
        do { a++; } while (a < 10);
        switch (a) { case 1: a = 2; break; case 2: default: return; }
        struct L { int x; } l;
        typedef int I2;
        I2 i2 = 3;
        ;
        discard;
        return;
    }");
    let st = body(func(&u, "main"));
    assert!(
        matches!(&st[1].kind, StmtKind::If { else_: Some(e), .. } if matches!(e.kind, StmtKind::If { .. }))
    );
    assert!(matches!(
        &st[2].kind,
        StmtKind::For {
            init: None,
            cond: None,
            step: None,
            ..
        }
    ));
    assert!(matches!(
        &st[3].kind,
        StmtKind::For {
            init: Some(_),
            cond: Some(_),
            step: Some(_),
            ..
        }
    ));
    assert!(matches!(&st[5].kind, StmtKind::DoWhile { .. }));
    let StmtKind::Switch { body: sw, .. } = &st[6].kind else {
        panic!()
    };
    assert_eq!(sw.stmts.len(), 6);
    assert!(matches!(&st[7].kind, StmtKind::Struct(_)));
    assert!(matches!(&st[8].kind, StmtKind::Decl(_)));
    assert!(matches!(&st[9].kind, StmtKind::Typedef(_)));
    assert!(matches!(&st[10].kind, StmtKind::Decl(_)));
}

#[test]
fn dangling_else_binds_to_the_nearest_if() {
    let u = ok("void main() { if (a) if (b) x(); else y(); }");
    let StmtKind::If {
        then, else_: None, ..
    } = &body(func(&u, "main"))[0].kind
    else {
        panic!()
    };
    assert!(matches!(&then.kind, StmtKind::If { else_: Some(_), .. }));
}

#[test]
fn declarations_versus_expressions() {
    // A type followed by a name declares; a type followed by `(` constructs.
    let u = ok("struct S { int a; }; void main() { S s; float4(1, 2, 3, 4); S(s); a * b; }");
    let st = body(func(&u, "main"));
    assert!(matches!(&st[0].kind, StmtKind::Decl(_)));
    assert!(matches!(&st[1].kind, StmtKind::Expr(e) if matches!(e.kind, ExprKind::Construct(..))));
    assert!(matches!(&st[2].kind, StmtKind::Expr(e) if matches!(e.kind, ExprKind::Construct(..))));
    assert!(matches!(&st[3].kind, StmtKind::Expr(e) if matches!(e.kind, ExprKind::Binary(..))));
}

#[test]
fn contextual_keywords_as_names() {
    let u = ok(
        "float sample; float4 line : COLOR; uint vertices, indices, primitives, shared, export;
        struct P { float point; float linear; };
        float f(float triangle, float payload) { return sample * line.x + triangle + payload; }
        void main() { float center = sample; sample = 1; line.x = 2; }",
    );
    assert_eq!(var(&u, 0).declarators[0].name.name.as_str(), "sample");
    assert_eq!(var(&u, 2).declarators.len(), 5);
    assert_eq!(show(expr_of(&u, 0)), "sample");
    assert_eq!(show(expr_of(&u, 1)), "(= None sample 1)");
    // and still modifiers where a type follows
    let u = ok("sample float4 a; linear centroid float b; void main() { sample float c = 1; }");
    assert!(var(&u, 0).modifiers.has(ast::Modifier::Sample));
    assert!(var(&u, 1).modifiers.has(ast::Modifier::Centroid));
}

#[test]
fn builtin_type_names_as_variable_names() {
    let u = ok("RWStructuredBuffer<uint> Buffer; void main() { Buffer[0] = 1; }");
    assert_eq!(var(&u, 0).declarators[0].name.name.as_str(), "Buffer");
    assert_eq!(show(expr_of(&u, 0)), "(= None ([] Buffer 0) 1)");
    // A local hides a struct's name, in its scope only.
    let u = ok("struct Ray { float t; };
        void main() { float Ray = 1; Ray = 2; }
        Ray r;");
    assert_eq!(show(expr_of(&u, 1)), "(= None Ray 2)");
    assert_eq!(type_name(&var(&u, 2).ty), "Ray");
    // So does a parameter, in its function's body only.
    let u = ok("struct Ray { float t; };
        float f(float Ray) { return Ray * 2; }
        float g(float Ray);
        Ray r;");
    let f = func(&u, "f");
    assert!(matches!(&body(f)[0].kind, StmtKind::Return(Some(e)) if show(e) == "(Mul Ray 2)"));
    assert_eq!(type_name(&var(&u, 3).ty), "Ray");
}

#[test]
fn operators_and_unsigned() {
    let u = ok(
        "struct M { float3 operator[](int i) { return 0; } M operator*(M o) { return o; }
                          void operator()() {} };
        unsigned int u; signed int s; unsigned int64_t w;",
    );
    let Item::Struct(m) = &u.items[0] else {
        panic!()
    };
    let names: Vec<String> = m
        .members
        .iter()
        .filter_map(|x| match x {
            ast::StructMember::Method(f) => Some(f.name.last().name.to_string()),
            _ => None,
        })
        .collect();
    assert_eq!(names, ["operator[]", "operator*", "operator()"]);
    assert_eq!(type_name(&var(&u, 1).ty), "uint");
    assert_eq!(type_name(&var(&u, 2).ty), "int");
    assert_eq!(type_name(&var(&u, 3).ty), "uint64_t");
}

#[test]
fn effects_syntax_is_ignored_with_warnings() {
    let p = parse_str(
        "float Scale < string UIName = \"Scale\"; float UIMin = 0.0; > = 1.0;
        technique T0 { pass P0 { VertexShader = compile vs_2_0 VS(); } }
        float4 main() : SV_Target { return Scale; }",
    );
    assert!(p.diags.iter().all(|d| !d.is_error()), "{:?}", p.diags);
    assert_eq!(p.diags.len(), 2);
    assert!(p.unit.items.iter().any(|i| matches!(i, Item::Technique)));
    assert!(p.unit.items.iter().any(|i| matches!(i, Item::Function(_))));
    // State blocks, D3D10 and D3D9 style.
    let p = parse_str(
        "SamplerState s { Filter = MIN_MAG_MIP_LINEAR; AddressU = Wrap; };
        sampler2D t = sampler_state { Texture = <tex>; MinFilter = LINEAR; };
        float4 main() : SV_Target { return 0; }",
    );
    assert!(p.diags.iter().all(|d| !d.is_error()), "{:?}", p.diags);
    assert_eq!(p.diags.len(), 2);
    assert!(matches!(&p.unit.items[0], Item::Var(v) if v.declarators[0].init.is_none()));
}

#[test]
fn pragmas_at_declaration_level_are_kept() {
    let u = ok("float a;
#pragma pack_matrix(row_major)
namespace N {
#pragma pack_matrix(column_major)
}
void main() {
#pragma unroll
    float b;
}");
    assert!(matches!(&u.items[1], Item::Pragma(p) if p.text.as_str().contains("row_major")));
    let Item::Namespace(n) = &u.items[2] else {
        panic!("{:?}", u.items[2])
    };
    assert!(matches!(&n.items[0], Item::Pragma(_)));
    // Inside a function a pragma is dropped.
    assert_eq!(body(func(&u, "main")).len(), 1);
}

#[test]
fn errors_inside_macro_expansions_point_into_the_macro() {
    let p = parse_str("#define BAD(x) (x * )\nfloat f(float y) { return BAD(y); }");
    assert_eq!(p.diags.len(), 1, "{:?}", p.diags);
    let text = crate::diag::render_to_string(&p.diags, &p.sm, crate::diag::DiagnosticFormat::Human);
    assert!(text.contains("in expansion of macro 'BAD'"), "{text}");
}

#[test]
fn hlsl_specific_forms() {
    // literal swizzles
    assert_eq!(expr("0.xxxx;"), "(. 0 xxxx)");
    assert_eq!(expr("int3(3.xxx);"), "(new int3 (. 3 xxx))");
    // array types where a type stands alone
    assert_eq!(
        expr("buf.Load<float2[3]>(0);"),
        "(method buf Load<float2[1]> 0)"
    );
    assert_eq!(expr("sizeof(int16_t3[2]);"), "(sizeof int16_t3[1])");
    assert_eq!(expr("(float[4])x;"), "(cast float[1] x)");
    // modifiers inside a template argument or a cast
    let u =
        ok("StructuredBuffer<row_major float3x3> sb; void main() { (column_major float2x2)m; }");
    let TypeSpecKind::Named { args: Some(a), .. } = &var(&u, 0).ty.kind else {
        panic!()
    };
    let ast::TemplateArg::Type(t) = &a[0] else {
        panic!()
    };
    assert!(t.modifiers.has(ast::Modifier::RowMajor));
    // bitwise expressions in template arguments
    assert_eq!(
        type_name(&var(&ok("RayQuery<RAY_FLAG_A | RAY_FLAG_B> q;"), 0).ty),
        "RayQuery<(BitOr RAY_FLAG_A RAY_FLAG_B)>"
    );
    // assignment to a cast
    assert_eq!(
        expr_in("struct B { int b; };", "(B)d = (B)e;"),
        "(= None (cast B d) (cast B e))"
    );
    // globallycoherent, auto
    let u = ok("globallycoherent RWTexture2D<float> t; void main() { auto a = 1; }");
    assert!(var(&u, 0).modifiers.has(ast::Modifier::Globallycoherent));
    // out-of-line static member definition
    let u = ok("struct T { static float4 M; }; float4 T::M = 1;");
    assert_eq!(
        var(&u, 1).declarators[0]
            .qualifier
            .as_ref()
            .unwrap()
            .last()
            .name
            .as_str(),
        "T"
    );
    // attributes after `struct`, elaborated and forward struct types
    let u = ok(
        "struct [NodeTrackRWInputSharing] R { uint a; }; typedef struct block_s block_t; block_t b;",
    );
    assert!(matches!(&u.items[0], Item::Struct(s) if s.attrs.len() == 1));
    // functions in a cbuffer are global functions
    let u = ok("cbuffer C { float v; float get() { return v; } };");
    assert!(matches!(&u.items[1], Item::Function(_)));
}

#[test]
fn declarations_in_conditions() {
    let u = ok(
        "void main() { if (int d = f()) x(); while (int a = g()) { } switch (int c = 1) { default: break; } }",
    );
    let st = body(func(&u, "main"));
    // `{ int d = f(); if (d) … }`
    let StmtKind::Block(b) = &st[0].kind else {
        panic!("{:?}", st[0].kind)
    };
    assert!(matches!(&b.stmts[0].kind, StmtKind::Decl(_)));
    assert!(matches!(&b.stmts[1].kind, StmtKind::If { cond, .. } if show(cond) == "d"));
    // `while (true) { int a = g(); if (!a) break; {} }`
    let StmtKind::While { cond, body: wb } = &st[1].kind else {
        panic!()
    };
    assert_eq!(show(cond), "true");
    let StmtKind::Block(wb) = &wb.kind else {
        panic!()
    };
    assert_eq!(wb.stmts.len(), 3);
    let StmtKind::Block(b) = &st[2].kind else {
        panic!()
    };
    assert!(matches!(&b.stmts[1].kind, StmtKind::Switch { .. }));
}

mod errors;
