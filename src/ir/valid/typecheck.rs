//! Operand and result types of expressions.

use super::{FunctionValidator, compose_error, scalar_of, shape};
use crate::ir::*;

impl FunctionValidator<'_, '_> {
    /// The type of component `index` of a value of type `t` (a constant
    /// index when `index` is `Some`), or why there is none.
    fn component(&self, t: Handle<Type>, index: Option<u32>) -> Result<CompType, String> {
        let in_range = |n: u32| index.is_none_or(|i| i < n);
        match *self.tinner(t) {
            TypeInner::Vector { size, scalar } if in_range(size as u32) => {
                Ok(CompType::Shape(None, scalar))
            }
            TypeInner::Matrix {
                rows,
                columns,
                scalar,
            } if in_range(rows as u32) => {
                Ok(CompType::Shape((columns > 1).then_some(columns), scalar))
            }
            TypeInner::Array { base, size, .. } => match size {
                ArraySize::Constant(n) if !in_range(n) => Err(format!("index out of {n} elements")),
                _ => Ok(CompType::Type(base)),
            },
            TypeInner::NodePayloadArray { payload, .. } => Ok(CompType::Type(payload)),
            TypeInner::Struct { ref members, .. } => match index {
                Some(i) => members
                    .get(i as usize)
                    .map(|m| CompType::Type(m.ty))
                    .ok_or_else(|| format!("no member {i}")),
                None => Err("dynamic index into a struct".into()),
            },
            ref other => Err(format!("cannot index {other:?}")),
        }
    }

    /// Whether type `t` is the component `c`.
    fn is_component(&self, t: Handle<Type>, c: &CompType) -> bool {
        match *c {
            CompType::Type(ct) => ct == t,
            CompType::Shape(size, scalar) => shape(self.tinner(t)) == Some((size, scalar)),
        }
    }

    /// The type of an image or sampler operand: a value, or a pointer to a
    /// `Handle` global (which the backend loads).
    pub(super) fn handle_inner(&self, h: Handle<Expression>) -> &TypeInner {
        match *self.inner(h) {
            TypeInner::Pointer { base, .. } => self.tinner(base),
            ref other => other,
        }
    }

