//! Expressions: constants, composites, swizzles, access chains, loads,
//! selects, relational tests, derivatives and buffer lengths. Arithmetic is
//! in `math.rs`, images in `image.rs`.

use super::function::{ChainKey, FunctionWriter, Indices, PointerValue, Value, missing_expression};
use super::types::{MatrixRepr, matrix_repr};
use super::{BackResult, Diagnostic, internal};
use crate::ir::{self, Expression, Handle, Literal, Scalar, TypeInner};
use rspirv::dr::Operand;
use smallvec::{SmallVec, smallvec};
use spirv::{Op, StorageClass, Word};

/// The SPIR-V shape of an IR type: what arithmetic sees.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Shape {
    Scalar(Scalar),
    Vector(u8, Scalar),
    /// A float matrix (`array: false`) or a non-float matrix represented as
    /// an array of vectors (`array: true`): `columns` SPIR-V columns (HLSL
    /// rows) of `size` components.
    Matrix {
        columns: u8,
        size: u8,
        scalar: Scalar,
        array: bool,
    },
    Other,
}

impl Shape {
    pub fn of(inner: &TypeInner) -> Shape {
        match *inner {
            TypeInner::Scalar(s) => Shape::Scalar(s),
            TypeInner::Vector { size, scalar } => Shape::Vector(size, scalar),
            TypeInner::Matrix {
                rows,
                columns,
                scalar,
            } => match matrix_repr(rows, columns, scalar) {
                MatrixRepr::Scalar => Shape::Scalar(scalar),
                MatrixRepr::Vector(n) => Shape::Vector(n, scalar),
                MatrixRepr::Matrix { columns, size } => Shape::Matrix {
                    columns,
                    size,
                    scalar,
                    array: false,
                },
                MatrixRepr::Array { length, size } => Shape::Matrix {
                    columns: length,
                    size,
                    scalar,
                    array: true,
                },
            },
            _ => Shape::Other,
        }
    }

    pub fn scalar(self) -> Option<Scalar> {
        match self {
            Shape::Scalar(s) | Shape::Vector(_, s) | Shape::Matrix { scalar: s, .. } => Some(s),
            Shape::Other => None,
        }
    }

    /// Components of a scalar or vector (1 for scalars).
    pub fn size(self) -> u8 {
        match self {
            Shape::Vector(n, _) => n,
            Shape::Matrix { size, .. } => size,
            _ => 1,
        }
    }
}

/// One operand of a column-by-column operation on matrices.
#[derive(Clone, Copy, Debug)]
pub(super) enum ColumnArg {
    /// A matrix: each step gets its column, of type `column_ty`.
    Split { id: Word, column_ty: Word },
    /// The same value for every column.
    Whole(Word),
}

impl FunctionWriter<'_, '_> {
    /// The id of a value expression (pointers become access chains here).
    /// Inline for the usual case, a value already evaluated.
    #[inline]
    pub fn value(&mut self, h: Handle<Expression>) -> BackResult<Word> {
        match self.values.get(h.index()) {
            Some(Value::Id(id)) => Ok(*id),
            _ => self.value_slow(h),
        }
    }

    /// [`Self::value`] of a pointer, a constant not used yet, or an error.
    #[inline(never)]
    fn value_slow(&mut self, h: Handle<Expression>) -> BackResult<Word> {
        match self.values.get(h.index()) {
            Some(Value::Id(id)) => Ok(*id),
            Some(Value::Pointer(_)) => self.pointer_id_of(h),
            Some(Value::None) => match self.fun.expressions[h] {
                Expression::Literal(_) | Expression::Constant(_) | Expression::ZeroValue(_) => {
                    let Some(id) = self.constant(h)? else {
                        return Err(self.not_evaluated(h));
                    };
                    self.values[h.index()] = Value::Id(id);
                    Ok(id)
                }
                _ => Err(self.not_evaluated(h)),
            },
            None => Err(missing_expression(h)),
        }
    }

