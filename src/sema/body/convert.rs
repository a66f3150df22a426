//! Conversions between HLSL types: the cost of an implicit conversion (for
//! overload resolution), and the IR that converts a value — component type
//! changes, scalar splats, vector/matrix truncations (DXC warns "implicit
//! truncation of vector type"), and building aggregates from the flattened
//! components of other values (constructors, initialiser lists, flattening
//! casts).

use crate::diag::{Diagnostic, codes};
use crate::ir;
use crate::sema::body::FnCtx;
use crate::sema::body::place::{Val, ValKind};
use crate::sema::types::consteval::Konst;
use crate::sema::types::{self, Sc, ScKind, Shape, Ty, TyId};
use crate::span::Span;
use std::collections::VecDeque;

/// The cost of implicit conversions; lower is better. `None` from
/// [`conversion_cost`] means impossible.
///
/// Each kind of conversion counts in its own 6-bit digit, so that any
/// number of conversions of a cheaper kind cost less than one of a dearer
/// kind. Overloads are ranked by the sum over their arguments, as DXC
/// scores them: `f(float3, float)` picks `f(float3, float3)` (one splat)
/// over `f(float, float)` (one truncation).
pub type Cost = u64;

const fn kind(k: u32) -> Cost {
    1 << (6 * k)
}

pub const EXACT: Cost = 0;
/// A literal taking a type of its own kind (`1` → `uint`).
const LITERAL: Cost = kind(0);
/// Widening within a kind (`half` → `float`, `int` → `int64_t`).
const PROMOTION: Cost = kind(1);
/// Between signed and unsigned integers.
const SIGN_CHANGE: Cost = kind(2);
/// Integer to float, and to or from `bool`.
const CONVERSION: Cost = kind(3);
/// Narrowing within a kind (`double` → `float`, `int` → `int16_t`).
const NARROWING: Cost = kind(4);
const FLOAT_TO_INT: Cost = kind(5);
/// Scalar to vector or matrix.
const SPLAT: Cost = kind(6);
/// Between shapes of the same size (`float4` ↔ `float2x2`).
const SHAPE_CHANGE: Cost = kind(7);
/// Dropping vector or matrix components.
const TRUNCATION: Cost = kind(8);

fn scalar_cost(from: Sc, to: Sc) -> Cost {
    if from == to {
        return EXACT;
    }
    match (from, to) {
        (Sc::LitInt, t) if t.is_int() => LITERAL,
        (Sc::LitFloat, t) if t.is_float() => LITERAL,
        (Sc::LitInt, t) if t.is_float() => LITERAL + PROMOTION,
        (f, t) if f.is_float() && t.is_float() => {
            if f.width() < t.width() {
                PROMOTION
            } else {
                NARROWING
            }
        }
        (f, t) if f.is_int() && t.is_int() => {
            let sign = if f.kind() == t.kind() {
                EXACT
            } else {
                SIGN_CHANGE
            };
            if f.width() < t.width() {
                PROMOTION + sign
            } else if f.width() == t.width() {
                sign
            } else {
                NARROWING + sign
            }
        }
        (f, t) if f.is_float() && t.is_int() => FLOAT_TO_INT,
        _ => CONVERSION,
    }
}

