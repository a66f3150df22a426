//! Expressions: names, operators with HLSL's promotion rules, assignments,
//! member access and swizzles, indexing, casts and constructors.

use crate::diag::{Diagnostic, codes};
use crate::front::ast::{self, BinaryOp, UnaryOp};
use crate::intern::Symbol;
use crate::ir;
use crate::sema::body::place::{Place, Val, ValKind};
use crate::sema::body::{FnCtx, LocalSym, LocalVar};
use crate::sema::index::{SymKey, Target};
use crate::sema::types::consteval::{ConstVal, Konst};
use crate::sema::types::resolve::literal_konst;
use crate::sema::types::scope::{GlobalId, Sym};
use crate::sema::types::{self, Sc, Ty, TyId};
use crate::sema::{GlobalKind, ReadOnly};
use crate::span::Span;
use std::collections::VecDeque;

/// Whether an expression certainly has no side effects (so both arms of a
/// `?:` may be evaluated).
pub fn is_pure(e: &ast::Expr) -> bool {
    use ast::ExprKind as E;
    match &e.kind {
        E::Literal(_) | E::Name(_) | E::This | E::SizeOfType(_) => true,
        E::Unary(op, x) => {
            !matches!(
                op,
                UnaryOp::PreInc | UnaryOp::PreDec | UnaryOp::PostInc | UnaryOp::PostDec
            ) && is_pure(x)
        }
        E::Binary(op, a, b) => {
            // Integer division may trap on no target, but keep `/` and `%`
            // conditional to be safe with side-effect-free semantics.
            !matches!(op, BinaryOp::Div | BinaryOp::Rem) && is_pure(a) && is_pure(b)
        }
        E::Ternary(c, a, b) => is_pure(c) && is_pure(a) && is_pure(b),
        E::Cast(_, x) => is_pure(x),
        E::Construct(_, args) => args.iter().all(is_pure),
        E::Member(x, _) => is_pure(x),
        E::Index(a, i) => is_pure(a) && is_pure(i),
        _ => false,
    }
}

/// Parses a vector swizzle (`xyzw` or `rgba`, not mixed).
pub(in crate::sema) fn parse_swizzle(s: &str) -> Option<Vec<u8>> {
    if s.is_empty() || s.len() > 4 {
        return None;
    }
    let xyzw = s.chars().all(|c| "xyzw".contains(c));
    let rgba = s.chars().all(|c| "rgba".contains(c));
    if !xyzw && !rgba {
        return None;
    }
    Some(
        s.chars()
            .map(|c| match c {
                'x' | 'r' => 0,
                'y' | 'g' => 1,
                'z' | 'b' => 2,
                _ => 3,
            })
            .collect(),
    )
}

/// Parses matrix element selectors: `_m01_m10` (zero-based) or `_12_21`
/// (one-based). Returns (row, column) pairs.
pub(in crate::sema) fn parse_matrix_selector(s: &str) -> Option<Vec<(u8, u8)>> {
    let mut out = Vec::new();
    let mut rest = s;
    while !rest.is_empty() {
        rest = rest.strip_prefix('_')?;
        let (zero_based, r) = match rest.strip_prefix('m') {
            Some(r) => (true, r),
            None => (false, rest),
        };
        let b = r.as_bytes();
        if b.len() < 2 || !b[0].is_ascii_digit() || !b[1].is_ascii_digit() {
            return None;
        }
        let (mut i, mut j) = (b[0] - b'0', b[1] - b'0');
        if !zero_based {
            if i == 0 || j == 0 {
                return None;
            }
            i -= 1;
            j -= 1;
        }
        if i > 3 || j > 3 {
            return None;
        }
        out.push((i, j));
        rest = &r[2..];
    }
    if out.is_empty() || out.len() > 4 {
        return None;
    }
    Some(out)
}

