//! Building IR functions: the one place that keeps `Emit` statements right.
//!
//! [`Body`] is a function under construction: its expression arena, the
//! stack of open blocks, and the run of expressions appended since the last
//! `Emit` (as naga's `Emitter`). Appending an expression that needs
//! evaluation extends the run; pushing a statement, opening or closing a
//! block closes the run with one `Emit`. Trivial expressions (literals,
//! constants, zero values, variable and argument references, statement
//! results) close the run first and stay outside it. Sema lowers function
//! bodies through a `Body` (adding its block scopes, literal caches and
//! discarded trial lowerings on top); the passes' rebuilds, the inliner and
//! the tests build through it too.
//!
//! [`FunctionBuilder`] is a `Body` with the module at hand, for writing IR
//! by hand: tests of the passes and the IR build modules with it instead of
//! going through sema. It infers result types for the common operations
//! and builds structured statements from closures. (The backend's tests
//! build functions before their module, with every type given: their
//! builder, in `tests/unit/back_spv`, is a `Body` too.)

use super::*;

impl Expression {
    /// A conversion to `kind` (`convert`: the new width) or a bit cast
    /// (`None`), not precise: the precise pass marks what must be.
    pub fn cast(expr: Handle<Expression>, kind: ScalarKind, convert: Option<u8>) -> Expression {
        Expression::As {
            expr,
            kind,
            convert,
            precise: false,
        }
    }
}

/// A function under construction: its arena, its open blocks (the body at
/// the bottom, where statements go the last) and the expressions not yet
/// covered by an `Emit`.
#[derive(Debug)]
pub struct Body {
    pub function: Function,
    blocks: Vec<Block>,
    /// The first expression of the run that the next `Emit` covers.
    emit_start: usize,
}

impl Body {
    /// Continues `function` (its arguments, result and any expressions it
    /// has already); statements go into a new body.
    pub fn new(mut function: Function) -> Self {
        // Room for a typical body's expressions up front: grown from
        // empty, the arena and its types were copied five or six times
        // per function (sema lowers every function of a file on each edit
        // in the language server).
        const TYPICAL_EXPRESSIONS: usize = 64;
        function.expressions.reserve(TYPICAL_EXPRESSIONS);
        function.expr_types.reserve(TYPICAL_EXPRESSIONS);
        let emit_start = function.expressions.len();
        Body {
            function,
            blocks: vec![Block::new()],
            emit_start,
        }
    }

    /// Appends an expression of type `ty`: a trivial one outside any `Emit`,
    /// any other in the run the next `Emit` covers.
    #[inline]
    pub fn add(&mut self, expr: Expression, ty: Handle<Type>) -> Handle<Expression> {
        let outside = expr.is_trivial();
        self.append(expr, ty, outside)
    }

    /// Appends an expression to the run the next `Emit` covers, trivial or
    /// not (a `ZeroValue` may stand in an `Emit`; a statement result or a
    /// reference must not).
    #[inline]
    pub fn add_in_run(&mut self, expr: Expression, ty: Handle<Type>) -> Handle<Expression> {
        self.function.add_expression(expr, ty)
    }

    /// Appends an expression outside any `Emit`: a trivial one, a part of
    /// a local's initialiser (`LocalVariable::init` needs no `Emit`), or one
    /// that an `Emit` the caller pushes itself covers (a copied body).
    #[inline]
    pub fn add_outside(&mut self, expr: Expression, ty: Handle<Type>) -> Handle<Expression> {
        self.append(expr, ty, true)
    }

    /// Appends an expression, `outside` the run (closing the run first) or
    /// in it. The run is closed out of line, so that the common case (no
    /// open run, or an expression in it) is two pushes, without the
    /// registers that pushing the `Emit` needs saved at every call.
    #[inline]
    fn append(
        &mut self,
        expr: Expression,
        ty: Handle<Type>,
        outside: bool,
    ) -> Handle<Expression> {
        if outside {
            self.flush();
            // The run starts after this expression.
            self.emit_start = self.function.expressions.len() + 1;
        }
        self.function.add_expression(expr, ty)
    }

