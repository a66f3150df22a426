//! Which functions nothing calls can be shown, without lowering them, to
//! have no language error or warning: those `check_unused_functions` then
//! need not lower at all.
//!
//! The proof follows the types through a small part of the language only:
//! parameters and locals of scalar and vector types of `float`, `int` and
//! `uint`, literals, arithmetic and bitwise operators, constructors and
//! casts to such types, plain assignments to a variable, the math
//! intrinsics, and a `return` at the end. At each step it asks what
//! lowering asks (the same conversion costs, truncations, constant folds
//! and intrinsic overloads) and gives up (`None`) wherever lowering could
//! report anything; what it cannot follow is lowered as before. It reports
//! nothing and changes nothing but the type table's interned types.

use crate::front::ast::{self, BinaryOp, UnaryOp};
use crate::intern::Symbol;
use crate::sema::{Sema, Sig};
use crate::sema::body::convert::{conversion_cost, truncates};
use crate::sema::calls::intrinsics::{lookup, table};
use crate::sema::types::consteval::{self, FoldError, Konst};
use crate::sema::types::resolve::literal_konst;
use crate::sema::types::scope::{FuncDeclId, ScopeId};
use crate::sema::types::{self, Sc, Shape, TyId};

/// The math intrinsics a clean body may call: each lowers to IR math
/// without a diagnostic once its overload is chosen and its arguments
/// convert without truncation. (Their table entries are checked too.)
const MATH: &[&str] = &[
    "sqrt", "rsqrt", "saturate", "pow", "lerp", "step", "dot", "exp", "exp2", "log", "log2",
    "sin", "cos", "tan", "asin", "acos", "atan", "atan2", "floor", "ceil", "frac", "round",
    "trunc", "min", "max", "clamp", "smoothstep",
];

/// A value's type and, for a constant, its value (as lowering folds it).
#[derive(Clone, Copy)]
struct Tv {
    ty: TyId,
    k: Option<Konst>,
}

impl Tv {
    fn of(ty: TyId) -> Self {
        Tv { ty, k: None }
    }
}

/// The walk over one body: the function's scope and the variables
/// declared so far (parameters first), each with its type.
struct Walk<'w, 'a> {
    s: &'w mut Sema<'a>,
    scope: ScopeId,
    vars: &'w mut Vec<(Symbol, TyId)>,
}

/// Whether a scalar type is one a clean body may hold (no `bool`, 16- or
/// 64-bit type, whose rules this walk does not follow).
fn plain(sc: Sc) -> bool {
    matches!(sc, Sc::F32 | Sc::I32 | Sc::U32 | Sc::LitInt | Sc::LitFloat)
}

impl<'a> Sema<'a> {
    /// Whether lowering the body of `id` (a function nothing calls, not a
    /// template) certainly reports nothing: see the module's comment.
    pub(in crate::sema) fn body_is_clean(&mut self, id: FuncDeclId) -> bool {
        let d = &self.decls.funcs[id];
        let (Some(def), Some(sig)) = (d.def, d.sig.as_ref()) else {
            return false;
        };
        // The types first: most functions that are not clean take or
        // give a struct, a resource or a matrix, and are told apart here
        // (a large file has thousands of them).
        let plain_types = (sig.ret == types::VOID || self.plain_value(sig.ret))
            && sig.params.iter().all(|p| self.plain_value(p.ty));
        if !plain_types
            || d.this_ty.is_some()
            || self.scopes.enclosing_struct(d.scope).is_some()
            || !d.ast.attrs.is_empty()
            || !def.attrs.is_empty()
            || def.template.is_some()
            || def.specialization.is_some()
            || !no_annotations(&def.return_annotations)
            || def.modifiers.list.iter().any(|&(m, _)| {
                !matches!(
                    m,
                    ast::Modifier::Inline | ast::Modifier::Static | ast::Modifier::Export
                )
            })
        {
            return false;
        }
        let Some(body) = def.body.as_ref() else {
            return false;
        };
        let scope = d.scope;
        // Borrowed out of the declaration while the body is walked.
        let Some(sig) = self.decls.funcs[id].sig.take() else {
            return false;
        };
        let clean = self.sig_is_clean(&sig, body, scope);
        self.decls.funcs[id].sig = Some(sig);
        clean
    }