    pub(super) fn type_error(&self, h: Handle<Expression>, e: &Expression) -> Option<String> {
        use Expression as E;
        let module = self.module;
        let f = self.f;
        let rt = self.ty(h);
        let r = self.tinner(rt);
        let bad = |m: &str| Some(m.to_string());
        match e {
            E::Literal(l) => (*r != TypeInner::Scalar(l.scalar())).then(|| "literal type".into()),
            E::Constant(c) => (self.v.const_type(*c) != Some(rt)).then(|| "constant type".into()),
            E::ZeroValue(t) => (*t != rt).then(|| "zero value type".into()),
            E::Compose { ty, components } => {
                if *ty != rt {
                    return bad("compose type differs from the expression type");
                }
                let types: Vec<Handle<Type>> = components.iter().map(|&c| self.ty(c)).collect();
                compose_error(module, rt, &types)
            }
            E::Splat { size, value } => match (shape(self.inner(*value)), shape(r)) {
                (Some((None, s)), Some((Some(n), rs))) if s == rs && n == *size => None,
                _ => bad("splat of a non-scalar or to another shape"),
            },
            E::Swizzle {
                size,
                vector,
                pattern,
            } => {
                let Some((Some(n), s)) = shape(self.inner(*vector)) else {
                    return bad("swizzle of a non-vector");
                };
                if !(1..=4).contains(size)
                    || pattern[..*size as usize].iter().any(|c| *c as u8 >= n)
                {
                    return bad("swizzle component out of range");
                }
                let want = (*size > 1).then_some(*size);
                (shape(r) != Some((want, s))).then(|| "swizzle result type".into())
            }
            E::AccessIndex { base, index } => self.access_error(rt, *base, Some(*index)),
            E::Access { base, index } => {
                match shape(self.inner(*index)) {
                    Some((None, s)) if matches!(s.kind, ScalarKind::Sint | ScalarKind::Uint) => {}
                    _ => return bad("dynamic index is not an integer scalar"),
                }
                self.access_error(rt, *base, None)
            }
            E::FunctionArgument(n) => {
                (f.arguments[*n as usize].ty != rt).then(|| "argument type".into())
            }
            E::GlobalVariable(g) => {
                let g = &module.globals[*g];
                (*r != TypeInner::Pointer {
                    base: g.ty,
                    space: g.space,
                })
                .then(|| "global reference must be a pointer to the global's type".into())
            }
            E::LocalVariable(l) => (*r
                != TypeInner::Pointer {
                    base: f.local_variables[*l].ty,
                    space: AddressSpace::Function,
                })
            .then(|| "local reference must be a Function pointer to the local's type".into()),
            E::Load { pointer } => match *self.inner(*pointer) {
                TypeInner::Pointer { base, .. } => {
                    (base != rt).then(|| "load result differs from the pointee type".into())
                }
                _ => bad("load through a non-pointer"),
            },
            E::Unary { op, expr, .. } => {
                if self.ty(*expr) != rt {
                    return bad("unary result type differs from its operand");
                }
                let s = scalar_of(r).map(|s| s.kind);
                let ok = match op {
                    UnaryOperator::Negate => {
                        matches!(
                            s,
                            Some(ScalarKind::Sint | ScalarKind::Uint | ScalarKind::Float)
                        )
                    }
                    UnaryOperator::LogicalNot => {
                        s == Some(ScalarKind::Bool) && !matches!(r, TypeInner::Matrix { .. })
                    }
                    UnaryOperator::BitwiseNot => {
                        matches!(s, Some(ScalarKind::Sint | ScalarKind::Uint))
                            && !matches!(r, TypeInner::Matrix { .. })
                    }
                };
                (!ok).then(|| format!("{op:?} of the wrong kind of operand"))
            }
            E::Binary {
                op, left, right, ..
            } => self.binary_error(*op, *left, *right, rt),
            E::Select {
                condition,
                accept,
                reject,
            } => {
                if self.ty(*accept) != rt || self.ty(*reject) != rt {
                    return bad("select operands differ from the result type");
                }
                match shape(self.inner(*condition)) {
                    Some((None, Scalar::BOOL)) => None,
                    Some((Some(n), Scalar::BOOL))
                        if shape(r).is_some_and(|(sz, _)| sz == Some(n)) =>
                    {
                        None
                    }
                    _ => bad("select condition must be bool or a bool vector of the result's size"),
                }
            }
            E::Relational { fun, argument } => {
                let a = shape(self.inner(*argument));
                match fun {
                    RelationalFunction::All | RelationalFunction::Any => match (a, shape(r)) {
                        (Some((_, Scalar::BOOL)), Some((None, Scalar::BOOL))) => None,
                        _ => bad("all/any take bool and give bool"),
                    },
                    RelationalFunction::IsNan | RelationalFunction::IsInf => match (a, shape(r)) {
                        (Some((n, s)), Some((rn, Scalar::BOOL)))
                            if s.kind == ScalarKind::Float && n == rn =>
                        {
                            None
                        }
                        _ => bad("isnan/isinf take float and give bool of the same shape"),
                    },
                }
            }
            E::Math { fun, args, .. } => {
                let n = math_arity(*fun);
                (args.len() != n)
                    .then(|| format!("{fun:?} takes {n} arguments, has {}", args.len()))
            }
            E::As {
                expr,
                kind,
                convert,
                ..
            } => {
                let (Some((n, s)), Some((rn, rs))) = (shape(self.inner(*expr)), shape(r)) else {
                    return bad("conversion of a non-scalar, non-vector value");
                };
                if n != rn || rs.kind != *kind {
                    return bad("conversion result shape or kind");
                }
                match convert {
                    Some(w) => (rs.width != *w).then(|| "conversion result width".into()),
                    None if rs.width != s.width
                        || *kind == ScalarKind::Bool
                        || s.kind == ScalarKind::Bool =>
                    {
                        bad("bit cast must keep the width and not involve bool")
                    }
                    None => None,
                }
            }
            E::Derivative { expr, .. } => {
                if self.ty(*expr) != rt {
                    bad("derivative result type differs from its operand")
                } else if scalar_of(r).map(|s| s.kind) != Some(ScalarKind::Float) {
                    bad("derivative of a non-float")
                } else {
                    None
                }
            }
            E::ImageSample(_)
            | E::ImageQuery { .. }
            | E::ImageLoad { .. }
            | E::ImageTexelPointer { .. } => self.image_error(e),
            E::SparseTexelsResident { .. } => {
                (*r != TypeInner::Scalar(Scalar::BOOL)).then(|| "result must be bool".into())
            }
            E::NonUniform { value } => {
                (self.inner(*value) != r).then(|| "must have its operand's type".into())
            }
            E::AddressCast { value } => {
                let is_address = |t: &TypeInner| match *t {
                    TypeInner::Scalar(s) => s == Scalar::U64,
                    TypeInner::Pointer { space, .. } => {
                        matches!(space, crate::ir::AddressSpace::PhysicalStorage { .. })
                    }
                    _ => false,
                };
                (!is_address(self.inner(*value)) || !is_address(r)).then(|| {
                    "address cast between types other than uint64_t and device pointers".into()
                })
            }
            E::ArrayLength { pointer, .. } => {
                if !matches!(self.inner(*pointer), TypeInner::Pointer { .. }) {
                    bad("array length of a non-pointer")
                } else {
                    (*r != TypeInner::Scalar(Scalar::U32)).then(|| "result must be uint".into())
                }
            }
            E::CallResult(func) => match &module.functions[*func].result {
                Some(res) if res.ty == rt => None,
                Some(_) => bad("call result type differs from the callee's result"),
                None => bad("call result of a function without result"),
            },
            E::AtomicResult
            | E::SubgroupResult
            | E::RayResult
            | E::NodeResult
            | E::SpirvResult
            | E::Phi => {
                None
            }
        }
    }