impl<'s, 'a> FnCtx<'s, 'a> {
    /// Lowers an expression (and, when indexing, records its type).
    pub fn expr(&mut self, e: &'a ast::Expr) -> Val {
        let v = self.expr_kind(e);
        if let Some(ix) = self.s.index.as_deref_mut()
            && !v.is_error()
        {
            ix.typed(e.span, v.ty);
        }
        v
    }

    fn expr_kind(&mut self, e: &'a ast::Expr) -> Val {
        use ast::ExprKind as E;
        match &e.kind {
            E::Literal(l) => match literal_konst(l, self.s.opts.enable_16bit_types) {
                Some(k) => {
                    let t = self.s.types.scalar(k.sc);
                    Val::konst(t, k)
                }
                None => Val {
                    ty: types::STRING,
                    kind: ValKind::Void,
                    read_only: Some(ReadOnly::Rvalue),
                },
            },
            E::Name(path) => self.name(path, e.span),
            E::This => match &self.fb.this {
                Some(v) => v.clone(),
                None => self.error(
                    codes::UNKNOWN_NAME,
                    "`this` outside a method",
                    e.span,
                    "not in a method",
                ),
            },
            E::Unary(op, x) => self.unary(*op, x, e.span),
            E::Binary(op, a, b) => self.binary(*op, a, b, e.span),
            E::Assign(op, l, r) => self.assign(*op, l, r, e.span),
            E::Ternary(c, a, b) => self.ternary(c, a, b, e.span),
            E::Comma(a, b) => {
                let _ = self.expr(a);
                self.expr(b)
            }
            E::Cast(ts, x) => {
                let t = self
                    .s
                    .resolve_type(ts, &crate::sema::body::cx_env!(self))
                    .ty;
                if let E::InitList(items) = &x.kind {
                    let (_, v) = self.init_list(t, items, x.span);
                    return v;
                }
                let v = self.expr(x);
                self.cast(v, t, e.span)
            }
            E::Construct(ts, args) => self.construct(ts, args, e.span),
            E::Call(c) => self.call(&c.callee, c.template_args.as_deref(), &c.args, e.span),
            E::MethodCall {
                object,
                method,
                template_args,
                args,
            } => self.method_call(object, *method, template_args.as_deref(), args, e.span),
            E::Member(obj, id) => {
                let v = self.expr(obj);
                self.member(v, *id, e.span)
            }
            E::Index(b, i) => self.index(b, i, e.span),
            E::InitList(_) => self.error(
                codes::BAD_INITIALIZER,
                "an initializer list needs a type here",
                e.span,
                "type unknown",
            ),
            E::SizeOfType(ts) => {
                let t = self
                    .s
                    .resolve_type(ts, &crate::sema::body::cx_env!(self))
                    .ty;
                let n = self.s.value_size(t);
                Val::konst(
                    types::UINT,
                    Konst {
                        sc: Sc::U32,
                        v: ConstVal::Int(n as i64),
                    },
                )
            }
            E::SizeOfExpr(x) => {
                // The operand is not evaluated: check it, then drop it.
                let mark = self.begin_discard();
                let v = self.expr(x);
                self.end_discard(mark);
                let n = self.s.value_size(v.ty);
                Val::konst(
                    types::UINT,
                    Konst {
                        sc: Sc::U32,
                        v: ConstVal::Int(n as i64),
                    },
                )
            }
            E::Error => Val::error(),
        }
    }

    /// Lowers `e` and converts it to `ty` (initialisers, arguments).
    pub fn expr_as(&mut self, e: &'a ast::Expr, ty: TyId) -> Val {
        if let ast::ExprKind::InitList(items) = &e.kind {
            let (_, v) = self.init_list(ty, items, e.span);
            return v;
        }
        let v = self.expr(e);
        self.convert(v, ty, e.span)
    }

