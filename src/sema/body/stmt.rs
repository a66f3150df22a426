//! Statements: blocks and declarations (local, `static` local, `const`),
//! `if`, loops (`for`/`while` as a loop that checks first; `do`/`while`
//! with `break_if`), `switch` with fall-through, jumps, `return`,
//! `discard`, and the control attributes.

use crate::diag::{Diagnostic, codes};
use crate::front::ast;
use crate::front::attributes::Attr;
use crate::ir;
use crate::ir::Stage;
use crate::sema::ResReturn;
use crate::sema::body::place::ValKind;
use crate::sema::body::{Breakable, FnCtx, LocalSym};
use crate::sema::decl::find_attr;
use crate::sema::decl::storage::DeclSite;
use crate::sema::types::resolve::Env;
use crate::sema::types::scope::TypeEntry;
use crate::sema::types::{self, Sc};

impl<'s, 'a> FnCtx<'s, 'a> {
    /// Lowers statements in order; what follows a `return`, `break`,
    /// `continue` or `discard` in the same block is checked but dropped.
    pub fn lower_block_stmts(&mut self, stmts: &'a [ast::Stmt]) {
        for s in stmts {
            if self.terminated() {
                self.discarded_stmt(s);
                continue;
            }
            self.lower_stmt(s);
        }
    }

    fn scoped_block(&mut self, s: &'a ast::Stmt) -> ir::Block {
        self.push_block();
        self.scoped_stmt(s);
        self.pop_block()
    }

    pub fn lower_stmt(&mut self, s: &'a ast::Stmt) {
        use ast::StmtKind as S;
        for d in crate::sema::decl::attrs::arg_errors(&s.attrs) {
            self.s.push(d);
        }
        self.s
            .require_spirv_features(&s.attrs, &crate::sema::body::cx_env!(self));
        if !matches!(
            s.kind,
            S::Block(_)
                | S::Empty
                | S::Error
                | S::Typedef(_)
                | S::Struct(_)
                | S::Enum(_)
                | S::Using(_)
                | S::Case(_)
                | S::Default
        ) {
            self.debug_line(s.span);
        }
        match &s.kind {
            S::Expr(e) => {
                let _ = self.expr(e);
            }
            S::Decl(vd) => {
                self.local_decl(vd, &s.attrs)
            }
            S::Typedef(td) => self.local_typedef(td),
            S::Struct(sd) => {
                let t = self.s.declare_struct_named(sd, self.fb.scope, None, false);
                if let Some(n) = sd.name {
                    self.fb.locals.declare(
                        n.name,
                        LocalSym::Type(TypeEntry {
                            ty: t,
                            major: None,
                            features: None,
                        }),
                    );
                }
            }
            S::Enum(ed) => {
                let scope = self.fb.scope;
                self.s
                    .declare_enum(ed, &Env::at(scope), scope, Some(&mut self.fb.locals));
            }
            S::Using(u) => {
                let scope = self.fb.scope;
                self.s
                    .declare_using(u, &Env::at(scope), scope, Some(&mut self.fb.locals));
            }
            S::Block(b) => {
                self.fb.locals.push();
                self.debug_begin_block(b.span);
                self.lower_block_stmts(&b.stmts);
                self.debug_end_block();
                self.fb.locals.pop();
            }
            S::If { cond, then, else_ } => self.if_stmt(s, cond, then, else_.as_deref()),
            S::For {
                init,
                cond,
                step,
                body,
            } => self.for_loop(s, init.as_deref(), cond.as_deref(), step.as_deref(), body),
            S::While { cond, body } => {
                let control = self.loop_control(&s.attrs);
                let w = self.res_written(&[body], &[cond]);
                self.res_forget(&w, s.span);
                self.push_block();
                self.loop_check(cond);
                self.loop_body(body, control);
                let body_block = self.pop_block();
                self.stmt(ir::Statement::Loop {
                    body: body_block,
                    continuing: Vec::new(),
                    break_if: None,
                    control,
                });
                self.res_forget(&w, s.span);
            }
            S::DoWhile { body, cond } => self.do_while_loop(s, body, cond),
            S::Switch { selector, body } => self.switch(s.span, selector, body),
            S::Case(_) => {
                self.s.error(
                    codes::BAD_CASE,
                    "`case` outside a switch",
                    s.span,
                    "not in a switch",
                );
            }
            S::Default => {
                self.s.error(
                    codes::BAD_CASE,
                    "`default` outside a switch",
                    s.span,
                    "not in a switch",
                );
            }
            S::Break => {
                if self.fb.breakable.is_empty() {
                    self.s.error(
                        codes::BREAK_OUTSIDE,
                        "`break` outside a loop or switch",
                        s.span,
                        "nothing to break out of",
                    );
                } else {
                    self.stmt(ir::Statement::Break);
                }
            }
            S::Continue => {
                if !self.fb.breakable.contains(&Breakable::Loop) {
                    self.s.error(
                        codes::CONTINUE_OUTSIDE,
                        "`continue` outside a loop",
                        s.span,
                        "not in a loop",
                    );
                } else {
                    self.stmt(ir::Statement::Continue);
                }
            }
            S::Discard => {
                if !matches!(self.s.stage, Stage::Pixel | Stage::Library) {
                    self.s.error(
                        codes::STAGE_STATEMENT,
                        format!("`discard` in {} shader", self.s.stage.with_article()),
                        s.span,
                        "only pixel shaders can discard",
                    );
                } else {
                    self.stmt(ir::Statement::Kill);
                }
            }
            S::Return(e) => self.return_stmt(e.as_ref(), s.span),
            S::Empty | S::Error => {}
        }
    }

