//! Walking the operands of expressions and statements, shared by the
//! display, the validator and the passes.
//!
//! Every function here visits operands in a fixed order (the order the
//! fields are declared in), so that passes that renumber handles and the
//! text form stay deterministic.

use super::{DebugInfo, Expression, Handle, ImageQuery, ImageSampling, SampleLevel, Statement};

impl Expression {
    /// True for expressions that need no evaluation and therefore never
    /// stand inside a `Statement::Emit` range: literals, constants, zero
    /// values (which may also stand in one: the backend makes a constant
    /// either way), variable and argument references, and the results named
    /// by `Call`, `Atomic` and `Subgroup` statements.
    pub fn is_trivial(&self) -> bool {
        matches!(
            self,
            Expression::Literal(_)
                | Expression::Constant(_)
                | Expression::ZeroValue(_)
                | Expression::FunctionArgument(_)
                | Expression::GlobalVariable(_)
                | Expression::LocalVariable(_)
                | Expression::CallResult(_)
                | Expression::AtomicResult
                | Expression::SubgroupResult
                | Expression::RayResult
                | Expression::NodeResult
                | Expression::SpirvResult
                | Expression::Phi
        )
    }

    /// True for expressions whose value is the result of a statement
    /// (`CallResult`, `AtomicResult`, `SubgroupResult`, `Phi`…).
    pub fn is_statement_result(&self) -> bool {
        matches!(
            self,
            Expression::CallResult(_)
                | Expression::AtomicResult
                | Expression::SubgroupResult
                | Expression::RayResult
                | Expression::NodeResult
                | Expression::SpirvResult
                | Expression::Phi
        )
    }

    /// The `precise` flag of an arithmetic expression (false for the others).
    pub fn is_precise(&self) -> bool {
        match *self {
            Expression::Unary { precise, .. }
            | Expression::Binary { precise, .. }
            | Expression::Math { precise, .. }
            | Expression::As { precise, .. } => precise,
            _ => false,
        }
    }

    /// Calls `f` on every expression operand, in declaration order.
    /// `Constant` names a module constant, not a function expression, and is
    /// not visited.
    pub fn for_each_operand(&self, mut f: impl FnMut(Handle<Expression>)) {
        use Expression as E;
        match self {
            E::Literal(_)
            | E::Constant(_)
            | E::ZeroValue(_)
            | E::FunctionArgument(_)
            | E::GlobalVariable(_)
            | E::LocalVariable(_)
            | E::CallResult(_)
            | E::AtomicResult
            | E::SubgroupResult
            | E::RayResult
            | E::NodeResult
            | E::SpirvResult
            | E::Phi => {}
            E::Compose { components, .. } => components.iter().for_each(|&h| f(h)),
            E::Splat { value, .. } => f(*value),
            E::Swizzle { vector, .. } => f(*vector),
            E::AccessIndex { base, .. } => f(*base),
            E::Access { base, index } => {
                f(*base);
                f(*index)
            }
            E::Load { pointer } => f(*pointer),
            E::Unary { expr, .. } => f(*expr),
            E::Binary { left, right, .. } => {
                f(*left);
                f(*right)
            }
            E::Select {
                condition,
                accept,
                reject,
            } => {
                f(*condition);
                f(*accept);
                f(*reject)
            }
            E::Relational { argument, .. } => f(*argument),
            E::Math { args, .. } => args.iter().for_each(|&h| f(h)),
            E::As { expr, .. } => f(*expr),
            E::Derivative { expr, .. } => f(*expr),
            E::ImageSample(s) => {
                let ImageSampling {
                    image,
                    sampler,
                    coordinate,
                    offset,
                    level,
                    depth_ref,
                    clamp,
                    ..
                } = &**s;
                f(*image);
                sampler.iter().for_each(|&h| f(h));
                f(*coordinate);
                offset.iter().for_each(|&h| f(h));
                match *level {
                    SampleLevel::Auto | SampleLevel::Zero => {}
                    SampleLevel::Exact(h) | SampleLevel::Bias(h) => f(h),
                    SampleLevel::Gradient { x, y } => {
                        f(x);
                        f(y)
                    }
                }
                depth_ref.iter().for_each(|&h| f(h));
                clamp.iter().for_each(|&h| f(h));
            }
            E::ImageLoad {
                image,
                coordinate,
                level,
                sample,
                offset,
                ..
            } => {
                f(*image);
                f(*coordinate);
                level.iter().for_each(|&h| f(h));
                sample.iter().for_each(|&h| f(h));
                offset.iter().for_each(|&h| f(h));
            }
            E::ImageQuery { image, query } => {
                f(*image);
                match *query {
                    ImageQuery::Size { level } => level.iter().for_each(|&h| f(h)),
                    ImageQuery::NumLevels | ImageQuery::NumSamples => {}
                    ImageQuery::Lod {
                        sampler,
                        coordinate,
                        ..
                    } => {
                        sampler.iter().for_each(|&h| f(h));
                        f(coordinate)
                    }
                }
            }
            E::ImageTexelPointer {
                image,
                coordinate,
                sample,
            } => {
                f(*image);
                f(*coordinate);
                f(*sample)
            }
            E::SparseTexelsResident { code } => f(*code),
            E::NonUniform { value } => f(*value),
            E::ArrayLength { pointer, .. } => f(*pointer),
            E::AddressCast { value } => f(*value),
        }
    }