    /// Closes the run of expressions appended since the last `Emit` with
    /// an `Emit` in the current block.
    #[inline]
    pub fn flush(&mut self) {
        let len = self.function.expressions.len();
        if self.emit_start < len {
            self.close_run(len);
        }
    }

    /// The `Emit` of the open run, which ends at `len` (out of line: see
    /// [`Body::append`]).
    #[inline(never)]
    fn close_run(&mut self, len: usize) {
        let range = Range::new(self.emit_start, len);
        if let Some(b) = self.blocks.last_mut() {
            b.push(Statement::Emit(range));
        }
        self.emit_start = len;
    }

    /// Appends a statement to the current block (after the `Emit` of the
    /// expressions it may use).
    pub fn push(&mut self, s: Statement) {
        self.flush();
        if let Some(b) = self.blocks.last_mut() {
            b.push(s);
        }
    }

    /// Opens a nested block: statements go there until [`Body::close`].
    pub fn open(&mut self) {
        self.open_with_capacity(0);
    }

    /// Opens a nested block with room for `n` statements (a rebuild's copy
    /// of a block of `n`).
    pub fn open_with_capacity(&mut self, n: usize) {
        self.flush();
        self.blocks.push(Block::with_capacity(n));
    }

    /// Closes the innermost nested block and returns it (without adding it
    /// anywhere). The body itself is never closed: then the result is empty.
    pub fn close(&mut self) -> Block {
        self.flush();
        if self.blocks.len() > 1 {
            self.blocks.pop().unwrap_or_default()
        } else {
            Block::new()
        }
    }

    /// The block statements go into now, to edit.
    pub fn current_mut(&mut self) -> Option<&mut Block> {
        self.blocks.last_mut()
    }

    /// The block statements go into now.
    pub fn current(&self) -> &[Statement] {
        self.blocks.last().map_or(&[], |b| b.as_slice())
    }

    /// Whether the current block ends in a return, break, continue or kill
    /// (so what follows is unreachable).
    pub fn terminated(&self) -> bool {
        self.current().last().is_some_and(Statement::ends_block)
    }

    /// Drops the expressions from index `len` on (which no statement may
    /// use any more); the next run starts after what is left.
    pub fn truncate_expressions(&mut self, len: usize) {
        if self.function.expressions.len() > len {
            self.function.expressions.truncate(len);
            self.function.expr_types.truncate(len);
            self.function.expr_spans.truncate(len);
        }
        self.emit_start = self.function.expressions.len();
    }

    /// Declares a local variable; `pointer` is the type of a pointer to it
    /// in the Function space. Returns the pointer expression.
    pub fn local(
        &mut self,
        name: Option<String>,
        ty: Handle<Type>,
        precise: bool,
        pointer: Handle<Type>,
    ) -> Handle<Expression> {
        let lv = self.function.local_variables.append(LocalVariable {
            name,
            ty,
            init: None,
            precise,
            aliased: false,
            spirv_decorations: Vec::new(),
        });
        self.add(Expression::LocalVariable(lv), pointer)
    }

    /// Ends building: the function with its body (the bottom block).
    pub fn finish(mut self) -> Function {
        self.flush();
        self.function.body = std::mem::take(&mut self.blocks[0]);
        self.function
    }
}

/// Builds one function of a module. Call [`FunctionBuilder::finish`] to add
/// it to the module.
#[cfg(test)]
pub struct FunctionBuilder<'m> {
    pub module: &'m mut Module,
    pub body: Body,
}

#[cfg(test)]
impl<'m> FunctionBuilder<'m> {
    pub fn new(module: &'m mut Module, name: &str) -> Self {
        FunctionBuilder {
            module,
            body: Body::new(Function {
                name: name.to_string(),
                ..Function::default()
            }),
        }
    }

    /// Adds the function to the module and returns its handle.
    pub fn finish(self) -> Handle<Function> {
        let f = self.body.finish();
        self.module.functions.append(f)
    }

    // --- types -----------------------------------------------------------

