//! A global array of scalars initialised by a flat list of literals
//! (`static const float W[9] = { 0.1f, … };`, a table of weights or
//! offsets): its module constant is built straight from the literals,
//! without lowering the list in a scratch function and lifting the result
//! out again, which costs about a thousand instructions per element.
//!
//! It gives what that lowering gives, constant for constant and type for
//! type, in the same order (a test checks): each literal converted to the
//! element type (`Konst::convert`, as the list's explicit conversion of a
//! leaf does), one module constant per element, then the array's
//! composite. Anything else (nested lists, names, casts, a count that does
//! not match, the language server's index) is left to that lowering.

use crate::front::ast::{self, UnaryOp};
use crate::ir;
use crate::sema::Sema;
use crate::sema::body::place::konst_literal;
use crate::sema::types::consteval::{self, Konst};
use crate::sema::types::resolve::literal_konst;
use crate::sema::types::{Ty, TyId};

impl<'a> Sema<'a> {
    /// The type and module constant of `init` for a global of type `ty`
    /// when it is a flat list of (possibly negated) numeric literals for
    /// an array of scalars of the list's length (or unsized); `None`
    /// when the general lowering must run.
    pub(in crate::sema) fn literal_array_init(
        &mut self,
        ty: TyId,
        init: &'a ast::Initializer,
    ) -> Option<(TyId, ir::Handle<ir::Expression>)> {
        if self.index.is_some() {
            return None;
        }
        let items = match init {
            ast::Initializer::List(items, _) => items,
            ast::Initializer::Expr(e) => match &e.kind {
                ast::ExprKind::InitList(items) => items,
                _ => return None,
            },
        };
        let Ty::Array(elem, n) = *self.types.get(ty) else {
            return None;
        };
        let Ty::Scalar(sc) = *self.types.get(elem) else {
            return None;
        };
        if items.is_empty() || sc.is_literal() || n.is_some_and(|n| n as usize != items.len()) {
            return None;
        }
        // The leaves first, interning their types as lowering them does.
        let mut lits = Vec::with_capacity(items.len());
        for it in items {
            let ast::Initializer::Expr(e) = it else {
                return None;
            };
            lits.push(konst_literal(self.literal_leaf(e)?.convert(sc)));
        }
        let ty = match n {
            Some(_) => ty,
            None => self.types.array(elem, Some(lits.len() as u32)),
        };
        // The literals' IR type, then the array's, as lowering asks for them.
        let lit_ty = self.types.ir_scalar(&mut self.module, lits[0].scalar());
        let array_ty = self.ir_ty(ty);
        let components = lits
            .into_iter()
            .map(|l| self.module.add_const_expression(ir::Expression::Literal(l), lit_ty))
            .collect();
        let c = self.module.add_const_expression(
            ir::Expression::Compose {
                ty: array_ty,
                components,
            },
            array_ty,
        );
        Some((ty, c))
    }