    /// The error for a value used before it has one (kept out of line:
    /// [`Self::value`] is hot).
    #[cold]
    #[inline(never)]
    fn not_evaluated(&self, h: Handle<Expression>) -> Diagnostic {
        match self.fun.expressions[h] {
            Expression::Literal(_) | Expression::Constant(_) | Expression::ZeroValue(_) => {
                internal(format!("constant {h:?} did not evaluate"))
            }
            _ => internal(format!(
                "expression {h:?} of `{}` is used before it is evaluated",
                self.fun.name
            )),
        }
    }

    pub fn pointer(&self, h: Handle<Expression>) -> BackResult<PointerValue> {
        self.pointer_ref(h).cloned()
    }

    /// [`Self::pointer`] without the copy.
    pub fn pointer_ref(&self, h: Handle<Expression>) -> BackResult<&PointerValue> {
        match self.values.get(h.index()) {
            Some(&Value::Pointer(i)) => self.pointer_at(i),
            _ => Err(self.not_a_pointer(h)),
        }
    }

    /// The error for a value used as a pointer that is none.
    #[cold]
    #[inline(never)]
    fn not_a_pointer(&self, h: Handle<Expression>) -> Diagnostic {
        internal(format!(
            "expression {h:?} of `{}` is not a pointer",
            self.fun.name
        ))
    }

    /// The pointer as an id: the root, or an `OpAccessChain` from it.
    pub fn pointer_id(&mut self, pv: &PointerValue) -> BackResult<Word> {
        if pv.indices.is_empty() {
            return Ok(pv.root);
        }
        self.access_chain(chain_key(pv))
    }

    /// [`Self::pointer_id`] of pointer expression `h`.
    pub fn pointer_id_of(&mut self, h: Handle<Expression>) -> BackResult<Word> {
        let pv = self.pointer_ref(h)?;
        if pv.indices.is_empty() {
            return Ok(pv.root);
        }
        self.access_chain(chain_key(pv))
    }

    /// Decorates `id` `NonUniform` (Vulkan: the operand that reaches a
    /// resource through a non-uniform index must be so decorated).
    pub fn mark_non_uniform(&mut self, id: Word) {
        self.w.capability(spirv::Capability::ShaderNonUniform);

        self.w.decorate(id, spirv::Decoration::NonUniform, &[]);
        self.non_uniform.insert(id);
    }

    /// The capability for indexing the resource array `global`
    /// non-uniformly.
    fn non_uniform_array_capability(
        &mut self,
        global: Handle<ir::GlobalVariable>,
    ) -> BackResult<()> {
        use spirv::Capability as C;
        let g = &self.w.ir.globals[global];
        let space = g.space;
        let TypeInner::Array { base, .. } = self.w.ir_type(g.ty)?.inner else {
            return Ok(());
        };
        let cap = match &self.w.ir_type(base)?.inner {
            TypeInner::Image { dim, class, .. } => match (dim, class) {
                (ir::ImageDim::SubpassData, _) => C::InputAttachmentArrayNonUniformIndexing,
                (ir::ImageDim::Buffer, ir::ImageClass::Storage { .. }) => {
                    C::StorageTexelBufferArrayNonUniformIndexing
                }
                (ir::ImageDim::Buffer, _) => C::UniformTexelBufferArrayNonUniformIndexing,
                (_, ir::ImageClass::Storage { .. }) => C::StorageImageArrayNonUniformIndexing,
                _ => C::SampledImageArrayNonUniformIndexing,
            },
            TypeInner::Sampler { .. } | TypeInner::SampledImage { .. } => {
                C::SampledImageArrayNonUniformIndexing
            }
            TypeInner::Struct { .. } if space == ir::AddressSpace::Uniform => {
                C::UniformBufferArrayNonUniformIndexing
            }
            TypeInner::Struct { .. } => C::StorageBufferArrayNonUniformIndexing,
            _ => return Ok(()),
        };
        self.w.capability(cap);
        Ok(())
    }

    pub fn shape(&self, h: Handle<Expression>) -> BackResult<Shape> {
        self.w.type_shape(self.expr_type(h)?)
    }