/// How costly converting a value of `from` to `to` implicitly is.
pub fn conversion_cost(types: &types::Types, from: TyId, to: TyId) -> Option<Cost> {
    if from == to {
        return Some(EXACT);
    }
    if from == types::ERROR || to == types::ERROR {
        return Some(EXACT);
    }
    if matches!(types.get(from), Ty::HeapElem { .. })
        && matches!(types.get(to), Ty::Resource(..) | Ty::Sampler { .. })
    {
        return Some(CONVERSION);
    }
    let (fs, ts) = (types.shape(from), types.shape(to));
    if let (Some(fs), Some(ts)) = (fs, ts) {
        let fc = types.component(from)?;
        let tc = types.component(to)?;
        // int → enum converts too (HLSL enums are weakly typed), at a cost.
        let to_enum =
            matches!(types.get(to), Ty::Enum(_)) && !matches!(types.get(from), Ty::Enum(_));
        let mut c = scalar_cost(fc, tc);
        if matches!(types.get(from), Ty::Enum(_)) || to_enum {
            c += CONVERSION;
        }
        let shape = match (fs, ts) {
            (a, b) if a == b => EXACT,
            (Shape::Scalar, _) => SPLAT,
            (Shape::Vector(n), Shape::Vector(m)) if m < n => TRUNCATION,
            (Shape::Vector(_), Shape::Scalar) | (Shape::Matrix(..), Shape::Scalar) => TRUNCATION,
            (Shape::Matrix(r, c1), Shape::Matrix(r2, c2)) if r2 <= r && c2 <= c1 => TRUNCATION,
            (a, b) if a.count() == b.count() => SHAPE_CHANGE,
            _ => return None,
        };
        return Some(c + shape);
    }
    match (types.get(from), types.get(to)) {
        (Ty::Array(a, Some(n)), Ty::Array(b, Some(m))) if n == m => {
            conversion_cost(types, *a, *b).filter(|&c| c == EXACT)
        }
        // A sized array passed where an unsized one is expected.
        (Ty::Array(a, _), Ty::Array(b, None)) if a == b => Some(PROMOTION),
        (Ty::Struct(a), Ty::Struct(b)) => {
            // A derived struct converts to its base.
            let mut cur = types.struct_info(*a).base;
            let mut depth = 1;
            while let Some(t) = cur {
                if types.as_struct(t) == Some(*b) {
                    return Some(CONVERSION * depth);
                }
                cur = types.as_struct(t).and_then(|s| types.struct_info(s).base);
                depth += 1;
            }
            None
        }
        // Resources of the same kind whose element types differ only in
        // unimportant ways are still different types.
        _ => None,
    }
}

/// Whether a conversion drops components (for the truncation warning).
pub(in crate::sema) fn truncates(types: &types::Types, from: TyId, to: TyId) -> bool {
    match (types.shape(from), types.shape(to)) {
        (Some(Shape::Vector(n)), Some(Shape::Vector(m))) => m < n,
        (Some(Shape::Vector(_)), Some(Shape::Scalar)) => true,
        (Some(Shape::Matrix(..)), Some(Shape::Scalar)) => true,
        (Some(Shape::Matrix(r, c)), Some(Shape::Matrix(r2, c2))) => r2 < r || c2 < c,
        _ => false,
    }
}

impl<'s, 'a> FnCtx<'s, 'a> {
    /// `h != zero`: the bools (of IR type `target`) that numbers stand for.
    pub(in crate::sema) fn is_nonzero(
        &mut self,
        h: ir::Handle<ir::Expression>,
        zero: ir::Handle<ir::Expression>,
        target: ir::Handle<ir::Type>,
    ) -> ir::Handle<ir::Expression> {
        self.add(
            ir::Expression::Binary {
                op: ir::BinaryOperator::NotEqual,
                left: h,
                right: zero,
                precise: false,
            },
            target,
        )
    }

    /// Converts `v` to `to` implicitly (assignment, argument, return).
    pub fn convert(&mut self, v: Val, to: TyId, span: Span) -> Val {
        self.convert_impl(v, to, span, false)
    }

    /// Converts `v` to `to` as a cast `(T)v` does.
    pub fn cast(&mut self, v: Val, to: TyId, span: Span) -> Val {
        self.convert_impl(v, to, span, true)
    }

