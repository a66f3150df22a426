//! Local declarations: variables with initializers (`auto` included),
//! `const` locals, resource locals and structs holding resources, and
//! `static` locals (Private globals initialized once).

use crate::diag::{Diagnostic, codes};
use crate::front::ast;
use crate::intern::Symbol;
use crate::ir;
use crate::sema::ReadOnly;
use crate::sema::body::place::{Place, Val, ValKind};
use crate::sema::body::{FnCtx, LocalSym, LocalVar};
use crate::sema::decl::storage::DeclSite;
use crate::sema::types::consteval::Konst;
use crate::sema::types::{self, Sc, Ty};

impl<'s, 'a> FnCtx<'s, 'a> {
    /// The span of the type of a declaration whose alias template is
    /// `const` (`using P = const T;`, as `vk::WorkgroupSpirvPointer<T>`):
    /// its variables are `const` as if written so.
    fn alias_const(&mut self, ts: &'a ast::TypeSpec) -> Option<crate::span::Span> {
        let ast::TypeSpecKind::Named {
            path,
            args: Some(_),
        } = &ts.kind
        else {
            return None;
        };
        use crate::sema::types::scope::Sym;
        if path.qualifier.is_some() {
            return None;
        }
        // Looked up quietly: the type was resolved (and any error in its
        // path reported) already.
        let (last, namespaces) = path.segments.split_last()?;
        let mut scope = if path.global {
            crate::sema::types::scope::GLOBAL_SCOPE
        } else {
            self.fb.scope
        };
        for (i, seg) in namespaces.iter().enumerate() {
            let found = if i == 0 {
                self.s.scopes.lookup(scope, seg.name)
            } else {
                self.s.scopes.lookup_in(scope, seg.name)
            };
            match found {
                Some(Sym::Namespace(ns)) => scope = *ns,
                _ => return None,
            }
        }
        let sym = if namespaces.is_empty() {
            self.s.scopes.lookup(scope, last.name)
        } else {
            self.s.scopes.lookup_in(scope, last.name)
        };
        match sym {
            Some(Sym::Template(id))
                if self.s.decls.const_alias_templates.contains(id) =>
            {
                Some(ts.span)
            }
            _ => None,
        }
    }
}