    /// A scalar repeated into a vector of `size` (or the scalar itself).
    pub fn splat(&mut self, id: Word, scalar: Scalar, size: u8) -> BackResult<Word> {
        if size <= 1 {
            return Ok(id);
        }
        let ty = self.w.vector_type(scalar, size);
        let parts: SmallVec<[Word; 4]> = smallvec![id; size as usize];
        self.emit_words(Op::CompositeConstruct, ty, &parts)
    }

    pub fn extract(&mut self, ty: Word, composite: Word, index: u32) -> BackResult<Word> {
        self.emit_words(Op::CompositeExtract, ty, &[composite, index])
    }

    /// Applies `f` column by column (SPIR-V arithmetic takes scalars and
    /// vectors, not matrices) and builds the result of type `result_ty`.
    pub fn map_columns(
        &mut self,
        result_ty: Word,
        columns: u8,
        args: &[ColumnArg],
        f: &mut dyn FnMut(&mut Self, &[Word]) -> BackResult<Word>,
    ) -> BackResult<Word> {
        let mut cols = Vec::with_capacity(columns as usize);
        for i in 0..u32::from(columns) {
            let mut col_args = Vec::with_capacity(args.len());
            for a in args {
                col_args.push(match *a {
                    ColumnArg::Split { id, column_ty } => self.extract(column_ty, id, i)?,
                    ColumnArg::Whole(id) => id,
                });
            }
            cols.push(f(self, &col_args)?);
        }
        self.emit_words(Op::CompositeConstruct, result_ty, &cols)
    }

    /// Evaluates one expression of an `Emit` range.
    pub fn write_expression(&mut self, h: Handle<Expression>) -> BackResult<Value> {
        let fun = self.fun;
        let ty = self.expr_type(h)?;
        let id = match &fun.expressions[h] {
            Expression::Literal(_) | Expression::Constant(_) | Expression::ZeroValue(_) => {
                self.value(h)?
            }
            Expression::GlobalVariable(_)
            | Expression::LocalVariable(_)
            | Expression::FunctionArgument(_)
            | Expression::CallResult(_)
            | Expression::AtomicResult
            | Expression::SubgroupResult
            | Expression::RayResult
            | Expression::NodeResult
            | Expression::SpirvResult
            | Expression::Phi => {
                // Set up front or by their statement; nothing to evaluate.
                return Ok(self.values[h.index()]);
            }
            Expression::Compose { ty, components } => self.write_compose(h, *ty, components)?,
            Expression::Splat { size, value } => match self.constant(h)? {
                Some(c) => c,
                None => {
                    let v = self.value(*value)?;
                    let t = self.w.type_id(ty)?;
                    let parts: SmallVec<[Word; 4]> = smallvec![v; *size as usize];
                    self.emit_words(Op::CompositeConstruct, t, &parts)?
                }
            },
            Expression::Swizzle {
                size,
                vector,
                pattern,
            } => self.write_swizzle(ty, *size, *vector, pattern)?,
            Expression::AccessIndex { base, index } => {
                return self.write_access(h, *base, AccessIndex::Constant(*index));
            }
            Expression::Access { base, index } => {
                return self.write_access(h, *base, AccessIndex::Dynamic(*index));
            }
            Expression::Load { pointer } => self.write_load(ty, *pointer)?,
            Expression::Unary { op, expr, precise } => {
                self.precise = *precise;
                let r = self.write_unary(h, *op, *expr);
                self.precise = false;
                r?
            }
            Expression::Binary {
                op,
                left,
                right,
                precise,
            } => {
                self.precise = *precise;
                let r = self.write_binary(h, *op, *left, *right);
                self.precise = false;
                r?
            }
            Expression::Select {
                condition,
                accept,
                reject,
            } => self.write_select(h, *condition, *accept, *reject)?,
            Expression::Relational { fun, argument } => {
                self.write_relational(h, *fun, *argument)?
            }
            Expression::Math { fun, args, precise } => {
                self.precise = *precise;
                let r = self.write_math(h, *fun, args);
                self.precise = false;
                r?
            }
            Expression::As {
                expr,
                kind,
                convert,
                precise,
            } => {
                self.precise = *precise;
                let r = self.write_as(h, *expr, *kind, *convert);
                self.precise = false;
                r?
            }
            Expression::Derivative {
                axis,
                control,
                expr,
            } => self.write_derivative(h, *axis, *control, *expr)?,
            Expression::ImageSample(_) => self.write_image_sample(h)?,
            Expression::ImageLoad { .. } => self.write_image_load(h)?,
            Expression::ImageQuery { image, query } => self.write_image_query(h, *image, *query)?,
            Expression::ImageTexelPointer {
                image,
                coordinate,
                sample,
            } => return self.write_texel_pointer(h, *image, *coordinate, *sample),
            Expression::SparseTexelsResident { code } => {
                let code = self.value(*code)?;
                let b = self.w.bool_type();
                self.w.capability(spirv::Capability::SparseResidency);
                self.emit_value(Op::ImageSparseTexelsResident, b, [Operand::IdRef(code)])?
            }
            Expression::NonUniform { value } => {
                // A copy to decorate (SPIR-V.rst, "NonUniformResourceIndex").
                let v = self.value(*value)?;
                let t = self.w.type_id(ty)?;
                let id = self.emit_value(Op::CopyObject, t, [Operand::IdRef(v)])?;
                self.mark_non_uniform(id);
                id
            }
            Expression::AddressCast { value } => self.write_address_cast(h, *value)?,
            Expression::ArrayLength { pointer, member } => {
                let pv = self.pointer(*pointer)?;
                let p = self.pointer_id(&pv)?;
                let u32_ty = self.w.scalar_type(Scalar::U32);
                self.emit_value(
                    Op::ArrayLength,
                    u32_ty,
                    [Operand::IdRef(p), Operand::LiteralBit32(*member)],
                )?
            }
        };
        self.device_pointer_value(id, ty)
    }

