//! Arithmetic: unary and binary operators (SPIR-V.rst, "Arithmetic
//! operators", "Bitwise operators", "Comparison operators"), `mul`,
//! conversions ("Casts"), and intrinsics through GLSL.std.450 ("Intrinsic
//! functions").

use super::expr::{ColumnArg, Shape};
use super::function::FunctionWriter;
use super::{BackResult, internal, unsupported};
use crate::ir::{
    BinaryOperator, Expression, Handle, Literal, MathFunction, Scalar, ScalarKind, UnaryOperator,
};
use rspirv::dr::Operand;
use smallvec::{SmallVec, smallvec};
use spirv::{Op, Word};

/// GLSL.std.450 instruction numbers.
mod glsl {
    pub const ROUND_EVEN: u32 = 2;
    pub const TRUNC: u32 = 3;
    pub const F_ABS: u32 = 4;
    pub const S_ABS: u32 = 5;
    pub const F_SIGN: u32 = 6;
    pub const S_SIGN: u32 = 7;
    pub const FLOOR: u32 = 8;
    pub const CEIL: u32 = 9;
    pub const FRACT: u32 = 10;
    pub const RADIANS: u32 = 11;
    pub const DEGREES: u32 = 12;
    pub const SIN: u32 = 13;
    pub const COS: u32 = 14;
    pub const TAN: u32 = 15;
    pub const ASIN: u32 = 16;
    pub const ACOS: u32 = 17;
    pub const ATAN: u32 = 18;
    pub const SINH: u32 = 19;
    pub const COSH: u32 = 20;
    pub const TANH: u32 = 21;
    pub const ATAN2: u32 = 25;
    pub const POW: u32 = 26;
    pub const EXP: u32 = 27;
    pub const LOG: u32 = 28;
    pub const EXP2: u32 = 29;
    pub const LOG2: u32 = 30;
    pub const SQRT: u32 = 31;
    pub const INVERSE_SQRT: u32 = 32;
    pub const DETERMINANT: u32 = 33;
    pub const U_MIN: u32 = 38;
    pub const S_MIN: u32 = 39;
    pub const U_MAX: u32 = 41;
    pub const S_MAX: u32 = 42;
    pub const F_CLAMP: u32 = 43;
    pub const U_CLAMP: u32 = 44;
    pub const S_CLAMP: u32 = 45;
    pub const F_MIX: u32 = 46;
    pub const STEP: u32 = 48;
    pub const SMOOTH_STEP: u32 = 49;
    pub const FMA: u32 = 50;
    pub const FREXP_STRUCT: u32 = 52;
    pub const PACK_HALF_2X16: u32 = 58;
    pub const UNPACK_HALF_2X16: u32 = 62;
    pub const LENGTH: u32 = 66;
    pub const DISTANCE: u32 = 67;
    pub const CROSS: u32 = 68;
    pub const NORMALIZE: u32 = 69;
    pub const FACE_FORWARD: u32 = 70;
    pub const REFLECT: u32 = 71;
    pub const REFRACT: u32 = 72;
    pub const FIND_I_LSB: u32 = 73;
    pub const FIND_S_MSB: u32 = 74;
    pub const FIND_U_MSB: u32 = 75;
    pub const N_MIN: u32 = 79;
    pub const N_MAX: u32 = 80;
}

impl FunctionWriter<'_, '_> {
    /// A GLSL.std.450 instruction (arithmetic: `NoContraction` when precise).
    fn glsl(&mut self, inst: u32, ty: Word, args: &[Word]) -> BackResult<Word> {
        let set = self.w.glsl_std();
        let mut operands: SmallVec<[Word; 5]> = smallvec![set, inst];
        operands.extend_from_slice(args);
        let id = self.emit_words(Op::ExtInst, ty, &operands)?;
        self.no_contraction(id);
        Ok(id)
    }

    fn arith(&mut self, op: Op, ty: Word, args: &[Word]) -> BackResult<Word> {
        let id = self.emit_words(op, ty, args)?;
        self.no_contraction(id);
        Ok(id)
    }

    pub fn write_unary(
        &mut self,
        h: Handle<Expression>,
        op: UnaryOperator,
        expr: Handle<Expression>,
    ) -> BackResult<Word> {
        let rt = self.w.type_id(self.expr_type(h)?)?;
        let shape = self.shape(expr)?;
        let Some(scalar) = shape.scalar() else {
            return Err(internal("unary operator on a non-numeric value"));
        };
        let opcode = match (op, scalar.kind) {
            (UnaryOperator::Negate, ScalarKind::Float) => Op::FNegate,
            (UnaryOperator::Negate, ScalarKind::Sint | ScalarKind::Uint) => Op::SNegate,
            (UnaryOperator::LogicalNot, ScalarKind::Bool) => Op::LogicalNot,
            (UnaryOperator::BitwiseNot, ScalarKind::Sint | ScalarKind::Uint) => Op::Not,
            (op, kind) => {
                return Err(internal(format!("unary {op:?} on {kind:?}")));
            }
        };
        let v = self.value(expr)?;
        if let Shape::Matrix { columns, size, .. } = shape {
            let column_ty = self.w.vector_type(scalar, size);
            return self.map_columns(
                rt,
                columns,
                &[ColumnArg::Split { id: v, column_ty }],
                &mut |s, x| s.arith(opcode, column_ty, x),
            );
        }
        self.arith(opcode, rt, &[v])
    }