    /// The rest of [`Sema::body_is_clean`]: the signature and the body.
    fn sig_is_clean(&mut self, sig: &Sig<'a>, body: &'a ast::Block, scope: ScopeId) -> bool {
        if sig.ret_precise {
            return false;
        }
        let mut vars: Vec<(Symbol, TyId)> = Vec::with_capacity(sig.params.len() + 8);
        for p in &sig.params {
            let Some(name) = p.name else {
                return false;
            };
            let plain_modifiers = p.modifiers.list.iter().all(|&(m, _)| {
                matches!(m, ast::Modifier::In | ast::Modifier::Out | ast::Modifier::Inout)
            });
            if !plain_modifiers
                || p.default.is_some()
                || p.precise
                || p.interp.is_some()
                || p.sampling.is_some()
                || p.semantic.is_some()
                || !p.attrs.is_empty()
                || vars.iter().any(|&(n, _)| n == name)
            {
                return false;
            }
            vars.push((name, p.ty));
        }
        let mut w = Walk {
            s: self,
            scope,
            vars: &mut vars,
        };
        let n = body.stmts.len();
        for (i, st) in body.stmts.iter().enumerate() {
            let last = i + 1 == n;
            if w.stmt(st, sig.ret, last).is_none() {
                return false;
            }
        }
        // A function with a value to return must end in a `return`
        // (else lowering warns that it may not).
        sig.ret == types::VOID
            || body
                .stmts
                .last()
                .is_some_and(|s| matches!(s.kind, ast::StmtKind::Return(Some(_))))
    }

    /// A scalar or vector type of `float`, `int` or `uint`.
    fn plain_value(&self, ty: TyId) -> bool {
        matches!(
            self.types.get(ty),
            types::Ty::Scalar(Sc::F32 | Sc::I32 | Sc::U32)
                | types::Ty::Vector(Sc::F32 | Sc::I32 | Sc::U32, _)
        )
    }
}

/// The scalar of a spelling of `float`, `int` or `uint` (as
/// `builtin_scalar` reads them whatever the options; a test checks), not
/// asked of `builtin_scalar` itself, which type resolution then calls
/// out of line.
fn plain_spelling(base: &str) -> Option<Sc> {
    match base {
        "float" | "float32_t" => Some(Sc::F32),
        "int" | "int32_t" => Some(Sc::I32),
        "uint" | "dword" | "uint32_t" => Some(Sc::U32),
        _ => None,
    }
}

/// A declarator's or function's `: semantic`, `register` and `packoffset`:
/// none.
fn no_annotations(a: &ast::Annotations) -> bool {
    a.semantic.is_none() && a.registers.is_empty() && a.packoffset.is_none()
}

