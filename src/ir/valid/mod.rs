//! The IR validator: checks the invariants written on the IR types. Run after
//! lowering and after every pass when `Options::verify_ir` asks
//! (`--verify-ir`, debug builds, every test and fuzz target).
//!
//! What it checks, in one linear walk of the module:
//! - every handle is in range, and a type or constant expression refers
//!   only to earlier ones (so there are no cycles);
//! - module constants are only `Literal`, `ZeroValue`, `Compose`, `Splat`
//!   and `Constant`; `GlobalVariable::init` is a handle into
//!   `Module::const_expressions` of the variable's type, and
//!   `LocalVariable::init` one into its function's own arena (a literal,
//!   constant, zero value, or a compose/splat of those: no `Emit`);
//! - in a function: `expr_types` has one type per expression; an expression
//!   uses only earlier expressions; every non-trivial expression stands in
//!   exactly one `Emit` range and trivial ones in none (a `ZeroValue` may
//!   stand in one or not); an expression is used
//!   (by a statement or by an expression being emitted) only after its
//!   `Emit` (or, for `CallResult`/`AtomicResult`/`SubgroupResult`, after the
//!   statement that names it) and only in the block of that `Emit` or one
//!   nested in it — a loop's `continuing` block and `break_if` see the
//!   expressions of the blocks around the loop and of `continuing` itself,
//!   not those of the loop body;
//! - operand types: both sides of a `Binary` agree (a scalar may stand
//!   with a vector in `+ - * / %`, and multiply a matrix), `MatMul` shapes, `Load`/`Store` through pointers to
//!   the value's type into a writable space, conditions are `bool`,
//!   `Compose`/`Splat`/`Swizzle`/`AccessIndex` shapes, conversion widths,
//!   call arguments and results against the callee (a pointer argument may
//!   point into another address space than the parameter's: the backend
//!   copies it in and out), `Return` against the
//!   function's result;
//! - `Break` only inside a loop body or switch case, `Continue` only inside
//!   a loop body (not directly in `continuing`); a `Switch` has a 32-bit
//!   integer selector, distinct case values, exactly one `Default`, and its
//!   last case does not fall through;
//! - an entry point's function has no arguments and no result.

use super::*;
use std::fmt;

mod statements;
#[cfg(test)]
mod tests;
mod typecheck;

/// One broken invariant.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ValidationError {
    /// The function it was found in (`None` for module-level things).
    pub function: Option<String>,
    /// The expression concerned, if any.
    pub expression: Option<Handle<Expression>>,
    pub message: String,
}

impl fmt::Display for ValidationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(func) = &self.function {
            write!(f, "in fn {func}: ")?;
        }
        if let Some(e) = self.expression {
            write!(f, "%{}: ", e.index())?;
        }
        f.write_str(&self.message)
    }
}

/// Checks the whole module; returns every problem found.
pub fn validate(module: &Module) -> Result<(), Vec<ValidationError>> {
    let mut v = Validator {
        module,
        errors: Vec::new(),
    };
    v.types();
    v.constants();
    v.globals();
    for (h, f) in module.functions.iter() {
        FunctionValidator::new(&mut v, h, f).run();
    }
    v.entry_points();
    if v.errors.is_empty() {
        Ok(())
    } else {
        Err(v.errors)
    }
}

/// All errors as one string, one per line (for test failures and internal
/// error diagnostics).
pub fn errors_to_string(errors: &[ValidationError]) -> String {
    errors
        .iter()
        .map(|e| e.to_string())
        .collect::<Vec<_>>()
        .join("\n")
}

struct Validator<'m> {
    module: &'m Module,
    errors: Vec<ValidationError>,
}

/// The scalar and vector size (`None` for a scalar) of a scalar or vector
/// type.
fn shape(inner: &TypeInner) -> Option<(Option<u8>, Scalar)> {
    match *inner {
        TypeInner::Scalar(s) => Some((None, s)),
        TypeInner::Vector { size, scalar } => Some((Some(size), scalar)),
        _ => None,
    }
}

/// The scalar of a scalar, vector or matrix type.
fn scalar_of(inner: &TypeInner) -> Option<Scalar> {
    match *inner {
        TypeInner::Scalar(s)
        | TypeInner::Vector { scalar: s, .. }
        | TypeInner::Matrix { scalar: s, .. } => Some(s),
        _ => None,
    }
}

fn valid_scalar(s: Scalar) -> bool {
    match s.kind {
        ScalarKind::Bool => s.width == 1,
        _ => matches!(s.width, 2 | 4 | 8),
    }
}

impl<'m> Validator<'m> {
    fn error(&mut self, message: impl Into<String>) {
        self.errors.push(ValidationError {
            function: None,
            expression: None,
            message: message.into(),
        });
    }