    fn write_compose(
        &mut self,
        h: Handle<Expression>,
        ty: Handle<ir::Type>,
        components: &[Handle<Expression>],
    ) -> BackResult<Word> {
        if let Some(c) = self.constant(h)? {
            return Ok(c);
        }
        // A 1xN matrix is its only row (SPIR-V.rst, "Vectors and matrices").
        if let (TypeInner::Matrix { rows: 1, .. }, [row]) = (&self.w.ir_type(ty)?.inner, components)
        {
            return self.value(*row);
        }
        let t = self.w.type_id(ty)?;
        let mut operands: SmallVec<[Word; 4]> = SmallVec::with_capacity(components.len());
        for &c in components {
            operands.push(self.value(c)?);
        }
        self.emit_words(Op::CompositeConstruct, t, &operands)
    }

    fn write_swizzle(
        &mut self,
        ty: Handle<ir::Type>,
        size: u8,
        vector: Handle<Expression>,
        pattern: &[ir::SwizzleComponent; 4],
    ) -> BackResult<Word> {
        let v = self.value(vector)?;
        let t = self.w.type_id(ty)?;
        if let Shape::Scalar(_) = self.shape(vector)? {
            // `f.xxx` on a scalar: every component is the scalar.
            if size <= 1 {
                return Ok(v);
            }
            let parts: SmallVec<[Word; 4]> = smallvec![v; size as usize];
            return self.emit_words(Op::CompositeConstruct, t, &parts);
        }
        if size <= 1 {
            return self.extract(t, v, pattern[0] as u32);
        }
        let mut operands: SmallVec<[Word; 6]> = smallvec![v, v];
        operands.extend(pattern.iter().take(size as usize).map(|&c| c as u32));
        self.emit_words(Op::VectorShuffle, t, &operands)
    }