impl<'a> Walk<'_, 'a> {
    fn var(&self, name: Symbol) -> Option<TyId> {
        self.vars.iter().rev().find(|&&(n, _)| n == name).map(|&(_, t)| t)
    }

    /// One statement of the body (`last`: the body's last).
    fn stmt(&mut self, st: &'a ast::Stmt, ret: TyId, last: bool) -> Option<()> {
        if !st.attrs.is_empty() {
            return None;
        }
        match &st.kind {
            ast::StmtKind::Empty => Some(()),
            ast::StmtKind::Decl(vd) => self.decl(vd),
            ast::StmtKind::Expr(e) => {
                // A plain assignment to a variable, the only statement
                // expression followed.
                let ast::ExprKind::Assign(None, l, r) = &e.kind else {
                    return None;
                };
                let ast::ExprKind::Name(path) = &l.kind else {
                    return None;
                };
                let lt = self.var(single(path)?)?;
                let v = self.expr(r)?;
                self.implicit(v, lt)
            }
            // Statements after a `return` are lowered as unreachable code:
            // only a last one is followed.
            ast::StmtKind::Return(e) if last => match (e, ret == types::VOID) {
                (None, true) => Some(()),
                (Some(e), false) => {
                    let v = self.expr(e)?;
                    self.implicit(v, ret)
                }
                _ => None,
            },
            _ => None,
        }
    }

    /// `T a = e, b;`: no modifiers, attributes, arrays or annotations;
    /// a name not declared before (in the body or as a parameter).
    fn decl(&mut self, vd: &'a ast::VarDecl) -> Option<()> {
        if !vd.attrs.is_empty() || !vd.modifiers.is_empty() {
            return None;
        }
        let ty = self.type_spec(&vd.ty)?;
        for d in &vd.declarators {
            if d.qualifier.is_some()
                || !d.array.is_empty()
                || !no_annotations(&d.annotations)
                || d.bit_width.is_some()
                || self.var(d.name.name).is_some()
            {
                return None;
            }
            // In scope in its own initializer, as lowering declares it.
            self.vars.push((d.name.name, ty));
            match &d.init {
                None => {}
                Some(ast::Initializer::Expr(e)) => {
                    if matches!(e.kind, ast::ExprKind::InitList(_)) {
                        return None;
                    }
                    let v = self.expr(e)?;
                    self.implicit(v, ty)?;
                }
                Some(ast::Initializer::List(..)) => return None,
            }
        }
        Some(())
    }

    /// A scalar or vector type written by its built-in name, which no
    /// declaration in scope (nor a variable) takes.
    fn type_spec(&mut self, ts: &ast::TypeSpec) -> Option<TyId> {
        let ast::TypeSpecKind::Named { path, args: None } = &ts.kind else {
            return None;
        };
        if !ts.modifiers.is_empty() {
            return None;
        }
        let name = single(path)?;
        let (base, n, None) = crate::intern::builtins::numeric_spelling(name)? else {
            return None;
        };
        // The scope tree is searched only where some scope declares a
        // built-in type's spelling (else the search finds nothing).
        if self.var(name).is_some()
            || (self.s.scopes.builtin_declared()
                && self.s.scopes.lookup(self.scope, name).is_some())
        {
            return None;
        }
        Some(self.s.types.vector(plain_spelling(base)?, n))
    }

    /// An implicit conversion (initializer, assignment, return, argument)
    /// that reports nothing: possible, and not truncating.
    fn implicit(&self, v: Tv, to: TyId) -> Option<()> {
        let t = &self.s.types;
        (v.ty == to || (conversion_cost(t, v.ty, to).is_some() && !truncates(t, v.ty, to)))
            .then_some(())
    }

    /// An explicit conversion (a cast, a constructor of one argument),
    /// as `convert_impl` and `convert_numeric` make it.
    fn cast(&mut self, v: Tv, to: TyId) -> Option<Tv> {
        if v.ty == to {
            return Some(v);
        }
        let fs = self.s.types.shape(v.ty)?;
        let ts = self.s.types.shape(to)?;
        let tc = self.s.types.component(to)?;
        match (fs, ts) {
            (a, b) if a == b => {}
            (Shape::Scalar, _) | (Shape::Vector(_), Shape::Scalar) => {}
            (Shape::Vector(n), Shape::Vector(m)) if m < n => {}
            _ => return None,
        }
        Some(match v.k {
            Some(k) if ts == Shape::Scalar => Tv {
                ty: to,
                k: Some(k.convert(tc)),
            },
            _ => Tv::of(to),
        })
    }

    fn expr(&mut self, e: &'a ast::Expr) -> Option<Tv> {
        use ast::ExprKind as E;
        match &e.kind {
            E::Literal(l) => {
                let k = literal_konst(l, self.s.opts.enable_16bit_types)?;
                plain(k.sc).then(|| Tv {
                    ty: self.s.types.scalar(k.sc),
                    k: Some(k),
                })
            }
            E::Name(path) => self.var(single(path)?).map(Tv::of),
            E::Unary(op @ (UnaryOp::Neg | UnaryOp::Plus), x) => {
                let v = self.expr(x)?;
                self.unary(*op, v)
            }
            E::Binary(op, a, b) => {
                let va = self.expr(a)?;
                let vb = self.expr(b)?;
                self.binary(*op, va, vb)
            }
            E::Cast(ts, x) => {
                if matches!(x.kind, E::InitList(_)) {
                    return None;
                }
                let t = self.type_spec(ts)?;
                let v = self.expr(x)?;
                self.cast(v, t)
            }
            E::Construct(ts, args) => self.construct(ts, args),
            E::Call(c) => self.call(c),
            _ => None,
        }
    }

    /// `-x`, `+x`, as `unary_val` lowers them.
    fn unary(&mut self, op: UnaryOp, v: Tv) -> Option<Tv> {
        if let Some(k) = v.k
            && let Ok(r) = consteval::fold_unary(op, k)
        {
            return plain(r.sc).then(|| Tv {
                ty: self.s.types.scalar(r.sc),
                k: Some(r),
            });
        }
        let comp = self.s.types.component(v.ty)?;
        let shape = self.s.types.shape(v.ty)?;
        let t = self.s.types.with_shape(comp.concrete(), shape);
        if op == UnaryOp::Neg {
            self.implicit(v, t)?;
        }
        Some(Tv::of(t))
    }

    /// A binary operator, as `binary_vals` (and `shift`) lower it; no
    /// comparisons or logical operators (their `bool`s are not followed).
    fn binary(&mut self, op: BinaryOp, va: Tv, vb: Tv) -> Option<Tv> {
        use BinaryOp as B;
        if !matches!(
            op,
            B::Add | B::Sub | B::Mul | B::Div | B::Rem | B::BitAnd | B::BitOr | B::BitXor | B::Shl | B::Shr
        ) {
            return None;
        }
        if let (Some(x), Some(y)) = (va.k, vb.k) {
            match consteval::fold_binary(op, x, y) {
                Ok(r) => {
                    return plain(r.sc).then(|| Tv {
                        ty: self.s.types.scalar(r.sc),
                        k: Some(r),
                    });
                }
                Err(FoldError::DivisionByZero) => return None,
                Err(FoldError::BadOperands) => {}
            }
        }
        let (ca, cb) = (self.s.types.component(va.ty)?, self.s.types.component(vb.ty)?);
        let (sa, sb) = (self.s.types.shape(va.ty)?, self.s.types.shape(vb.ty)?);
        if matches!(op, B::Shl | B::Shr) {
            if ca.is_float() || cb.is_float() {
                return None;
            }
            let shape = if sa == Shape::Scalar { sb } else { sa };
            let lc = if ca == Sc::LitInt { Sc::I32 } else { ca };
            let lt = self.s.types.with_shape(lc, shape);
            self.implicit(va, lt)?;
            self.implicit(vb, lt)?;
            return Some(Tv::of(lt));
        }
        // Operands of different sizes are truncated with a warning.
        let shape = match (sa, sb) {
            (x, y) if x == y => x,
            (Shape::Scalar, y) => y,
            (x, Shape::Scalar) => x,
            _ => return None,
        };
        let comp = consteval::common_scalar(ca, cb).concrete();
        if !plain(comp) || (matches!(op, B::BitAnd | B::BitOr | B::BitXor) && comp.is_float()) {
            return None;
        }
        let ct = self.s.types.with_shape(comp, shape);
        let t = &self.s.types;
        (conversion_cost(t, va.ty, ct).is_some() && conversion_cost(t, vb.ty, ct).is_some())
            .then_some(Tv::of(ct))
    }

    /// `float3(a, b)`, `float(x)`, as `construct` lowers them.
    fn construct(&mut self, ts: &ast::TypeSpec, args: &'a [ast::Expr]) -> Option<Tv> {
        let t = self.type_spec(ts)?;
        let mut vals = Vec::with_capacity(args.len());
        for a in args {
            vals.push(self.expr(a)?);
        }
        let first = *vals.first()?;
        if vals.len() == 1 && (self.s.types.is_scalar(t) || self.s.types.is_scalar(first.ty)) {
            return self.cast(first, t);
        }
        if self.s.types.is_scalar(t) {
            return None;
        }
        let have: u32 = vals.iter().map(|v| self.s.types.flat_count(v.ty)).sum();
        (have == self.s.types.flat_count(t)).then_some(Tv::of(t))
    }

    /// A math intrinsic, named by no declaration or variable: its overload
    /// resolved as `intrinsic` resolves it, and each argument converted
    /// without truncation.
    fn call(&mut self, c: &'a ast::CallExpr) -> Option<Tv> {
        if c.template_args.is_some() {
            return None;
        }
        let name = single(&c.callee)?;
        if self.var(name).is_some()
            || self.s.scopes.lookup(self.scope, name).is_some()
            || !MATH.contains(&name.as_str())
        {
            return None;
        }
        let intr = lookup::find_symbol(name)?;
        let generic = intr.overloads.iter().all(|o| {
            o.params.iter().all(|p| !p.out)
                && matches!(
                    o.lower,
                    table::Lower::Math(_) | table::Lower::Custom(table::Custom::Dot)
                )
        });
        if !generic {
            return None;
        }
        let mut vals = Vec::with_capacity(c.args.len());
        for a in &c.args {
            vals.push(self.expr(a)?);
        }
        let mut best: Option<(crate::sema::calls::intrinsics::Resolved, u64)> = None;
        for ov in intr.overloads {
            if let Some((r, cost)) = self.s.resolve_overload(ov, vals.len(), |i| vals[i].ty)
                && best.as_ref().is_none_or(|(_, bc)| cost < *bc)
            {
                best = Some((r, cost));
            }
        }
        let (r, _) = best?;
        for (v, &p) in vals.iter().zip(&r.params) {
            self.implicit(*v, p)?;
        }
        Some(Tv::of(r.ret))
    }
}