    fn convert_impl(&mut self, v: Val, to: TyId, span: Span, explicit: bool) -> Val {
        if v.is_error() || to == types::ERROR {
            return Val::error();
        }
        if v.ty == to {
            return v;
        }
        // A scalar constant to a scalar type (a literal meeting a typed
        // operand, the commonest conversion): folded, as the general path
        // below folds it (`convert_numeric`), which reports nothing for it.
        if let ValKind::Const(k) = v.kind
            && let (Ty::Scalar(_), &Ty::Scalar(tc)) = (self.s.types.get(v.ty), self.s.types.get(to))
            && crate::sema::body::ops::fast_paths()
        {
            return Val::konst(to, k.convert(tc));
        }
        // Into aggregates, a pointer is one component like a number.
        if matches!(self.s.types.get(to), Ty::BufferPointer(..))
            || (matches!(self.s.types.get(v.ty), Ty::BufferPointer(..))
                && !matches!(self.s.types.get(to), Ty::Struct(_) | Ty::Array(..)))
        {
            return self.pointer_conversion(v, to, span, explicit);
        }
        if let (&Ty::HeapElem { sampler }, ValKind::Expr(index)) =
            (self.s.types.get(v.ty), &v.kind)
        {
            if matches!(self.s.types.get(to), Ty::Resource(..) | Ty::Sampler { .. }) {
                return self.heap_place(to, *index, sampler);
            }
            return self.mismatch(v.ty, to, span);
        }
        if to == types::VOID {
            if explicit {
                return Val::void();
            }
            return self.mismatch(v.ty, to, span);
        }
        let (from_shape, to_shape) = (self.s.types.shape(v.ty), self.s.types.shape(to));
        if let (Some(fs), Some(ts)) = (from_shape, to_shape) {
            if !explicit {
                if conversion_cost(&self.s.types, v.ty, to).is_none() {
                    return self.mismatch(v.ty, to, span);
                }
                if truncates(&self.s.types, v.ty, to) {
                    let what = if matches!(fs, Shape::Matrix(..)) {
                        "matrix"
                    } else {
                        "vector"
                    };
                    self.s.push(
                        Diagnostic::warning(
                            codes::IMPLICIT_TRUNCATION,
                            format!("implicit truncation of {what} type"),
                        )
                        .label(
                            span,
                            format!(
                                "`{}` truncated to `{}`",
                                self.s.ty_name(v.ty),
                                self.s.ty_name(to)
                            ),
                        ),
                    );
                }
            } else if conversion_cost(&self.s.types, v.ty, to).is_none() && fs.count() != ts.count()
            {
                // Explicit casts may also rebuild from flattened components
                // when the counts allow (float4 → float2x2 is caught above).
                if !(fs.count() > ts.count() || fs == Shape::Scalar) {
                    return self.bad_cast(v.ty, to, span);
                }
            }
            return self.convert_numeric(v, to, fs, ts, span);
        }
        // Aggregates.
        if let Some(c) = conversion_cost(&self.s.types, v.ty, to) {
            let _ = c;
            return self.convert_aggregate_same_layout(v, to, span);
        }
        // Structs (and arrays) of the same components convert member by
        // member, implicitly too (DXC's flat conversion).
        if !explicit
            && matches!(self.s.types.get(v.ty), Ty::Struct(_) | Ty::Array(..))
            && matches!(self.s.types.get(to), Ty::Struct(_) | Ty::Array(..))
            && self.s.types.flat_count(v.ty) == self.s.types.flat_count(to)
            && self.s.types.flat_count(to) > 0
            && !self.s.types.contains_resource(v.ty)
            && !self.s.types.contains_resource(to)
        {
            let mut q = VecDeque::new();
            q.push_back(v);
            return match self.build_from(to, &mut q, span) {
                Some(h) => Val::expr(to, h),
                None => Val::error(),
            };
        }
        if explicit {
            // Flattening cast: (S)0, (S2)s1, (float4)s.
            let fc = self.s.types.flat_count(v.ty);
            let tc = self.s.types.flat_count(to);
            if self.s.types.contains_resource(v.ty) || self.s.types.contains_resource(to) {
                return self.bad_cast(v.ty, to, span);
            }
            if fc == 1 && tc >= 1 {
                return self.splat_to_aggregate(v, to, span);
            }
            if fc >= tc && tc > 0 {
                let mut q = VecDeque::new();
                q.push_back(v);
                match self.build_from(to, &mut q, span) {
                    Some(h) => return Val::expr(to, h),
                    None => return Val::error(),
                }
            }
            return self.bad_cast(v.ty, to, span);
        }
        self.mismatch(v.ty, to, span)
    }

    pub fn mismatch(&mut self, from: TyId, to: TyId, span: Span) -> Val {
        let (f, t) = (self.s.ty_name(from), self.s.ty_name(to));
        self.error(
            codes::TYPE_MISMATCH,
            format!("cannot convert `{f}` to `{t}`"),
            span,
            format!("this is `{f}`"),
        )
    }