    /// Lowers `s` to check it, then drops what it emitted.
    fn discarded_stmt(&mut self, s: &'a ast::Stmt) {
        let mark = self.begin_discard();
        self.lower_stmt(s);
        self.end_discard(mark);
    }

    /// Ends the case of a switch being lowered: its block joins `cases`
    /// (falling through until its end is known), or the discarded
    /// lowering of a case that never runs ends.
    fn end_case(
        &mut self,
        current: &mut Option<ir::SwitchValue>,
        dead_mark: &mut Option<usize>,
        cases: &mut Vec<ir::SwitchCase>,
    ) {
        let Some(cv) = current.take() else {
            return;
        };
        if let Some(mark) = dead_mark.take() {
            self.end_discard(mark);
        } else {
            let b = self.pop_block();
            cases.push(ir::SwitchCase {
                value: cv,
                body: b,
                fall_through: true,
            });
        }
    }

    /// Lowers `s` in a scope of its own.
    fn scoped_stmt(&mut self, s: &'a ast::Stmt) {
        self.fb.locals.push();
        self.lower_stmt(s);
        self.fb.locals.pop();
    }

    /// A loop's body, in a scope of its own, where `break` and `continue`
    /// reach the loop.
    fn loop_body(&mut self, body: &'a ast::Stmt, control: ir::LoopControl) {
        let unroll = u32::from(matches!(control, ir::LoopControl::Unroll(_)));
        self.fb.breakable.push(Breakable::Loop);
        self.fb.unroll_depth += unroll;
        self.scoped_stmt(body);
        self.fb.unroll_depth -= unroll;
        self.fb.breakable.pop();
    }

    /// A `typedef` in a block: resolved first, then declared in the
    /// block's scope.
    fn local_typedef(&mut self, td: &'a ast::Typedef) {
        let st = self.s.check_modifiers(&td.modifiers, DeclSite::Typedef);
        let env = crate::sema::body::cx_env!(self);
        let base = self.s.resolve_type(&td.ty, &env);
        let ty = self.s.array_type(base.ty, &td.array, &env, None);
        let major = st.major.map(|(m, _)| m).or(base.major);
        let features = self.s.alias_features(&td.attrs, env.scope);
        self.fb.locals.declare(
            td.name.name,
            LocalSym::Type(TypeEntry {
                ty,
                major,
                features,
            }),
        );
    }