impl<'s, 'a> FnCtx<'s, 'a> {
    /// A local declaration `vd`, with the attributes of its statement.
    pub(in crate::sema) fn local_decl(
        &mut self,
        vd: &'a ast::VarDecl,
        stmt_attrs: &'a [ast::Attribute],
    ) {
        let aliased = stmt_attrs
            .iter()
            .chain(&vd.attrs)
            .any(|a| a.kind == Some(crate::front::attributes::Attr::VkAliasedPointer));
        let mut st = self.s.check_modifiers(&vd.modifiers, DeclSite::Local);
        self.s
            .require_spirv_features(&vd.attrs, &crate::sema::body::cx_env!(self));
        let is_auto = matches!(&vd.ty.kind, ast::TypeSpecKind::Named { path, args: None }
            if path.is_single() && path.last().name.as_str() == "auto");
        let base = if is_auto {
            // `auto x = e;` takes the type of `e` (a trial lowering).
            match vd.declarators.first().and_then(|d| d.init.as_ref()) {
                Some(ast::Initializer::Expr(e)) => {
                    let mark = self.begin_discard();
                    let v = self.expr(e);
                    self.end_discard(mark);
                    let ty = self.concrete(v.ty);
                    crate::sema::types::scope::TypeEntry {
                        ty,
                        major: None,
                        features: None,
                    }
                }
                _ => {
                    self.s.error(
                        codes::UNKNOWN_TYPE,
                        "`auto` needs an initializer to take its type from",
                        vd.ty.span,
                        "no initializer",
                    );
                    crate::sema::types::scope::TypeEntry {
                        ty: types::ERROR,
                        major: None,
                        features: None,
                    }
                }
            }
        } else {
            self.s
                .resolve_type(&vd.ty, &crate::sema::body::cx_env!(self))
        };
        if st.is_const.is_none() && base.ty != types::ERROR {
            st.is_const = self.alias_const(&vd.ty);
        }
        for d in &vd.declarators {
            // A `ConstantBuffer<T>` local is a copy of the buffer's `T`.
            let view = self.s.types.buffer_view_value(base.ty);
            let ty0 = self
                .s
                .array_type(view, &d.array, &crate::sema::body::cx_env!(self), None);
            let name = d.name.name;
            if ty0 == types::ERROR {
                if let Some(init) = &d.init {
                    let _ = self.lower_initializer(ty0, init);
                }
                self.declare_local(name, Val::error(), None, d.name.span);
                continue;
            }
            if self.s.types.is_resource(ty0) {
                self.resource_local(d, ty0);
                continue;
            }
            if matches!(self.s.types.get(ty0), Ty::Node(..)) {
                self.node_local(d, ty0);
                continue;
            }
            if self.s.types.contains_resource(ty0) {
                self.resource_struct_local(d, ty0);
                continue;
            }
            if let Some(space) = self.local_storage_class(vd, stmt_attrs) {
                self.ext_storage_local(d, ty0, space, st.precise, [stmt_attrs, &vd.attrs]);
                continue;
            }
            if st.is_static.is_some() {
                self.static_local(d, ty0, st.precise, st.is_const, [stmt_attrs, &vd.attrs]);
                continue;
            }
            if let Some(c) = st.is_const
                && d.init.is_none()
            {
                self.s.push(
                    Diagnostic::error(
                        codes::CONST_UNINITIALIZED,
                        format!("`const` variable `{name}` must be initialized"),
                    )
                    .label(d.name.span, "no initializer")
                    .label(c, "declared `const` here"),
                );
            }
            // As in C++, a variable is in scope in its own initializer
            // (`RayDesc r = r = make();`): declared before it is lowered,
            // unless the initializer gives its size.
            let ro = st.is_const.map(ReadOnly::Const);
            let early = match (&d.init, self.s.types.get(ty0)) {
                (Some(_), Ty::Array(_, None)) | (None, _) => None,
                (Some(_), _) => {
                    let irt = self.s.ir_ty(ty0);
                    let lv = self.local_var(Some(name.as_str().to_owned()), irt, st.precise);
                    let place = Place::Ptr {
                        ptr: lv,
                        mem: irt,
                        space: ir::AddressSpace::Function,
                    };
                    self.declare_local(name, Val::place(ty0, place, ro), None, d.name.span);
                    Some((lv, irt))
                }
            };
            let (ty, init) = match &d.init {
                // `RayQuery<F> q = RayQuery<F>();` declares a fresh query: nothing to copy.
                Some(ast::Initializer::Expr(ast::Expr {
                    kind: ast::ExprKind::Construct(_, args),
                    ..
                })) if args.is_empty() && matches!(self.s.types.get(ty0), types::Ty::RayQuery(_)) => {
                    (ty0, None)
                }
                Some(init) => {
                    let (t, v) = self.lower_initializer(ty0, init);
                    (t, Some(v))
                }
                None => (ty0, None),
            };
            if early.is_none() && self.unsized_local(ty, name, d) {
                continue;
            }
            let (ty, (lv, irt)) = match early {
                Some(e) => (ty0, e),
                None => {
                    let irt = self.s.ir_ty(ty);
                    (ty, (self.local_var(Some(name.as_str().to_owned()), irt, st.precise), irt))
                }
            };
            if aliased {
                self.mark_aliased(lv);
            }
            self.decorate_local(lv, [stmt_attrs, &vd.attrs]);
            self.debug_variable(lv, name.as_str(), d.name.span, None);
            if let Some(v) = &init
                && let Some(h) = self.value(v)
            {
                self.stmt(ir::Statement::Store {
                    pointer: lv,
                    value: h,
                });
            }
            let mut konst = None;
            if st.is_const.is_some()
                && self.s.types.is_scalar(ty)
                && let Some(ast::Initializer::Expr(e)) = &d.init
                && let Ok(k) = self.s.const_eval(e, &crate::sema::body::cx_env!(self))
            {
                let sc = self.s.types.component(ty).unwrap_or(Sc::I32);
                konst = Some(k.convert(sc));
            }
            let val = Val::place(
                ty,
                Place::Ptr {
                    ptr: lv,
                    mem: irt,
                    space: ir::AddressSpace::Function,
                },
                ro,
            );
            if early.is_some() {
                let span = d.name.span;
                self.fb
                    .locals
                    .rebind(name, LocalSym::Var(LocalVar { val, konst, span }));
            } else {
                self.declare_local(name, val, konst, d.name.span);
            }
        }
    }