    pub fn scalar(&mut self, s: Scalar) -> Handle<Type> {
        self.module.scalar_type(s)
    }
    pub fn vector(&mut self, size: u8, scalar: Scalar) -> Handle<Type> {
        self.module.ty(TypeInner::Vector { size, scalar })
    }
    pub fn pointer(&mut self, base: Handle<Type>, space: AddressSpace) -> Handle<Type> {
        self.module.ty(TypeInner::Pointer { base, space })
    }

    /// The scalar type of a scalar, vector or matrix type.
    pub fn scalar_of(&self, ty: Handle<Type>) -> Option<Scalar> {
        match self.module.types[ty].inner {
            TypeInner::Scalar(s)
            | TypeInner::Vector { scalar: s, .. }
            | TypeInner::Matrix { scalar: s, .. } => Some(s),
            _ => None,
        }
    }

    // --- expressions -----------------------------------------------------

    /// Appends an expression of type `ty` (see [`Body::add`]).
    pub fn expr(&mut self, expr: Expression, ty: Handle<Type>) -> Handle<Expression> {
        self.body.add(expr, ty)
    }

    pub fn ty_of(&self, h: Handle<Expression>) -> Handle<Type> {
        self.body.function.expr_type(h)
    }

    pub fn literal(&mut self, lit: Literal) -> Handle<Expression> {
        let ty = self.module.scalar_type(lit.scalar());
        self.expr(Expression::Literal(lit), ty)
    }
    pub fn f32(&mut self, v: f32) -> Handle<Expression> {
        self.literal(Literal::f32(v))
    }
    pub fn i32(&mut self, v: i32) -> Handle<Expression> {
        self.literal(Literal::I32(v))
    }
    pub fn u32(&mut self, v: u32) -> Handle<Expression> {
        self.literal(Literal::U32(v))
    }
    pub fn bool(&mut self, v: bool) -> Handle<Expression> {
        self.literal(Literal::Bool(v))
    }

    /// Declares an argument and returns the `FunctionArgument` expression.
    pub fn argument(&mut self, name: &str, ty: Handle<Type>) -> Handle<Expression> {
        let n = self.body.function.arguments.len() as u32;
        self.body.function.arguments.push(FunctionArgument {
            name: Some(name.to_string()),
            ty,
            precise: false,
            spirv_decorations: Vec::new(),
        });
        self.expr(Expression::FunctionArgument(n), ty)
    }

    /// Declares a local variable and returns the pointer expression to it.
    pub fn local(&mut self, name: &str, ty: Handle<Type>, precise: bool) -> Handle<Expression> {
        let pty = self.pointer(ty, AddressSpace::Function);
        self.body.local(Some(name.to_string()), ty, precise, pty)
    }

    /// The pointer expression to a global.
    pub fn global(&mut self, g: Handle<GlobalVariable>) -> Handle<Expression> {
        let (ty, space) = (self.module.globals[g].ty, self.module.globals[g].space);
        let pty = self.pointer(ty, space);
        self.expr(Expression::GlobalVariable(g), pty)
    }

    pub fn load(&mut self, pointer: Handle<Expression>) -> Handle<Expression> {
        let ty = match self.module.types[self.ty_of(pointer)].inner {
            TypeInner::Pointer { base, .. } => base,
            _ => self.ty_of(pointer),
        };
        self.expr(Expression::Load { pointer }, ty)
    }

    /// A binary operation; the result type is inferred (comparisons give
    /// bool of the operand's shape, `MatMul` the product's shape, a scalar
    /// operand mixed with a vector or matrix gives the latter).
    pub fn binary(
        &mut self,
        op: BinaryOperator,
        left: Handle<Expression>,
        right: Handle<Expression>,
    ) -> Handle<Expression> {
        let ty = self.binary_type(op, left, right);
        self.expr(
            Expression::Binary {
                op,
                left,
                right,
                precise: false,
            },
            ty,
        )
    }