    /// `if`/`else`, with `[branch]` or `[flatten]`.
    fn if_stmt(
        &mut self,
        s: &'a ast::Stmt,
        cond: &'a ast::Expr,
        then: &'a ast::Stmt,
        else_: Option<&'a ast::Stmt>,
    ) {
        // A constant condition keeps only the branch taken (the other
        // is checked, then dropped), as DXC's legalization does: it
        // also lets each branch use other resources.
        if let Some(taken) = self.constant_condition(cond) {
            let (run, skip) = if taken {
                (Some(then), else_)
            } else {
                (else_, Some(then))
            };
            if let Some(sk) = skip {
                let mark = self.begin_discard();
                self.scoped_stmt(sk);
                self.end_discard(mark);
            }
            if let Some(r) = run {
                self.scoped_stmt(r);
            }
            return;
        }
        let c = self.condition(cond);
        let pre = self.res_state();
        let accept = self.scoped_block(then);
        let mut ends = Vec::new();
        if !accept.last().is_some_and(|s| s.ends_block()) {
            ends.push(self.res_state());
        }
        self.res_restore(&pre);
        let reject = match else_ {
            Some(e) => self.scoped_block(e),
            None => Vec::new(),
        };
        if !reject.last().is_some_and(|s| s.ends_block()) {
            ends.push(self.res_state());
        }
        self.res_join(&pre, &ends, s.span);
        if let Some(c) = c {
            let control = if find_attr(&s.attrs, Attr::Branch).is_some() {
                ir::SelectionControl::DontFlatten
            } else if find_attr(&s.attrs, Attr::Flatten).is_some() {
                ir::SelectionControl::Flatten
            } else {
                ir::SelectionControl::None
            };
            self.stmt(ir::Statement::If {
                condition: c,
                accept,
                reject,
                control,
            });
        }
    }

    /// `for (init; cond; step) body`: a loop that checks first, with the
    /// step as its continuing block.
    fn for_loop(
        &mut self,
        s: &'a ast::Stmt,
        init: Option<&'a ast::Stmt>,
        cond: Option<&'a ast::Expr>,
        step: Option<&'a ast::Expr>,
        body: &'a ast::Stmt,
    ) {
        // Before HLSL 2021, what the init declares belongs to the
        // enclosing scope (DXC, as FXC); from 2021 on, to the loop.
        let legacy = !self.s.opts.hlsl_2021;
        if !legacy {
            self.fb.locals.push();
        }
        if let Some(i) = init {
            self.fb.for_init = legacy;
            self.lower_stmt(i);
            self.fb.for_init = false;
        }
        let control = self.loop_control(&s.attrs);
        let w = self.res_written(&[body], &[cond, step].into_iter().flatten().collect::<Vec<_>>());
        // A loop that rebinds resource locals: unrolled here when its
        // counter is known, so that each copy resolves them.
        if !w.is_empty()
            && matches!(control, ir::LoopControl::Unroll(_))
            && let Some(counted) = self.counted_loop(init, cond, step, body)
        {
            self.unrolled(counted, body);
            if !legacy {
                self.fb.locals.pop();
            }
            return;
        }
        self.res_forget(&w, s.span);
        self.push_block();
        if let Some(c) = cond {
            self.loop_check(c);
        }
        self.loop_body(body, control);
        let body_block = self.pop_block();
        self.push_block();
        if let Some(st) = step {
            self.debug_line(st.span);
            let _ = self.expr(st);
        }
        let continuing = self.pop_block();
        self.stmt(ir::Statement::Loop {
            body: body_block,
            continuing,
            break_if: None,
            control,
        });
        self.res_forget(&w, s.span);
        if !legacy {
            self.fb.locals.pop();
        }
    }

    /// `do body while (cond);`: the negated condition is the loop's
    /// `break_if`.
    fn do_while_loop(&mut self, s: &'a ast::Stmt, body: &'a ast::Stmt, cond: &'a ast::Expr) {
        let control = self.loop_control(&s.attrs);
        let w = self.res_written(&[body], &[cond]);
        self.res_forget(&w, s.span);
        self.push_block();
        self.loop_body(body, control);
        let body_block = self.pop_block();
        self.push_block();
        self.debug_line(cond.span);
        let c = self.condition(cond);
        let break_if = c.map(|c| {
            let bt = self.s.ir_ty(types::BOOL);
            self.add(
                ir::Expression::Unary {
                    op: ir::UnaryOperator::LogicalNot,
                    expr: c,
                    precise: false,
                },
                bt,
            )
        });
        let continuing = self.pop_block();
        self.stmt(ir::Statement::Loop {
            body: body_block,
            continuing,
            break_if,
            control,
        });
        self.res_forget(&w, s.span);
    }

