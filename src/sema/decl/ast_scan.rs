//! Scans of function bodies that sema needs before lowering them.

use crate::front::ast::{self, ExprKind, Initializer, StmtKind, UnaryOp};
use crate::intern::Symbol;
use rustc_hash::FxHashSet;

/// The variables a function body may change, found in one pass: names
/// assigned, incremented, passed where an `out`/`inout` parameter may take
/// them, with a method called on them, or declared again (shadowed). Errs
/// on the side of "changed".
#[derive(Default)]
pub struct Writes {
    written: FxHashSet<Symbol>,
    /// Passed to a method of some object: a `uint` may receive the status
    /// of a texture read (`t.Sample(s, uv, offset, status)`).
    method_args: FxHashSet<Symbol>,
}

impl Writes {
    /// Scans `body`; `out_at(name, i)` says whether a function or method
    /// called `name` may take its argument `i` as `out`/`inout`.
    pub fn of(body: &ast::Block, out_at: &dyn Fn(Symbol, usize) -> bool) -> Writes {
        let mut w = Scan {
            out_at,
            writes: Writes::default(),
            args_of: None,
            watched: None,
        };
        w.block(body);
        w.writes
    }

    /// As [`Writes::of`], for the variables `names` only: what it says of
    /// them is what the whole scan says, and no other name is recorded, so
    /// that a body is walked without a hash insertion per declaration and
    /// a callee lookup per argument (a function's parameters are all that
    /// lowering asks about). No names, no walk.
    pub fn of_names(
        body: &ast::Block,
        names: &[Symbol],
        out_at: &dyn Fn(Symbol, usize) -> bool,
    ) -> Writes {
        if names.is_empty() {
            return Writes::default();
        }
        let mut w = Scan {
            out_at,
            writes: Writes::default(),
            args_of: None,
            watched: Some(names),
        };
        w.block(body);
        w.writes
    }

    /// Scans statements and expressions (a loop's body, condition and
    /// step; a switch's body) as [`Writes::of`] scans a function body.
    pub fn of_parts(
        stmts: &[&ast::Stmt],
        exprs: &[&ast::Expr],
        out_at: &dyn Fn(Symbol, usize) -> bool,
    ) -> Writes {
        let mut w = Scan {
            out_at,
            writes: Writes::default(),
            args_of: None,
            watched: None,
        };
        for s in stmts {
            w.stmt(s);
        }
        for e in exprs {
            w.expr(e);
        }
        w.writes
    }

    /// Whether the variable may change; `uint_scalar`: it is a `uint`.
    pub fn may_write(&self, name: Symbol, uint_scalar: bool) -> bool {
        self.written.contains(&name) || (uint_scalar && self.method_args.contains(&name))
    }
}

struct Scan<'f> {
    out_at: &'f dyn Fn(Symbol, usize) -> bool,
    writes: Writes,
    /// `call_arg_roots`: the callee, the argument, the roots found.
    args_of: Option<(&'f str, usize, Vec<Symbol>)>,
    /// The only variables to record (`Writes::of_names`), or all.
    watched: Option<&'f [Symbol]>,
}

/// The variables at the root of argument `index` of every call of
/// `callee` in `body` (`DispatchMesh`'s payload).
pub fn call_arg_roots(body: &ast::Block, callee: &str, index: usize) -> Vec<Symbol> {
    let mut w = Scan {
        out_at: &|_, _| false,
        writes: Writes::default(),
        args_of: Some((callee, index, Vec::new())),
        watched: None,
    };
    w.block(body);
    w.args_of.map(|a| a.2).unwrap_or_default()
}

/// The variable `e` names at its root (`x`, `x.y`, `x[i]`).
fn root(e: &ast::Expr) -> Option<Symbol> {
    match &e.kind {
        ExprKind::Name(p) if p.is_single() => Some(p.last().name),
        ExprKind::Member(b, _) | ExprKind::Index(b, _) => root(b),
        _ => None,
    }
}