    pub fn write_binary(
        &mut self,
        h: Handle<Expression>,
        op: BinaryOperator,
        left: Handle<Expression>,
        right: Handle<Expression>,
    ) -> BackResult<Word> {
        let rt = self.w.type_id(self.expr_type(h)?)?;
        let ls = self.shape(left)?;
        let rs = self.shape(right)?;
        let (Some(lscalar), Some(rscalar)) = (ls.scalar(), rs.scalar()) else {
            return Err(internal(format!("binary {op:?} on a non-numeric value")));
        };
        let l = self.value(left)?;
        let r = self.value(right)?;
        if op == BinaryOperator::MatMul {
            let result = self.shape(h)?;
            return self.write_mat_mul(rt, result, ls, rs, l, r);
        }
        let float = lscalar.kind == ScalarKind::Float;
        if op == BinaryOperator::Multiply && float {
            // Dedicated scaling instructions (SPIR-V.rst, "Arithmetic
            // operators").
            match (ls, rs) {
                (Shape::Vector(..), Shape::Scalar(_)) => {
                    return self.arith(Op::VectorTimesScalar, rt, &[l, r]);
                }
                (Shape::Scalar(_), Shape::Vector(..)) => {
                    return self.arith(Op::VectorTimesScalar, rt, &[r, l]);
                }
                (Shape::Matrix { array: false, .. }, Shape::Scalar(_)) => {
                    return self.arith(Op::MatrixTimesScalar, rt, &[l, r]);
                }
                (Shape::Scalar(_), Shape::Matrix { array: false, .. }) => {
                    return self.arith(Op::MatrixTimesScalar, rt, &[r, l]);
                }
                _ => {}
            }
        }
        let shift = matches!(op, BinaryOperator::ShiftLeft | BinaryOperator::ShiftRight);
        let shift_is_literal = shift && self.shift_amount_in_range(right, lscalar);
        let matrix = match (ls, rs) {
            (m @ Shape::Matrix { .. }, _) | (_, m @ Shape::Matrix { .. }) => Some(m),
            _ => None,
        };
        if let Some(Shape::Matrix { columns, size, .. }) = matrix {
            let mut args = Vec::with_capacity(2);
            for (shape, id) in [(ls, l), (rs, r)] {
                args.push(match shape {
                    Shape::Matrix { scalar, .. } => ColumnArg::Split {
                        id,
                        column_ty: self.w.vector_type(scalar, size),
                    },
                    Shape::Scalar(s) => ColumnArg::Whole(self.splat(id, s, size)?),
                    _ => {
                        return Err(internal(format!(
                            "binary {op:?} between a matrix and a vector"
                        )));
                    }
                });
            }
            let Some(result_scalar) = self.shape(h)?.scalar() else {
                return Err(internal("matrix operation with a non-numeric result"));
            };
            let column_ty = self.w.vector_type(result_scalar, size);
            return self.map_columns(rt, columns, &args, &mut |s, x| {
                s.binary_simple(
                    op,
                    column_ty,
                    x[0],
                    x[1],
                    lscalar,
                    rscalar,
                    size,
                    shift_is_literal,
                )
            });
        }
        // SPIR-V wants operands of one shape: splat the scalar side.
        let (l, r, size) = match (ls, rs) {
            (Shape::Vector(n, _), Shape::Scalar(s)) => (l, self.splat(r, s, n)?, n),
            (Shape::Scalar(s), Shape::Vector(n, _)) => (self.splat(l, s, n)?, r, n),
            (Shape::Vector(n, _), Shape::Vector(m, _)) if n != m => {
                return Err(internal(format!(
                    "binary {op:?} between vectors of {n} and {m} components"
                )));
            }
            _ => (l, r, ls.size()),
        };
        self.binary_simple(op, rt, l, r, lscalar, rscalar, size, shift_is_literal)
    }