    /// The value of a condition known at compile time (trial-lowered, then
    /// dropped; `None` when it is not constant).
    fn constant_condition(&mut self, cond: &'a ast::Expr) -> Option<bool> {
        if !crate::sema::body::expr::is_pure(cond) {
            return None;
        }
        let mark = self.begin_discard();
        let v = self.expr(cond);
        let k = if self.s.types.is_scalar(v.ty) && !v.is_error() {
            match self.convert(v, types::BOOL, cond.span).kind {
                ValKind::Const(k) => Some(k.as_bool()),
                _ => None,
            }
        } else {
            None
        };
        self.end_discard(mark);
        k
    }

    /// `return s;` where `s` is a struct holding resources: its data
    /// members go to the result pointers (the last arguments), its
    /// resources are recorded for the callers.
    fn return_agg(&mut self, e: &'a ast::Expr, ret: types::TyId) {
        let v = self.expr(e);
        if v.is_error() || self.fb.discarding > 0 {
            return;
        }
        if v.ty != ret || !matches!(v.kind, ValKind::Agg(_)) {
            if v.ty != ret {
                self.mismatch(v.ty, ret, e.span);
            } else {
                self.s
                    .unsupported("returning this struct holding resources", e.span);
            }
            return;
        }
        let mut leaves = Vec::new();
        self.agg_leaves_of(&v, &mut leaves);
        let n_data = leaves
            .iter()
            .filter(|l| !self.s.types.is_resource(l.ty))
            .count();
        let Some(first) = self.fb.body.function.arguments.len().checked_sub(n_data) else {
            return;
        };
        let mut ids = Some(Vec::new());
        let mut k = first as u32;
        for l in leaves {
            if self.s.types.is_resource(l.ty) {
                let id = match &l.kind {
                    ValKind::Res(r) => Some(Some(*r)),
                    // Never assigned: an error only where the caller uses it.
                    ValKind::Void => Some(None),
                    _ => self.res_path(&l).map(|p| Some(self.s.res.intern_path(p))),
                };
                match (id, ids.as_mut()) {
                    (Some(r), Some(v)) => v.push(r),
                    _ => ids = None,
                }
            } else {
                let mem = self.s.ir_ty(l.ty);
                let pty = self.ptr_type(mem, ir::AddressSpace::Function);
                let p = self.add(ir::Expression::FunctionArgument(k), pty);
                k += 1;
                if let Some(h) = self.value(&l) {
                    self.stmt(ir::Statement::Store {
                        pointer: p,
                        value: h,
                    });
                }
            }
        }
        if ids.is_none() {
            self.s.unsupported(
                "returning a struct whose resources are not known at compile time",
                e.span,
            );
        }
        let h = self.fb.handle;
        let merged = match self.s.res.returned_agg.get(&h) {
            None => ids,
            Some(prev) if *prev == ids => ids,
            Some(_) => {
                self.s.unsupported(
                    "returning structs with different resources from one function",
                    e.span,
                );
                None
            }
        };
        self.s.res.returned_agg.insert(h, merged);
    }

    /// `if (!cond) break;` at the top of a loop body.
    fn loop_check(&mut self, cond: &'a ast::Expr) {
        self.debug_line(cond.span);
        let v = self.expr(cond);
        if v.is_error() {
            return;
        }
        if !self.s.types.is_numeric(v.ty) {
            self.mismatch(v.ty, types::BOOL, cond.span);
            return;
        }
        let c = self.convert(v, types::BOOL, cond.span);
        if let ValKind::Const(k) = c.kind
            && k.as_bool()
        {
            return;
        }
        if let Some(h) = self.value(&c) {
            self.stmt(ir::Statement::If {
                condition: h,
                accept: Vec::new(),
                reject: vec![ir::Statement::Break],
                control: ir::SelectionControl::None,
            });
        }
    }