    fn binary_type(
        &mut self,
        op: BinaryOperator,
        left: Handle<Expression>,
        right: Handle<Expression>,
    ) -> Handle<Type> {
        use BinaryOperator as B;
        let (lt, rt) = (self.ty_of(left), self.ty_of(right));
        let (li, ri) = (
            self.module.types[lt].inner.clone(),
            self.module.types[rt].inner.clone(),
        );
        match op {
            B::Equal | B::NotEqual | B::Less | B::LessEqual | B::Greater | B::GreaterEqual => {
                match li {
                    TypeInner::Vector { size, .. } => self.vector(size, Scalar::BOOL),
                    _ => self.scalar(Scalar::BOOL),
                }
            }
            B::MatMul => match (li, ri) {
                (TypeInner::Matrix { rows, scalar, .. }, TypeInner::Matrix { columns, .. }) => {
                    self.module.ty(TypeInner::Matrix {
                        rows,
                        columns,
                        scalar,
                    })
                }
                (TypeInner::Matrix { rows, scalar, .. }, _) => self.vector(rows, scalar),
                (
                    _,
                    TypeInner::Matrix {
                        columns, scalar, ..
                    },
                ) => self.vector(columns, scalar),
                _ => lt,
            },
            _ => match li {
                TypeInner::Scalar(_) if !matches!(ri, TypeInner::Scalar(_)) => rt,
                _ => lt,
            },
        }
    }

    pub fn unary(&mut self, op: UnaryOperator, expr: Handle<Expression>) -> Handle<Expression> {
        let ty = self.ty_of(expr);
        self.expr(
            Expression::Unary {
                op,
                expr,
                precise: false,
            },
            ty,
        )
    }

    /// A value conversion (`convert = Some(width)`) or bit cast to `kind`.
    pub fn cast(
        &mut self,
        expr: Handle<Expression>,
        kind: ScalarKind,
        convert: Option<u8>,
    ) -> Handle<Expression> {
        let from = self.ty_of(expr);
        let width = convert
            .or(self.scalar_of(from).map(|s| s.width))
            .unwrap_or(4);
        let scalar = Scalar { kind, width };
        let ty = match self.module.types[from].inner {
            TypeInner::Vector { size, .. } => self.vector(size, scalar),
            _ => self.scalar(scalar),
        };
        self.expr(Expression::cast(expr, kind, convert), ty)
    }

    pub fn compose(
        &mut self,
        ty: Handle<Type>,
        components: &[Handle<Expression>],
    ) -> Handle<Expression> {
        self.expr(
            Expression::Compose {
                ty,
                components: components.to_vec(),
            },
            ty,
        )
    }

    /// `vector.xyzw`-style swizzle of `pattern` (component indices 0..=3).
    pub fn swizzle(&mut self, vector: Handle<Expression>, pattern: &[u8]) -> Handle<Expression> {
        let s = self.scalar_of(self.ty_of(vector)).unwrap_or(Scalar::F32);
        let size = pattern.len() as u8;
        let ty = if size == 1 {
            self.scalar(s)
        } else {
            self.vector(size, s)
        };
        let comp = |i: u8| match i {
            0 => SwizzleComponent::X,
            1 => SwizzleComponent::Y,
            2 => SwizzleComponent::Z,
            _ => SwizzleComponent::W,
        };
        let mut pat = [SwizzleComponent::X; 4];
        for (i, &p) in pattern.iter().enumerate().take(4) {
            pat[i] = comp(p);
        }
        self.expr(
            Expression::Swizzle {
                size,
                vector,
                pattern: pat,
            },
            ty,
        )
    }

    /// A constant index into a value or through a pointer.
    pub fn access_index(&mut self, base: Handle<Expression>, index: u32) -> Handle<Expression> {
        let bt = self.ty_of(base);
        let ty = match self.module.types[bt].inner.clone() {
            TypeInner::Pointer {
                base: pointee,
                space,
            } => {
                let inner = self.component_type(pointee, index);
                self.pointer(inner, space)
            }
            _ => self.component_type(bt, index),
        };
        self.expr(Expression::AccessIndex { base, index }, ty)
    }

    /// The type of component `index` of a composite type.
    pub fn component_type(&mut self, ty: Handle<Type>, index: u32) -> Handle<Type> {
        match self.module.types[ty].inner.clone() {
            TypeInner::Vector { scalar, .. } => self.scalar(scalar),
            TypeInner::Matrix {
                columns, scalar, ..
            } => self.vector(columns, scalar),
            TypeInner::Array { base, .. } => base,
            TypeInner::Struct { members, .. } => {
                members.get(index as usize).map(|m| m.ty).unwrap_or(ty)
            }
            _ => ty,
        }
    }