    /// Lowers `e` as a scalar `bool` condition.
    pub fn condition(&mut self, e: &'a ast::Expr) -> Option<ir::Handle<ir::Expression>> {
        let v = self.expr(e);
        if v.is_error() {
            return None;
        }
        if !self.s.types.is_numeric(v.ty) {
            self.mismatch(v.ty, types::BOOL, e.span);
            return None;
        }
        let c = self.convert(v, types::BOOL, e.span);
        self.value(&c)
    }

    // --- names --------------------------------------------------------

    pub(in crate::sema) fn name(&mut self, path: &'a ast::Path, span: Span) -> Val {
        if let Some(v) = self.mesh_output_read(path, span) {
            return v;
        }
        let last = path.last();
        let sym = if path.is_single() {
            if let Some(l) = self.fb.locals.lookup(last.name) {
                if let LocalSym::Var(v) = l {
                    self.s.record_use(last.span, Target::Decl(v.span));
                }
                // Only the variable's value is copied out, not the whole
                // declaration.
                let val = match l {
                    LocalSym::Var(LocalVar {
                        konst: Some(k),
                        val,
                        ..
                    }) if matches!(val.read_only, Some(ReadOnly::Const(_))) => {
                        return Val {
                            read_only: val.read_only,
                            ..Val::konst(val.ty, *k)
                        };
                    }
                    LocalSym::Var(v) => Some(v.val.clone()),
                    LocalSym::Value(k) => {
                        let k = *k;
                        let t = self.s.types.scalar(k.sc);
                        return Val::konst(t, k);
                    }
                    LocalSym::Type(_) => None,
                };
                match val {
                    // A place or a value is itself (what `materialize`
                    // gives back unchanged): most variables.
                    Some(v @ Val {
                        kind: ValKind::Place(_) | ValKind::Expr(_) | ValKind::Const(_),
                        ..
                    }) => return v,
                    Some(v) => {
                        let n = last.name;
                        return self.materialize(v, span, &|| format!("resource variable `{n}`"));
                    }
                    None => {
                        return self.error(
                            codes::NOT_A_VALUE,
                            format!("`{}` is a type, not a value", last.name),
                            span,
                            "a type",
                        );
                    }
                }
            }
            if let Some(v) = self.implicit_member(last.name, span) {
                if let Some(t) = self.fb.this_struct {
                    self.s.record_field_use(t, last.name, last.span);
                }
                return v;
            }
            self.s.scopes.lookup(self.fb.scope, last.name).cloned()
        } else if let Some(v) = self.vk_name(path, span) {
            // `vk::DeviceScope` and the other constants of `vk::` (calls/vk.rs).
            return v;
        } else {
            match self
                .s
                .resolve_scope_path(path, &crate::sema::body::cx_env!(self))
            {
                Some(s) => match self.s.scopes.lookup_in(s, last.name).cloned() {
                    Some(sym) => Some(sym),
                    None => {
                        return self.error(
                            codes::UNKNOWN_NAME,
                            format!(
                                "no `{}` in `{}`",
                                last.name,
                                self.s.scopes.qualified_name(s)
                            ),
                            last.span,
                            "not found",
                        );
                    }
                },
                None => return Val::error(),
            }
        };
        if let Some(key) = sym.as_ref().and_then(SymKey::of) {
            self.s.record_use(last.span, Target::Sym(key));
        }
        if let Some(Sym::Value(_, ty)) = sym {
            self.s.record_enum_value_use(ty, last.name, last.span);
        }
        match sym {
            Some(Sym::Global(g)) if self.undefined_static(g, span) => Val::error(),
            Some(Sym::Global(g)) => self.global_val(g),
            Some(Sym::Value(v, ty)) => {
                let sc = self.s.types.component(ty).unwrap_or(Sc::I32);
                Val::konst(ty, Konst { sc, v })
            }
            Some(Sym::Funcs(_)) => self.error(
                codes::NOT_A_VALUE,
                format!("`{}` is a function, not a value", last.name),
                span,
                "call it: add `(…)`",
            ),
            Some(Sym::Type(_)) | Some(Sym::Template(_)) => self.error(
                codes::NOT_A_VALUE,
                format!("`{}` is a type, not a value", last.name),
                span,
                "a type",
            ),
            Some(Sym::Namespace(_)) => self.error(
                codes::NOT_A_VALUE,
                format!("`{}` is a namespace, not a value", last.name),
                span,
                "a namespace",
            ),
            None if path.is_single()
                && crate::sema::calls::raytracing::dxr_constant(last.name.as_str()).is_some() =>
            {
                let v =
                    crate::sema::calls::raytracing::dxr_constant(last.name.as_str()).unwrap_or(0);
                Val::konst(
                    types::UINT,
                    Konst {
                        sc: Sc::U32,
                        v: ConstVal::Int(i64::from(v)),
                    },
                )
            }
            None if path.is_single()
                && matches!(
                    last.name.as_str(),
                    "ResourceDescriptorHeap" | "SamplerDescriptorHeap"
                ) =>
            {
                let sampler = last.name.as_str() == "SamplerDescriptorHeap";
                self.s.res.heap_spans[usize::from(sampler)].get_or_insert(last.span);
                let ty = self.s.types.intern(Ty::Heap { sampler });
                Val {
                    ty,
                    kind: ValKind::Void,
                    read_only: Some(ReadOnly::Rvalue),
                }
            }
            None => {
                let mut d = Diagnostic::error(
                    codes::UNKNOWN_NAME,
                    format!("cannot find `{}` in this scope", last.name),
                )
                .label(last.span, "not declared");
                if path.is_single() {
                    let mut names: Vec<Symbol> = self.fb.locals.names().collect();
                    let mut cur = Some(self.fb.scope);
                    while let Some(sc) = cur {
                        names.extend(self.s.scopes.get(sc).names.keys().copied());
                        cur = self.s.scopes.get(sc).parent;
                    }
                    if let Some(c) = crate::diag::suggest::closest(
                        last.name.as_str(),
                        names.iter().map(|n| n.as_str()),
                    ) {
                        d = d.note(format!("did you mean `{c}`?"));
                    }
                }
                self.s.push(d);
                Val::error()
            }
        }
    }