    fn loop_control(&mut self, attrs: &'a [ast::Attribute]) -> ir::LoopControl {
        if let Some(a) = find_attr(attrs, Attr::Unroll) {
            let n = a
                .args
                .first()
                .and_then(|e| self.s.const_int(e, &crate::sema::body::cx_env!(self)));
            return ir::LoopControl::Unroll(n.and_then(|n| u32::try_from(n).ok()));
        }
        if find_attr(attrs, Attr::Loop).is_some() || find_attr(attrs, Attr::FastOpt).is_some() {
            return ir::LoopControl::DontUnroll;
        }
        ir::LoopControl::None
    }

    fn return_stmt(&mut self, e: Option<&'a ast::Expr>, span: crate::span::Span) {
        self.record_out_resources();
        let ret = self.fb.ret;
        if let (Some(e), true) = (e, self.s.types.is_agg(ret)) {
            self.return_agg(e, ret);
            self.stmt(ir::Statement::Return { value: None });
            return;
        }
        if let (Some(e), true) = (e, self.s.types.is_resource(ret)) {
            // A returned resource is resolved at compile time: callers use
            // it directly.
            let v = self.expr(e);
            if !v.is_error() && self.fb.discarding == 0 {
                let v = if v.ty != ret {
                    self.convert(v, ret, e.span)
                } else {
                    v
                };
                let h = self.fb.handle;
                let prev = self.s.res.returned_res.get(&h).copied();
                let fixed = if v.ty == ret { self.res_path(&v) } else { None };
                let dynamic = if v.ty == ret {
                    self.dyn_res_path(&v)
                } else {
                    None
                };
                let (this, value) = match (prev, fixed, dynamic) {
                    // The first return decides: a whole global is returned
                    // as itself, an array element by its indices.
                    (None, Some(p), _) if p.indices.is_empty() => {
                        (Some(ResReturn::Fixed(self.s.res.intern_path(p))), None)
                    }
                    (None, _, Some((gv, idx))) if (1..=4).contains(&idx.len()) => {
                        let count = idx.len() as u8;
                        let rt = self.index_result_type(count);
                        self.fb.body.function.result = Some(ir::FunctionResult {
                            ty: rt,
                            precise: false,
                        });
                        let value = self.indices_value(&idx);
                        (Some(ResReturn::Indexed { gv, count }), Some(value))
                    }
                    (Some(Some(ResReturn::Fixed(id))), Some(p), _)
                        if self.s.res.intern_path(p.clone()) == id =>
                    {
                        (Some(ResReturn::Fixed(id)), None)
                    }
                    (Some(Some(ResReturn::Indexed { gv, count })), _, Some((g, idx)))
                        if g == gv && idx.len() == count as usize =>
                    {
                        let value = self.indices_value(&idx);
                        (Some(ResReturn::Indexed { gv, count }), Some(value))
                    }
                    (Some(Some(_)), _, Some(_)) => {
                        self.s
                            .unsupported("returning different resources from one function", e.span);
                        (None, None)
                    }
                    (Some(None), _, _) => (None, None),
                    _ => {
                        self.s.unsupported(
                            "returning a resource that is not a global or an element of a global array",
                            e.span,
                        );
                        (None, None)
                    }
                };
                self.s.res.returned_res.insert(h, this);
                self.stmt(ir::Statement::Return { value });
                return;
            }
            self.stmt(ir::Statement::Return { value: None });
            return;
        }
        match e {
            Some(e) => {
                if ret == types::VOID {
                    let v = self.expr(e);
                    if !v.is_error() && v.ty != types::VOID {
                        self.s.error(
                            codes::BAD_RETURN,
                            "a `void` function cannot return a value",
                            e.span,
                            "value returned here",
                        );
                    }
                    self.stmt(ir::Statement::Return { value: None });
                    return;
                }
                let v = self.expr_as(e, ret);
                if let Some(h) = self.value(&v) {
                    self.stmt(ir::Statement::Return { value: Some(h) });
                } else {
                    // Keep the block terminated so that no "missing return"
                    // follows the error.
                    let rt = self.s.ir_ty(ret);
                    let z = self.zero(rt);
                    self.stmt(ir::Statement::Return { value: Some(z) });
                }
            }
            None => {
                if ret != types::VOID {
                    self.s.error(
                        codes::BAD_RETURN,
                        format!("this function must return a `{}`", self.s.ty_name(ret)),
                        span,
                        "return without a value",
                    );
                    let rt = self.s.ir_ty(ret);
                    let z = self.zero(rt);
                    self.stmt(ir::Statement::Return { value: Some(z) });
                    return;
                }
                self.stmt(ir::Statement::Return { value: None });
            }
        }
    }