    /// A copy with every operand `h` replaced by `f(h)`, in declaration
    /// order: `clone` then `map_operands`, but the common operations are
    /// built at once rather than copied and then rewritten (a rebuild does
    /// this for every expression it reaches).
    #[inline]
    pub fn mapped(&self, mut f: impl FnMut(Handle<Expression>) -> Handle<Expression>) -> Expression {
        use Expression as E;
        match *self {
            E::Load { pointer } => E::Load {
                pointer: f(pointer),
            },
            E::Binary {
                op,
                left,
                right,
                precise,
            } => E::Binary {
                op,
                left: f(left),
                right: f(right),
                precise,
            },
            E::AccessIndex { base, index } => E::AccessIndex {
                base: f(base),
                index,
            },
            E::Access { base, index } => E::Access {
                base: f(base),
                index: f(index),
            },
            E::Splat { size, value } => E::Splat {
                size,
                value: f(value),
            },
            E::Unary { op, expr, precise } => E::Unary {
                op,
                expr: f(expr),
                precise,
            },
            E::As {
                expr,
                kind,
                convert,
                precise,
            } => E::As {
                expr: f(expr),
                kind,
                convert,
                precise,
            },
            ref other => {
                let mut e = other.clone();
                e.map_operands(f);
                e
            }
        }
    }