    /// True when `right` is a shift amount known to be below the bit width
    /// of `left`, so no masking is needed: a literal (or a splat of one)
    /// in range, or a value masked by such a literal (`y & 31`, as HLSL
    /// code and the lowering of byte-address loads write it).
    fn shift_amount_in_range(&self, right: Handle<Expression>, left: Scalar) -> bool {
        let bits = u64::from(left.width) * 8;
        let literal = |h: Handle<Expression>| -> Option<u64> {
            let h = match self.fun.expressions[h] {
                Expression::Splat { value, .. } => value,
                _ => h,
            };
            match self.fun.expressions[h] {
                Expression::Literal(Literal::I32(v)) => u64::try_from(v).ok(),
                Expression::Literal(Literal::U32(v)) => Some(u64::from(v)),
                Expression::Literal(Literal::I64(v)) => u64::try_from(v).ok(),
                Expression::Literal(Literal::U64(v)) => Some(v),
                Expression::Literal(Literal::I16(v)) => u64::try_from(v).ok(),
                Expression::Literal(Literal::U16(v)) => Some(u64::from(v)),
                _ => None,
            }
        };
        if literal(right).is_some_and(|v| v < bits) {
            return true;
        }
        match self.fun.expressions[right] {
            Expression::Binary {
                op: BinaryOperator::And,
                left: a,
                right: b,
                ..
            } => [a, b].into_iter().any(|x| literal(x).is_some_and(|v| v < bits)),
            _ => false,
        }
    }

    /// One binary instruction on scalars or equally sized vectors.
    fn binary_simple(
        &mut self,
        op: BinaryOperator,
        ty: Word,
        l: Word,
        mut r: Word,
        lscalar: Scalar,
        rscalar: Scalar,
        size: u8,
        shift_is_literal: bool,
    ) -> BackResult<Word> {
        use BinaryOperator as B;
        use ScalarKind as K;
        let kind = lscalar.kind;
        if (op, kind) == (B::Modulo, K::Sint) {
            return self.signed_remainder(ty, l, r, lscalar, size);
        }
        let opcode = match (op, kind) {
            (B::Add, K::Float) => Op::FAdd,
            (B::Add, K::Sint | K::Uint) => Op::IAdd,
            (B::Subtract, K::Float) => Op::FSub,
            (B::Subtract, K::Sint | K::Uint) => Op::ISub,
            (B::Multiply, K::Float) => Op::FMul,
            (B::Multiply, K::Sint | K::Uint) => Op::IMul,
            (B::Divide, K::Float) => Op::FDiv,
            (B::Divide, K::Sint) => Op::SDiv,
            (B::Divide, K::Uint) => Op::UDiv,
            // `%` follows C: the sign of the dividend (SPIR-V.rst,
            // "Arithmetic operators"); there is no OpURem.
            (B::Modulo, K::Float) => Op::FRem,
            (B::Modulo, K::Uint) => Op::UMod,
            (B::Equal, K::Float) => Op::FOrdEqual,
            (B::Equal, K::Bool) => Op::LogicalEqual,
            (B::Equal, _) => Op::IEqual,
            // IEEE and Direct3D: x != NaN is true, so not-equal is the
            // unordered comparison; the others are ordered.
            (B::NotEqual, K::Float) => Op::FUnordNotEqual,
            (B::NotEqual, K::Bool) => Op::LogicalNotEqual,
            (B::NotEqual, _) => Op::INotEqual,
            (B::Less, K::Float) => Op::FOrdLessThan,
            (B::Less, K::Sint) => Op::SLessThan,
            (B::Less, K::Uint) => Op::ULessThan,
            (B::LessEqual, K::Float) => Op::FOrdLessThanEqual,
            (B::LessEqual, K::Sint) => Op::SLessThanEqual,
            (B::LessEqual, K::Uint) => Op::ULessThanEqual,
            (B::Greater, K::Float) => Op::FOrdGreaterThan,
            (B::Greater, K::Sint) => Op::SGreaterThan,
            (B::Greater, K::Uint) => Op::UGreaterThan,
            (B::GreaterEqual, K::Float) => Op::FOrdGreaterThanEqual,
            (B::GreaterEqual, K::Sint) => Op::SGreaterThanEqual,
            (B::GreaterEqual, K::Uint) => Op::UGreaterThanEqual,
            (B::And, K::Sint | K::Uint) => Op::BitwiseAnd,
            (B::InclusiveOr, K::Sint | K::Uint) => Op::BitwiseOr,
            (B::ExclusiveOr, K::Sint | K::Uint) => Op::BitwiseXor,
            (B::And | B::LogicalAnd, K::Bool) => Op::LogicalAnd,
            (B::InclusiveOr | B::LogicalOr, K::Bool) => Op::LogicalOr,
            (B::ExclusiveOr, K::Bool) => Op::LogicalNotEqual,
            (B::ShiftLeft, K::Sint | K::Uint) => Op::ShiftLeftLogical,
            (B::ShiftRight, K::Sint) => Op::ShiftRightArithmetic,
            (B::ShiftRight, K::Uint) => Op::ShiftRightLogical,
            (op, kind) => return Err(internal(format!("binary {op:?} on {kind:?} operands"))),
        };
        if matches!(op, B::ShiftLeft | B::ShiftRight) && !shift_is_literal {
            // HLSL uses only the low log2(width) bits of the shift amount;
            // SPIR-V leaves larger amounts undefined (SPIR-V.rst, "Bitwise
            // operators").
            let mask = self
                .w
                .const_splat(rscalar, size, i64::from(lscalar.width) * 8 - 1);
            let rt = self.w.vector_type(rscalar, size);
            r = self.emit_value(
                Op::BitwiseAnd,
                rt,
                [Operand::IdRef(r), Operand::IdRef(mask)],
            )?;
        }
        self.arith(opcode, ty, &[l, r])
    }