    fn switch(
        &mut self,
        switch_span: crate::span::Span,
        selector: &'a ast::Expr,
        body: &'a ast::Block,
    ) {
        let v = self.expr(selector);
        let sel_ty = match self.s.types.component(v.ty) {
            Some(Sc::U32) | Some(Sc::U16) | Some(Sc::U64) => types::UINT,
            Some(s) if s.is_int() || s == Sc::Bool => types::INT,
            // DXC converts a float selector to `int` (truncating).
            Some(s) if s.is_float() && self.s.types.is_scalar(v.ty) => types::INT,
            _ if v.is_error() => types::ERROR,
            _ => {
                self.s.error(
                    codes::TYPE_MISMATCH,
                    format!(
                        "a switch selector must be an integer, not `{}`",
                        self.s.ty_name(v.ty)
                    ),
                    selector.span,
                    "not an integer",
                );
                types::ERROR
            }
        };
        // A constant selector: only the case it picks (and those it falls
        // through to) is kept; the others are checked and dropped, as DXC's
        // legalization does (so that each may use other resources).
        let const_sel = match &v.kind {
            ValKind::Const(k) if sel_ty != types::ERROR => Some(k.as_i64()),
            _ => None,
        };
        // Labels inside a block of the switch body (`case 6: { case 7: … }`)
        // are labels of the switch, as in C: such blocks are spliced in.
        let items = switch_items(&body.stmts);
        let live_start = const_sel.and_then(|sv| {
            let mut default = None;
            for (i, st) in items.iter().enumerate() {
                match &st.kind {
                    ast::StmtKind::Case(e) => {
                        if let Ok(k) = self.s.const_eval(e, &crate::sema::body::cx_env!(self))
                            && matches!(
                                k.v,
                                crate::sema::types::consteval::ConstVal::Int(_)
                                    | crate::sema::types::consteval::ConstVal::Bool(_)
                            )
                            && (if sel_ty == types::UINT {
                                k.as_i64() as u32 == sv as u32
                            } else {
                                k.as_i64() as i32 == sv as i32
                            })
                        {
                            return Some(i);
                        }
                    }
                    ast::StmtKind::Default => default = Some(i),
                    _ => {}
                }
            }
            default
        });
        // Whether the case being lowered is kept.
        let mut live = const_sel.is_none();
        let mut dead_mark = None;
        let sel = if sel_ty == types::ERROR {
            None
        } else {
            if !self.s.types.is_scalar(v.ty) {
                self.s.error(
                    codes::TYPE_MISMATCH,
                    "a switch selector must be a scalar",
                    selector.span,
                    "not a scalar",
                );
            }
            let c = self.convert(v, sel_ty, selector.span);
            self.value(&c)
        };
        let pre = self.res_state();
        self.fb.locals.push();
        self.fb.breakable.push(Breakable::Switch);
        let mut cases: Vec<ir::SwitchCase> = Vec::new();
        let mut seen: Vec<(ir::SwitchValue, crate::span::Span)> = Vec::new();
        let mut current: Option<ir::SwitchValue> = None;
        for (idx, &st) in items.iter().enumerate() {
            let label = match &st.kind {
                ast::StmtKind::Case(e) => {
                    let k = self.s.const_eval(e, &crate::sema::body::cx_env!(self));
                    let val = match k {
                        Ok(k)
                            if matches!(
                                k.v,
                                crate::sema::types::consteval::ConstVal::Int(_)
                                    | crate::sema::types::consteval::ConstVal::Bool(_)
                            ) =>
                        {
                            if sel_ty == types::UINT {
                                Some(ir::SwitchValue::U32(k.as_i64() as u32))
                            } else {
                                Some(ir::SwitchValue::I32(k.as_i64() as i32))
                            }
                        }
                        Err(true) => None,
                        _ => {
                            self.s.error(
                                codes::BAD_CASE,
                                "a case label must be an integer constant",
                                e.span,
                                "not an integer constant",
                            );
                            None
                        }
                    };
                    Some((val, e.span))
                }
                ast::StmtKind::Default => Some((Some(ir::SwitchValue::Default), st.span)),
                _ => None,
            };
            match label {
                Some((val, span)) => {
                    let ended = current.is_some() && self.terminated();
                    let falls = current.is_some() && !ended;
                    self.end_case(&mut current, &mut dead_mark, &mut cases);
                    if const_sel.is_none() {
                        // A case is entered from the selector, or falls
                        // through from the one before.
                        let ends = if falls {
                            vec![pre.clone(), self.res_state()]
                        } else {
                            vec![pre.clone()]
                        };
                        self.res_join(&pre, &ends, st.span);
                    }
                    if const_sel.is_some() {
                        // Live from the chosen label on, until a case ends.
                        live = Some(idx) == live_start || (live && !ended);
                    }
                    let val = val.unwrap_or(ir::SwitchValue::I32(i32::MIN));
                    let norm = |v: ir::SwitchValue| match v {
                        ir::SwitchValue::U32(u) => ir::SwitchValue::I32(u as i32),
                        o => o,
                    };
                    if let Some((_, prev)) = seen.iter().find(|(x, _)| norm(*x) == norm(val)) {
                        let p = *prev;
                        self.s.push(
                            Diagnostic::error(codes::BAD_CASE, "duplicate case label")
                                .label(span, "repeated here")
                                .label(p, "first used here"),
                        );
                    }
                    seen.push((val, span));
                    current = Some(val);
                    if live {
                        self.push_block();
                    } else {
                        dead_mark = Some(self.begin_discard());
                    }
                }
                None => {
                    if current.is_none() {
                        // Code before the first label never runs.
                        self.discarded_stmt(st);
                    } else if self.terminated() {
                        self.discarded_stmt(st);
                    } else {
                        self.lower_stmt(st);
                    }
                }
            }
        }
        self.end_case(&mut current, &mut dead_mark, &mut cases);
        self.fb.breakable.pop();
        self.fb.locals.pop();
        if const_sel.is_none() {
            // Which case ran is known only at run time.
            let w = self.res_written(&items, &[]);
            self.res_forget(&w, switch_span);
        }
        // A case ending in `break` leaves the switch; others fall through.
        for c in cases.iter_mut() {
            match c.body.last() {
                Some(ir::Statement::Break) => {
                    c.body.pop();
                    c.fall_through = false;
                }
                Some(s) if s.ends_block() => c.fall_through = false,
                _ => {}
            }
        }
        if let Some(last) = cases.last_mut() {
            last.fall_through = false;
        }
        if !cases.iter().any(|c| c.value == ir::SwitchValue::Default) {
            cases.push(ir::SwitchCase {
                value: ir::SwitchValue::Default,
                body: Vec::new(),
                fall_through: false,
            });
        }
        if let Some(sel) = sel {
            self.stmt(ir::Statement::Switch {
                selector: sel,
                cases,
            });
        }
    }
}

/// The statements of a switch body, with the blocks that hold case labels
/// spliced in.
fn switch_items(stmts: &[ast::Stmt]) -> Vec<&ast::Stmt> {
    fn has_label(stmts: &[ast::Stmt]) -> bool {
        stmts.iter().any(|s| match &s.kind {
            ast::StmtKind::Case(_) | ast::StmtKind::Default => true,
            ast::StmtKind::Block(b) => has_label(&b.stmts),
            _ => false,
        })
    }
    let mut out = Vec::with_capacity(stmts.len());
    for s in stmts {
        match &s.kind {
            ast::StmtKind::Block(b) if has_label(&b.stmts) => out.extend(switch_items(&b.stmts)),
            _ => out.push(s),
        }
    }
    out
}
