//! Constants: a cache giving each distinct constant one id (rspirv does
//! not deduplicate constants), literals, composites, `OpConstantNull`, and
//! the evaluation of constant expressions of the IR.

use super::writer::Writer;
use super::{BackResult, internal};
use crate::back::spv::inst;
use crate::ir::{self, Arena, Expression, Handle, Literal, Scalar, ScalarKind, TypeInner};
use rspirv::dr::Operand;
use rustc_hash::FxHashMap;
use smallvec::{SmallVec, smallvec};
use spirv::{Op, Word};
use std::collections::hash_map::Entry;

/// The constituents of a composite constant (inline up to a vector's
/// four: most composites are vectors).
pub(super) type Parts = SmallVec<[Word; 4]>;

pub(super) struct ConstCache {
    /// Scalar constants by type and bits (a bool's bits are its value: the
    /// bool type is no other scalar's, so the keys cannot meet).
    scalars: FxHashMap<(Word, u64), Word>,
    /// Composite constants by type and constituents.
    composites: FxHashMap<(Word, Parts), Word>,
    /// `OpConstantNull` by type.
    nulls: FxHashMap<Word, Word>,
    /// The constituents of composite constants (to flatten vectors built
    /// from vectors, which `OpConstantComposite` does not allow).
    parts: FxHashMap<Word, Parts>,
    /// The id of each module-level constant expression, once written.
    module_exprs: Vec<Option<Word>>,
}

impl ConstCache {
    /// A cache with room for `capacity` scalar constants before it grows.
    pub fn with_capacity(capacity: usize) -> Self {
        ConstCache {
            scalars: FxHashMap::with_capacity_and_hasher(capacity, Default::default()),
            // Room for a few composites: growing a table from nothing
            // rehashes it several times.
            composites: FxHashMap::with_capacity_and_hasher(16, Default::default()),
            nulls: FxHashMap::default(),
            parts: FxHashMap::with_capacity_and_hasher(16, Default::default()),
            module_exprs: Vec::new(),
        }
    }
}