    /// HLSL's signed `%` (the result takes the dividend's sign, as in C).
    /// Vulkan leaves OpSRem and OpSMod undefined when either operand is
    /// negative (Vulkan spec, "Precision and Operation of SPIR-V
    /// Instructions"), and NVIDIA's driver does return other values there, so
    /// the remainder is taken of the magnitudes: `|a| umod |b|`, negated when
    /// `a < 0`. `SAbs(INT_MIN)` is INT_MIN, whose bits read as unsigned are
    /// the right magnitude.
    fn signed_remainder(
        &mut self,
        ty: Word,
        l: Word,
        r: Word,
        scalar: Scalar,
        size: u8,
    ) -> BackResult<Word> {
        let unsigned = Scalar {
            kind: ScalarKind::Uint,
            width: scalar.width,
        };
        let uty = self.w.vector_type(unsigned, size);
        let set = self.w.glsl_std();
        let abs = |s: &mut Self, v: Word| {
            s.emit_value(
                Op::ExtInst,
                ty,
                [
                    Operand::IdRef(set),
                    Operand::LiteralExtInstInteger(glsl::S_ABS),
                    Operand::IdRef(v),
                ],
            )
        };
        let (al, ar) = (abs(self, l)?, abs(self, r)?);
        let ul = self.emit_value(Op::Bitcast, uty, [Operand::IdRef(al)])?;
        let ur = self.emit_value(Op::Bitcast, uty, [Operand::IdRef(ar)])?;
        let um = self.arith(Op::UMod, uty, &[ul, ur])?;
        let magnitude = self.emit_value(Op::Bitcast, ty, [Operand::IdRef(um)])?;
        let negated = self.emit_value(Op::SNegate, ty, [Operand::IdRef(magnitude)])?;
        let zero = self.w.const_splat(scalar, size, 0);
        let bool_scalar = self.w.bool_type();
        let bty = if size <= 1 {
            bool_scalar
        } else {
            self.w.vector_type(Scalar::BOOL, size)
        };
        let negative = self.emit_value(
            Op::SLessThan,
            bty,
            [Operand::IdRef(l), Operand::IdRef(zero)],
        )?;
        self.emit_value(
            Op::Select,
            ty,
            [
                Operand::IdRef(negative),
                Operand::IdRef(negated),
                Operand::IdRef(magnitude),
            ],
        )
    }