    /// "`S` has no member `x`", suggesting a field or method of a similar
    /// name.
    fn no_member(&mut self, ty: TyId, id: &ast::Ident) -> Val {
        let mut names: Vec<Symbol> = Vec::new();
        let mut cur = self.s.types.as_struct(ty);
        while let Some(sid) = cur {
            let info = self.s.types.struct_info(sid);
            names.extend(info.fields.iter().map(|f| f.name));
            names.extend(info.methods.keys().copied());
            cur = info.base.and_then(|b| self.s.types.as_struct(b));
        }
        let mut d = Diagnostic::error(
            codes::NO_MEMBER,
            format!("`{}` has no member `{}`", self.s.ty_name(ty), id.name),
        )
        .label(id.span, "unknown member");
        if let Some(c) =
            crate::diag::suggest::closest(id.name.as_str(), names.iter().map(|n| n.as_str()))
        {
            d = d.note(format!("did you mean `{c}`?"));
        }
        self.s.push(d);
        Val::error()
    }

    /// A field of `this` named by its plain name inside a method.
    pub(in crate::sema) fn implicit_member(&mut self, name: Symbol, span: Span) -> Option<Val> {
        let this = self.fb.this.clone()?;
        self.field_of(this, name, span)
    }

    /// Looks a field up in a struct value and its bases.
    pub fn field_of(&mut self, v: Val, name: Symbol, span: Span) -> Option<Val> {
        let sid = self.s.types.as_struct(v.ty)?;
        let info = self.s.types.struct_info(sid);
        let found = info
            .fields
            .iter()
            .find(|f| f.name == name)
            .map(|f| (f.member, f.ty, f.bits));
        let base = info.base;
        if let Some((member, fty, bits)) = found {
            struct F {
                member: u32,
                ty: TyId,
                bits: Option<crate::sema::types::BitField>,
            }
            let f = F {
                member,
                ty: fty,
                bits,
            };
            let unit = self.member_of(v, f.member, f.ty, span);
            let Some(b) = f.bits else {
                return Some(unit);
            };
            return Some(match &unit.kind {
                ValKind::Place(p) => Val::place(
                    f.ty,
                    Place::BitField {
                        base: Box::new(p.clone()),
                        unit: f.ty,
                        offset: b.offset,
                        width: b.width,
                    },
                    unit.read_only,
                ),
                _ => match self.value(&unit) {
                    Some(h) => {
                        let e = self.bit_extract(h, f.ty, b.offset, b.width);
                        Val::expr(f.ty, e)
                    }
                    None => Val::error(),
                },
            });
        }
        let base = base?;
        let b = self.member_of(v, 0, base, span);
        self.field_of(b, name, span)
    }