    fn bad_cast(&mut self, from: TyId, to: TyId, span: Span) -> Val {
        let (f, t) = (self.s.ty_name(from), self.s.ty_name(to));
        self.error(
            codes::BAD_CAST,
            format!("cannot cast `{f}` to `{t}`"),
            span,
            "invalid cast",
        )
    }

    /// Numeric conversion: component type and shape.
    fn convert_numeric(&mut self, v: Val, to: TyId, fs: Shape, ts: Shape, span: Span) -> Val {
        let tc = self.s.types.component(to).unwrap_or(Sc::F32);
        // Constants fold and splat.
        if let ValKind::Const(k) = v.kind {
            let k = k.convert(tc);
            if ts == Shape::Scalar {
                return Val::konst(to, k);
            }
            let lit = self.const_scalar(k);
            let h = self.splat_scalar(lit, tc, ts);
            return Val::expr(to, h);
        }
        let fc = self.s.types.component(v.ty).unwrap_or(Sc::F32).concrete();
        let Some(h) = self.value(&v) else {
            return Val::error();
        };
        let h = match (fs, ts) {
            (a, b) if a == b => self.convert_components(h, fc, tc, a),
            (Shape::Scalar, _) => {
                let c = self.convert_components(h, fc, tc, Shape::Scalar);
                self.splat_scalar(c, tc, ts)
            }
            (Shape::Vector(n), Shape::Vector(m)) if m < n => {
                let src = self.s.types.vector(fc, n);
                let comps: Vec<u8> = (0..m).collect();
                let t = self.swizzle_value(h, src, &comps);
                self.convert_components(t, fc, tc, ts)
            }
            (Shape::Vector(n), Shape::Scalar) => {
                let src = self.s.types.vector(fc, n);
                let t = self.swizzle_value(h, src, &[0]);
                self.convert_components(t, fc, tc, ts)
            }
            (Shape::Matrix(r, c), Shape::Scalar) => {
                let e = self.matrix_element(h, fc, r, c, 0, 0);
                self.convert_components(e, fc, tc, ts)
            }
            (Shape::Matrix(r, c), Shape::Matrix(r2, c2)) if r2 <= r && c2 <= c => {
                let rows: Vec<_> = (0..r2)
                    .map(|i| {
                        let row = self.matrix_row(h, fc, r, c, i);
                        let rt = self.s.types.vector(fc, c);
                        if c2 < c {
                            let comps: Vec<u8> = (0..c2).collect();
                            self.swizzle_value(row, rt, &comps)
                        } else {
                            row
                        }
                    })
                    .collect();
                let mid = self.s.types.matrix(fc, r2, c2);
                let t = self.compose_matrix(mid, rows);
                self.convert_components(t, fc, tc, ts)
            }
            _ => {
                // Same number of components in another shape (float4 ↔
                // float2x2, float1x3 ↔ float3), or an explicit cast taking
                // the first components: rebuild from the scalars.
                let mut q = VecDeque::new();
                q.push_back(Val::expr(v.ty, h));
                match self.build_from(to, &mut q, span) {
                    Some(h) => return Val::expr(to, h),
                    None => return Val::error(),
                }
            }
        };
        Val::expr(to, h)
    }