    fn type_ok(&self, h: Handle<Type>) -> bool {
        h.index() < self.module.types.len()
    }

    fn types(&mut self) {
        let module = self.module;
        for (h, ty) in module.types.iter() {
            let earlier = |t: Handle<Type>| t.index() < h.index();
            let msg = match &ty.inner {
                TypeInner::Scalar(s) if !valid_scalar(*s) => Some(format!("bad scalar {s:?}")),
                TypeInner::Vector { size, scalar } if !(2..=4).contains(size) => {
                    Some(format!("vector of {size} {scalar:?}"))
                }
                TypeInner::Vector { scalar, .. } if !valid_scalar(*scalar) => {
                    Some(format!("bad scalar {scalar:?}"))
                }
                TypeInner::Matrix { rows, columns, .. }
                    if !(1..=4).contains(rows)
                        || !(1..=4).contains(columns)
                        || (*rows == 1 && *columns == 1) =>
                {
                    Some(format!("matrix {rows}x{columns}"))
                }
                TypeInner::Array { base, size, .. } => {
                    if !earlier(*base) {
                        Some("array element type is not an earlier type".into())
                    } else if *size == ArraySize::Constant(0) {
                        Some("array of size 0".into())
                    } else {
                        None
                    }
                }
                TypeInner::Struct { members, .. } => members
                    .iter()
                    .position(|m| !earlier(m.ty))
                    .map(|i| format!("struct member {i} type is not an earlier type")),
                // A device pointer may name a struct made after it (a
                // struct that holds pointers to its own kind).
                TypeInner::Pointer { base, space }
                    if !earlier(*base)
                        && !matches!(space, crate::ir::AddressSpace::PhysicalStorage { .. }) =>
                {
                    Some("pointer base is not an earlier type".into())
                }
                _ => None,
            };
            if let Some(m) = msg {
                self.error(format!("type [{}]: {m}", h.index()));
            }
        }
    }

    fn constants(&mut self) {
        let module = self.module;
        for sc in &module.spec_constants {
            let ok = matches!(
                module.const_expressions.get(sc.value),
                Some(Expression::Literal(_))
            );
            if !ok {
                self.error(format!(
                    "specialization constant {}: its value is not a literal constant",
                    sc.id
                ));
            }
        }
        if module.const_types.len() != module.const_expressions.len() {
            self.error(format!(
                "{} constant expressions but {} constant types",
                module.const_expressions.len(),
                module.const_types.len()
            ));
            return;
        }
        for (h, e) in module.const_expressions.iter() {
            let ty = module.const_types[h.index()];
            if !self.type_ok(ty) {
                self.error(format!("constant @c{}: type out of range", h.index()));
                continue;
            }
            let earlier = |c: Handle<Expression>| c.index() < h.index();
            let inner = &module.types[ty].inner;
            let msg = match e {
                Expression::Literal(l) => (*inner != TypeInner::Scalar(l.scalar()))
                    .then(|| "literal of the wrong type".to_string()),
                Expression::ZeroValue(t) => (*t != ty).then(|| "zero value of another type".into()),
                Expression::Constant(c) => {
                    if !earlier(*c) {
                        Some("refers to a later constant".into())
                    } else {
                        (module.const_types[c.index()] != ty)
                            .then(|| "constant of another type".into())
                    }
                }
                Expression::Splat { size, value } => {
                    if !earlier(*value) {
                        Some("refers to a later constant".into())
                    } else {
                        let vt = &module.types[module.const_types[value.index()]].inner;
                        match (vt, inner) {
                            (TypeInner::Scalar(s), TypeInner::Vector { size: n, scalar })
                                if s == scalar && n == size =>
                            {
                                None
                            }
                            _ => Some("splat shape mismatch".into()),
                        }
                    }
                }
                Expression::Compose {
                    ty: cty,
                    components,
                } => {
                    if *cty != ty {
                        Some("compose of another type".into())
                    } else if let Some(c) = components.iter().find(|c| !earlier(**c)) {
                        Some(format!("refers to later constant @c{}", c.index()))
                    } else {
                        let types: Vec<Handle<Type>> = components
                            .iter()
                            .map(|c| module.const_types[c.index()])
                            .collect();
                        compose_error(module, ty, &types)
                    }
                }
                other => Some(format!("not allowed in a module constant: {other:?}")),
            };
            if let Some(m) = msg {
                self.error(format!("constant @c{}: {m}", h.index()));
            }
        }
    }

    /// The type of a module constant, if the handle is in range.
    fn const_type(&self, c: Handle<Expression>) -> Option<Handle<Type>> {
        self.module.const_types.get(c.index()).copied()
    }