    /// A use at `span` of a `const static` member never defined: reported
    /// (at the first use; the module fails then anyway).
    fn undefined_static(&mut self, g: GlobalId, span: Span) -> bool {
        let Some((decl, name)) = self.s.decls.undefined_statics.remove(&g) else {
            return false;
        };
        self.s.push(
            Diagnostic::error(
                codes::UNDEFINED_FUNCTION,
                format!("static member `{name}` is used but never defined"),
            )
            .label(span, "used here")
            .label(decl, "declared here without a value")
            .note("give it an initializer, or define it after the struct"),
        );
        true
    }

    pub fn global_val(&mut self, g: GlobalId) -> Val {
        let info = &self.s.decls.globals[g];
        // A `static const` scalar with a constant value is that value.
        if let (Some(k), Some(ReadOnly::Const(c))) = (info.konst, info.read_only) {
            return Val {
                read_only: Some(ReadOnly::Const(c)),
                ..Val::konst(info.ty, k)
            };
        }
        // What is read below, copied (the record also holds text).
        let (kind, name, span) = (info.kind.clone(), info.name, info.span);
        let (ty, read_only) = (info.ty, info.read_only);
        match kind {
            GlobalKind::Var { gv, mem } => {
                let space = self.s.module.globals[gv].space;
                let pty = self.ptr_type(mem, space);
                let ptr = self.add(ir::Expression::GlobalVariable(gv), pty);
                Val::place(ty, Place::Ptr { ptr, mem, space }, read_only)
            }
            GlobalKind::Member { gv, index, mem } => {
                let space = self.s.module.globals[gv].space;
                let gty = self.s.module.globals[gv].ty;
                let gpty = self.ptr_type(gty, space);
                let base = self.add(ir::Expression::GlobalVariable(gv), gpty);
                let pty = self.ptr_type(mem, space);
                let ptr = self.add(ir::Expression::AccessIndex { base, index }, pty);
                Val::place(ty, Place::Ptr { ptr, mem, space }, read_only)
            }
            GlobalKind::ResAlias(Some(r)) => self.res_path_place(r, ty, read_only),
            GlobalKind::ResAlias(None) => self.error(
                codes::RESOURCE_MISUSE,
                format!("static resource `{name}` is used before a resource is assigned to it"),
                span,
                "declared here without a resource",
            ),
            GlobalKind::ResStruct(members) => Val {
                ty,
                kind: ValKind::Agg(members.into_iter().map(|m| self.global_val(m)).collect()),
                read_only: None,
            },
            GlobalKind::SpecConstant(c) => {
                let it = self.s.ir_ty(ty);
                let h = self.add(ir::Expression::Constant(c), it);
                Val {
                    read_only,
                    ..Val::expr(ty, h)
                }
            }
            GlobalKind::PendingGlobal | GlobalKind::Error => Val::error(),
        }
    }

    // --- members, swizzles, indexing ------------------------------------