    /// Converts the component type of a value of shape `shape`.
    pub fn convert_components(
        &mut self,
        h: ir::Handle<ir::Expression>,
        from: Sc,
        to: Sc,
        shape: Shape,
    ) -> ir::Handle<ir::Expression> {
        let (from, to) = (from.concrete(), to.concrete());
        if from == to {
            return h;
        }
        if let Shape::Matrix(r, c) = shape {
            {
                // Row by row (IR conversions are per vector).
                let rows: Vec<_> = (0..r)
                    .map(|i| {
                        let row = self.matrix_row(h, from, r, c, i);
                        let rs = if c == 1 {
                            Shape::Scalar
                        } else {
                            Shape::Vector(c)
                        };
                        self.convert_components(row, from, to, rs)
                    })
                    .collect();
                let mt = self.s.types.matrix(to, r, c);
                return self.compose_matrix(mt, rows);
            }
        }
        let target_sem = self.s.types.with_shape(to, shape);
        let target = self.s.ir_ty(target_sem);
        let n = match shape {
            Shape::Vector(n) => n,
            Shape::Matrix(r, c) => r.max(c),
            Shape::Scalar => 1,
        };
        if to == Sc::Bool {
            // x != 0
            let zero_sem = self.s.types.with_shape(from, shape);
            let zir = self.s.ir_ty(zero_sem);
            let z = self.zero(zir);
            return self.is_nonzero(h, z, target);
        }
        if from == Sc::Bool {
            let one = crate::sema::body::place::konst_literal(Konst::int(1).convert(to));
            let zero = crate::sema::body::place::konst_literal(Konst::int(0).convert(to));
            return self.bool_to_int(h, n, target, one, zero);
        }
        let kind = match to.kind() {
            ScKind::Sint => ir::ScalarKind::Sint,
            ScKind::Uint => ir::ScalarKind::Uint,
            ScKind::Float => ir::ScalarKind::Float,
            ScKind::Bool => ir::ScalarKind::Bool,
        };
        self.add(
            ir::Expression::As {
                expr: h,
                kind,
                convert: Some(to.width()),
                precise: false,
            },
            target,
        )
    }

    /// A scalar splatted to a vector or matrix shape.
    pub fn splat_scalar(
        &mut self,
        h: ir::Handle<ir::Expression>,
        sc: Sc,
        shape: Shape,
    ) -> ir::Handle<ir::Expression> {
        match shape {
            Shape::Scalar => h,
            Shape::Vector(n) => {
                let t = self.s.types.vector(sc, n);
                let it = self.s.ir_ty(t);
                self.add(ir::Expression::Splat { size: n, value: h }, it)
            }
            Shape::Matrix(r, c) => {
                let row = if c == 1 {
                    h
                } else {
                    self.splat_scalar(h, sc, Shape::Vector(c))
                };
                let mt = self.s.types.matrix(sc, r, c);
                self.compose_matrix(mt, vec![row; r as usize])
            }
        }
    }

    /// Row `i` of a matrix value (a scalar for Nx1 matrices).
    pub fn matrix_row(
        &mut self,
        h: ir::Handle<ir::Expression>,
        sc: Sc,
        _r: u8,
        c: u8,
        i: u8,
    ) -> ir::Handle<ir::Expression> {
        let rt = self.s.types.vector(sc, c);
        let rit = self.s.ir_ty(rt);
        self.add(
            ir::Expression::AccessIndex {
                base: h,
                index: i as u32,
            },
            rit,
        )
    }

    pub fn matrix_element(
        &mut self,
        h: ir::Handle<ir::Expression>,
        sc: Sc,
        r: u8,
        c: u8,
        i: u8,
        j: u8,
    ) -> ir::Handle<ir::Expression> {
        let row = self.matrix_row(h, sc, r, c, i);
        if c == 1 {
            return row;
        }
        let st = self.s.types.scalar(sc);
        let sit = self.s.ir_ty(st);
        self.add(
            ir::Expression::AccessIndex {
                base: row,
                index: j as u32,
            },
            sit,
        )
    }

    /// A matrix from row values.
    pub fn compose_matrix(
        &mut self,
        mt: TyId,
        rows: Vec<ir::Handle<ir::Expression>>,
    ) -> ir::Handle<ir::Expression> {
        self.compose(mt, rows)
    }

    /// Same HLSL shape, different type: a derived struct to its base, a
    /// sized array to an unsized parameter.
    fn convert_aggregate_same_layout(&mut self, v: Val, to: TyId, span: Span) -> Val {
        match (self.s.types.get(v.ty).clone(), self.s.types.get(to).clone()) {
            (Ty::Struct(_), Ty::Struct(_)) => {
                // Walk up to the base: member 0 of each derived struct.
                let mut cur = v;
                for _ in 0..64 {
                    if cur.ty == to {
                        return cur;
                    }
                    let Some(sid) = self.s.types.as_struct(cur.ty) else {
                        break;
                    };
                    let Some(base) = self.s.types.struct_info(sid).base else {
                        break;
                    };
                    cur = self.member_of(cur, 0, base, span);
                }
                self.mismatch(to, to, span)
            }
            _ => Val { ty: to, ..v },
        }
    }