    fn write_access(
        &mut self,
        h: Handle<Expression>,
        base: Handle<Expression>,
        index: AccessIndex,
    ) -> BackResult<Value> {
        let base_ty = self.expr_type(base)?;
        // Indexing the only row of a 1xN matrix (a SPIR-V vector) selects
        // the whole vector: the index is dropped (SPIR-V.rst, "Indexing
        // operator").
        let is_single_row = |inner: &TypeInner| matches!(inner, TypeInner::Matrix { rows: 1, .. });
        if let Some(&Value::Pointer(i)) = self.values.get(base.index()) {
            let mut pv = self.pointer_at(i)?.clone();
            let skip = is_single_row(&self.w.ir_type(pv.pointee)?.inner);
            let parent = pv.pointee;
            pv.pointee = match self.expr_inner(h)? {
                TypeInner::Pointer { base, .. } => *base,
                _ => {
                    return Err(internal(format!(
                        "access {h:?} through a pointer does not have a pointer type"
                    )));
                }
            };
            if !skip {
                if let Some(a) = pv.align {
                    let step = match index {
                        AccessIndex::Constant(i) => Some(i),
                        AccessIndex::Dynamic(_) => None,
                    };
                    pv.align = Some(a.min(self.step_alignment(parent, step)?));
                }
                let (id, constant) = match index {
                    AccessIndex::Constant(i) => (self.w.const_u32(i), Some(i)),
                    AccessIndex::Dynamic(e) => {
                        let id = self.value(e)?;
                        if self.non_uniform.contains(&id) {
                            if pv.indices.is_empty()
                                && let Some(g) = pv.global
                            {
                                self.non_uniform_array_capability(g)?;
                            }
                            pv.non_uniform = true;
                        }
                        let constant = match self.fun.expressions[e] {
                            Expression::Literal(Literal::U32(v)) => Some(v),
                            Expression::Literal(Literal::I32(v)) => u32::try_from(v).ok(),
                            _ => None,
                        };
                        (id, constant)
                    }
                };
                pv.indices.push(id);
                pv.const_indices.push(constant);
            }
            return Ok(self.new_pointer(pv));
        }

        let b = self.value(base)?;
        let base_inner = self.w.ir_type(base_ty)?.inner.clone();
        if is_single_row(&base_inner) {
            return Ok(Value::Id(b));
        }
        let t = self.w.type_id(self.expr_type(h)?)?;
        let id = match index {
            AccessIndex::Constant(i) => self.extract(t, b, i)?,
            AccessIndex::Dynamic(e) => {
                let i = self.value(e)?;
                match self.spills.get(&h) {
                    Some(&var) => {
                        // Store the array/matrix, index it in memory.
                        self.emit_void(Op::Store, [Operand::IdRef(var), Operand::IdRef(b)])?;
                        let ptr_ty = self.w.pointer_type(t, StorageClass::Function);
                        let p = self.emit_value(
                            Op::AccessChain,
                            ptr_ty,
                            [Operand::IdRef(var), Operand::IdRef(i)],
                        )?;
                        self.emit_value(Op::Load, t, [Operand::IdRef(p)])?
                    }
                    None => self.emit_value(
                        Op::VectorExtractDynamic,
                        t,
                        [Operand::IdRef(b), Operand::IdRef(i)],
                    )?,
                }
            }
        };
        Ok(Value::Id(id))
    }

    fn write_load(
        &mut self,
        ty: Handle<ir::Type>,
        pointer: Handle<Expression>,
    ) -> BackResult<Word> {
        let pv = self.pointer_ref(pointer)?;
        let (non_uniform, align) = (pv.non_uniform, pv.align);
        let p = self.pointer_id_of(pointer)?;
        let t = self.w.type_id(ty)?;
        let mut operands: SmallVec<[Word; 3]> = smallvec![p];
        operands.extend(Self::memory_operands(align));
        let v = self.emit_words(Op::Load, t, &operands)?;
        if non_uniform {
            self.mark_non_uniform(v);
        }
        if self.w.options.dx_position_w {
            let pv = self.pointer(pointer)?;
            if self.is_fragcoord(&pv) {
                return self.dx_position_w(&pv, t, v);
            }
        }
        Ok(v)
    }