    /// The operand rules of the image expressions.
    fn image_error(&self, e: &Expression) -> Option<String> {
        use Expression as E;
        // A combined image sampler takes no sampler, or another one (then
        // its image is sampled); an image takes one.
        let sampled = |image: Handle<Expression>, sampler: Option<Handle<Expression>>| {
            let ok = match (self.handle_inner(image), sampler) {
                (TypeInner::SampledImage { .. }, None) => true,
                (TypeInner::Image { .. } | TypeInner::SampledImage { .. }, Some(s)) => {
                    matches!(self.handle_inner(s), TypeInner::Sampler { .. })
                }
                _ => false,
            };
            (!ok).then(|| "sample needs an image and a sampler, or a sampled image".into())
        };
        match e {
            E::ImageSample(s) => sampled(s.image, s.sampler),
            E::ImageQuery {
                image,
                query: ImageQuery::Lod { sampler, .. },
            } => sampled(*image, *sampler),
            E::ImageLoad { image, .. } | E::ImageQuery { image, .. } => (!matches!(
                self.handle_inner(*image),
                TypeInner::Image { .. } | TypeInner::SampledImage { .. }
            ))
            .then(|| "operand is not an image".into()),
            E::ImageTexelPointer { image, .. } => {
                (!matches!(self.handle_inner(*image), TypeInner::Image { .. }))
                    .then(|| "operand is not an image".into())
            }
            _ => None,
        }
    }

    fn access_error(
        &self,
        rt: Handle<Type>,
        base: Handle<Expression>,
        index: Option<u32>,
    ) -> Option<String> {
        match *self.inner(base) {
            TypeInner::Pointer {
                base: pointee,
                space,
            } => match self.component(pointee, index) {
                Err(m) => Some(m),
                Ok(c) => match *self.tinner(rt) {
                    TypeInner::Pointer {
                        base: rb,
                        space: rs,
                    } if rs == space && self.is_component(rb, &c) => None,
                    _ => {
                        Some("access through a pointer must give a pointer to the component".into())
                    }
                },
            },
            _ => match self.component(self.ty(base), index) {
                Err(m) => Some(m),
                Ok(c) => (!self.is_component(rt, &c)).then(|| "access result type".into()),
            },
        }
    }