    /// `(S)x` for a scalar `x`: every component of `S` gets `x`.
    fn splat_to_aggregate(&mut self, v: Val, to: TyId, span: Span) -> Val {
        let count = self.s.types.flat_count(to) as usize;
        let mut q = VecDeque::with_capacity(count);
        // The scalar is evaluated once.
        let v = match &v.kind {
            ValKind::Const(_) => v,
            _ => {
                let ty = v.ty;
                match self.value(&v) {
                    Some(h) => Val::expr(ty, h),
                    None => return Val::error(),
                }
            }
        };
        for _ in 0..count {
            q.push_back(v.clone());
        }
        match self.build_from(to, &mut q, span) {
            Some(h) => Val::expr(to, h),
            None => Val::error(),
        }
    }

    /// Builds a value of `ty` from the front of `q`, taking whole values
    /// whose type matches and splitting the others into components.
    pub fn build_from(
        &mut self,
        ty: TyId,
        q: &mut VecDeque<Val>,
        span: Span,
    ) -> Option<ir::Handle<ir::Expression>> {
        if let Some(front) = q.front()
            && front.ty == ty
        {
            let v = q.pop_front()?;
            return self.value(&v);
        }
        match self.s.types.get(ty).clone() {
            Ty::Scalar(_) | Ty::Enum(_) => loop {
                let front = q.pop_front()?;
                if front.is_error() {
                    return None;
                }
                if self.s.types.is_scalar(front.ty) {
                    let c = self.cast(front, ty, span);
                    return self.value(&c);
                }
                if !self.split_front(front, q, span) {
                    return None;
                }
            },
            Ty::Vector(sc, n) => {
                let st = self.s.types.scalar(sc);
                let mut comps = Vec::with_capacity(n as usize);
                for _ in 0..n {
                    comps.push(self.build_from(st, q, span)?);
                }
                Some(self.compose(ty, comps))
            }
            Ty::Matrix(sc, r, c) => {
                let rt = self.s.types.vector(sc, c);
                let mut rows = Vec::with_capacity(r as usize);
                for _ in 0..r {
                    rows.push(self.build_from(rt, q, span)?);
                }
                Some(self.compose_matrix(ty, rows))
            }
            Ty::Array(elem, n) => {
                let n = n.unwrap_or(0);
                let mut comps = Vec::with_capacity(n as usize);
                for _ in 0..n {
                    comps.push(self.build_from(elem, q, span)?);
                }
                Some(self.compose(ty, comps))
            }
            Ty::Struct(sid) => {
                let info = self.s.types.struct_info(sid).clone();
                let mut comps = Vec::new();
                if let Some(b) = info.base {
                    comps.push(self.build_from(b, q, span)?);
                }
                for f in &info.fields {
                    let v = self.build_from(f.ty, q, span)?;
                    match f.bits {
                        None => comps.push(v),
                        // Bit-fields are packed into their unit.
                        Some(b) if b.shares => {
                            let unit = comps.pop()?;
                            comps.push(self.bit_insert(unit, v, f.ty, b.offset, b.width));
                        }
                        Some(b) => {
                            let zero = self.const_scalar(
                                crate::sema::types::consteval::Konst::int(0)
                                    .convert(self.s.types.component(f.ty).unwrap_or(Sc::U32)),
                            );
                            comps.push(self.bit_insert(zero, v, f.ty, b.offset, b.width));
                        }
                    }
                }
                Some(self.compose(ty, comps))
            }
            _ => {
                // Resources in initialiser lists: take one whole value.
                let front = q.pop_front()?;
                if front.ty == ty {
                    return self.value(&front);
                }
                self.mismatch(front.ty, ty, span);
                None
            }
        }
    }

