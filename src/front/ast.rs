//! The untyped AST, as the grammar builds it. Every node is spanned.
//!
//! The AST keeps what the user wrote; names are not resolved and types are
//! not checked (that is `sema`). Nesting depth is bounded by the parser
//! (see `front::parser::MAX_NESTING`), so recursive walks over the AST cannot
//! overflow the stack.

use crate::intern::Symbol;
use crate::span::Span;

/// An identifier with its span.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Ident {
    pub name: Symbol,
    pub span: Span,
}

/// A possibly qualified name: `x`, `ns::f`, `S::method`, `::g`,
/// `S<T>::value`, `A<B<int>>::Inner::f`.
#[derive(Clone, Debug, PartialEq)]
pub struct Path {
    /// `::x` (global scope).
    pub global: bool,
    /// A template instance the path starts in: `S<T>` in `S<T>::value`
    /// (the segments then name members of that type).
    pub qualifier: Option<TypeQualifier>,
    pub segments: Segments,
    pub span: Span,
}

/// The type a qualified name starts from (`S<T>` in `S<T>::x`). Two
/// qualifiers are equal when they are the same text: the same span.
#[derive(Clone, Debug)]
pub struct TypeQualifier(pub Box<TypeSpec>);

impl PartialEq for TypeQualifier {
    fn eq(&self, other: &Self) -> bool {
        self.0.span == other.0.span
    }
}

/// A path's names. Nearly every path is one name (every variable, call
/// and type named in a body): it is kept inline, without an allocation.
pub type Segments = smallvec::SmallVec<[Ident; 1]>;

impl Path {
    pub fn single(id: Ident) -> Path {
        Path {
            global: false,
            qualifier: None,
            segments: smallvec::smallvec![id],
            span: id.span,
        }
    }
    /// The last segment (the name itself).
    pub fn last(&self) -> Ident {
        *self
            .segments
            .last()
            .expect("a path has at least one segment")
    }
    pub fn is_single(&self) -> bool {
        !self.global && self.qualifier.is_none() && self.segments.len() == 1
    }
}

/// A whole translation unit (after preprocessing).
#[derive(Clone, Debug, Default)]
pub struct TranslationUnit {
    pub items: Vec<Item>,
    /// Some code calls `GetAttributeAtVertex`: a pixel shader's
    /// `nointerpolation` inputs are then read per vertex (DXC declares them
    /// as arrays of three). Noted by the parser, so that sema knows it
    /// before it declares the stage inputs.
    pub reads_vertex_attributes: bool,
}

#[derive(Clone, Debug)]
pub enum Item {
    /// A global variable declaration (possibly several declarators).
    Var(VarDecl),
    /// `template<typename T> const static T S<T>::m = …;`: the definition
    /// of a static member of a struct template, for each of its instances
    /// (every declarator is qualified by the template).
    StaticMemberTemplate(TemplateParams, VarDecl),
    Function(Box<Function>),
    /// `struct`/`class`/`interface`, possibly followed by declarators
    /// (`struct S { … } s;` gives a `Struct` and a `Var` item).
    Struct(StructDecl),
    CBuffer(CBuffer),
    Typedef(Typedef),
    Enum(EnumDecl),
    Namespace(Namespace),
    Using(Using),
    /// `#pragma` text passed on by the preprocessor (`pack_matrix(row_major)`).
    Pragma(Pragma),
    /// An effects-framework `technique`/`pass` block: parsed and ignored.
    Technique,
    /// `struct S;`: the struct is defined later in the same scope (and
    /// may be named in declarations before that).
    ForwardStruct(Ident, Span),
    /// A `;` on its own.
    Empty,
    /// A declaration that failed to parse (already diagnosed).
    Error,
}

#[derive(Clone, Debug)]
pub struct Pragma {
    /// The text after `#pragma`, e.g. `pack_matrix(row_major)`.
    pub text: Symbol,
}

// ---------------------------------------------------------------------------
// Attributes, modifiers, semantics, registers
// ---------------------------------------------------------------------------