    /// `mul()`. HLSL matrices are the transposes of their SPIR-V
    /// representations, so the operands swap (SPIR-V.rst, "Vectors and
    /// matrices"): mat×vec is OpVectorTimesMatrix(vec, mat), vec×mat is
    /// OpMatrixTimesVector(mat, vec), A×B is OpMatrixTimesMatrix(B, A).
    fn write_mat_mul(
        &mut self,
        rt: Word,
        result: Shape,
        ls: Shape,
        rs: Shape,
        l: Word,
        r: Word,
    ) -> BackResult<Word> {
        let float = ls.scalar().is_some_and(|s| s.kind == ScalarKind::Float);
        match (ls, rs) {
            (Shape::Scalar(_), _) | (_, Shape::Scalar(_)) => {
                // A scalar operand scales component-wise.
                match (ls, rs) {
                    (Shape::Scalar(_), Shape::Scalar(_)) => {
                        let op = if float { Op::FMul } else { Op::IMul };
                        self.arith(op, rt, &[l, r])
                    }
                    (Shape::Scalar(_), Shape::Vector(..)) if float => {
                        self.arith(Op::VectorTimesScalar, rt, &[r, l])
                    }
                    (Shape::Vector(..), Shape::Scalar(_)) if float => {
                        self.arith(Op::VectorTimesScalar, rt, &[l, r])
                    }
                    (Shape::Scalar(_), Shape::Matrix { array: false, .. }) => {
                        self.arith(Op::MatrixTimesScalar, rt, &[r, l])
                    }
                    (Shape::Matrix { array: false, .. }, Shape::Scalar(_)) => {
                        self.arith(Op::MatrixTimesScalar, rt, &[l, r])
                    }
                    _ => Err(unsupported(
                        "mul() of an integer scalar and a vector or matrix",
                    )),
                }
            }
            _ if !float => match (ls, rs, result) {
                (Shape::Vector(n, s), Shape::Vector(..), Shape::Scalar(_)) => {
                    self.integer_dot(rt, l, r, n, s)
                }
                _ => Err(unsupported("mul() of integer matrices")),
            },
            (Shape::Matrix { .. }, Shape::Vector(..)) => {
                self.arith(Op::VectorTimesMatrix, rt, &[r, l])
            }
            (Shape::Vector(..), Shape::Matrix { .. }) => {
                self.arith(Op::MatrixTimesVector, rt, &[r, l])
            }
            (Shape::Matrix { .. }, Shape::Matrix { .. }) => {
                self.arith(Op::MatrixTimesMatrix, rt, &[r, l])
            }
            (Shape::Vector(..), Shape::Vector(..)) => match result {
                // 1xK × Kx1: a dot product.
                Shape::Scalar(_) => self.arith(Op::Dot, rt, &[l, r]),
                // Rx1 × 1xC: the outer product; SPIR-V column i (HLSL row
                // i) is r * l[i].
                Shape::Matrix { .. } => self.arith(Op::OuterProduct, rt, &[r, l]),
                _ => Err(internal("mul() of two vectors giving a vector")),
            },
            _ => Err(internal("mul() of non-numeric values")),
        }
    }

    /// dot() of integer vectors: multiply, then add the components
    /// (SPIR-V.rst, "Intrinsic functions": OpDot takes floats only).
    fn integer_dot(&mut self, rt: Word, l: Word, r: Word, n: u8, s: Scalar) -> BackResult<Word> {
        let vt = self.w.vector_type(s, n);
        let products = self.arith(Op::IMul, vt, &[l, r])?;
        let mut sum = self.extract(rt, products, 0)?;
        for i in 1..u32::from(n) {
            let c = self.extract(rt, products, i)?;
            sum = self.arith(Op::IAdd, rt, &[sum, c])?;
        }
        Ok(sum)
    }

    /// `dot4add_*8packed`'s dot product: OpSDot/OpUDot on two `uint`s of
    /// four bytes (SPIR-V 1.6, or SPV_KHR_integer_dot_product before it).
    fn packed_dot(&mut self, fun: MathFunction, rt: Word, ids: &[Word]) -> BackResult<Word> {
        self.w.capability(spirv::Capability::DotProduct);
        self.w
            .capability(spirv::Capability::DotProductInput4x8BitPacked);

        let op = if fun == MathFunction::Dot4I8Packed {
            Op::SDot
        } else {
            Op::UDot
        };
        let mut operands: Vec<Operand> = ids.iter().map(|&a| Operand::IdRef(a)).collect();
        operands.push(Operand::PackedVectorFormat(
            spirv::PackedVectorFormat::PackedVectorFormat4x8Bit,
        ));
        self.emit_arith(op, rt, operands)
    }