    pub fn member(&mut self, v: Val, id: ast::Ident, span: Span) -> Val {
        if v.is_error() {
            return v;
        }
        let name = id.name.as_str();
        match self.s.types.get(v.ty).clone() {
            Ty::Struct(_) => match self.field_of(v.clone(), id.name, span) {
                Some(f) => {
                    self.s.record_field_use(v.ty, id.name, id.span);
                    f
                }
                None => {
                    // A static member through an instance.
                    if let Some(scope) = self.s.type_scope(v.ty)
                        && let Some(Sym::Global(g)) =
                            self.s.scopes.lookup_in(scope, id.name).cloned()
                    {
                        if self.undefined_static(g, id.span) {
                            return Val::error();
                        }
                        return self.global_val(g);
                    }
                    self.no_member(v.ty, &id)
                }
            },
            Ty::Scalar(_) | Ty::Vector(..) | Ty::Enum(_) => {
                let n = match *self.s.types.get(v.ty) {
                    Ty::Vector(_, n) => n,
                    _ => 1,
                };
                // `float1x1` is a `float` here: its element selectors
                // (`_m00`, `_11_11`) pick the scalar.
                let comps = parse_swizzle(name).or_else(|| {
                    parse_matrix_selector(name)
                        .filter(|e| n == 1 && e.iter().all(|&ij| ij == (0, 0)))
                        .map(|e| vec![0; e.len()])
                });
                let Some(comps) = comps.filter(|c| c.iter().all(|&i| i < n)) else {
                    return self.error(
                        codes::BAD_SWIZZLE,
                        format!("invalid swizzle `{}` on `{}`", name, self.s.ty_name(v.ty)),
                        id.span,
                        if n == 1 {
                            "a scalar has only `x`/`r`"
                        } else {
                            "component out of range or unknown"
                        },
                    );
                };
                let sc = self.s.types.component(v.ty).unwrap_or(Sc::F32);
                if let ValKind::Const(k) = v.kind {
                    if comps.len() == 1 {
                        return v;
                    }
                    let t = self.concrete(v.ty);
                    let c = Val::konst(t, k.convert(sc.concrete()));
                    let rt = self.s.types.vector(sc.concrete(), comps.len() as u8);
                    return self.convert(c, rt, span);
                }
                let rt = self.s.types.vector(sc, comps.len() as u8);
                // Whole-vector identity keeps the place.
                if n > 1
                    && comps.len() == n as usize
                    && comps.iter().enumerate().all(|(i, &c)| i as u8 == c)
                {
                    return Val { ty: rt, ..v };
                }
                match &v.kind {
                    ValKind::Place(p) => {
                        let dup = (1..comps.len()).any(|i| comps[..i].contains(&comps[i]));
                        let ro = if dup {
                            Some(ReadOnly::RepeatedComponent)
                        } else {
                            v.read_only
                        };
                        Val::place(
                            rt,
                            Place::Swizzle {
                                base: Box::new(p.clone()),
                                base_ty: v.ty,
                                comps,
                            },
                            ro,
                        )
                    }
                    _ => {
                        let Some(h) = self.value(&v) else {
                            return Val::error();
                        };
                        let r = self.swizzle_value(h, v.ty, &comps);
                        Val::expr(rt, r)
                    }
                }
            }
            Ty::Matrix(sc, r, c) => {
                let Some(elems) =
                    parse_matrix_selector(name).filter(|e| e.iter().all(|&(i, j)| i < r && j < c))
                else {
                    return self.error(
                        codes::BAD_SWIZZLE,
                        format!(
                            "invalid matrix element selector `{}` on `{}`",
                            name,
                            self.s.ty_name(v.ty)
                        ),
                        id.span,
                        "expected `_mRC` (zero-based) or `_RC` (one-based)",
                    );
                };
                let rt = self.s.types.vector(sc, elems.len() as u8);
                match &v.kind {
                    ValKind::Place(p) => {
                        let dup = (1..elems.len()).any(|i| elems[..i].contains(&elems[i]));
                        let ro = if dup {
                            Some(ReadOnly::RepeatedComponent)
                        } else {
                            v.read_only
                        };
                        if elems.len() == 1 && c > 1 {
                            // One element through a pointer: row then component.
                            if let Place::Ptr { .. } = p {
                                let row_ty = self.s.types.vector(sc, c);
                                let row =
                                    self.index_place_const(p, v.ty, elems[0].0 as u32, row_ty);
                                let e = self.index_place_const(&row, row_ty, elems[0].1 as u32, rt);
                                return Val::place(rt, e, ro);
                            }
                        }
                        Val::place(
                            rt,
                            Place::MatElems {
                                base: Box::new(p.clone()),
                                base_ty: v.ty,
                                elems,
                            },
                            ro,
                        )
                    }
                    _ => {
                        let Some(h) = self.value(&v) else {
                            return Val::error();
                        };
                        let tmpv = Val::expr(v.ty, h);
                        let comps: Vec<Val> = elems
                            .iter()
                            .map(|&(i, j)| {
                                let e = self.matrix_element(h, sc, r, c, i, j);
                                let st = self.s.types.scalar(sc);
                                Val::expr(st, e)
                            })
                            .collect();
                        let _ = tmpv;
                        if comps.len() == 1 {
                            return comps.into_iter().next().unwrap_or_else(Val::error);
                        }
                        let mut q: VecDeque<Val> = comps.into();
                        match self.build_from(rt, &mut q, span) {
                            Some(h) => Val::expr(rt, h),
                            None => Val::error(),
                        }
                    }
                }
            }
            _ => self.error(
                codes::NO_MEMBER,
                format!("`{}` has no member `{}`", self.s.ty_name(v.ty), id.name),
                id.span,
                "unknown member",
            ),
        }
    }
}
pub fn binop_str(op: BinaryOp) -> &'static str {
    match op {
        BinaryOp::Add => "+",
        BinaryOp::Sub => "-",
        BinaryOp::Mul => "*",
        BinaryOp::Div => "/",
        BinaryOp::Rem => "%",
        BinaryOp::Shl => "<<",
        BinaryOp::Shr => ">>",
        BinaryOp::BitAnd => "&",
        BinaryOp::BitOr => "|",
        BinaryOp::BitXor => "^",
        BinaryOp::LogicalAnd => "&&",
        BinaryOp::LogicalOr => "||",
        BinaryOp::Eq => "==",
        BinaryOp::Ne => "!=",
        BinaryOp::Lt => "<",
        BinaryOp::Le => "<=",
        BinaryOp::Gt => ">",
        BinaryOp::Ge => ">=",
    }
}

pub(in crate::sema) fn unary_str(op: UnaryOp) -> &'static str {
    match op {
        UnaryOp::Neg => "-",
        UnaryOp::Plus => "+",
        UnaryOp::Not => "!",
        UnaryOp::BitNot => "~",
        UnaryOp::PreInc | UnaryOp::PostInc => "++",
        UnaryOp::PreDec | UnaryOp::PostDec => "--",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    pub(super) fn swizzles_and_selectors() {
        assert_eq!(parse_swizzle("xyz"), Some(vec![0, 1, 2]));
        assert_eq!(parse_swizzle("rgba"), Some(vec![0, 1, 2, 3]));
        assert_eq!(parse_swizzle("xg"), None);
        assert_eq!(parse_swizzle("xyzwx"), None);
        assert_eq!(
            parse_matrix_selector("_m00_m11"),
            Some(vec![(0, 0), (1, 1)])
        );
        assert_eq!(parse_matrix_selector("_11_44"), Some(vec![(0, 0), (3, 3)]));
        assert_eq!(parse_matrix_selector("_00"), None);
        assert_eq!(parse_matrix_selector("_m4"), None);
    }
}