    pub(super) fn declare_local(
        &mut self,
        name: crate::intern::Symbol,
        val: Val,
        konst: Option<Konst>,
        span: crate::span::Span,
    ) {
        if let Some(ix) = self.s.index.as_deref_mut() {
            let readonly = val.read_only.is_some();
            ix.local(name, span, span, self.s.types.name(val.ty), false, readonly);
        }
        if let Some(LocalSym::Var(prev)) = self.fb.locals.declared_here(name) {
            let ps = prev.span;
            if self.fb.for_init {
                // `for (int i…)` twice in one scope before HLSL 2021: DXC
                // warns and the new variable hides the old one.
                self.s.push(
                    Diagnostic::warning(
                        codes::FOR_REDEFINITION,
                        format!("`{name}` is declared again in this scope; the new declaration hides the earlier one"),
                    )
                    .label(span, "redeclared in a `for` initializer")
                    .label(ps, "earlier declaration")
                    .note("before HLSL 2021, variables declared in a `for` initializer belong to the enclosing scope"),
                );
                self.fb
                    .locals
                    .declare(name, LocalSym::Var(LocalVar { val, konst, span }));
                return;
            }
            self.s.push(
                Diagnostic::error(
                    codes::REDEFINITION,
                    format!("`{name}` is already declared in this scope"),
                )
                .label(span, "redeclared here")
                .label(ps, "first declared here"),
            );
        }
        self.fb
            .locals
            .declare(name, LocalSym::Var(LocalVar { val, konst, span }));
    }

    /// A local array without a size needs an initializer to take it from:
    /// reports it and declares the name as an error value.
    fn unsized_local(&mut self, ty: types::TyId, name: Symbol, d: &ast::Declarator) -> bool {
        if !matches!(self.s.types.get(ty), Ty::Array(_, None)) {
            return false;
        }
        self.s.error(
            codes::UNSIZED_ARRAY,
            format!("array `{name}` needs a size or an initializer"),
            d.name.span,
            "unsized array",
        );
        self.declare_local(name, Val::error(), None, d.name.span);
        true
    }

    /// A local struct with resource members: an aggregate.
    fn resource_struct_local(&mut self, d: &'a ast::Declarator, ty: types::TyId) {
        let name = d.name.name;
        if !matches!(self.s.types.get(ty), Ty::Struct(_)) {
            self.s
                .unsupported("local arrays of structs containing resources", d.span);
            self.declare_local(name, Val::error(), None, d.name.span);
            return;
        }
        let agg = self.make_agg(ty, name.as_str());
        let v = match &d.init {
            None => agg,
            Some(ast::Initializer::List(items, span)) => self.agg_init_list(agg, items, *span),
            Some(ast::Initializer::Expr(e)) => match &e.kind {
                ast::ExprKind::InitList(items) => self.agg_init_list(agg, items, e.span),
                _ => {
                    let v = self.expr(e);
                    if v.is_error() {
                        v
                    } else if matches!(v.kind, ValKind::Agg(_)) && v.ty == ty {
                        self.agg_copy(&agg, v, e.span)
                    } else {
                        self.unsupported(
                            "initializing a struct holding resources from this expression",
                            e.span,
                        )
                    }
                }
            },
        };
        self.declare_local(name, v, None, d.name.span);
    }

    /// A local of resource type names another resource (DXC legalizes such
    /// locals away; here they are aliases).
    fn resource_local(&mut self, d: &'a ast::Declarator, ty: types::TyId) {
        let name = d.name.name;
        match &d.init {
            Some(ast::Initializer::Expr(e)) => {
                let v = self.expr(e);
                if v.is_error() {
                    self.declare_local(name, v, None, d.name.span);
                    return;
                }
                let v = if v.ty != ty {
                    self.convert(v, ty, e.span)
                } else {
                    v
                };
                let v = self.res_alias(v);
                if v.is_error() {
                    self.declare_local(name, v, None, d.name.span);
                    return;
                }
                self.declare_local(name, v, None, d.name.span);
            }
            _ => {
                // Assigned later: until then it names no resource.
                let v = Val {
                    ty,
                    kind: ValKind::Void,
                    read_only: None,
                };
                self.declare_local(name, v, None, d.name.span);
            }
        }
    }

    /// A local holding a work graph object names the object (its records
    /// are not copied): like a resource local, an alias.
    fn node_local(&mut self, d: &'a ast::Declarator, ty: types::TyId) {
        let name = d.name.name;
        let v = match &d.init {
            Some(ast::Initializer::Expr(e)) => {
                let v = self.expr(e);
                self.node_alias(v, ty, e.span)
            }
            Some(ast::Initializer::List(_, span)) => self.error(
                codes::TYPE_MISMATCH,
                format!("a `{}` is not made from a list", self.s.ty_name(ty)),
                *span,
                "not an object",
            ),
            None => Val {
                ty,
                kind: ValKind::Void,
                read_only: None,
            },
        };
        self.declare_local(name, v, None, d.name.span);
    }