    /// Replaces every expression operand `h` by `f(h)`, in declaration order.
    pub fn map_operands(&mut self, mut f: impl FnMut(Handle<Expression>) -> Handle<Expression>) {
        use Expression as E;
        let mut m = |h: &mut Handle<Expression>| *h = f(*h);
        match self {
            E::Literal(_)
            | E::Constant(_)
            | E::ZeroValue(_)
            | E::FunctionArgument(_)
            | E::GlobalVariable(_)
            | E::LocalVariable(_)
            | E::CallResult(_)
            | E::AtomicResult
            | E::SubgroupResult
            | E::RayResult
            | E::NodeResult
            | E::SpirvResult
            | E::Phi => {}
            E::Compose { components, .. } => components.iter_mut().for_each(m),
            E::Splat { value, .. } => m(value),
            E::Swizzle { vector, .. } => m(vector),
            E::AccessIndex { base, .. } => m(base),
            E::Access { base, index } => {
                m(base);
                m(index)
            }
            E::Load { pointer } => m(pointer),
            E::Unary { expr, .. } => m(expr),
            E::Binary { left, right, .. } => {
                m(left);
                m(right)
            }
            E::Select {
                condition,
                accept,
                reject,
            } => {
                m(condition);
                m(accept);
                m(reject)
            }
            E::Relational { argument, .. } => m(argument),
            E::Math { args, .. } => args.iter_mut().for_each(m),
            E::As { expr, .. } => m(expr),
            E::Derivative { expr, .. } => m(expr),
            E::ImageSample(s) => {
                let ImageSampling {
                    image,
                    sampler,
                    coordinate,
                    offset,
                    level,
                    depth_ref,
                    clamp,
                    ..
                } = &mut **s;
                m(image);
                sampler.iter_mut().for_each(&mut m);
                m(coordinate);
                offset.iter_mut().for_each(&mut m);
                match level {
                    SampleLevel::Auto | SampleLevel::Zero => {}
                    SampleLevel::Exact(h) | SampleLevel::Bias(h) => m(h),
                    SampleLevel::Gradient { x, y } => {
                        m(x);
                        m(y)
                    }
                }
                depth_ref.iter_mut().for_each(&mut m);
                clamp.iter_mut().for_each(&mut m);
            }
            E::ImageLoad {
                image,
                coordinate,
                level,
                sample,
                offset,
                ..
            } => {
                m(image);
                m(coordinate);
                level.iter_mut().for_each(&mut m);
                sample.iter_mut().for_each(&mut m);
                offset.iter_mut().for_each(&mut m);
            }
            E::ImageQuery { image, query } => {
                m(image);
                match query {
                    ImageQuery::Size { level } => level.iter_mut().for_each(&mut m),
                    ImageQuery::NumLevels | ImageQuery::NumSamples => {}
                    ImageQuery::Lod {
                        sampler,
                        coordinate,
                        ..
                    } => {
                        sampler.iter_mut().for_each(&mut m);
                        m(coordinate)
                    }
                }
            }
            E::ImageTexelPointer {
                image,
                coordinate,
                sample,
            } => {
                m(image);
                m(coordinate);
                m(sample)
            }
            E::SparseTexelsResident { code } => m(code),
            E::NonUniform { value } => m(value),
            E::ArrayLength { pointer, .. } => m(pointer),
            E::AddressCast { value } => m(value),
        }
    }
}

impl Statement {
    /// Calls `f` on every expression this statement itself uses, not those
    /// of nested blocks, and not `Emit` ranges. The result expressions of
    /// `Call`/`Atomic`/`Subgroup` are not operands and are not visited.
    pub fn for_each_operand(&self, mut f: impl FnMut(Handle<Expression>)) {
        use Statement as S;
        match self {
            S::Emit(_)
            | S::Block(_)
            | S::Break
            | S::Continue
            | S::Kill
            | S::EndHit { .. }
            | S::Barrier { .. }
            | S::ScopedBarrier { .. }
            | S::EmitVertex { .. }
            | S::EndPrimitive { .. }
            | S::DebugBreak => {}
            S::DebugPrintf { args, .. } => args.iter().for_each(|&h| f(h)),
            S::If { condition, .. } => f(*condition),
            S::Switch { selector, .. } => f(*selector),
            // `break_if` is evaluated after `continuing`: callers that care
            // about scope handle it themselves.
            S::Loop { .. } => {}
            S::Return { value } => value.iter().for_each(|&h| f(h)),
            S::Store { pointer, value } => {
                f(*pointer);
                f(*value)
            }
            S::ImageStore {
                image,
                coordinate,
                value,
            } => {
                f(*image);
                f(*coordinate);
                f(*value)
            }
            S::Atomic {
                pointer,
                value,
                compare,
                ..
            } => {
                f(*pointer);
                value.iter().for_each(|&h| f(h));
                compare.iter().for_each(|&h| f(h));
            }
            S::Call { arguments, .. } => arguments.iter().for_each(|&h| f(h)),
            S::Subgroup { args, .. }
            | S::Ray { args, .. }
            | S::Node { args, .. }
            | S::Spirv { args, .. } => args.iter().for_each(|&h| f(h)),
            S::SetMeshOutputs {
                vertices,
                primitives,
            } => {
                f(*vertices);
                f(*primitives)
            }
            S::EmitMeshTasks { x, y, z, payload } => {
                f(*x);
                f(*y);
                f(*z);
                payload.iter().for_each(|&h| f(h));
            }
            S::Debug(DebugInfo::Variable { value, .. }) => f(*value),
            S::Debug(_) => {}
            // The values at the ends of the branches (callers that care
            // about scope handle them themselves).
            S::Merge { accept, reject, .. } => {
                accept.iter().for_each(|&h| f(h));
                reject.iter().for_each(|&h| f(h));
            }
            S::Carry { init, latch, .. } => {
                f(*init);
                f(*latch)
            }
        }
    }