    fn is_fragcoord(&self, pv: &PointerValue) -> bool {
        pv.global.is_some_and(|g| {
            let g = &self.w.ir.globals[g];
            g.space == ir::AddressSpace::Input
                && g.io == Some(ir::Binding::BuiltIn(spirv::BuiltIn::FragCoord))
        })
    }

    /// `-fvk-use-dx-position-w`: Direct3D's `SV_Position.w` is
    /// `1 / FragCoord.w`.
    fn dx_position_w(&mut self, pv: &PointerValue, ty: Word, v: Word) -> BackResult<Word> {
        let f32_ty = self.w.scalar_type(Scalar::F32);
        let one = self.w.const_f32(1.0);
        match pv.const_indices.as_slice() {
            [] => {
                let w = self.extract(f32_ty, v, 3)?;
                let rw = self.emit_value(
                    Op::FDiv,
                    f32_ty,
                    [Operand::IdRef(one), Operand::IdRef(w)],
                )?;
                self.emit_value(
                    Op::CompositeInsert,
                    ty,
                    [
                        Operand::IdRef(rw),
                        Operand::IdRef(v),
                        Operand::LiteralBit32(3),
                    ],
                )
            }
            [Some(3)] => self.emit_value(
                Op::FDiv,
                f32_ty,
                [Operand::IdRef(one), Operand::IdRef(v)],
            ),
            [Some(_)] => Ok(v),
            _ => Err(super::unsupported(
                "-fvk-use-dx-position-w with a dynamically indexed read of SV_Position",
            )),
        }
    }

    fn write_select(
        &mut self,
        h: Handle<Expression>,
        condition: Handle<Expression>,
        accept: Handle<Expression>,
        reject: Handle<Expression>,
    ) -> BackResult<Word> {
        let rt = self.w.type_id(self.expr_type(h)?)?;
        let result = self.shape(h)?;
        let cond_shape = self.shape(condition)?;
        let mut c = self.value(condition)?;
        let a = self.value(accept)?;
        let r = self.value(reject)?;
        // Below SPIR-V 1.4 OpSelect needs a condition of the objects' shape.
        let scalar_condition_ok = self.w.version_at_least(1, 4);
        let select = |s: &mut Self, ty: Word, c: Word, a: Word, r: Word| {
            s.emit_value(
                Op::Select,
                ty,
                [Operand::IdRef(c), Operand::IdRef(a), Operand::IdRef(r)],
            )
        };
        match result {
            Shape::Scalar(_) => select(self, rt, c, a, r),
            Shape::Vector(n, _) => {
                if matches!(cond_shape, Shape::Scalar(_)) && !scalar_condition_ok {
                    c = self.splat(c, Scalar::BOOL, n)?;
                }
                select(self, rt, c, a, r)
            }
            Shape::Matrix {
                columns,
                size,
                scalar,
                ..
            } => {
                let column_ty = self.w.vector_type(scalar, size);
                let cond_arg = match cond_shape {
                    Shape::Scalar(_) if scalar_condition_ok => ColumnArg::Whole(c),
                    Shape::Scalar(_) => ColumnArg::Whole(self.splat(c, Scalar::BOOL, size)?),
                    _ => ColumnArg::Split {
                        id: c,
                        column_ty: self.w.vector_type(Scalar::BOOL, size),
                    },
                };
                let args = [
                    cond_arg,
                    ColumnArg::Split { id: a, column_ty },
                    ColumnArg::Split { id: r, column_ty },
                ];
                self.map_columns(rt, columns, &args, &mut |s, x| {
                    select(s, column_ty, x[0], x[1], x[2])
                })
            }
            Shape::Other if scalar_condition_ok && matches!(cond_shape, Shape::Scalar(_)) => {
                select(self, rt, c, a, r)
            }
            Shape::Other => Err(super::unsupported(
                "selecting between structs or arrays below SPIR-V 1.4 (use -fspv-target-env=vulkan1.2)",
            )),
        }
    }