    /// Replaces the aggregate `v` with its components at the front of `q`.
    fn split_front(&mut self, v: Val, q: &mut VecDeque<Val>, span: Span) -> bool {
        let parts = self.components_of(v, span);
        match parts {
            Some(parts) => {
                for p in parts.into_iter().rev() {
                    q.push_front(p);
                }
                true
            }
            None => false,
        }
    }

    /// The direct components of an aggregate value: vector components,
    /// matrix elements (row by row), array elements, struct members.
    pub fn components_of(&mut self, v: Val, span: Span) -> Option<Vec<Val>> {
        let ty = v.ty;
        match self.s.types.get(ty).clone() {
            Ty::Vector(sc, n) => {
                let h = self.value(&v)?;
                let st = self.s.types.scalar(sc);
                let sit = self.s.ir_ty(st);
                Some(
                    (0..n as u32)
                        .map(|i| {
                            let e =
                                self.add(ir::Expression::AccessIndex { base: h, index: i }, sit);
                            Val::expr(st, e)
                        })
                        .collect(),
                )
            }
            Ty::Matrix(sc, r, c) => {
                let h = self.value(&v)?;
                let st = self.s.types.scalar(sc);
                let mut out = Vec::new();
                for i in 0..r {
                    for j in 0..c {
                        let e = self.matrix_element(h, sc, r, c, i, j);
                        out.push(Val::expr(st, e));
                    }
                }
                Some(out)
            }
            Ty::Array(elem, n) => {
                let n = n.unwrap_or(0);
                Some(
                    (0..n)
                        .map(|i| self.member_of(v.clone(), i, elem, span))
                        .collect(),
                )
            }
            Ty::Struct(sid) => {
                let info = self.s.types.struct_info(sid).clone();
                let mut out = Vec::new();
                let mut idx = 0;
                if let Some(b) = info.base {
                    out.push(self.member_of(v.clone(), 0, b, span));
                    idx = 1;
                }
                let _ = idx;
                for f in &info.fields {
                    let unit = self.member_of(v.clone(), f.member, f.ty, span);
                    match f.bits {
                        None => out.push(unit),
                        Some(b) => {
                            let h = self.value(&unit)?;
                            let e = self.bit_extract(h, f.ty, b.offset, b.width);
                            out.push(Val::expr(f.ty, e));
                        }
                    }
                }
                Some(out)
            }
            _ => {
                self.mismatch(ty, ty, span);
                None
            }
        }
    }

    /// Member/element `index` (of HLSL type `ty`) of an aggregate value:
    /// a place stays a place.
    pub fn member_of(&mut self, v: Val, index: u32, ty: TyId, span: Span) -> Val {
        match &v.kind {
            ValKind::Agg(members) => {
                let m = members
                    .get(index as usize)
                    .cloned()
                    .unwrap_or_else(Val::error);
                self.materialize(m, span, &|| "this member".to_string())
            }
            ValKind::Place(p) => {
                let p = self.index_place_const(p, v.ty, index, ty);
                Val::place(ty, p, v.read_only)
            }
            _ => {
                let Some(h) = self.value(&v) else {
                    return Val::error();
                };
                let it = self.s.ir_ty(ty);
                let e = self.add(ir::Expression::AccessIndex { base: h, index }, it);
                Val::expr(ty, e)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn costs_rank_as_hlsl_does() {
        let mut t = types::Types::new();
        let f4 = t.vector(Sc::F32, 4);
        let f3 = t.vector(Sc::F32, 3);
        let i4 = t.vector(Sc::I32, 4);
        assert_eq!(conversion_cost(&t, types::FLOAT, types::FLOAT), Some(EXACT));
        let lit = conversion_cost(&t, types::LIT_INT, types::INT).unwrap();
        let conv = conversion_cost(&t, types::UINT, types::INT).unwrap();
        assert!(lit < conv);
        let splat = conversion_cost(&t, types::FLOAT, f4).unwrap();
        let trunc = conversion_cost(&t, f4, f3).unwrap();
        assert!(splat < trunc);
        assert!(conversion_cost(&t, i4, f4).unwrap() < splat);
        assert_eq!(conversion_cost(&t, f3, f4), None);
        let m22 = t.matrix(Sc::F32, 2, 2);
        assert!(conversion_cost(&t, f4, m22).is_some());
    }
}