    /// Replaces every expression handle of this statement itself (operands,
    /// `break_if`, and the result handles of `Call`/`Atomic`/`Subgroup`) by
    /// `f(h)`; nested blocks and `Emit` ranges are left alone.
    pub fn map_expressions(&mut self, mut f: impl FnMut(Handle<Expression>) -> Handle<Expression>) {
        use Statement as S;
        let mut m = |h: &mut Handle<Expression>| *h = f(*h);
        match self {
            S::Emit(_)
            | S::Block(_)
            | S::Break
            | S::Continue
            | S::Kill
            | S::EndHit { .. }
            | S::Barrier { .. }
            | S::ScopedBarrier { .. }
            | S::EmitVertex { .. }
            | S::EndPrimitive { .. }
            | S::DebugBreak => {}
            S::DebugPrintf { args, .. } => args.iter_mut().for_each(&mut m),
            S::If { condition, .. } => m(condition),
            S::Switch { selector, .. } => m(selector),
            S::Loop { break_if, .. } => break_if.iter_mut().for_each(m),
            S::Return { value } => value.iter_mut().for_each(m),
            S::Store { pointer, value } => {
                m(pointer);
                m(value)
            }
            S::ImageStore {
                image,
                coordinate,
                value,
            } => {
                m(image);
                m(coordinate);
                m(value)
            }
            S::Atomic {
                pointer,
                value,
                compare,
                result,
                ..
            } => {
                m(pointer);
                value.iter_mut().for_each(&mut m);
                compare.iter_mut().for_each(&mut m);
                result.iter_mut().for_each(&mut m);
            }
            S::Call {
                arguments, result, ..
            } => {
                arguments.iter_mut().for_each(&mut m);
                result.iter_mut().for_each(&mut m);
            }
            S::Subgroup { args, result, .. } => {
                args.iter_mut().for_each(&mut m);
                m(result);
            }
            S::SetMeshOutputs {
                vertices,
                primitives,
            } => {
                m(vertices);
                m(primitives)
            }
            S::EmitMeshTasks { x, y, z, payload } => {
                m(x);
                m(y);
                m(z);
                payload.iter_mut().for_each(&mut m);
            }
            S::Ray { args, result, .. }
            | S::Node { args, result, .. }
            | S::Spirv { args, result, .. } => {
                args.iter_mut().for_each(&mut m);
                result.iter_mut().for_each(&mut m);
            }
            S::Debug(DebugInfo::Variable { value, .. }) => m(value),
            S::Debug(_) => {}
            S::Merge {
                result,
                accept,
                reject,
            } => {
                m(result);
                accept.iter_mut().for_each(&mut m);
                reject.iter_mut().for_each(&mut m);
            }
            S::Carry {
                result,
                init,
                latch,
            } => {
                m(result);
                m(init);
                m(latch)
            }
        }
    }