/// `[numthreads(8,8,1)]`, `[[vk::binding(0, 1)]]`, `[unroll]`, `[domain("tri")]`.
#[derive(Clone, Debug)]
pub struct Attribute {
    /// `numthreads`, or `vk::binding` (namespace segments included).
    pub name: Path,
    /// What the name stands for; `None` for an attribute hlslc does not
    /// know (the parser warned about it). Its arguments are as the
    /// registry says ([`crate::front::attributes::check_args`]).
    pub kind: Option<crate::front::attributes::Attr>,
    pub args: Vec<Expr>,
    pub span: Span,
}

impl Attribute {
    /// Argument `i` when it is a string literal (the registry checked the
    /// arguments that must be).
    pub fn string_arg(&self, i: usize) -> Option<&str> {
        match &self.args.get(i)?.kind {
            ExprKind::Literal(Literal::String(s)) => Some(s.as_str()),
            _ => None,
        }
    }
}

/// Storage classes, type modifiers, interpolation modifiers and parameter
/// directions: everything that may precede a type in a declaration.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Modifier {
    Static,
    Uniform,
    Extern,
    Groupshared,
    /// `globallycoherent` on a UAV: coherent across the whole device.
    Globallycoherent,
    Precise,
    Nointerpolation,
    Noperspective,
    Linear,
    Centroid,
    Sample,
    Volatile,
    Shared,
    Const,
    RowMajor,
    ColumnMajor,
    Snorm,
    Unorm,
    In,
    Out,
    Inout,
    Inline,
    Export,
    /// Geometry-shader input primitive: `point`, `line`, `triangle`,
    /// `lineadj`, `triangleadj`.
    Point,
    Line,
    Triangle,
    LineAdj,
    TriangleAdj,
    /// Mesh-shader parameter kinds.
    Vertices,
    Indices,
    Primitives,
    Payload,
}

/// The modifiers of one declaration, in source order, each with its span.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Modifiers {
    pub list: Vec<(Modifier, Span)>,
}

impl Modifiers {
    pub fn has(&self, m: Modifier) -> bool {
        self.list.iter().any(|&(x, _)| x == m)
    }
    pub fn is_empty(&self) -> bool {
        self.list.is_empty()
    }
}

/// `: SV_Target0`, `: TEXCOORD`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Semantic {
    pub name: Symbol,
    pub span: Span,
}

/// `: register(t3, space1)`, `: register(ps_5_0, s0)`, `: register(space2)`.
#[derive(Clone, Debug, PartialEq)]
pub struct Register {
    /// Optional shader-profile restriction (`ps_5_0`).
    pub profile: Option<Ident>,
    /// The register, e.g. `t3` (class letter + number); `None` for
    /// `register(space2)`.
    pub slot: Option<Ident>,
    /// Optional `spaceN`.
    pub space: Option<Ident>,
    pub span: Span,
}

/// `: packoffset(c2.y)`.
#[derive(Clone, Debug, PartialEq)]
pub struct PackOffset {
    /// `c2`
    pub register: Ident,
    /// `y`
    pub component: Option<Ident>,
    pub span: Span,
}

/// What may follow a declarator after `:` (several may appear).
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Annotations {
    pub semantic: Option<Semantic>,
    pub registers: Vec<Register>,
    pub packoffset: Option<Box<PackOffset>>,
}

// ---------------------------------------------------------------------------
// Types
// ---------------------------------------------------------------------------