/// The name of a path of one plain segment.
fn single(path: &ast::Path) -> Option<Symbol> {
    (path.is_single() && !path.global && path.qualifier.is_none()).then(|| path.last().name)
}

#[cfg(test)]
mod tests {
    use super::super::worklist::language_diagnostic;
    use crate::sema::Sema;
    use crate::tests::common;

    const MAIN: &str = "[numthreads(1, 1, 1)] void main() {}\n";

    /// Each function nothing calls in `src`, by name: whether the walk
    /// finds it clean, and the language diagnostics lowering it reports
    /// (as `check_unused_functions` lowers it).
    fn verdicts(src: &str) -> Vec<(String, bool, Vec<&'static str>)> {
        let (loader, path) = common::single_file(&format!("{src}{MAIN}"));
        let options = common::options_for("cs_6_0");
        let (parsed, _, mut diags) = crate::parse(&path, &loader, &options);
        assert!(!diags.has_errors(), "{:?}", diags.list);
        let so = options.sema_options();
        let stage = options.profile.map(|p| p.stage).expect("profile");
        let mut s = Sema::declared(&parsed.unit, &so, &mut diags, stage);
        s.lower_entry_and_reachable();
        let unused = s.unused_functions();
        let mut marks = Vec::new();
        for id in unused {
            let name = s.decls.funcs[id].name.as_str().to_owned();
            let clean = s.body_is_clean(id);
            let from = s.diagnostic_mark();
            s.func_ir(id);
            while let Some(p) = s.work.next() {
                s.lower_function_body(p.func, p.decl, p.env, p.inst, true);
            }
            marks.push((name, clean, from, s.diagnostic_mark()));
        }
        drop(s);
        marks
            .into_iter()
            .map(|(name, clean, from, to)| {
                let found = diags.list[from..to]
                    .iter()
                    .filter(|d| language_diagnostic(d.code))
                    .map(|d| d.code.0)
                    .collect();
                (name, clean, found)
            })
            .collect()
    }