    /// The nested blocks of this statement, in order.
    pub fn blocks(&self) -> Vec<&super::Block> {
        match self {
            Statement::Block(b) => vec![b],
            Statement::If { accept, reject, .. } => vec![accept, reject],
            Statement::Switch { cases, .. } => cases.iter().map(|c| &c.body).collect(),
            Statement::Loop {
                body, continuing, ..
            } => vec![body, continuing],
            _ => Vec::new(),
        }
    }
}

/// Whether `block` has a `continue` of the loop around it (inner loops
/// keep theirs).
pub fn continues(block: &[Statement]) -> bool {
    block.iter().any(|s| match s {
        Statement::Continue => true,
        Statement::Loop { .. } => false,
        other => other.blocks().into_iter().any(|b| continues(b)),
    })
}

/// Whether `block` has a `break` of the construct around it (inner loops
/// and `switch`es keep theirs).
pub fn breaks(block: &[Statement]) -> bool {
    block.iter().any(|s| match s {
        Statement::Break => true,
        Statement::Loop { .. } | Statement::Switch { .. } => false,
        other => other.blocks().into_iter().any(|b| breaks(b)),
    })
}

/// Calls `f` on every statement of `block` and of its nested blocks, in
/// order (a statement before the statements nested in it). Iterative, so a
/// deeply nested body cannot overflow the stack.
pub fn walk_statements<'a>(block: &'a [Statement], mut f: impl FnMut(&'a Statement)) {
    // Room for the usual nesting: grown from one, the stack was copied
    // on most walks.
    let mut stack: Vec<std::slice::Iter<'a, Statement>> = Vec::with_capacity(16);
    stack.push(block.iter());
    while let Some(top) = stack.last_mut() {
        let Some(s) = top.next() else {
            stack.pop();
            continue;
        };
        #[cfg(test)]
        work::visit();
        f(s);
        match s {
            Statement::Block(b) => stack.push(b.iter()),
            Statement::If { accept, reject, .. } => {
                stack.push(reject.iter());
                stack.push(accept.iter());
            }
            Statement::Switch { cases, .. } => {
                for c in cases.iter().rev() {
                    stack.push(c.body.iter());
                }
            }
            Statement::Loop {
                body, continuing, ..
            } => {
                stack.push(continuing.iter());
                stack.push(body.iter());
            }
            _ => {}
        }
    }
}

/// Calls `f` on every statement of `block` and of its nested blocks,
/// mutably (a statement before the statements nested in it). Iterative.
pub fn walk_statements_mut(block: &mut [Statement], mut f: impl FnMut(&mut Statement)) {
    let mut stack: Vec<std::slice::IterMut<'_, Statement>> = vec![block.iter_mut()];
    while let Some(top) = stack.last_mut() {
        let Some(s) = top.next() else {
            stack.pop();
            continue;
        };
        #[cfg(test)]
        work::visit();
        f(s);
        match s {
            Statement::Block(b) => stack.push(b.iter_mut()),
            Statement::If { accept, reject, .. } => {
                stack.push(reject.iter_mut());
                stack.push(accept.iter_mut());
            }
            Statement::Switch { cases, .. } => {
                for c in cases.iter_mut().rev() {
                    stack.push(c.body.iter_mut());
                }
            }
            Statement::Loop {
                body, continuing, ..
            } => {
                stack.push(continuing.iter_mut());
                stack.push(body.iter_mut());
            }
            _ => {}
        }
    }
}

/// Counts the IR nodes the code on this thread visits: arena elements
/// read by handle or iterated, and statements walked. Built into tests
/// only, where it shows that a pass's work grows linearly with its input
/// (wall time is no measure on a shared machine).
#[cfg(test)]
pub(crate) mod work {
    use std::cell::Cell;

    thread_local! {
        static VISITS: Cell<u64> = const { Cell::new(0) };
    }

    /// One node visited.
    pub(crate) fn visit() {
        VISITS.with(|c| c.set(c.get() + 1));
    }

    /// The nodes visited since the last call, and a new count from zero.
    pub(crate) fn take() -> u64 {
        VISITS.with(|c| c.replace(0))
    }
}