    pub fn write_math(
        &mut self,
        h: Handle<Expression>,
        fun: MathFunction,
        args: &[Handle<Expression>],
    ) -> BackResult<Word> {
        use MathFunction as M;
        let rt = self.w.type_id(self.expr_type(h)?)?;
        let result = self.shape(h)?;
        let Some(&first) = args.first() else {
            return Err(internal(format!("{fun:?} without arguments")));
        };
        let mut shapes: SmallVec<[Shape; 4]> = SmallVec::with_capacity(args.len());
        let mut ids: SmallVec<[Word; 4]> = SmallVec::with_capacity(args.len());
        for &a in args {
            shapes.push(self.shape(a)?);
            ids.push(self.value(a)?);
        }
        let arg0 = shapes[0];
        let Some(scalar) = arg0.scalar() else {
            return Err(internal(format!("{fun:?} of a non-numeric value")));
        };
        let expect = |n: usize| {
            if ids.len() == n {
                Ok(())
            } else {
                Err(internal(format!(
                    "{fun:?} takes {n} arguments, got {}",
                    ids.len()
                )))
            }
        };
        // Functions that are not component-wise.
        match fun {
            M::Dot => {
                expect(2)?;
                return match (arg0, scalar.kind) {
                    (Shape::Scalar(_), ScalarKind::Float) => self.arith(Op::FMul, rt, &ids),
                    (Shape::Scalar(_), _) => self.arith(Op::IMul, rt, &ids),
                    (Shape::Vector(..), ScalarKind::Float) => self.arith(Op::Dot, rt, &ids),
                    (Shape::Vector(n, s), _) => self.integer_dot(rt, ids[0], ids[1], n, s),
                    _ => Err(internal("dot() of matrices")),
                };
            }
            M::Cross => return self.glsl(glsl::CROSS, rt, &ids),
            M::Length => return self.glsl(glsl::LENGTH, rt, &ids),
            M::Distance => return self.glsl(glsl::DISTANCE, rt, &ids),
            M::Normalize => return self.glsl(glsl::NORMALIZE, rt, &ids),
            M::Reflect => return self.glsl(glsl::REFLECT, rt, &ids),
            M::Refract => return self.glsl(glsl::REFRACT, rt, &ids),
            M::FaceForward => return self.glsl(glsl::FACE_FORWARD, rt, &ids),
            M::Determinant => return self.glsl(glsl::DETERMINANT, rt, &ids),
            M::Transpose => return self.write_transpose(rt, first, arg0, ids[0]),
            M::Frexp => return self.glsl(glsl::FREXP_STRUCT, rt, &ids),
            M::Dot4I8Packed | M::Dot4U8Packed => return self.packed_dot(fun, rt, &ids),
            _ => {}
        }
        let Some(result_scalar) = result.scalar() else {
            return Err(internal(format!("{fun:?} with a non-numeric result")));
        };
        if let Shape::Matrix { columns, size, .. } = arg0 {
            let mut col_args = Vec::with_capacity(ids.len());
            for (&shape, &id) in shapes.iter().zip(&ids) {
                col_args.push(match shape {
                    Shape::Matrix { scalar, .. } => ColumnArg::Split {
                        id,
                        column_ty: self.w.vector_type(scalar, size),
                    },
                    Shape::Scalar(s) => ColumnArg::Whole(self.splat(id, s, size)?),
                    _ => return Err(internal(format!("{fun:?} of a matrix and a vector"))),
                });
            }
            let column_ty = self.w.vector_type(result_scalar, size);
            return self.map_columns(rt, columns, &col_args, &mut |s, x| {
                s.math_componentwise(fun, column_ty, x, scalar, result_scalar, size)
            });
        }
        // GLSL.std.450 wants every operand in the result's shape.
        let size = result.size().max(arg0.size());
        if size > 1 {
            for (i, (shape, id)) in shapes.iter().zip(ids.iter_mut()).enumerate() {
                let keep_scalar = fun == M::Refract && i == 2;
                if let (Shape::Scalar(s), false) = (shape, keep_scalar) {
                    *id = self.splat(*id, *s, size)?;
                }
            }
        }
        self.math_componentwise(fun, rt, &ids, scalar, result_scalar, size)
    }

