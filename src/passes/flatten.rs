//! `flatten_resources` (`-fspv-flatten-resource-arrays`): each element of
//! an array of textures or samplers becomes a variable of its own, at the
//! consecutive bindings sema reserved for the array, as D3D binds such an
//! array one register per element (DXC's SPIR-V.rst, command-line
//! options). Arrays of buffers stay arrays (DXC does not flatten them
//! either); sema still gives them one binding per element.
//!
//! Every use of a flattened array must pick a constant element once
//! constants are folded; any other use is an error at the use.

use super::rewrite::{Unchanged, rebuild_function};
use crate::diag::{Diagnostic, Diagnostics, codes};
use crate::ir::*;
use rustc_hash::FxHashMap;

/// Splits the arrays of textures and samplers into one global each.
pub fn run(module: &mut Module, diags: &mut Diagnostics) {
    let mut split: FxHashMap<Handle<GlobalVariable>, Vec<Handle<GlobalVariable>>> =
        FxHashMap::default();
    let candidates: Vec<_> = module
        .globals
        .iter()
        .filter_map(|(h, g)| {
            let b = g.binding?;
            let TypeInner::Array {
                base,
                size: ArraySize::Constant(n),
                ..
            } = module.types[g.ty].inner
            else {
                return None;
            };
            matches!(
                module.types[base].inner,
                TypeInner::Image { .. } | TypeInner::Sampler { .. }
            )
            .then_some((h, base, n, b))
        })
        .collect();
    for (h, base, n, b) in candidates {
        let g = module.globals[h].clone();
        let name = g.name.clone().unwrap_or_default();
        let span = module.decl_spans.globals.get(&h).copied();
        let elements: Vec<_> = (0..n)
            .map(|i| {
                let e = module.globals.append(GlobalVariable {
                    name: Some(format!("{name}[{i}]")),
                    ty: base,
                    binding: Some(ResourceBinding {
                        binding: b.binding + i,
                        ..b
                    }),
                    ..g.clone()
                });
                if let Some(s) = span {
                    module.decl_spans.globals.insert(e, s);
                }
                e
            })
            .collect();
        split.insert(h, elements);
    }
    if split.is_empty() {
        return;
    }
    let handles: Vec<Handle<Function>> = module.functions.handles().collect();
    // One error per array.
    let mut reported = rustc_hash::FxHashSet::default();
    for f in handles {
        rewrite_function(module, f, &split, &mut reported, diags);
    }
}

/// The constant value of index expression `h`, if it is one.
fn constant_index(module: &Module, fun: &Function, h: Handle<Expression>) -> Option<u32> {
    let lit = match fun.expressions[h] {
        Expression::Literal(l) => l,
        Expression::Constant(c) => match module.const_expressions[c] {
            Expression::Literal(l) => l,
            _ => return None,
        },
        _ => return None,
    };
    match lit {
        Literal::U32(v) => Some(v),
        Literal::I32(v) => u32::try_from(v).ok(),
        Literal::U16(v) => Some(u32::from(v)),
        Literal::I16(v) => u32::try_from(v).ok(),
        _ => None,
    }
}

/// Points every constant element access of a split array at the element's
/// own global; reports the other uses.
fn rewrite_function(
    module: &mut Module,
    f: Handle<Function>,
    split: &FxHashMap<Handle<GlobalVariable>, Vec<Handle<GlobalVariable>>>,
    reported: &mut rustc_hash::FxHashSet<Handle<GlobalVariable>>,
    diags: &mut Diagnostics,
) {
    let fun = &module.functions[f];
    let array_of = |h: Handle<Expression>| match fun.expressions[h] {
        Expression::GlobalVariable(g) => split.get(&g).map(|e| (g, e)),
        _ => None,
    };
    let mut replace = Vec::new();
    let mut consumed = vec![false; fun.expressions.len()];
    for (h, e) in fun.expressions.iter() {
        let (base, index) = match *e {
            Expression::AccessIndex { base, index } => (base, Some(index)),
            Expression::Access { base, index } => (base, constant_index(module, fun, index)),
            _ => continue,
        };
        let Some((g, elements)) = array_of(base) else {
            continue;
        };
        consumed[base.index()] = true;
        match index.and_then(|i| elements.get(i as usize)) {
            Some(&element) => replace.push((h, element)),
            None if reported.insert(g) => {
                let name = module.globals[g].name.clone().unwrap_or_default();
                diags.push(not_constant(&name, use_span(fun, h)));
            }
            None => {}
        }
    }
    // A use of the whole array (passed on, loaded at once) cannot pick
    // its element's binding either.
    for (h, e) in fun.expressions.iter() {
        if let Expression::GlobalVariable(g) = *e
            && split.contains_key(&g)
            && !consumed[h.index()]
            && expression_is_used(fun, h)
            && reported.insert(g)
        {
            let name = module.globals[g].name.clone().unwrap_or_default();
            diags.push(not_constant(&name, use_span(fun, h)));
        }
    }
    if replace.is_empty() {
        return;
    }
    let fun = &mut module.functions[f];
    for (h, element) in replace {
        fun.expressions[h] = Expression::GlobalVariable(element);
    }
    // The accesses stood in `Emit` ranges; the globals that replace them
    // need no evaluation and must not. A rebuild that changes nothing else
    // takes them out (the last pass at -O0 is this one).
    rebuild_function(module, f, &mut Unchanged);
}

/// Whether any expression or statement of `fun` refers to `h`.
fn expression_is_used(fun: &Function, h: Handle<Expression>) -> bool {
    let mut used = false;
    for (_, e) in fun.expressions.iter() {
        e.for_each_operand(|o| used |= o == h);
    }
    crate::ir::visit::walk_statements(&fun.body, |s| {
        s.for_each_operand(|o| used |= o == h);
    });
    used
}

/// Where `h` is in the source: its own span, else that of the first
/// expression that uses it, else the function's.
fn use_span(fun: &Function, h: Handle<Expression>) -> crate::span::Span {
    let own = fun.expr_span(h);
    if own != crate::span::Span::default() {
        return own;
    }
    for (u, e) in fun.expressions.iter() {
        let mut uses = false;
        e.for_each_operand(|o| uses |= o == h);
        if uses && fun.expr_span(u) != crate::span::Span::default() {
            return fun.expr_span(u);
        }
    }
    fun.span
}

fn not_constant(name: &str, span: crate::span::Span) -> Diagnostic {
    Diagnostic::error(
        codes::UNSUPPORTED,
        format!(
            "`{name}` is flattened (-fspv-flatten-resource-arrays): each use must pick a constant element"
        ),
    )
    .label(span, "not a constant element")
    .note("index it with constants, or unroll the loop by hand: each element is a binding of its own")
}