/// A type as written.
#[derive(Clone, Debug)]
pub struct TypeSpec {
    pub kind: TypeSpecKind,
    /// Modifiers written inside the type, where a type stands alone:
    /// `StructuredBuffer<row_major float3x3>`, `(column_major float2x2)m`.
    /// Empty in declarations, whose modifiers are the declaration's.
    pub modifiers: Modifiers,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub enum TypeSpecKind {
    /// A named type with optional template arguments: `float4`, `uint`,
    /// `Texture2D<float4>`, `vector<float, 3>`, `ns::S`, `S<T>`, `void`.
    /// `unsigned int` is written as the name `uint`.
    Named {
        path: Path,
        args: Option<Vec<TemplateArg>>,
    },
    /// A struct defined in place: `struct { float a; } x;`.
    Struct(Box<StructDecl>),
    /// An array type where a type stands alone: `buf.Load<float2[3]>(0)`,
    /// `sizeof(int[2])`, `(float[4])x`. Dimensions outermost first.
    Array {
        element: Box<TypeSpec>,
        dims: Vec<Option<Expr>>,
    },
}

#[derive(Clone, Debug)]
pub enum TemplateArg {
    Type(TypeSpec),
    Expr(Expr),
}

/// `template<typename T, int N = 4>`.
#[derive(Clone, Debug)]
pub struct TemplateParams {
    pub params: Vec<TemplateParam>,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub enum TemplateParam {
    /// `typename T` or `class T`, with an optional default type.
    Type {
        name: Ident,
        default: Option<TypeSpec>,
    },
    /// `int N`, with an optional default value (the value's type is not
    /// kept: every value parameter holds an integer constant).
    Value { name: Ident, default: Option<Expr> },
}

// ---------------------------------------------------------------------------
// Declarations
// ---------------------------------------------------------------------------

/// One declared name in a declaration: `x[4] : SEM = init`.
#[derive(Clone, Debug)]
pub struct Declarator {
    /// `T` in the out-of-line definition of a static member
    /// `float4 T::M = …;`.
    pub qualifier: Option<Box<Path>>,
    pub name: Ident,
    /// Array dimensions, outermost first; `None` for `[]` (size from the
    /// initialiser, or unbounded).
    pub array: Vec<Option<Expr>>,
    pub annotations: Annotations,
    /// `uint flags : 4;`: the width of a bit-field (HLSL 2021 struct
    /// members).
    pub bit_width: Option<Box<Expr>>,
    pub init: Option<Initializer>,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub enum Initializer {
    Expr(Expr),
    /// `{ a, b, { c, d } }`
    List(Vec<Initializer>, Span),
}

impl Initializer {
    pub fn span(&self) -> Span {
        match self {
            Initializer::Expr(e) => e.span,
            Initializer::List(_, s) => *s,
        }
    }
}

/// A variable declaration: global, local, struct field or cbuffer member.
#[derive(Clone, Debug)]
pub struct VarDecl {
    pub attrs: Vec<Attribute>,
    pub modifiers: Modifiers,
    pub ty: Box<TypeSpec>,
    pub declarators: Vec<Declarator>,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct Param {
    pub attrs: Vec<Attribute>,
    /// `in`/`out`/`inout`/`uniform`, interpolation, `precise`, `const`,
    /// geometry primitive types…
    pub modifiers: Modifiers,
    pub ty: TypeSpec,
    /// Unnamed parameters are allowed in prototypes.
    pub name: Option<Ident>,
    pub array: Vec<Option<Expr>>,
    pub annotations: Annotations,
    pub default: Option<Box<Expr>>,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct Function {
    pub attrs: Vec<Attribute>,
    pub template: Option<TemplateParams>,
    /// The arguments of an explicit specialisation of a function template:
    /// `<half>` in `template<> float f<half>(half x) {…}`.
    pub specialization: Option<Vec<TemplateArg>>,
    pub modifiers: Modifiers,
    pub return_type: TypeSpec,
    /// `main`, or `S::method` for a method defined outside its struct.
    pub name: Path,
    pub params: Vec<Param>,
    /// `: SV_Target` after the parameter list.
    pub return_annotations: Annotations,
    /// `const` after the parameter list of a method.
    pub is_const: bool,
    /// `None` for a prototype.
    pub body: Option<Block>,
    pub span: Span,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StructKind {
    Struct,
    Class,
    Interface,
}

#[derive(Clone, Debug)]
pub struct StructDecl {
    pub attrs: Vec<Attribute>,
    pub kind: StructKind,
    pub template: Option<TemplateParams>,
    /// The arguments of an explicit or partial specialisation:
    /// `template<> struct Trait<half> {…}`, `template<typename T, int N>
    /// struct Traits<vector<T, N> > {…}`.
    pub specialization: Option<Vec<TemplateArg>>,
    /// `template<typename T> struct Trait;`: a template declared, not
    /// defined (its members are empty; instantiating it is an error).
    pub forward: bool,
    /// `None` for an anonymous struct.
    pub name: Option<Ident>,
    /// `struct B : A, I` (base struct and interfaces).
    pub bases: Vec<TypeSpec>,
    pub members: Vec<StructMember>,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub enum StructMember {
    Field(VarDecl),
    Method(Box<Function>),
    Struct(StructDecl),
    Typedef(Typedef),
    Enum(EnumDecl),
    Error,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CBufferKind {
    CBuffer,
    TBuffer,
}

/// `cbuffer Name : register(b0) { … }`.
#[derive(Clone, Debug)]
pub struct CBuffer {
    pub attrs: Vec<Attribute>,
    pub kind: CBufferKind,
    pub name: Ident,
    pub annotations: Annotations,
    pub members: Vec<VarDecl>,
    pub span: Span,
}

/// `typedef float4 Color;`, `typedef float3x3 M[2];`,
/// `using Color = float4;` (the latter as a `Using` alias).
#[derive(Clone, Debug)]
pub struct Typedef {
    /// `[[vk::ext_capability(N)]]`, `[[vk::ext_extension("…")]]`: what a
    /// use of the name adds to the module.
    pub attrs: Vec<Attribute>,
    pub modifiers: Modifiers,
    pub ty: TypeSpec,
    pub name: Ident,
    pub array: Vec<Option<Expr>>,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct EnumDecl {
    /// `enum class`
    pub scoped: bool,
    pub name: Option<Ident>,
    /// `enum E : uint`
    pub underlying: Option<TypeSpec>,
    pub variants: Vec<(Ident, Option<Expr>)>,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct Namespace {
    pub name: Ident,
    pub items: Vec<Item>,
}

#[derive(Clone, Debug)]
pub enum Using {
    /// `using namespace ns;`
    Namespace { path: Path, span: Span },
    /// `using ns::name;`: `name` (a function's overloads, a variable)
    /// declared here as well.
    Name { path: Path, span: Span },
    /// `using T = float4;` (template aliases too).
    Alias {
        template: Option<TemplateParams>,
        /// As a typedef's [`Typedef::attrs`].
        attrs: Vec<Attribute>,
        name: Ident,
        ty: TypeSpec,
        /// `using P = const T;`: variables declared with the alias are
        /// `const` (kept for alias templates).
        is_const: Option<Span>,
        span: Span,
    },
}

// ---------------------------------------------------------------------------
// Statements
// ---------------------------------------------------------------------------

#[derive(Clone, Debug, Default)]
pub struct Block {
    pub stmts: Vec<Stmt>,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct Stmt {
    /// `[unroll]`, `[loop]`, `[branch]`, `[flatten]`, `[fastopt]`, `[call]`,
    /// `[allow_uav_condition]`, `[forcecase]`…
    pub attrs: Vec<Attribute>,
    pub kind: StmtKind,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub enum StmtKind {
    Expr(Expr),
    Decl(VarDecl),
    Typedef(Box<Typedef>),
    Struct(Box<StructDecl>),
    Enum(Box<EnumDecl>),
    Using(Box<Using>),
    Block(Block),
    If {
        cond: Expr,
        then: Box<Stmt>,
        else_: Option<Box<Stmt>>,
    },
    /// `for (init; cond; step) body`; `init` is a declaration or expression
    /// statement.
    For {
        init: Option<Box<Stmt>>,
        cond: Option<Box<Expr>>,
        step: Option<Box<Expr>>,
        body: Box<Stmt>,
    },
    While {
        cond: Expr,
        body: Box<Stmt>,
    },
    DoWhile {
        body: Box<Stmt>,
        cond: Expr,
    },
    /// The body holds `Case`/`Default` labels as statements, as in C.
    Switch {
        selector: Expr,
        body: Block,
    },
    Case(Expr),
    Default,
    Break,
    Continue,
    Discard,
    Return(Option<Expr>),
    Empty,
    /// A statement that failed to parse (already diagnosed).
    Error,
}

// ---------------------------------------------------------------------------
// Expressions
// ---------------------------------------------------------------------------

#[derive(Clone, Debug)]
pub struct Expr {
    pub kind: ExprKind,
    pub span: Span,
}

/// A call of a function by name (see [`ExprKind::Call`]).
#[derive(Clone, Debug)]
pub struct CallExpr {
    pub callee: Path,
    pub template_args: Option<Box<[TemplateArg]>>,
    pub args: Box<[Expr]>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IntSuffix {
    None,
    /// `u`
    U,
    /// `l` (64-bit in DXC), `ll`
    L,
    /// `ul`, `ull`
    UL,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FloatSuffix {
    /// No suffix: a literal float (`float` unless context says otherwise).
    None,
    /// `f`
    F,
    /// `h`
    H,
    /// `l`: double
    L,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Literal {
    /// The value (wrapped to 64 bits when it does not fit, which the parser
    /// reports).
    Int {
        value: u64,
        suffix: IntSuffix,
    },
    /// The literal as written, suffix included (`suffix` says which), so
    /// that sema rounds the digits correctly to the width it needs.
    Float {
        text: Symbol,
        suffix: FloatSuffix,
    },
    Bool(bool),
    /// A string literal's contents (escapes processed), for attributes such
    /// as `[domain("tri")]` and `printf`.
    String(Symbol),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UnaryOp {
    /// `-x`
    Neg,
    /// `+x`
    Plus,
    /// `!x`
    Not,
    /// `~x`
    BitNot,
    PreInc,
    PreDec,
    PostInc,
    PostDec,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BinaryOp {
    Add,
    Sub,
    Mul,
    Div,
    Rem,
    Shl,
    Shr,
    BitAnd,
    BitOr,
    BitXor,
    LogicalAnd,
    LogicalOr,
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
}

#[derive(Clone, Debug)]
pub enum ExprKind {
    Literal(Literal),
    /// A variable, enum value or function name: `x`, `ns::x`, `E::A`.
    Name(Path),
    /// `this`
    This,
    Unary(UnaryOp, Box<Expr>),
    Binary(BinaryOp, Box<Expr>, Box<Expr>),
    /// `a = b` (op `None`) or `a += b` (op `Some(Add)`).
    Assign(Option<BinaryOp>, Box<Expr>, Box<Expr>),
    /// `c ? a : b`
    Ternary(Box<Expr>, Box<Expr>, Box<Expr>),
    /// `a, b`
    Comma(Box<Expr>, Box<Expr>),
    /// `(float3)x`
    Cast(Box<TypeSpec>, Box<Expr>),
    /// `float3(a, b)`, `S(…)`, `Texture2D<float4>(…)`: a constructor-style
    /// conversion or construction.
    Construct(Box<TypeSpec>, Box<[Expr]>),
    /// `f(x)`, `ns::f(x)`, `S::f(x)`, `f<float>(x)`: boxed, as the
    /// largest kind (every other expression would carry its size).
    Call(Box<CallExpr>),
    /// `obj.Sample(s, uv)`, `obj.template Load<uint>(0)`.
    MethodCall {
        object: Box<Expr>,
        method: Ident,
        template_args: Option<Box<[TemplateArg]>>,
        args: Box<[Expr]>,
    },
    /// `s.x`, `v.xyz` (a swizzle is resolved by sema).
    Member(Box<Expr>, Ident),
    /// `a[i]`
    Index(Box<Expr>, Box<Expr>),
    /// `{ a, b }` where an expression is expected (e.g. `return {1, 2};`).
    InitList(Vec<Initializer>),
    /// `sizeof(T)`
    SizeOfType(Box<TypeSpec>),
    /// `sizeof(x)`
    SizeOfExpr(Box<Expr>),
    /// An expression that failed to parse (already diagnosed).
    Error,
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::mem::size_of;

    /// A large shader's AST is mostly expression nodes and statement
    /// lists: rare or large parts are boxed (a cast's type, a call's
    /// template arguments, a local declaration's type, local `struct`,
    /// `typedef`, `enum` and `using`), argument lists are exact, a call by
    /// name is boxed. Expressions were 136 bytes and statements 320, then 88
    /// and 152 before calls were boxed.
    #[test]
    fn nodes_stay_small() {
        assert!(size_of::<Expr>() <= 64, "Expr: {}", size_of::<Expr>());
        assert!(size_of::<Stmt>() <= 128, "Stmt: {}", size_of::<Stmt>());
        assert!(size_of::<Declarator>() <= 176, "Declarator: {}", size_of::<Declarator>());
    }
}