impl Scan<'_> {
    /// The variable at the root of `e`, if it is one to record.
    fn watched_root(&self, e: &ast::Expr) -> Option<Symbol> {
        root(e).filter(|&n| self.watches(n))
    }

    fn watches(&self, n: Symbol) -> bool {
        self.watched.is_none_or(|w| w.contains(&n))
    }

    fn write(&mut self, e: &ast::Expr) {
        if let Some(n) = self.watched_root(e) {
            self.writes.written.insert(n);
        }
    }

    fn block(&mut self, b: &ast::Block) {
        for s in &b.stmts {
            self.stmt(s);
        }
    }

    fn stmt(&mut self, s: &ast::Stmt) {
        match &s.kind {
            StmtKind::Expr(e) | StmtKind::Case(e) => self.expr(e),
            StmtKind::Return(e) => {
                if let Some(e) = e {
                    self.expr(e);
                }
            }
            StmtKind::Decl(vd) => {
                for d in &vd.declarators {
                    if self.watches(d.name.name) {
                        self.writes.written.insert(d.name.name);
                    }
                    if let Some(i) = &d.init {
                        self.init(i);
                    }
                    for e in d.array.iter().flatten() {
                        self.expr(e);
                    }
                }
            }
            StmtKind::Block(b) => self.block(b),
            StmtKind::If { cond, then, else_ } => {
                self.expr(cond);
                self.stmt(then);
                if let Some(e) = else_ {
                    self.stmt(e);
                }
            }
            StmtKind::For {
                init,
                cond,
                step,
                body,
            } => {
                if let Some(s) = init {
                    self.stmt(s);
                }
                if let Some(e) = cond {
                    self.expr(e);
                }
                if let Some(e) = step {
                    self.expr(e);
                }
                self.stmt(body);
            }
            StmtKind::While { cond, body } | StmtKind::DoWhile { body, cond } => {
                self.expr(cond);
                self.stmt(body);
            }
            StmtKind::Switch { selector, body } => {
                self.expr(selector);
                self.block(body);
            }
            StmtKind::Typedef(_)
            | StmtKind::Struct(_)
            | StmtKind::Enum(_)
            | StmtKind::Using(_)
            | StmtKind::Default
            | StmtKind::Break
            | StmtKind::Continue
            | StmtKind::Discard
            | StmtKind::Empty
            | StmtKind::Error => {}
        }
    }

    fn init(&mut self, i: &Initializer) {
        match i {
            Initializer::Expr(e) => self.expr(e),
            Initializer::List(items, _) => {
                for i in items {
                    self.init(i);
                }
            }
        }
    }

    fn expr(&mut self, e: &ast::Expr) {
        match &e.kind {
            ExprKind::Assign(_, l, r) => {
                self.write(l);
                self.expr(l);
                self.expr(r);
            }
            ExprKind::Unary(op, x) => {
                if matches!(
                    op,
                    UnaryOp::PreInc | UnaryOp::PreDec | UnaryOp::PostInc | UnaryOp::PostDec
                ) {
                    self.write(x);
                }
                self.expr(x);
            }
            ExprKind::Call(c) => {
                let (callee, args) = (&c.callee, &c.args);
                if let Some((name, index, found)) = &mut self.args_of
                    && callee.last().name.as_str() == *name
                    && let Some(n) = args.get(*index).and_then(root)
                {
                    found.push(n);
                }
                // Only an argument with a variable at its root can be
                // written: the callee is looked up for those alone.
                for (i, a) in args.iter().enumerate() {
                    if let Some(n) = self.watched_root(a)
                        && (self.out_at)(callee.last().name, i)
                    {
                        self.writes.written.insert(n);
                    }
                    self.expr(a);
                }
            }
            ExprKind::MethodCall {
                object,
                method,
                args,
                ..
            } => {
                // The object may change (a method of a struct), and so may
                // the sizes of `GetDimensions`, the original value of an
                // atomic, and a read's status.
                self.write(object);
                self.expr(object);
                let m = method.name.as_str();
                let resource_out = m == "GetDimensions" || m.starts_with("Interlocked");
                for (i, a) in args.iter().enumerate() {
                    if let Some(n) = self.watched_root(a) {
                        if resource_out || (self.out_at)(method.name, i) {
                            self.writes.written.insert(n);
                        } else {
                            self.writes.method_args.insert(n);
                        }
                    }
                    self.expr(a);
                }
            }
            ExprKind::Binary(_, a, b) | ExprKind::Comma(a, b) | ExprKind::Index(a, b) => {
                self.expr(a);
                self.expr(b);
            }
            ExprKind::Ternary(a, b, c) => {
                self.expr(a);
                self.expr(b);
                self.expr(c);
            }
            ExprKind::Cast(_, x) | ExprKind::Member(x, _) | ExprKind::SizeOfExpr(x) => self.expr(x),
            ExprKind::Construct(_, args) => {
                for a in args {
                    self.expr(a);
                }
            }
            ExprKind::InitList(items) => {
                for i in items {
                    self.init(i);
                }
            }
            ExprKind::Literal(_)
            | ExprKind::Name(_)
            | ExprKind::This
            | ExprKind::SizeOfType(_)
            | ExprKind::Error => {}
        }
    }
}

/// Whether `body` may change the variable `name`, counting every call
/// taking it as a possible `out` argument. Errs on the side of "yes".
pub fn may_write(body: &ast::Block, name: Symbol) -> bool {
    Writes::of(body, &|_, _| true).may_write(name, true)
}