    /// The walk agrees with lowering: whatever it finds clean, lowering
    /// reports nothing for; and it finds the helpers of `samples/` clean.
    #[test]
    fn clean_bodies_report_nothing_when_lowered() {
        let src = r#"
float Lum(float3 c) { return dot(c, float3(0.2126f, 0.7152f, 0.0722f)); }
float3 Srgb(float3 c) {
    c = saturate(c);
    float3 lo = c * 12.92f;
    float3 hi = 1.055f * pow(c, 1.0f / 2.4f) - 0.055f;
    return lerp(lo, hi, step(0.0031308f, c));
}
float3 Unpack(float2 t) { float2 xy = t * 2.0f - 1.0f; float z = sqrt(saturate(1.0f - dot(xy, xy))); return float3(xy, z); }
uint Hash(uint v) { uint s = v * 747796405u + 2891336453u; uint w = ((s >> ((s >> 28u) + 4u)) ^ s) * 277803737u; return (w >> 22u) ^ w; }
float ToUnit(uint h) { return float(h >> 8) * (1.0f / 16777216.0f); }
void Tri(uint id, out float4 pos, out float2 uv) {
    uv = float2((id << 1) & 2, id & 2);
    pos = float4(uv * float2(2.0f, -2.0f) + float2(-1.0f, 1.0f), 0.0f, 1.0f);
}
int Neg(int a) { int b = -a, c; c = b % 3; return c; }
float Splat(float a) { float4 v = a; float4 w = float4(a, v.xy, 1); return a; }
float3 Trunc(float4 v) { return v; }
float3 Mixed(float3 a, float4 b) { return a + b; }
float3 ShiftWide(uint3 a, uint4 b) { return a << b; }
int DivZero(int a) { return a + 1 / 0; }
int RemZero(int a) { return a + 7 % 0; }
float NoReturn(float a) { float b = a; }
float BitsOfFloat(float a) { return a & 1; }
float Unknown(float a) { return a + missing; }
float Redeclared(float a) { float a = 1; return a; }
float3 DotTrunc(float3 a, float4 b) { return dot(a, b); }
float LerpTrunc(float3 a, float4 b) { return lerp(a, b, 0.5f).x; }
float ScalarOf(float3 a) { float b = a; return b; }
float BadCount(float a) { float3 v = float3(a, a); return a; }
float NoOverload(float a) { return pow(a); }
void ReturnsValue(float a) { return a; }
float EarlyReturn(float a) { return a; float3 v = float4(a, a, a, a); }
float Called(float a) { return a; }
float Shadowed(float x) { return frac(x); }
float frac(float a) { return a; }
float Precise(precise float a) { return a; }
float Bools(float a) { bool b = a; return a; }
float Halfs(float a) { half h = a; return h; }
"#;
        let want_clean = [
            "Lum", "Srgb", "Unpack", "Hash", "ToUnit", "Tri", "Neg", "Called", "frac",
        ];
        let v = verdicts(src);
        assert!(v.len() >= 30, "{v:?}");
        for (name, clean, found) in &v {
            assert!(!clean || found.is_empty(), "{name}: clean, yet lowering reports {found:?}");
            assert_eq!(*clean, want_clean.contains(&name.as_str()), "{name}: {found:?}");
        }
        // The edge cases the walk gives up on do report something.
        for name in [
            "Trunc", "Mixed", "ShiftWide", "DivZero", "RemZero", "NoReturn", "BitsOfFloat",
            "Unknown", "Redeclared", "DotTrunc", "LerpTrunc", "ScalarOf", "BadCount",
            "NoOverload", "ReturnsValue",
        ] {
            let found = v.iter().find(|(n, _, _)| n == name).map(|(_, _, f)| f.len());
            assert!(found.is_some_and(|n| n > 0), "{name}: {found:?}");
        }
    }