    fn globals(&mut self) {
        let module = self.module;
        for (h, g) in module.globals.iter() {
            let name = g.name.clone().unwrap_or_else(|| format!("[{}]", h.index()));
            if !self.type_ok(g.ty) {
                self.error(format!("global {name}: type out of range"));
                continue;
            }
            if let Some(i) = g.init
                && self.const_type(i) != Some(g.ty)
            {
                self.error(format!(
                    "global {name}: initialiser is not a constant of its type"
                ));
            }
            if let Some(c) = g.counter
                && c.index() >= module.globals.len()
            {
                self.error(format!("global {name}: counter out of range"));
            }
            if g.space == AddressSpace::Function {
                self.error(format!("global {name}: in the Function address space"));
            }
        }
    }

    fn entry_points(&mut self) {
        let module = self.module;
        for ep in &module.entry_points {
            let Some(f) = module.functions.get(ep.function) else {
                self.error(format!("entry point {}: function out of range", ep.name));
                continue;
            };
            if !f.arguments.is_empty() || f.result.is_some() {
                self.error(format!(
                    "entry point {}: fn {} must have no arguments and no result",
                    ep.name, f.name
                ));
            }
            if ep.stage == Stage::Library {
                self.error(format!("entry point {}: stage is `library`", ep.name));
            }
        }
    }
}

/// Why `components` cannot compose a value of type `ty`, if they cannot.
fn compose_error(module: &Module, ty: Handle<Type>, components: &[Handle<Type>]) -> Option<String> {
    let inner = |t: Handle<Type>| &module.types[t].inner;
    match inner(ty) {
        TypeInner::Vector { size, scalar } => {
            let mut n = 0u32;
            for &c in components {
                match shape(inner(c)) {
                    Some((sz, s)) if s == *scalar => n += sz.unwrap_or(1) as u32,
                    _ => return Some("vector component of the wrong type".into()),
                }
            }
            (n != *size as u32).then(|| format!("{n} components for a vector of {size}"))
        }
        TypeInner::Matrix {
            rows,
            columns,
            scalar,
        } => {
            if components.len() != *rows as usize {
                return Some(format!("{} rows for a matrix of {rows}", components.len()));
            }
            let ok = |c: Handle<Type>| match shape(inner(c)) {
                Some((Some(n), s)) => n == *columns && s == *scalar,
                Some((None, s)) => *columns == 1 && s == *scalar,
                None => false,
            };
            (!components.iter().all(|&c| ok(c))).then(|| "matrix row of the wrong type".into())
        }
        TypeInner::Array { base, size, .. } => {
            if *size != ArraySize::Constant(components.len() as u32) {
                Some(format!("{} elements for {size:?}", components.len()))
            } else {
                components
                    .iter()
                    .any(|c| c != base)
                    .then(|| "array element of the wrong type".into())
            }
        }
        TypeInner::Struct { members, .. } => {
            if members.len() != components.len() {
                Some(format!(
                    "{} members for a struct of {}",
                    components.len(),
                    members.len()
                ))
            } else {
                members
                    .iter()
                    .zip(components)
                    .position(|(m, c)| m.ty != *c)
                    .map(|i| format!("member {i} of the wrong type"))
            }
        }
        _ => Some("compose of a non-composite type".into()),
    }
}

/// Where an expression stands in the statement walk.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum State {
    /// Not yet emitted (or its statement not yet reached).
    Pending,
    /// Emitted in a block that is still open: usable.
    InScope,
    /// Emitted in a block that has closed.
    OutOfScope,
}

struct FunctionValidator<'v, 'm> {
    v: &'v mut Validator<'m>,
    module: &'m Module,
    name: String,
    f: &'m Function,
    state: Vec<State>,
    /// Expressions made available, in order; blocks truncate it on exit.
    scope: Vec<Handle<Expression>>,
    /// Set when the handles or types are broken: skip the deeper checks.
    broken: bool,
    /// Parts of local initialisers, which need no `Emit`.
    init_only: Vec<bool>,
}

impl<'v, 'm> FunctionValidator<'v, 'm> {
    fn new(v: &'v mut Validator<'m>, _h: Handle<Function>, f: &'m Function) -> Self {
        let module = v.module;
        FunctionValidator {
            v,
            module,
            name: f.name.clone(),
            f,
            state: vec![State::Pending; f.expressions.len()],
            scope: Vec::new(),
            broken: false,
            init_only: vec![false; f.expressions.len()],
        }
    }

    fn error(&mut self, expression: Option<Handle<Expression>>, message: impl Into<String>) {
        self.v.errors.push(ValidationError {
            function: Some(self.name.clone()),
            expression,
            message: message.into(),
        });
    }

