//! `GetAttributeAtVertex(attr, vertex)` (SM 6.1): a pixel shader reads a
//! `nointerpolation` input as one vertex of the primitive wrote it.
//!
//! When any code calls it, every `nointerpolation` scalar or vector input
//! of the pixel shader is an array of three decorated `PerVertexKHR`
//! (SPV_KHR_fragment_shader_barycentric), as DXC declares them; the wrapper
//! reads vertex 0 for the parameter's plain value (`io.rs`). The call
//! itself names the input by its path from the entry's parameter
//! (`input.color`), which is resolved here to the array variable.

use super::Sema;
use crate::diag::{Diagnostic, codes};
use crate::front::ast;
use crate::ir;
use crate::sema::body::place::Val;
use crate::sema::body::{FnCtx, LocalSym};
use crate::sema::calls::{Arg, Viable};
use crate::sema::context::VertexInput;
use crate::sema::types;
use crate::sema::{Dir, TArg};
use crate::span::Span;

impl<'a> Sema<'a> {
    /// Notes an entry parameter whose inputs may be read per vertex.
    pub(super) fn vertex_root(&mut self, name: Option<crate::intern::Symbol>, span: Span) {
        if let Some(n) = name
            && self.entry.vertex.enabled
        {
            self.entry.vertex.roots.push((n, span));
        }
    }
}

impl<'s, 'a> FnCtx<'s, 'a> {
    /// `GetAttributeAtVertex(attr, vertex)` in a pixel shader.
    pub fn get_attribute_at_vertex(&mut self, args: &'a [ast::Expr], span: Span) -> Val {
        if args.len() != 2 {
            return self.error(
                codes::WRONG_ARG_COUNT,
                format!(
                    "`GetAttributeAtVertex` takes 2 arguments (an input and a vertex index), {} given",
                    args.len()
                ),
                span,
                "expected `GetAttributeAtVertex(input, vertex)`",
            );
        }
        let attr = self.expr(&args[0]);
        let vertex = self.expr(&args[1]);
        if attr.is_error() || vertex.is_error() {
            return Val::error();
        }
        let vertex = self.cast(vertex, types::UINT, args[1].span);
        let Some(index) = self.value(&vertex) else {
            return Val::error();
        };
        let Some(input) = self.vertex_input(&args[0]) else {
            if let Some(path) = self.vertex_path(&args[0])
                && let Some(whole) = self
                    .s
                    .entry
                    .vertex
                    .unsupported
                    .iter()
                    .find(|n| path == **n || path.starts_with(&format!("{n}.")))
            {
                let msg = format!(
                    "GetAttributeAtVertex on `{whole}`, a `nointerpolation` input that is not a scalar or vector of numbers"
                );
                return self.unsupported(msg, args[0].span);
            }
            self.s.push(
                Diagnostic::error(
                    codes::BAD_SEMANTIC,
                    "`GetAttributeAtVertex` reads a `nointerpolation` input of the pixel shader",
                )
                .label(args[0].span, "not a `nointerpolation` stage input")
                .note(
                    "pass the entry point's parameter, or a field of it, declared \
                     `nointerpolation` (a scalar or vector), or a `nointerpolation` \
                     parameter given one",
                ),
            );
            return Val::error();
        };
        let array_ty = self.s.module.globals[input.var].ty;
        let apty = self.ptr_type(array_ty, ir::AddressSpace::Input);
        let pty = self.ptr_type(input.elem, ir::AddressSpace::Input);
        let base = self.add(ir::Expression::GlobalVariable(input.var), apty);
        let ptr = self.add(ir::Expression::Access { base, index }, pty);
        let v = self.add(ir::Expression::Load { pointer: ptr }, input.elem);
        self.cast(Val::expr(input.var_ty, v), attr.ty, span)
    }

    /// The per-vertex input that `e` names.
    fn vertex_input(&self, e: &ast::Expr) -> Option<VertexInput> {
        let name = self.vertex_name(e)?;
        self.s.entry.vertex.by_name.get(&name).copied()
    }

    /// The name of the per-vertex pixel input (or of a struct of them)
    /// that `e` denotes: an entry parameter in the entry function, a
    /// `nointerpolation` parameter bound to one in a called function, and
    /// fields of either (`input.color`).
    /// (Asked at every argument of every call: the test whether the entry
    /// reads per-vertex inputs at all is inlined there.)
    #[inline]
    pub(crate) fn vertex_name(&self, e: &ast::Expr) -> Option<String> {
        if !self.s.entry.vertex.enabled {
            return None;
        }
        self.vertex_input_named(e)
    }

    /// [`Self::vertex_name`] when the entry reads per-vertex inputs.
    fn vertex_input_named(&self, e: &ast::Expr) -> Option<String> {
        let name = self.vertex_path(e)?;
        let prefix = format!("{name}.");
        let vertex = &self.s.entry.vertex.by_name;
        (vertex.contains_key(&name) || vertex.keys().any(|k| k.starts_with(&prefix)))
            .then_some(name)
    }

    /// The path `e` names from an entry parameter (or a parameter bound to
    /// a per-vertex input), whether or not an input has that name.
    fn vertex_path(&self, e: &ast::Expr) -> Option<String> {
        if !self.s.entry.vertex.enabled {
            return None;
        }
        let mut fields = Vec::new();
        let mut cur = e;
        let root = loop {
            match &cur.kind {
                ast::ExprKind::Member(obj, f) => {
                    fields.push(f.name);
                    cur = obj;
                }
                ast::ExprKind::Name(p) if p.is_single() => break p.last().name,
                _ => return None,
            }
        };
        // The parameter itself, not a local that hides it.
        let Some(LocalSym::Var(lv)) = self.fb.locals.lookup(root) else {
            return None;
        };
        let mut name = if self.s.entry.user == Some(self.fb.handle)
            && self.s.entry.vertex.roots.contains(&(root, lv.span))
        {
            root.to_string()
        } else {
            let &(_, _, input) = self
                .fb
                .vertex_params
                .iter()
                .find(|(n, sp, _)| *n == root && *sp == lv.span)?;
            input.to_string()
        };
        for f in fields.iter().rev() {
            name.push('.');
            name.push_str(f.as_str());
        }
        Some(name)
    }

    /// The per-vertex inputs a call passes to the callee's
    /// `nointerpolation` parameters: each such argument must be one, as
    /// the callee may read it per vertex.
    pub(in crate::sema) fn vertex_arguments(
        &mut self,
        chosen: &Viable<'a>,
        args: &[Arg],
    ) -> Result<Vec<TArg>, Val> {
        let mut out = Vec::new();
        for (i, p) in chosen.sig.params.iter().enumerate() {
            if p.interp != Some(ir::Interpolation::Flat)
                || p.dir != Dir::In
                || self.s.types.is_resource(p.ty)
            {
                continue;
            }
            let Some(a) = args.get(i) else {
                continue;
            };
            match a.vertex {
                Some(input) => out.push(TArg::Vertex {
                    param: i as u16,
                    input,
                }),
                None => {
                    let f = self.s.decls.funcs[chosen.id].name;
                    self.s.push(
                        Diagnostic::error(
                            codes::BAD_SEMANTIC,
                            format!(
                                "parameter {i} of `{f}` is `nointerpolation`: its argument must be a `nointerpolation` input of the pixel shader"
                            ),
                        )
                        .label(a.span, "not a per-vertex input")
                        .label(p.span, "declared `nointerpolation` here")
                        .note("`GetAttributeAtVertex` may read the parameter at each vertex of the primitive"),
                    );
                    return Err(Val::error());
                }
            }
        }
        Ok(out)
    }
}