    /// A component-wise math function on scalars or vectors of `size`.
    fn math_componentwise(
        &mut self,
        fun: MathFunction,
        ty: Word,
        args: &[Word],
        scalar: Scalar,
        result_scalar: Scalar,
        size: u8,
    ) -> BackResult<Word> {
        use MathFunction as M;
        use ScalarKind as K;
        let kind = scalar.kind;
        let by_kind = |f: u32, s: u32, u: u32| match kind {
            K::Float => Ok(f),
            K::Sint => Ok(s),
            K::Uint => Ok(u),
            K::Bool => Err(internal(format!("{fun:?} of booleans"))),
        };
        let inst = match fun {
            M::Abs if kind == K::Uint => return Ok(args[0]),
            M::Abs => by_kind(glsl::F_ABS, glsl::S_ABS, 0)?,
            // min/max follow DXC: NMin/NMax return the non-NaN operand, as
            // Direct3D's min/max do.
            M::Min => by_kind(glsl::N_MIN, glsl::S_MIN, glsl::U_MIN)?,
            M::Max => by_kind(glsl::N_MAX, glsl::S_MAX, glsl::U_MAX)?,
            M::Clamp => by_kind(glsl::F_CLAMP, glsl::S_CLAMP, glsl::U_CLAMP)?,
            M::Saturate => {
                let zero = self.w.const_splat(scalar, size, 0);
                let one = self.w.const_splat(scalar, size, 1);
                return self.glsl(glsl::F_CLAMP, ty, &[args[0], zero, one]);
            }
            M::Sin => glsl::SIN,
            M::Cos => glsl::COS,
            M::Tan => glsl::TAN,
            M::Asin => glsl::ASIN,
            M::Acos => glsl::ACOS,
            M::Atan => glsl::ATAN,
            M::Atan2 => glsl::ATAN2,
            M::Sinh => glsl::SINH,
            M::Cosh => glsl::COSH,
            M::Tanh => glsl::TANH,
            M::Pow => glsl::POW,
            M::Exp => glsl::EXP,
            M::Exp2 => glsl::EXP2,
            M::Log => glsl::LOG,
            M::Log2 => glsl::LOG2,
            M::Sqrt => glsl::SQRT,
            M::InverseSqrt => glsl::INVERSE_SQRT,
            M::Floor => glsl::FLOOR,
            M::Ceil => glsl::CEIL,
            M::Round => glsl::ROUND_EVEN,
            M::Trunc => glsl::TRUNC,
            M::Fract => glsl::FRACT,
            M::Fma => glsl::FMA,
            M::Mix => glsl::F_MIX,
            M::Step => glsl::STEP,
            M::SmoothStep => glsl::SMOOTH_STEP,
            M::Degrees => glsl::DEGREES,
            M::Radians => glsl::RADIANS,
            M::Sign => {
                // HLSL sign() returns int: FSign, then convert.
                if kind == K::Float && result_scalar.kind != K::Float {
                    let ft = self.w.vector_type(scalar, size);
                    let s = self.glsl(glsl::F_SIGN, ft, args)?;
                    return self.arith(Op::ConvertFToS, ty, &[s]);
                }
                by_kind(glsl::F_SIGN, glsl::S_SIGN, glsl::S_SIGN)?
            }
            M::CountOneBits => return self.arith(Op::BitCount, ty, args),
            M::ReverseBits => return self.arith(Op::BitReverse, ty, args),
            M::FirstTrailingBit => glsl::FIND_I_LSB,
            M::FirstLeadingBit => by_kind(0, glsl::FIND_S_MSB, glsl::FIND_U_MSB)?,
            M::Reciprocal => {
                let one = self.w.const_splat(scalar, size, 1);
                return self.arith(Op::FDiv, ty, &[one, args[0]]);
            }
            M::PackHalf => return self.pack_half(ty, args[0], size),
            M::UnpackHalf => return self.unpack_half(ty, args[0], size),
            M::Frexp
            | M::Dot4I8Packed
            | M::Dot4U8Packed
            | M::Dot
            | M::Cross
            | M::Length
            | M::Distance
            | M::Normalize
            | M::Reflect
            | M::Refract
            | M::FaceForward
            | M::Determinant
            | M::Transpose => return Err(internal(format!("{fun:?} is not component-wise"))),
        };
        if kind == K::Bool {
            return Err(internal(format!("{fun:?} of booleans")));
        }
        self.glsl(inst, ty, args)
    }

    /// `f32tof16`: each component goes through PackHalf2x16 with a zero
    /// second half, leaving the half in the low 16 bits (as DXC does).
    fn pack_half(&mut self, ty: Word, x: Word, size: u8) -> BackResult<Word> {
        let f32_ty = self.w.scalar_type(Scalar::F32);
        let v2 = self.w.vector_type(Scalar::F32, 2);
        let u32_ty = self.w.scalar_type(Scalar::U32);
        let zero = self.w.const_f32(0.0);
        let mut parts = Vec::with_capacity(size as usize);
        for i in 0..u32::from(size) {
            let c = if size > 1 {
                self.extract(f32_ty, x, i)?
            } else {
                x
            };
            let pair = self.emit_value(
                Op::CompositeConstruct,
                v2,
                [Operand::IdRef(c), Operand::IdRef(zero)],
            )?;
            parts.push(self.glsl(glsl::PACK_HALF_2X16, u32_ty, &[pair])?);
        }
        self.compose_parts(ty, parts)
    }

    /// `f16tof32`: UnpackHalf2x16 of each component, keeping the low half.
    fn unpack_half(&mut self, ty: Word, x: Word, size: u8) -> BackResult<Word> {
        let f32_ty = self.w.scalar_type(Scalar::F32);
        let v2 = self.w.vector_type(Scalar::F32, 2);
        let u32_ty = self.w.scalar_type(Scalar::U32);
        let mut parts = Vec::with_capacity(size as usize);
        for i in 0..u32::from(size) {
            let c = if size > 1 {
                self.extract(u32_ty, x, i)?
            } else {
                x
            };
            let pair = self.glsl(glsl::UNPACK_HALF_2X16, v2, &[c])?;
            parts.push(self.extract(f32_ty, pair, 0)?);
        }
        self.compose_parts(ty, parts)
    }

    fn compose_parts(&mut self, ty: Word, parts: Vec<Word>) -> BackResult<Word> {
        if let [one] = parts.as_slice() {
            return Ok(*one);
        }
        self.emit_words(Op::CompositeConstruct, ty, &parts)
    }