    fn run(mut self) {
        let f = self.f;
        if f.expr_types.len() != f.expressions.len() {
            self.error(
                None,
                format!(
                    "{} expressions but {} expression types",
                    f.expressions.len(),
                    f.expr_types.len()
                ),
            );
            return;
        }
        if f.expr_spans.len() > f.expressions.len() {
            self.error(None, "more expression spans than expressions");
        }
        for a in &f.arguments {
            if !self.v.type_ok(a.ty) {
                self.error(None, "argument type out of range");
                self.broken = true;
            }
        }
        if let Some(r) = &f.result
            && !self.v.type_ok(r.ty)
        {
            self.error(None, "result type out of range");
            self.broken = true;
        }
        for (_, l) in f.local_variables.iter() {
            if !self.v.type_ok(l.ty) {
                self.error(None, "local type out of range");
                self.broken = true;
            }
        }
        if self.broken {
            return;
        }
        for (h, e) in f.expressions.iter() {
            self.handles(h, e);
        }
        if self.broken {
            return;
        }
        self.local_initialisers();
        for (h, e) in f.expressions.iter() {
            if let Some(m) = self.type_error(h, e) {
                self.error(Some(h), m);
            }
        }
        self.statements();
        for (h, e) in f.expressions.iter() {
            let trivial = e.is_trivial() && !e.is_statement_result();
            if !trivial && self.state[h.index()] == State::Pending && !self.init_only[h.index()] {
                let what = if e.is_statement_result() {
                    "is not named by any statement"
                } else {
                    "is never emitted"
                };
                self.error(Some(h), what);
            }
        }
    }

    /// `LocalVariable::init`: an expression of the function of the local's
    /// type that is a `Literal`, `Constant`, `ZeroValue`, or a `Compose` /
    /// `Splat` of those; such a `Compose`/`Splat` needs no `Emit`.
    fn local_initialisers(&mut self) {
        let f = self.f;
        for (lh, l) in f.local_variables.iter() {
            let Some(init) = l.init else { continue };
            if init.index() >= f.expressions.len() {
                self.error(
                    None,
                    format!("local [{}]: initialiser out of range", lh.index()),
                );
                continue;
            }
            if f.expr_type(init) != l.ty {
                self.error(
                    Some(init),
                    format!("local [{}]: initialiser of another type", lh.index()),
                );
            }
            let mut stack = vec![init];
            while let Some(h) = stack.pop() {
                match &f.expressions[h] {
                    Expression::Literal(_) | Expression::Constant(_) | Expression::ZeroValue(_) => {
                    }
                    Expression::Compose { components, .. } => {
                        self.init_only[h.index()] = true;
                        stack.extend(components.iter().copied());
                    }
                    Expression::Splat { value, .. } => {
                        self.init_only[h.index()] = true;
                        stack.push(*value);
                    }
                    _ => self.error(
                        Some(h),
                        "local initialiser must be built of literals, constants and zero values",
                    ),
                }
            }
        }
    }

    /// Handle ranges and the expression-before-use order.
    fn handles(&mut self, h: Handle<Expression>, e: &Expression) {
        let f = self.f;
        if !self.v.type_ok(f.expr_types[h.index()]) {
            self.error(Some(h), "type out of range");
            self.broken = true;
        }
        let mut bad = None;
        e.for_each_operand(|o| {
            if o.index() >= h.index() && bad.is_none() {
                bad = Some(o);
            }
        });
        if let Some(o) = bad {
            self.error(
                Some(h),
                format!("uses %{}, which does not come before it", o.index()),
            );
            self.broken = true;
        }
        let msg = match *e {
            Expression::Constant(c) if self.v.const_type(c).is_none() => {
                Some("constant out of range")
            }
            Expression::FunctionArgument(n) if n as usize >= f.arguments.len() => {
                Some("argument out of range")
            }
            Expression::GlobalVariable(g) if g.index() >= self.module.globals.len() => {
                Some("global out of range")
            }
            Expression::LocalVariable(l) if l.index() >= f.local_variables.len() => {
                Some("local out of range")
            }
            Expression::CallResult(c) if c.index() >= self.module.functions.len() => {
                Some("called function out of range")
            }
            Expression::ZeroValue(t) | Expression::Compose { ty: t, .. } if !self.v.type_ok(t) => {
                Some("type out of range")
            }
            _ => None,
        };
        if let Some(m) = msg {
            self.error(Some(h), m);
            self.broken = true;
        }
    }

    fn ty(&self, h: Handle<Expression>) -> Handle<Type> {
        self.f.expr_types[h.index()]
    }
    fn inner(&self, h: Handle<Expression>) -> &'m TypeInner {
        &self.module.types[self.f.expr_types[h.index()]].inner
    }
    fn tinner(&self, t: Handle<Type>) -> &'m TypeInner {
        &self.module.types[t].inner
    }
}
