//! Tests of the type table.

use super::*;

#[test]
fn interning_and_aliases() {
    let mut t = Types::new();
    assert_eq!(t.scalar(Sc::F32), FLOAT);
    assert_eq!(t.vector(Sc::F32, 1), FLOAT);
    let v = t.vector(Sc::F32, 4);
    assert_eq!(t.vector(Sc::F32, 4), v);
    assert_eq!(t.name(v), "float4");
    let m = t.matrix(Sc::I32, 2, 3);
    assert_eq!(t.name(m), "int2x3");
    let a = t.array(v, Some(3));
    let aa = t.array(a, Some(2));
    assert_eq!(t.name(aa), "float4[2][3]");
    assert_eq!(t.flat_count(aa), 24);
}

#[test]
fn arithmetic_ranks() {
    assert!(Sc::F16.arith_rank() > Sc::U64.arith_rank());
    assert!(Sc::U32.arith_rank() > Sc::I32.arith_rank());
    assert!(Sc::LitFloat.arith_rank() > Sc::I64.arith_rank());
    assert!(Sc::LitInt.arith_rank() < Sc::I16.arith_rank());
}

/// `builtin_numeric` resolves every scalar, vector and matrix spelling
/// (with and without 16-bit types) as `resolve_named_type` does, gives
/// nothing for other names, and stands aside once the scope tree or a
/// function's block scopes declare such a spelling.
#[test]
fn builtin_numeric_agrees_with_resolve_named_type() {
    use crate::diag::Diagnostics;
    use crate::front::ast::{Ident, Path};
    use crate::intern::builtins::SCALARS;
    use crate::sema::Sema;
    use crate::sema::body::{LocalSym, Locals};
    use crate::sema::options::SemaOptions;
    use crate::sema::types::resolve::Env;
    use crate::sema::types::scope::{GLOBAL_SCOPE, Sym, TypeEntry};
    let path = |name: &str| {
        Path::single(Ident {
            name: Symbol::intern(name),
            span: Span::default(),
        })
    };
    let mut forms = vec![String::new()];
    for r in 1..=4 {
        forms.push(r.to_string());
        forms.extend((1..=4).map(|c| format!("{r}x{c}")));
    }
    let numeric: Vec<(String, Path)> = SCALARS
        .iter()
        .flat_map(|sc| forms.iter().map(move |f| format!("{sc}{f}")))
        .map(|n| (n.clone(), path(&n)))
        .collect();
    let others: Vec<Path> = ["Texture2D", "void", "vector", "S", "float5", "int4x5"]
        .into_iter()
        .map(path)
        .collect();
    let (float2, float3, uint2) = (path("float2"), path("float3"), path("uint2"));
    let entry = |ty| TypeEntry {
        ty,
        major: None,
        features: None,
    };
    for enable_16bit_types in [false, true] {
        let so = SemaOptions {
            enable_16bit_types,
            ..SemaOptions::default()
        };
        let mut diags = Diagnostics::default();
        let mut s = Sema::new(&so, &mut diags, ir::Stage::Compute);
        let env = Env::at(GLOBAL_SCOPE);
        for (name, p) in &numeric {
            let fast = s.builtin_numeric(p, &env);
            let slow = s.resolve_named_type(p, None, &env, Span::default()).ty;
            assert_eq!(fast, Some(slow), "{name}");
        }
        for p in &others {
            assert_eq!(s.builtin_numeric(p, &env), None, "{p:?}");
        }
        // A block scope declaring a spelling (only the function's lowering
        // sees it), then the scope tree.
        let mut locals = Locals::default();
        locals.declare(Symbol::intern("x"), LocalSym::Type(entry(INT)));
        let with_locals = Env {
            scope: GLOBAL_SCOPE,
            locals: Some(&locals),
        };
        assert!(s.builtin_numeric(&float2, &with_locals).is_some());
        locals.declare(float2.last().name, LocalSym::Type(entry(INT)));
        let with_locals = Env {
            scope: GLOBAL_SCOPE,
            locals: Some(&locals),
        };
        assert_eq!(s.builtin_numeric(&float3, &with_locals), None);
        assert!(s.builtin_numeric(&float3, &env).is_some());
        let declared = s.scopes.declare(GLOBAL_SCOPE, uint2.last().name, Sym::Type(entry(INT)));
        assert!(declared.is_ok());
        assert_eq!(s.builtin_numeric(&float3, &env), None);
        assert_eq!(s.resolve_named_type(&uint2, None, &env, Span::default()).ty, INT);
        drop(s);
        assert!(diags.list.is_empty(), "{:?}", diags.list);
    }
}