    fn write_transpose(
        &mut self,
        rt: Word,
        arg: Handle<Expression>,
        shape: Shape,
        v: Word,
    ) -> BackResult<Word> {
        match shape {
            // 1xN and Nx1 are the same vector.
            Shape::Scalar(_) | Shape::Vector(..) => Ok(v),
            Shape::Matrix { array: false, .. } => self.arith(Op::Transpose, rt, &[v]),
            Shape::Matrix {
                columns,
                size,
                scalar,
                array: true,
            } => {
                // Non-float matrices are arrays of rows: rebuild them.
                let st = self.w.scalar_type(scalar);
                let row_ty = self.w.vector_type(scalar, size);
                let new_row_ty = self.w.vector_type(scalar, columns);
                let mut rows = Vec::with_capacity(columns as usize);
                for i in 0..u32::from(columns) {
                    rows.push(self.extract(row_ty, v, i)?);
                }
                let mut out = Vec::with_capacity(size as usize);
                for j in 0..u32::from(size) {
                    let mut parts = Vec::with_capacity(columns as usize);
                    for &row in &rows {
                        parts.push(Operand::IdRef(self.extract(st, row, j)?));
                    }
                    out.push(Operand::IdRef(self.emit_value(
                        Op::CompositeConstruct,
                        new_row_ty,
                        parts,
                    )?));
                }
                self.emit_value(Op::CompositeConstruct, rt, out)
            }
            Shape::Other => Err(internal(format!("transpose of expression {arg:?}"))),
        }
    }

    /// Conversions and bit casts (SPIR-V.rst, "Casts").
    pub fn write_as(
        &mut self,
        h: Handle<Expression>,
        expr: Handle<Expression>,
        kind: ScalarKind,
        convert: Option<u8>,
    ) -> BackResult<Word> {
        let rt = self.w.type_id(self.expr_type(h)?)?;
        let src_shape = self.shape(expr)?;
        let Some(src) = src_shape.scalar() else {
            return Err(internal("conversion of a non-numeric value"));
        };
        let dst = Scalar {
            kind,
            width: convert.unwrap_or(src.width),
        };
        let bitcast = convert.is_none();
        let v = self.value(expr)?;
        if let Shape::Matrix { columns, size, .. } = src_shape {
            let column_ty = self.w.vector_type(src, size);
            let dst_column = self.w.vector_type(dst, size);
            return self.map_columns(
                rt,
                columns,
                &[ColumnArg::Split { id: v, column_ty }],
                &mut |s, x| s.convert_simple(x[0], src, dst, size, dst_column, bitcast),
            );
        }
        self.convert_simple(v, src, dst, src_shape.size(), rt, bitcast)
    }

    fn convert_simple(
        &mut self,
        v: Word,
        src: Scalar,
        dst: Scalar,
        size: u8,
        ty: Word,
        bitcast: bool,
    ) -> BackResult<Word> {
        use ScalarKind as K;
        if src == dst {
            return Ok(v);
        }
        if bitcast {
            if src.kind == K::Bool || dst.kind == K::Bool || src.width != dst.width {
                return Err(internal(format!("bit cast from {src:?} to {dst:?}")));
            }
            return self.arith(Op::Bitcast, ty, &[v]);
        }
        match (src.kind, dst.kind) {
            (K::Bool, K::Bool) => Ok(v),
            (K::Bool, _) => {
                let one = self.w.const_splat(dst, size, 1);
                let zero = self.w.const_splat(dst, size, 0);
                self.arith(Op::Select, ty, &[v, one, zero])
            }
            (_, K::Bool) => {
                // Compare with zero; NaN is true, as in C and Direct3D.
                let zero = self.w.const_splat(src, size, 0);
                let op = if src.kind == K::Float {
                    Op::FUnordNotEqual
                } else {
                    Op::INotEqual
                };
                self.arith(op, ty, &[v, zero])
            }
            (K::Float, K::Float) => self.arith(Op::FConvert, ty, &[v]),
            (K::Float, K::Sint) => self.arith(Op::ConvertFToS, ty, &[v]),
            (K::Float, K::Uint) => self.arith(Op::ConvertFToU, ty, &[v]),
            (K::Sint, K::Float) => self.arith(Op::ConvertSToF, ty, &[v]),
            (K::Uint, K::Float) => self.arith(Op::ConvertUToF, ty, &[v]),
            (K::Sint | K::Uint, K::Sint | K::Uint) => {
                if src.width == dst.width {
                    return self.arith(Op::Bitcast, ty, &[v]);
                }
                // Change the width keeping the source's signedness (sign or
                // zero extension, as C), then reinterpret. OpUConvert must
                // give an unsigned type.
                let widened = Scalar {
                    kind: src.kind,
                    width: dst.width,
                };
                let op = if src.kind == K::Sint {
                    Op::SConvert
                } else {
                    Op::UConvert
                };
                if widened == dst {
                    return self.arith(op, ty, &[v]);
                }
                let wt = self.w.vector_type(widened, size);
                let w = self.arith(op, wt, &[v])?;
                self.arith(Op::Bitcast, ty, &[w])
            }
        }
    }
}