    /// `v` given to a local (or assigned to one) of work graph object type
    /// `ty`: the same kind of object, with the same record type.
    pub(in crate::sema) fn node_alias(
        &mut self,
        v: Val,
        ty: types::TyId,
        span: crate::span::Span,
    ) -> Val {
        if v.is_error() {
            return v;
        }
        let same = match (self.s.types.get(v.ty), self.s.types.get(ty)) {
            (Ty::Node(a, ra, _), Ty::Node(b, rb, _)) => a == b && ra == rb,
            _ => false,
        };
        if !same {
            let (from, to) = (self.s.ty_name(v.ty), self.s.ty_name(ty));
            return self.error(
                codes::TYPE_MISMATCH,
                format!("cannot use `{from}` as `{to}`"),
                span,
                "another kind of work graph object",
            );
        }
        v
    }

    /// `static` locals live in Private memory, initialised once: a
    /// constant initialiser becomes the global's initial value, anything
    /// else runs the first time the declaration is reached (guarded by a
    /// private flag), as DXC does. The decorations of `attrs`
    /// (`vk::ext_decorate*`) go on that global.
    fn static_local(
        &mut self,
        d: &'a ast::Declarator,
        ty0: types::TyId,
        precise: bool,
        is_const: Option<crate::span::Span>,
        attrs: [&'a [ast::Attribute]; 2],
    ) {
        let name = d.name.name;
        let fname = self.fb.body.function.name.clone();
        let gname = format!("{fname}.{name}");
        let mut ty = ty0;
        let mut init_const = None;
        if let Some(init) = &d.init {
            // Try it as a constant first (then drop that code).
            let mark = self.begin_discard();
            let (t, v) = self.lower_initializer(ty0, init);
            ty = t;
            if let Some(h) = self.value(&v) {
                init_const = self.lift_const(h);
            }
            self.end_discard(mark);
        }
        if self.unsized_local(ty, name, d) {
            return;
        }
        let irt = self.s.ir_ty(ty);
        let gv = self.s.module.globals.append(ir::GlobalVariable {
            name: Some(gname.clone()),
            space: ir::AddressSpace::Private,
            ty: irt,
            init: init_const,
            binding: None,
            io: None,
            precise,
            invariant: false,
            semantic: None,
            counter: None,
            user_type: None,
        });
        for a in attrs {
            let ds = self
                .s
                .spirv_decorations(a, &crate::sema::body::cx_env!(self));
            self.s
                .module
                .spirv_decorations
                .extend(ds.into_iter().map(|d| (gv, d)));
        }
        let pty = self.ptr_type(irt, ir::AddressSpace::Private);
        let ptr = self.add(ir::Expression::GlobalVariable(gv), pty);
        if let (Some(init), None) = (&d.init, init_const) {
            let bt = self.s.ir_ty(types::BOOL);
            let flag = ir::build::add_global(
                &mut self.s.module,
                &format!("{gname}.initialized"),
                ir::AddressSpace::Private,
                bt,
            );
            let fpty = self.ptr_type(bt, ir::AddressSpace::Private);
            let fptr = self.add(ir::Expression::GlobalVariable(flag), fpty);
            let done = self.add(ir::Expression::Load { pointer: fptr }, bt);
            self.push_block();
            let t = self.lit(ir::Literal::Bool(true));
            self.stmt(ir::Statement::Store {
                pointer: fptr,
                value: t,
            });
            let (_, v) = self.lower_initializer(ty, init);
            if let Some(h) = self.value(&v) {
                let h = self.stored_value(h, ty, irt);
                self.stmt(ir::Statement::Store {
                    pointer: ptr,
                    value: h,
                });
            }
            let reject = self.pop_block();
            self.stmt(ir::Statement::If {
                condition: done,
                accept: Vec::new(),
                reject,
                control: ir::SelectionControl::None,
            });
        }
        let mut konst = None;
        if is_const.is_some()
            && self.s.types.is_scalar(ty)
            && let Some(ast::Initializer::Expr(e)) = &d.init
            && let Ok(k) = self.s.const_eval(e, &crate::sema::body::cx_env!(self))
        {
            let sc = self.s.types.component(ty).unwrap_or(Sc::I32);
            konst = Some(k.convert(sc));
        }
        let val = Val::place(
            ty,
            Place::Ptr {
                ptr,
                mem: irt,
                space: ir::AddressSpace::Private,
            },
            is_const.map(ReadOnly::Const),
        );
        self.declare_local(name, val, konst, d.name.span);
    }
}