    pub fn select(
        &mut self,
        condition: Handle<Expression>,
        accept: Handle<Expression>,
        reject: Handle<Expression>,
    ) -> Handle<Expression> {
        let ty = self.ty_of(accept);
        self.expr(
            Expression::Select {
                condition,
                accept,
                reject,
            },
            ty,
        )
    }

    // --- statements ------------------------------------------------------

    pub fn push(&mut self, s: Statement) {
        self.body.push(s);
    }
    pub fn store(&mut self, pointer: Handle<Expression>, value: Handle<Expression>) {
        self.push(Statement::Store { pointer, value });
    }
    /// `return value;` and, when `result` is given and the function has none
    /// yet, declares the result type.
    pub fn ret(&mut self, value: Option<Handle<Expression>>, result: Option<Handle<Type>>) {
        if let (Some(ty), None) = (result, &self.body.function.result) {
            self.body.function.result = Some(FunctionResult { ty, precise: false });
        }
        self.push(Statement::Return { value });
    }

    /// Builds a block with `f` and returns it (without adding it anywhere).
    pub fn block(&mut self, f: impl FnOnce(&mut Self)) -> Block {
        self.body.open();
        f(self);
        self.body.close()
    }

    pub fn if_(
        &mut self,
        condition: Handle<Expression>,
        accept: impl FnOnce(&mut Self),
        reject: impl FnOnce(&mut Self),
    ) {
        let accept = self.block(accept);
        let reject = self.block(reject);
        self.push(Statement::If {
            condition,
            accept,
            reject,
            control: SelectionControl::None,
        });
    }

    /// `loop { body } continuing { continuing }`; `break_if` is built at the
    /// end of `continuing` by the closure's return value.
    pub fn loop_(
        &mut self,
        body: impl FnOnce(&mut Self),
        continuing: impl FnOnce(&mut Self) -> Option<Handle<Expression>>,
    ) {
        let body = self.block(body);
        let mut break_if = None;
        let continuing = self.block(|fb| break_if = continuing(fb));
        self.push(Statement::Loop {
            body,
            continuing,
            break_if,
            control: LoopControl::None,
        });
    }

    /// A call; returns the `CallResult` expression when the callee has a
    /// result.
    pub fn call(
        &mut self,
        function: Handle<Function>,
        arguments: &[Handle<Expression>],
    ) -> Option<Handle<Expression>> {
        let result = self.module.functions[function]
            .result
            .as_ref()
            .map(|r| r.ty)
            .map(|ty| self.expr(Expression::CallResult(function), ty));
        self.push(Statement::Call {
            function,
            arguments: arguments.to_vec(),
            result,
        });
        result
    }
}

/// Adds a global variable with the common fields defaulted.
pub fn add_global(
    module: &mut Module,
    name: &str,
    space: AddressSpace,
    ty: Handle<Type>,
) -> Handle<GlobalVariable> {
    module.globals.append(GlobalVariable {
        name: Some(name.to_string()),
        space,
        ty,
        init: None,
        binding: None,
        io: None,
        precise: false,
        invariant: false,
        semantic: None,
        counter: None,
        user_type: None,
    })
}

/// Makes `function` a compute entry point named `name`.
#[cfg(test)]
pub fn add_compute_entry(module: &mut Module, name: &str, function: Handle<Function>) {
    module.entry_points.push(EntryPoint {
        name: name.to_string(),
        stage: Stage::Compute,
        function,
        workgroup_size: [1, 1, 1],
        node: None,
        execution_modes: Vec::new(),
        patch_constant_function: None,
        streams: Vec::new(),
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_function_by_hand() {
        let mut m = Module::default();
        let float = m.scalar_type(Scalar::F32);
        let mut fb = FunctionBuilder::new(&mut m, "f");
        let a = fb.argument("a", float);
        let two = fb.f32(2.0);
        let x = fb.binary(BinaryOperator::Multiply, a, two);
        fb.ret(Some(x), Some(float));
        let f = fb.finish();
        assert_eq!(m.functions[f].name, "f");
    }
}