    /// The spellings the walk reads are those type resolution reads so.
    #[test]
    fn plain_spellings_agree_with_builtin_scalar() {
        use crate::sema::types::resolve::builtin_scalar;
        for name in ["float", "float32_t", "int", "int32_t", "uint", "dword", "uint32_t"] {
            for enable_16bit in [false, true] {
                assert_eq!(super::plain_spelling(name), builtin_scalar(name, enable_16bit), "{name}");
            }
        }
        for name in ["half", "double", "bool", "min16float", "int64_t", "uint16_t"] {
            assert_eq!(super::plain_spelling(name), None, "{name}");
        }
    }

    /// Errors and warnings in functions nothing calls are reported as
    /// before, in the order of the functions (a callee declared later with
    /// its caller; one called only by another unused function, and a
    /// template's instance, with their caller), whatever is skipped as
    /// clean between them.
    #[test]
    fn unused_functions_report_in_order_around_clean_ones() {
        let src = r#"
float Lum(float3 c) { return dot(c, float3(0.2f, 0.7f, 0.1f)); }
float3 Trunc(float4 v) { return v; }
template<typename T> T Twice(T x) { return x * undeclared; }
float Inner(float a) { return a + missing; }
float Outer(float a) { return Inner(a) + Twice(a); }
float Caller(float a) { return Later(a); }
uint Hash(uint v) { uint s = v * 747796405u + 2891336453u; return (s >> 22u) ^ s; }
float Later(float a) { float3 v = float4(a, a, a, a); return a; }
float3 Mixed(float3 a, float4 b) { return a + b; }
int DivZero(int a) { return a + 1 / 0; }
float NoReturn(float a) { float b = a; }
"#;
        let (loader, path) = common::single_file(&format!("{src}{MAIN}"));
        let c = crate::compile(&path, &loader, &common::options_for("cs_6_0"));
        let got: Vec<(&str, String)> = c
            .diagnostics
            .list
            .iter()
            .map(|d| {
                let label = d.labels.first().map(|l| l.message.as_str()).unwrap_or("");
                (d.code.0, format!("{} / {label}", d.message))
            })
            .collect();
        let trunc = "implicit truncation of vector type";
        let want = [
            ("W0301", format!("{trunc} / `float4` truncated to `float3`")),
            ("E0301", "cannot find `missing` in this scope / not declared".to_owned()),
            ("E0301", "cannot find `undeclared` in this scope / not declared".to_owned()),
            ("W0301", format!("{trunc} / `float4` truncated to `float3`")),
            ("W0301", format!("{trunc} / operands of different sizes: the larger is truncated")),
            ("E0701", "integer division by zero / the divisor is zero".to_owned()),
            (
                "W0501",
                "`NoReturn` may reach its end without returning a value / control can reach the end of this body"
                    .to_owned(),
            ),
        ];
        let want: Vec<(&str, String)> = want.into_iter().collect();
        assert_eq!(got, want);
    }
}