    /// A numeric literal, or a negated or unary-plus one, as a constant;
    /// its types interned as `expr` and `unary_val` intern them.
    fn literal_leaf(&mut self, e: &'a ast::Expr) -> Option<Konst> {
        match &e.kind {
            ast::ExprKind::Literal(l) => {
                let k = literal_konst(l, self.opts.enable_16bit_types)?;
                self.types.scalar(k.sc);
                Some(k)
            }
            ast::ExprKind::Unary(op @ (UnaryOp::Neg | UnaryOp::Plus), x) => {
                let k = self.literal_leaf(x)?;
                let r = consteval::fold_unary(*op, k).ok()?;
                self.types.scalar(r.sc);
                Some(r)
            }
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::front::ast;
    use crate::sema::Sema;
    use crate::sema::types::resolve::Env;
    use crate::sema::types::scope::GLOBAL_SCOPE;
    use crate::tests::common;

    /// Each global of `src` declared with an initializer, through the
    /// literal shortcut in one sema and the general lowering in another:
    /// the same type, constants and IR types, or no shortcut. Gives for
    /// each global whether the shortcut took it.
    fn shortcut_agrees(src: &str) -> Vec<(String, bool)> {
        let (loader, path) = common::single_file(src);
        let options = common::options_for("cs_6_0");
        let (parsed, _, mut d1) = crate::parse(&path, &loader, &options);
        assert!(!d1.has_errors(), "{:?}", d1.list);
        let mut d2 = d1.clone();
        let so = options.sema_options();
        let stage = options.profile.map(|p| p.stage).expect("profile");
        let mut fast = Sema::new(&so, &mut d1, stage);
        let mut slow = Sema::new(&so, &mut d2, stage);
        let mut taken = Vec::new();
        for item in &parsed.unit.items {
            let ast::Item::Var(vd) = item else { continue };
            for d in &vd.declarators {
                let Some(init) = &d.init else { continue };
                let env = Env::at(GLOBAL_SCOPE);
                let base = fast.resolve_type(&vd.ty, &env).ty;
                let t_fast = fast.array_type(base, &d.array, &env, None);
                let base = slow.resolve_type(&vd.ty, &env).ty;
                let t_slow = slow.array_type(base, &d.array, &env, None);
                let got = fast.literal_array_init(t_fast, init);
                let (t_fast, c_fast) = match got {
                    Some((t, c)) => (t, Some(c)),
                    None => fast.lower_global_init_general(t_fast, init, GLOBAL_SCOPE),
                };
                let (t_slow, c_slow) = slow.lower_global_init_general(t_slow, init, GLOBAL_SCOPE);
                let name = d.name.name.as_str().to_owned();
                assert_eq!(fast.ty_name(t_fast), slow.ty_name(t_slow), "{name}");
                assert_eq!(c_fast, c_slow, "{name}");
                assert_eq!(
                    format!("{:?}", fast.module.const_expressions),
                    format!("{:?}", slow.module.const_expressions),
                    "{name}"
                );
                assert_eq!(fast.module.const_types, slow.module.const_types, "{name}");
                assert_eq!(
                    format!("{:?}", fast.module.types),
                    format!("{:?}", slow.module.types),
                    "{name}"
                );
                taken.push((name, got.is_some()));
            }
        }
        drop((fast, slow));
        assert_eq!(format!("{:?}", d1.list), format!("{:?}", d2.list));
        taken
    }

    /// The shortcut builds what lowering builds, for the lists it takes
    /// (literal kinds converted to each element type, signs, repeats,
    /// unsized arrays) and leaves the rest to lowering.
    #[test]
    fn literal_lists_build_what_lowering_builds() {
        let src = r#"
static const float W[5] = { 0.1031526f, 0.0999789f, 1, -2.5, 0.1031526f };
static const int I[] = { 1, -2, 3u, 4.75, -0.5f };
static const uint U[3] = { 4294967295, -1, 2.5 };
static const double D[2] = { 0.1, 1e300 };
static const half H[2] = { 0.1h, 65504.0 };
static const bool B[3] = { 0, 1, 2.0 };
static float Mutable[2] = { +1.0, 2 };
static const float Nested[2] = { { 1 }, 2 };
static const float Short[3] = { 1, 2 };
static const float2 Vecs[1] = { 1, 2 };
static const float Named[1] = { W[0] };
static const float Folded[] = { 1.0f / 3.0f };
static const float One = { 1 };
[numthreads(1, 1, 1)] void main() {}
"#;
        let got = shortcut_agrees(src);
        let want = [
            ("W", true),
            ("I", true),
            ("U", true),
            ("D", true),
            ("H", true),
            ("B", true),
            ("Mutable", true),
            ("Nested", false),
            ("Short", false),
            ("Vecs", false),
            ("Named", false),
            ("Folded", false),
            ("One", false),
        ];
        let want: Vec<(String, bool)> = want.iter().map(|&(n, t)| (n.to_owned(), t)).collect();
        assert_eq!(got, want);
    }
}