    fn binary_error(
        &self,
        op: BinaryOperator,
        left: Handle<Expression>,
        right: Handle<Expression>,
        rt: Handle<Type>,
    ) -> Option<String> {
        use BinaryOperator as B;
        let (lt, rtt) = (self.ty(left), self.ty(right));
        let (l, r, res) = (self.tinner(lt), self.tinner(rtt), self.tinner(rt));
        let kind = scalar_of(l).map(|s| s.kind);
        let is_int = matches!(kind, Some(ScalarKind::Sint | ScalarKind::Uint));
        let numeric = is_int || kind == Some(ScalarKind::Float);
        let not_matrix = !matches!(l, TypeInner::Matrix { .. });
        match op {
            B::Add | B::Subtract | B::Multiply | B::Divide | B::Modulo => {
                if !numeric {
                    return Some(format!("{op:?} of non-numeric operands"));
                }
                if lt == rtt {
                    return (rt != lt).then(|| "result type differs from the operands".into());
                }
                // A scalar operand with a vector one (the backend splats it),
                // and for `*` also with a matrix.
                let (ls, rs) = (scalar_of(l), scalar_of(r));
                let wide = |t: &TypeInner| match t {
                    TypeInner::Vector { .. } => true,
                    TypeInner::Matrix { .. } => op == B::Multiply,
                    _ => false,
                };
                if ls == rs {
                    if matches!(l, TypeInner::Scalar(_)) && wide(r) && rt == rtt {
                        return None;
                    }
                    if matches!(r, TypeInner::Scalar(_)) && wide(l) && rt == lt {
                        return None;
                    }
                }
                Some(format!("{op:?} of operands of different types"))
            }
            B::MatMul => {
                let s = scalar_of(l);
                if s != scalar_of(r) || s.map(|s| s.kind) != Some(ScalarKind::Float) {
                    return Some("matmul of non-float or mixed operands".into());
                }
                let s = s?;
                let vec_or_scalar = |n: u8| {
                    if n == 1 {
                        TypeInner::Scalar(s)
                    } else {
                        TypeInner::Vector { size: n, scalar: s }
                    }
                };
                let want =
                    match (l, r) {
                        (
                            TypeInner::Matrix { rows, columns, .. },
                            TypeInner::Matrix {
                                rows: r2,
                                columns: c2,
                                ..
                            },
                        ) if columns == r2 => {
                            if *rows == 1 && *c2 == 1 {
                                TypeInner::Scalar(s)
                            } else {
                                TypeInner::Matrix {
                                    rows: *rows,
                                    columns: *c2,
                                    scalar: s,
                                }
                            }
                        }
                        (
                            TypeInner::Matrix { rows, columns, .. },
                            TypeInner::Vector { size, .. },
                        ) if columns == size => vec_or_scalar(*rows),
                        (
                            TypeInner::Vector { size, .. },
                            TypeInner::Matrix { rows, columns, .. },
                        ) if size == rows => vec_or_scalar(*columns),
                        _ => return Some("matmul shapes do not match".into()),
                    };
                (*res != want).then(|| "matmul result shape".into())
            }
            B::Equal | B::NotEqual | B::Less | B::LessEqual | B::Greater | B::GreaterEqual => {
                if lt != rtt || !not_matrix || kind.is_none() {
                    return Some("comparison of different or non-scalar/vector types".into());
                }
                if kind == Some(ScalarKind::Bool) && !matches!(op, B::Equal | B::NotEqual) {
                    return Some("ordering comparison of bools".into());
                }
                let (n, _) = shape(l)?;
                (shape(res) != Some((n, Scalar::BOOL)))
                    .then(|| "comparison result must be bool of the operands' shape".into())
            }
            B::And | B::InclusiveOr | B::ExclusiveOr => {
                (!(is_int && not_matrix && lt == rtt && rt == lt))
                    .then(|| format!("{op:?} needs integer operands of one type"))
            }
            B::LogicalAnd | B::LogicalOr => {
                (!(kind == Some(ScalarKind::Bool) && not_matrix && lt == rtt && rt == lt))
                    .then(|| format!("{op:?} needs bool operands of one type"))
            }
            B::ShiftLeft | B::ShiftRight => {
                let ok = is_int
                    && not_matrix
                    && rt == lt
                    && matches!(
                        scalar_of(r).map(|s| s.kind),
                        Some(ScalarKind::Sint | ScalarKind::Uint)
                    )
                    && shape(l).map(|s| s.0) == shape(r).map(|s| s.0);
                (!ok).then(|| "shift needs integer operands of one shape".into())
            }
        }
    }
}

/// A component type: a type handle, or a scalar/vector shape that may have
/// no handle in the arena.
enum CompType {
    Type(Handle<Type>),
    Shape(Option<u8>, Scalar),
}

/// How many arguments a math function takes.
pub fn math_arity(fun: MathFunction) -> usize {
    use MathFunction as M;
    match fun {
        M::Abs
        | M::Saturate
        | M::Sin
        | M::Cos
        | M::Tan
        | M::Asin
        | M::Acos
        | M::Atan
        | M::Sinh
        | M::Cosh
        | M::Tanh
        | M::Exp
        | M::Exp2
        | M::Log
        | M::Log2
        | M::Sqrt
        | M::InverseSqrt
        | M::Floor
        | M::Ceil
        | M::Round
        | M::Trunc
        | M::Fract
        | M::Sign
        | M::Length
        | M::Normalize
        | M::Transpose
        | M::Determinant
        | M::CountOneBits
        | M::ReverseBits
        | M::FirstTrailingBit
        | M::FirstLeadingBit
        | M::PackHalf
        | M::UnpackHalf
        | M::Reciprocal
        | M::Degrees
        | M::Radians
        | M::Frexp => 1,
        M::Min
        | M::Max
        | M::Atan2
        | M::Pow
        | M::Step
        | M::Dot
        | M::Cross
        | M::Distance
        | M::Reflect
        | M::Dot4I8Packed
        | M::Dot4U8Packed => 2,
        M::Clamp | M::Fma | M::Mix | M::SmoothStep | M::Refract | M::FaceForward => 3,
    }
}
