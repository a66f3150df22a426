//! Writing IR by hand. [`add_global`] declares a global (sema uses it);
//! the rest exists for tests: tests of passes and of the backend build
//! modules with it instead of going through sema.
//!
//! `FunctionBuilder` appends expressions with their types (inferred for
//! the common operations), emits every non-trivial expression right away
//! (merging consecutive ones into one `Emit`), and builds structured
//! statements from closures (see the test at the end).

use super::*;

/// Builds one function of a module. Call [`FunctionBuilder::finish`] to add
/// it to the module.
#[cfg(test)]
pub struct FunctionBuilder<'m> {
    pub module: &'m mut Module,
    pub function: Function,
    /// Open blocks; the last is where statements go.
    blocks: Vec<Block>,
}

#[cfg(test)]
impl<'m> FunctionBuilder<'m> {
    pub fn new(module: &'m mut Module, name: &str) -> Self {
        FunctionBuilder {
            module,
            function: Function {
                name: name.to_string(),
                ..Function::default()
            },
            blocks: vec![Block::new()],
        }
    }

    /// Adds the function to the module and returns its handle.
    pub fn finish(mut self) -> Handle<Function> {
        let body = self.blocks.pop().unwrap_or_default();
        self.function.body = body;
        self.module.functions.append(self.function)
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

    /// Appends an expression of type `ty`; a non-trivial one is emitted at
    /// once.
    pub fn expr(&mut self, expr: Expression, ty: Handle<Type>) -> Handle<Expression> {
        let trivial = expr.is_trivial();
        let h = self.function.add_expression(expr, ty);
        if !trivial {
            let block = self.blocks.last_mut().expect("a block is open");
            if let Some(Statement::Emit(r)) = block.last_mut()
                && r.end_index() == h.index()
            {
                *r = Range::new(r.start_index(), h.index() + 1);
            } else {
                block.push(Statement::Emit(Range::new(h.index(), h.index() + 1)));
            }
        }
        h
    }

    pub fn ty_of(&self, h: Handle<Expression>) -> Handle<Type> {
        self.function.expr_type(h)
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
        let n = self.function.arguments.len() as u32;
        self.function.arguments.push(FunctionArgument {
            name: Some(name.to_string()),
            ty,
            precise: false,
        });
        self.expr(Expression::FunctionArgument(n), ty)
    }

    /// Declares a local variable and returns the pointer expression to it.
    pub fn local(&mut self, name: &str, ty: Handle<Type>, precise: bool) -> Handle<Expression> {
        let lv = self.function.local_variables.append(LocalVariable {
            name: Some(name.to_string()),
            ty,
            init: None,
            precise,
        });
        let pty = self.pointer(ty, AddressSpace::Function);
        self.expr(Expression::LocalVariable(lv), pty)
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
        self.expr(
            Expression::As {
                expr,
                kind,
                convert,
                precise: false,
            },
            ty,
        )
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
        self.blocks.last_mut().expect("a block is open").push(s);
    }
    pub fn store(&mut self, pointer: Handle<Expression>, value: Handle<Expression>) {
        self.push(Statement::Store { pointer, value });
    }
    /// `return value;` and, when `result` is given and the function has none
    /// yet, declares the result type.
    pub fn ret(&mut self, value: Option<Handle<Expression>>, result: Option<Handle<Type>>) {
        if let (Some(ty), None) = (result, &self.function.result) {
            self.function.result = Some(FunctionResult { ty, precise: false });
        }
        self.push(Statement::Return { value });
    }

    /// Builds a block with `f` and returns it (without adding it anywhere).
    pub fn block(&mut self, f: impl FnOnce(&mut Self)) -> Block {
        self.blocks.push(Block::new());
        f(self);
        self.blocks.pop().unwrap_or_default()
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
        execution_modes: Vec::new(),
        patch_constant_function: None,
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