impl Writer<'_> {
    /// The scalar constant of type `ty` with `bits`, written on first use
    /// as `op` with the first `len` words of `bits`, the low one first
    /// (`OpConstant` with one or two words, `OpConstantTrue`/`False` with
    /// none). Scalars are most of a module's constants: one hashing of a
    /// plain key finds or places each.
    fn scalar_constant(&mut self, ty: Word, bits: u64, op: Op, len: usize) -> Word {
        let fresh = self.next_id;
        let id = *self.constants.scalars.entry((ty, bits)).or_insert(fresh);
        if id == fresh {
            self.next_id += 1;
            let words = [bits as u32, (bits >> 32) as u32];
            self.globals.encode_words(op, Some(ty), Some(id), &words[..len]);
        }
        id
    }

    /// A scalar constant of `scalar`'s type from raw bits (the low
    /// `width * 8` bits; signed integers narrower than 32 bits are sign
    /// extended into the word, as SPIR-V 2.2.1 requires).
    fn scalar_bits(&mut self, scalar: Scalar, bits: u64) -> Word {
        let ty = self.scalar_type(scalar);
        let len = if scalar.width > 4 { 2 } else { 1 };
        self.scalar_constant(ty, bits, Op::Constant, len)
    }

    pub fn literal(&mut self, lit: Literal) -> Word {
        if let Literal::Bool(value) = lit {
            let ty = self.bool_type();
            let op = if value {
                Op::ConstantTrue
            } else {
                Op::ConstantFalse
            };
            return self.scalar_constant(ty, u64::from(value), op, 0);
        }
        self.scalar_bits(lit.scalar(), literal_bits(lit))
    }

    /// A specialization constant with default value `lit`, decorated
    /// `SpecId spec_id`: never shared with other constants.
    fn spec_constant(&mut self, lit: Literal, spec_id: u32, name: Option<&str>) -> Word {
        let id = self.id();
        let inst = match lit {
            Literal::Bool(value) => {
                let ty = self.bool_type();
                let op = if value {
                    Op::SpecConstantTrue
                } else {
                    Op::SpecConstantFalse
                };
                inst(op, Some(ty), Some(id), vec![])
            }
            _ => {
                let scalar = lit.scalar();
                let ty = self.scalar_type(scalar);
                let bits = literal_bits(lit);
                let word = if scalar.width > 4 {
                    Operand::LiteralBit64(bits)
                } else {
                    Operand::LiteralBit32(bits as u32)
                };
                inst(Op::SpecConstant, Some(ty), Some(id), vec![word])
            }
        };
        self.globals.push(inst);
        self.decorate(id, spirv::Decoration::SpecId, &[spec_id]);
        if let Some(n) = name {
            self.name(id, n);
        }
        id
    }

    pub fn const_u32(&mut self, v: u32) -> Word {
        self.literal(Literal::U32(v))
    }

    pub fn const_i32(&mut self, v: i32) -> Word {
        self.literal(Literal::I32(v))
    }

    pub fn const_f32(&mut self, v: f32) -> Word {
        self.literal(Literal::f32(v))
    }

    /// The integer `v` (or `v` as a float) in `scalar`'s type.
    pub fn const_scalar(&mut self, scalar: Scalar, v: i64) -> Word {
        match (scalar.kind, scalar.width) {
            (ScalarKind::Bool, _) => self.literal(Literal::Bool(v != 0)),
            (ScalarKind::Sint | ScalarKind::Uint, w) => {
                let bits = match w {
                    2 if scalar.kind == ScalarKind::Sint => u64::from(v as i16 as i32 as u32),
                    2 => u64::from(v as u16),
                    4 => u64::from(v as u32),
                    _ => v as u64,
                };
                self.scalar_bits(scalar, bits)
            }
            (ScalarKind::Float, 2) => {
                self.scalar_bits(scalar, u64::from(ir::float::f64_to_f16(v as f64)))
            }
            (ScalarKind::Float, 8) => self.scalar_bits(scalar, (v as f64).to_bits()),
            (ScalarKind::Float, _) => self.scalar_bits(scalar, u64::from((v as f32).to_bits())),
        }
    }

    pub fn const_null(&mut self, ty: Word) -> Word {
        let fresh = self.next_id;
        let id = *self.constants.nulls.entry(ty).or_insert(fresh);
        if id == fresh {
            self.next_id += 1;
            self.globals.encode_words(Op::ConstantNull, Some(ty), Some(id), &[]);
        }
        id
    }

    pub fn const_composite(&mut self, ty: Word, parts: Parts) -> Word {
        match self.constants.composites.entry((ty, parts)) {
            Entry::Occupied(e) => *e.get(),
            Entry::Vacant(e) => {
                let id = self.next_id;
                self.next_id += 1;
                let parts = &e.key().1;
                self.globals.encode_words(Op::ConstantComposite, Some(ty), Some(id), parts);
                self.constants.parts.insert(id, parts.clone());
                e.insert(id);
                id
            }
        }
    }

    /// `v` as a scalar (size 1) or a vector of `size` copies.
    pub fn const_splat(&mut self, scalar: Scalar, size: u8, v: i64) -> Word {
        let c = self.const_scalar(scalar, v);
        if size <= 1 {
            return c;
        }
        let ty = self.vector_type(scalar, size);
        self.const_composite(ty, smallvec![c; size as usize])
    }

    /// The scalar constituents of a vector constant.
    fn const_vector_parts(&mut self, id: Word, scalar: Scalar, size: u8) -> Parts {
        match self.constants.parts.get(&id) {
            Some(parts) => parts.clone(),
            // Not a composite: an OpConstantNull vector.
            None => smallvec![self.const_scalar(scalar, 0); size as usize],
        }
    }

    /// Whether expression `h` of `exprs` is (or refers to) a
    /// specialization constant.
    fn is_spec(
        &self,
        exprs: &Arena<Expression>,
        h: Handle<Expression>,
        module_arena: bool,
    ) -> bool {
        match exprs.get(h) {
            Some(Expression::Constant(c)) => self.ir.spec_constant(*c).is_some(),
            Some(Expression::Literal(_)) => module_arena && self.ir.spec_constant(h).is_some(),
            _ => false,
        }
    }

    /// The id of a module-level constant expression.
    pub fn const_expression(&mut self, h: Handle<Expression>) -> BackResult<Word> {
        if let Some(Some(id)) = self.constants.module_exprs.get(h.index()) {
            return Ok(*id);
        }
        let ir = self.ir;
        let mut memo = std::mem::take(&mut self.constants.module_exprs);
        memo.resize(ir.const_expressions.len(), None);
        let result = self.constant_of(&ir.const_expressions, &ir.const_types, h, &mut memo);
        self.constants.module_exprs = memo;
        match result? {
            Some(id) => Ok(id),
            None => Err(internal(format!(
                "module constant expression {h:?} is not a constant"
            ))),
        }
    }

    /// Evaluates `h` of `exprs` (whose types are `types`) as a constant:
    /// `None` when it is not a constant expression. `memo` holds the ids of
    /// the expressions already evaluated.
    pub fn constant_of(
        &mut self,
        exprs: &Arena<Expression>,
        types: &[Handle<ir::Type>],
        h: Handle<Expression>,
        memo: &mut Vec<Option<Word>>,
    ) -> BackResult<Option<Word>> {
        // A memo of `Some(0)` records "not a constant" (0 is never an id).
        match memo.get(h.index()) {
            Some(Some(0)) => return Ok(None),
            Some(Some(id)) => return Ok(Some(*id)),
            _ => {}
        }
        let Some(expr) = exprs.get(h) else {
            return Err(internal(format!(
                "constant expression {h:?} does not exist"
            )));
        };
        // Operands come before the expressions using them; checking it
        // keeps broken IR from recursing forever.
        let earlier = |e: Handle<Expression>| {
            if e.index() < h.index() {
                Ok(())
            } else {
                Err(internal(format!(
                    "constant expression {h:?} uses {e:?}, which does not come before it"
                )))
            }
        };
        let module_arena = std::ptr::eq(exprs, &self.ir.const_expressions);
        let ty_of = |e: Handle<Expression>| {
            types
                .get(e.index())
                .copied()
                .ok_or_else(|| internal(format!("expression {e:?} has no type")))
        };
        let id = match expr {
            Expression::Literal(lit) if module_arena => match self.ir.spec_constant(h) {
                Some(sc) => {
                    let (spec_id, name) = (sc.id, sc.name.clone());
                    Some(self.spec_constant(*lit, spec_id, name.as_deref()))
                }
                None => Some(self.literal(*lit)),
            },
            Expression::Literal(lit) => Some(self.literal(*lit)),
            Expression::Constant(c) => {
                if module_arena {
                    earlier(*c)?;
                }
                Some(self.const_expression(*c)?)
            }
            Expression::ZeroValue(ty) => {
                let ty = self.type_id(*ty)?;
                Some(self.const_null(ty))
            }
            // Composites of specialization constants are computed at run
            // time (OpConstantComposite takes no OpSpecConstant).
            Expression::Splat { value, .. } if self.is_spec(exprs, *value, module_arena) => None,
            Expression::Compose { components, .. }
                if components
                    .iter()
                    .any(|&c| self.is_spec(exprs, c, module_arena)) =>
            {
                None
            }
            Expression::Splat { size, value } => {
                earlier(*value)?;
                match self.constant_of(exprs, types, *value, memo)? {
                    Some(v) => {
                        let ty = self.type_id(ty_of(h)?)?;
                        Some(self.const_composite(ty, smallvec![v; *size as usize]))
                    }
                    None => None,
                }
            }
            Expression::Compose { ty, components } => 'compose: {
                let mut ids = Parts::with_capacity(components.len());
                for &c in components {
                    earlier(c)?;
                    let Some(id) = self.constant_of(exprs, types, c, memo)? else {
                        break 'compose None;
                    };
                    ids.push(id);
                }
                let inner = &self.ir_type(*ty)?.inner;
                let ty_id = self.type_id(*ty)?;
                match *inner {
                    TypeInner::Vector { size, scalar } => {
                        let mut parts = Parts::with_capacity(size as usize);
                        for (&c, &id) in components.iter().zip(&ids) {
                            match self.ir_type(ty_of(c)?)?.inner {
                                TypeInner::Vector { size: n, .. } => {
                                    parts.extend(self.const_vector_parts(id, scalar, n))
                                }
                                _ => parts.push(id),
                            }
                        }
                        if parts.len() != size as usize {
                            return Err(internal(format!(
                                "constant vector {h:?} has {} components for a vector of {size}",
                                parts.len()
                            )));
                        }
                        Some(self.const_composite(ty_id, parts))
                    }
                    TypeInner::Matrix { rows: 1, .. } if ids.len() == 1 => Some(ids[0]),
                    _ => Some(self.const_composite(ty_id, ids)),
                }
            }
            _ => None,
        };
        let Some(id) = id else {
            if let Some(slot) = memo.get_mut(h.index()) {
                *slot = Some(0);
            }
            return Ok(None);
        };
        if let Some(slot) = memo.get_mut(h.index()) {
            *slot = Some(id);
        }
        Ok(Some(id))
    }
}

/// The bits of a non-bool literal as SPIR-V stores them (signed integers
/// narrower than 32 bits sign-extended into the word, SPIR-V 2.2.1).
fn literal_bits(lit: Literal) -> u64 {
    match lit {
        Literal::Bool(b) => u64::from(b),
        Literal::I16(v) => u64::from(i32::from(v) as u32),
        Literal::U16(v) => u64::from(v),
        Literal::I32(v) => u64::from(v as u32),
        Literal::U32(v) => u64::from(v),
        Literal::I64(v) => v as u64,
        Literal::U64(v) => v,
        Literal::F16(b) => u64::from(b),
        Literal::F32(b) => u64::from(b),
        Literal::F64(b) => b,
    }
}