    fn write_relational(
        &mut self,
        h: Handle<Expression>,
        fun: ir::RelationalFunction,
        argument: Handle<Expression>,
    ) -> BackResult<Word> {
        use ir::RelationalFunction as R;
        let rt = self.w.type_id(self.expr_type(h)?)?;
        let arg = self.shape(argument)?;
        let v = self.value(argument)?;
        let bool_ty = self.w.bool_type();
        match fun {
            R::All | R::Any => {
                let op = if fun == R::All { Op::All } else { Op::Any };
                match arg {
                    Shape::Scalar(_) => Ok(v),
                    Shape::Vector(..) => self.emit_value(op, rt, [Operand::IdRef(v)]),
                    Shape::Matrix { columns, size, .. } => {
                        // Reduce each row, then the vector of results
                        // (SPIR-V.rst, "all"/"any").
                        let column_ty = self.w.vector_type(Scalar::BOOL, size);
                        let rows_ty = self.w.vector_type(Scalar::BOOL, columns);
                        let per_row = self.map_columns(
                            rows_ty,
                            columns,
                            &[ColumnArg::Split { id: v, column_ty }],
                            &mut |s, x| s.emit_value(op, bool_ty, [Operand::IdRef(x[0])]),
                        )?;
                        self.emit_value(op, rt, [Operand::IdRef(per_row)])
                    }
                    Shape::Other => Err(internal("all/any of a non-numeric value")),
                }
            }
            R::IsNan | R::IsInf => {
                let op = if fun == R::IsNan {
                    Op::IsNan
                } else {
                    Op::IsInf
                };
                match arg {
                    Shape::Matrix {
                        columns,
                        size,
                        scalar,
                        ..
                    } => {
                        let column_ty = self.w.vector_type(scalar, size);
                        let result_column = self.w.vector_type(Scalar::BOOL, size);
                        self.map_columns(
                            rt,
                            columns,
                            &[ColumnArg::Split { id: v, column_ty }],
                            &mut |s, x| s.emit_value(op, result_column, [Operand::IdRef(x[0])]),
                        )
                    }
                    _ => self.emit_value(op, rt, [Operand::IdRef(v)]),
                }
            }
        }
    }

    fn write_derivative(
        &mut self,
        h: Handle<Expression>,
        axis: ir::DerivativeAxis,
        control: ir::DerivativeControl,
        expr: Handle<Expression>,
    ) -> BackResult<Word> {
        use ir::DerivativeAxis as A;
        use ir::DerivativeControl as C;
        let op = match (axis, control) {
            (A::X, C::None) => Op::DPdx,
            (A::X, C::Coarse) => Op::DPdxCoarse,
            (A::X, C::Fine) => Op::DPdxFine,
            (A::Y, C::None) => Op::DPdy,
            (A::Y, C::Coarse) => Op::DPdyCoarse,
            (A::Y, C::Fine) => Op::DPdyFine,
            (A::Width, C::None) => Op::Fwidth,
            (A::Width, C::Coarse) => Op::FwidthCoarse,
            (A::Width, C::Fine) => Op::FwidthFine,
        };
        if control != C::None {
            self.w.capability(spirv::Capability::DerivativeControl);
        }
        let rt = self.w.type_id(self.expr_type(h)?)?;
        let v = self.value(expr)?;
        match self.shape(expr)? {
            Shape::Matrix {
                columns,
                size,
                scalar,
                ..
            } => {
                let column_ty = self.w.vector_type(scalar, size);
                self.map_columns(
                    rt,
                    columns,
                    &[ColumnArg::Split { id: v, column_ty }],
                    &mut |s, x| s.emit_value(op, column_ty, [Operand::IdRef(x[0])]),
                )
            }
            _ => self.emit_value(op, rt, [Operand::IdRef(v)]),
        }
    }
}

/// What identifies the access chain of `pv`.
fn chain_key(pv: &PointerValue) -> ChainKey {
    let indices = Indices::from_slice(&pv.indices);
    (pv.root, indices, pv.class, pv.pointee, pv.non_uniform)
}

#[derive(Clone, Copy, Debug)]
enum AccessIndex {
    Constant(u32),
    Dynamic(Handle<Expression>),
}
