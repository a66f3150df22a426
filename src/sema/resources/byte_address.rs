//! Byte-address buffers: `Load*`/`Store*` of any type (32-bit words, 16-bit
//! halves, 64-bit pairs, aggregates packed by their components), atomics.

use crate::diag::codes;
use crate::front::ast;
use crate::ir;
use crate::sema::body::FnCtx;
use crate::sema::body::place::{Place, Val, ValKind};
use crate::sema::calls::Arg;
use crate::sema::types::{self, ResKind, Sc, Ty, TyId};
use crate::span::Span;

impl crate::sema::Sema<'_> {
    /// Whether matrices in byte-address buffers are stored row by row:
    /// with `-Zpr`, or DXC's older order (`-fspv-use-legacy-buffer-matrix-order`);
    /// else column by column, as the default `column_major` says.
    pub(in crate::sema) fn raw_matrices_by_row(&self) -> bool {
        self.opts.legacy_buffer_matrix_order
            || self.opts.matrix_layout == crate::sema::options::MatrixLayout::RowMajor
    }
}

impl<'s, 'a> FnCtx<'s, 'a> {
    /// An atomic operation on `p` with `value` (and `compare`), giving the
    /// value before it (of IR type `it`).
    fn atomic(
        &mut self,
        p: ir::Handle<ir::Expression>,
        fun: ir::AtomicFunction,
        value: ir::Handle<ir::Expression>,
        compare: Option<ir::Handle<ir::Expression>>,
        it: ir::Handle<ir::Type>,
    ) -> ir::Handle<ir::Expression> {
        let r = self.add(ir::Expression::AtomicResult, it);
        self.stmt(ir::Statement::Atomic {
            pointer: p,
            fun,
            value: Some(value),
            compare,
            result: Some(r),
        });
        r
    }

    /// The unsigned bits `h` read as the signed or float scalar `sc` of the
    /// same width (IR type `it`).
    fn signed_or_float(
        &mut self,
        sc: Sc,
        h: ir::Handle<ir::Expression>,
        it: ir::Handle<ir::Type>,
    ) -> ir::Handle<ir::Expression> {
        let kind = if sc.is_float() {
            ir::ScalarKind::Float
        } else {
            ir::ScalarKind::Sint
        };
        self.as_kind(h, kind, None, it)
    }

    /// `left op right` on `uint`s: the address and word arithmetic here.
    fn u32_op(
        &mut self,
        op: ir::BinaryOperator,
        left: ir::Handle<ir::Expression>,
        right: ir::Handle<ir::Expression>,
    ) -> ir::Handle<ir::Expression> {
        self.binary_ir(op, left, right, types::UINT, types::UINT)
    }

    /// Pointer to the `uint` holding byte `addr + off` of a byte-address
    /// buffer.
    pub(in crate::sema) fn bab_word_ptr(
        &mut self,
        obj: &Val,
        addr: ir::Handle<ir::Expression>,
        off: u32,
        span: Span,
    ) -> Option<(ir::Handle<ir::Expression>, ir::AddressSpace)> {
        let ValKind::Place(Place::Ptr { ptr, mem, space }) = &obj.kind else {
            self.s
                .unsupported("byte-address access on this buffer expression", span);
            return None;
        };
        let (ptr, mem, space) = (*ptr, *mem, *space);
        let arr = match &self.s.module.types[mem].inner {
            ir::TypeInner::Struct { members, .. } => members.first()?.ty,
            _ => return None,
        };
        let byte = self.bab_byte(addr, off);
        let u = self.s.ir_ty(types::UINT);
        let two = self.u32_lit(2);
        let idx = self.u32_op(ir::BinaryOperator::ShiftRight, byte, two);
        let a = self.block_array(ptr, arr, space);
        let upty = self.ptr_type(u, space);
        Some((
            self.add(
                ir::Expression::Access {
                    base: a,
                    index: idx,
                },
                upty,
            ),
            space,
        ))
    }

    /// The byte address `addr + off`.
    pub(in crate::sema) fn bab_byte(
        &mut self,
        addr: ir::Handle<ir::Expression>,
        off: u32,
    ) -> ir::Handle<ir::Expression> {
        if off == 0 {
            return addr;
        }
        let o = self.u32_lit(off);
        self.u32_op(ir::BinaryOperator::Add, addr, o)
    }

    pub(in crate::sema) fn byte_address_method(
        &mut self,
        obj: Val,
        kind: ResKind,
        method: ast::Ident,
        targs: Option<&'a [ast::TemplateArg]>,
        args: Vec<Arg>,
        span: Span,
    ) -> Val {
        let m = method.name.as_str();
        let rw = kind == ResKind::RWByteAddressBuffer;
        let templ_ty = match targs.and_then(|t| t.first()) {
            Some(a) => {
                let env = crate::sema::body::cx_env!(self);
                Some(self.s.template_type_arg(a, &env))
            }
            None => None,
        };
        match m {
            "GetDimensions" => {
                let Some(a) = args.first() else {
                    return self.wrong_args("GetDimensions", span);
                };
                let ValKind::Place(Place::Ptr { ptr, .. }) = obj.kind else {
                    return self.unsupported("GetDimensions on this buffer expression", span);
                };
                let len = self.runtime_array_length(ptr);
                let four = self.u32_lit(4);
                let bytes = self.u32_op(ir::BinaryOperator::Multiply, len, four);
                self.write_out(a, bytes, types::UINT);
                Val::void()
            }
            "Load" | "Load2" | "Load3" | "Load4" => {
                let n: u8 = match m {
                    "Load" => 1,
                    "Load2" => 2,
                    "Load3" => 3,
                    _ => 4,
                };
                let Some(a) = args.first() else {
                    return self.wrong_args(m, span);
                };
                if let Some(st) = args.get(1) {
                    return self.buffer_status_error(&format!("{}.{m}", kind.name()), st);
                }
                let Some(addr) = self.arg_as(a, types::UINT) else {
                    return Val::error();
                };
                let t = match templ_ty {
                    Some(t) if m == "Load" => t,
                    _ => self.s.types.vector(Sc::U32, n),
                };
                if t == types::ERROR {
                    return Val::error();
                }
                match self.bab_load(&obj, addr, t, span) {
                    Some(h) => Val::expr(t, h),
                    None => Val::error(),
                }
            }
            "Store" | "Store2" | "Store3" | "Store4" if rw => {
                let n: u8 = match m {
                    "Store" => 1,
                    "Store2" => 2,
                    "Store3" => 3,
                    _ => 4,
                };
                let (Some(a), Some(v)) = (args.first(), args.get(1)) else {
                    return self.wrong_args(m, span);
                };
                let Some(addr) = self.arg_as(a, types::UINT) else {
                    return Val::error();
                };
                let t = match templ_ty {
                    Some(t) if m == "Store" => t,
                    // Store(addr, value) of a non-32-bit or aggregate value
                    // stores it as it is (as Store<T>).
                    None if m == "Store"
                        && !matches!(v.val.kind, ValKind::Const(_))
                        && (!self.s.types.is_numeric(v.val.ty)
                            || self
                                .s
                                .types
                                .component(v.val.ty)
                                .is_some_and(|c| c.width() != 4)) =>
                    {
                        v.val.ty
                    }
                    _ => self.s.types.vector(Sc::U32, n),
                };
                let Some(val) = self.arg_as(v, t) else {
                    return Val::error();
                };
                self.bab_store(&obj, addr, val, t, span);
                Val::void()
            }
            _ if rw && m.starts_with("Interlocked") => self.bab_interlocked(&obj, m, &args, span),
            _ => self.res_error(kind, method),
        }
    }

    /// Loads a value of `ty` from byte address `addr`: components packed
    /// in order, each aligned to its own size (as DXC's templated loads).
    pub(in crate::sema) fn bab_load(
        &mut self,
        obj: &Val,
        addr: ir::Handle<ir::Expression>,
        ty: TyId,
        span: Span,
    ) -> Option<ir::Handle<ir::Expression>> {
        self.bab_load_at(obj, addr, 0, ty, span)
    }

    /// Bytes per component of a scalar in a byte-address buffer.
    pub(in crate::sema) fn bab_scalar_size(s: Sc) -> u32 {
        match s {
            Sc::Bool => 4,
            s => s.concrete().width() as u32,
        }
    }

    /// Size and alignment of a type in a byte-address buffer.
    pub(in crate::sema) fn bab_layout(&mut self, ty: TyId, span: Span) -> Option<(u32, u32)> {
        Some(match self.s.types.get(ty).clone() {
            Ty::Scalar(s) => {
                let n = Self::bab_scalar_size(s);
                (n, n)
            }
            Ty::Enum(e) => {
                let n = Self::bab_scalar_size(self.s.types.enum_info(e).underlying);
                (n, n)
            }
            Ty::Vector(s, n) => {
                let c = Self::bab_scalar_size(s);
                (c * n as u32, c)
            }
            Ty::Matrix(s, r, c) => {
                let e = Self::bab_scalar_size(s);
                (e * r as u32 * c as u32, e)
            }
            Ty::Array(e, Some(n)) => {
                let (sz, al) = self.bab_layout(e, span)?;
                (sz.div_ceil(al) * al * n, al)
            }
            Ty::Struct(sid) => {
                let member_tys = self.s.types.member_types(sid);
                let (mut off, mut al) = (0u32, 1u32);
                for t in member_tys {
                    let (sz, a) = self.bab_layout(t, span)?;
                    off = off.div_ceil(a) * a + sz;
                    al = al.max(a);
                }
                (off.div_ceil(al) * al, al)
            }
            _ => {
                self.s.unsupported(
                    format_args!("byte-address access to `{}`", self.s.ty_name(ty)),
                    span,
                );
                return None;
            }
        })
    }

    /// A 16-bit value from the word at byte `addr + off`.
    pub(in crate::sema) fn bab_load16(
        &mut self,
        obj: &Val,
        addr: ir::Handle<ir::Expression>,
        off: u32,
        sc: Sc,
        span: Span,
    ) -> Option<ir::Handle<ir::Expression>> {
        let (p, _) = self.bab_word_ptr(obj, addr, off, span)?;
        let u = self.s.ir_ty(types::UINT);
        let w = self.add(ir::Expression::Load { pointer: p }, u);
        // The half word: shift by 16 when the address is 2 mod 4.
        let byte = self.bab_byte(addr, off);
        let three = self.u32_lit(3);
        let bits = self.u32_op(ir::BinaryOperator::ShiftLeft, byte, three);
        let sixteen = self.u32_lit(16);
        let sh = self.u32_op(ir::BinaryOperator::And, bits, sixteen);
        let v = self.u32_op(ir::BinaryOperator::ShiftRight, w, sh);
        let u16t = self.s.types.scalar(Sc::U16);
        let u16i = self.s.ir_ty(u16t);
        let h = self.as_kind(v, ir::ScalarKind::Uint, Some(2), u16i);
        if sc == Sc::U16 {
            return Some(h);
        }
        let st = self.s.types.scalar(sc);
        let it = self.s.ir_ty(st);
        Some(self.signed_or_float(sc, h, it))
    }

    pub(in crate::sema) fn bab_load_at(
        &mut self,
        obj: &Val,
        addr: ir::Handle<ir::Expression>,
        off: u32,
        ty: TyId,
        span: Span,
    ) -> Option<ir::Handle<ir::Expression>> {
        let u = self.s.ir_ty(types::UINT);
        match self.s.types.get(ty).clone() {
            // An enum is stored as its underlying type (64-bit ones too);
            // both have the same IR type.
            Ty::Enum(e) => {
                let st = self.s.types.scalar(self.s.types.enum_info(e).underlying);
                self.bab_load_at(obj, addr, off, st, span)
            }
            Ty::Scalar(sc) if sc.concrete().width() == 4 || sc == Sc::Bool => {
                let (p, _) = self.bab_word_ptr(obj, addr, off, span)?;
                let w = self.add(ir::Expression::Load { pointer: p }, u);
                Some(self.word_to(w, sc))
            }
            Ty::Scalar(sc) if sc.concrete().width() == 2 => {
                self.bab_load16(obj, addr, off, sc, span)
            }
            Ty::Scalar(sc) => {
                // 64-bit: two words, low first.
                let (p0, _) = self.bab_word_ptr(obj, addr, off, span)?;
                let (p1, _) = self.bab_word_ptr(obj, addr, off + 4, span)?;
                let lo = self.add(ir::Expression::Load { pointer: p0 }, u);
                let hi = self.add(ir::Expression::Load { pointer: p1 }, u);
                let u64t = self.s.types.scalar(Sc::U64);
                let u64i = self.s.ir_ty(u64t);
                let lo64 = self.as_kind(lo, ir::ScalarKind::Uint, Some(8), u64i);
                let hi64 = self.as_kind(hi, ir::ScalarKind::Uint, Some(8), u64i);
                let sh = self.lit(ir::Literal::U64(32));
                let hs = self.add(
                    ir::Expression::Binary {
                        op: ir::BinaryOperator::ShiftLeft,
                        left: hi64,
                        right: sh,
                        precise: false,
                    },
                    u64i,
                );
                let v = self.add(
                    ir::Expression::Binary {
                        op: ir::BinaryOperator::InclusiveOr,
                        left: lo64,
                        right: hs,
                        precise: false,
                    },
                    u64i,
                );
                if sc == Sc::U64 {
                    return Some(v);
                }
                let it = self.s.ir_ty(ty);
                Some(self.signed_or_float(sc, v, it))
            }
            Ty::Vector(sc, n) => {
                let st = self.s.types.scalar(sc);
                let c = Self::bab_scalar_size(sc);
                let mut comps = Vec::new();
                for i in 0..n as u32 {
                    comps.push(self.bab_load_at(obj, addr, off + i * c, st, span)?);
                }
                Some(self.compose(ty, comps))
            }
            Ty::Matrix(sc, r, c) => {
                let rt = self.s.types.vector(sc, c);
                let e = Self::bab_scalar_size(sc);
                let mut rows = Vec::new();
                if self.s.raw_matrices_by_row() {
                    for i in 0..r as u32 {
                        rows.push(self.bab_load_at(obj, addr, off + i * c as u32 * e, rt, span)?);
                    }
                } else {
                    // Column-major: element (i, j) at (j * r + i) elements.
                    let st = self.s.types.scalar(sc);
                    for i in 0..r as u32 {
                        let mut comps = Vec::new();
                        for j in 0..c as u32 {
                            let at = off + (j * r as u32 + i) * e;
                            comps.push(self.bab_load_at(obj, addr, at, st, span)?);
                        }
                        rows.push(if c == 1 {
                            comps[0]
                        } else {
                            self.compose(rt, comps)
                        });
                    }
                }
                Some(self.compose_matrix(ty, rows))
            }
            Ty::Array(e, Some(n)) => {
                let (sz, al) = self.bab_layout(e, span)?;
                let stride = sz.div_ceil(al) * al;
                let mut comps = Vec::new();
                for i in 0..n {
                    comps.push(self.bab_load_at(obj, addr, off + i * stride, e, span)?);
                }
                Some(self.compose(ty, comps))
            }
            Ty::Struct(sid) => {
                let member_tys = self.s.types.member_types(sid);
                let mut comps = Vec::new();
                let mut o = 0u32;
                for t in member_tys {
                    let (sz, al) = self.bab_layout(t, span)?;
                    o = o.div_ceil(al) * al;
                    comps.push(self.bab_load_at(obj, addr, off + o, t, span)?);
                    o += sz;
                }
                Some(self.compose(ty, comps))
            }
            _ => {
                self.s.unsupported(
                    format_args!("byte-address loads of `{}`", self.s.ty_name(ty)),
                    span,
                );
                None
            }
        }
    }

    /// A 32-bit word as scalar `sc`.
    pub(in crate::sema) fn word_to(
        &mut self,
        w: ir::Handle<ir::Expression>,
        sc: Sc,
    ) -> ir::Handle<ir::Expression> {
        match sc.concrete() {
            Sc::U32 => w,
            Sc::Bool => {
                let z = self.u32_lit(0);
                let b = self.s.ir_ty(types::BOOL);
                self.add(
                    ir::Expression::Binary {
                        op: ir::BinaryOperator::NotEqual,
                        left: w,
                        right: z,
                        precise: false,
                    },
                    b,
                )
            }
            s => {
                let st = self.s.types.scalar(s);
                let it = self.s.ir_ty(st);
                let kind = if s.is_float() {
                    ir::ScalarKind::Float
                } else {
                    ir::ScalarKind::Sint
                };
                self.add(
                    ir::Expression::As {
                        expr: w,
                        kind,
                        convert: None,
                        precise: false,
                    },
                    it,
                )
            }
        }
    }

    pub(in crate::sema) fn bab_store(
        &mut self,
        obj: &Val,
        addr: ir::Handle<ir::Expression>,
        val: ir::Handle<ir::Expression>,
        ty: TyId,
        span: Span,
    ) {
        self.bab_store_at(obj, addr, 0, val, ty, span);
    }

    pub(in crate::sema) fn bab_store_word(
        &mut self,
        obj: &Val,
        addr: ir::Handle<ir::Expression>,
        off: u32,
        w: ir::Handle<ir::Expression>,
        span: Span,
    ) {
        if let Some((p, _)) = self.bab_word_ptr(obj, addr, off, span) {
            self.stmt(ir::Statement::Store {
                pointer: p,
                value: w,
            });
        }
    }

    pub(in crate::sema) fn bab_store_at(
        &mut self,
        obj: &Val,
        addr: ir::Handle<ir::Expression>,
        off: u32,
        val: ir::Handle<ir::Expression>,
        ty: TyId,
        span: Span,
    ) {
        let u = self.s.ir_ty(types::UINT);
        match self.s.types.get(ty).clone() {
            Ty::Scalar(sc) if sc.concrete().width() == 4 || sc == Sc::Bool => {
                let w = match sc.concrete() {
                    Sc::U32 => val,
                    Sc::Bool => {
                        self.bool_to_int(val, 1, u, ir::Literal::U32(1), ir::Literal::U32(0))
                    }
                    _ => self.as_kind(val, ir::ScalarKind::Uint, None, u),
                };
                self.bab_store_word(obj, addr, off, w, span);
            }
            Ty::Enum(e) => {
                let st = self.s.types.scalar(self.s.types.enum_info(e).underlying);
                self.bab_store_at(obj, addr, off, val, st, span);
            }
            Ty::Scalar(sc) if sc.concrete().width() == 2 => {
                // Read-modify-write of the word holding the half word.
                let u16t = self.s.types.scalar(Sc::U16);
                let u16i = self.s.ir_ty(u16t);
                let bits16 = if sc == Sc::U16 {
                    val
                } else {
                    self.as_kind(val, ir::ScalarKind::Uint, None, u16i)
                };
                let v32 = self.as_kind(bits16, ir::ScalarKind::Uint, Some(4), u);
                let Some((p, _)) = self.bab_word_ptr(obj, addr, off, span) else {
                    return;
                };
                let byte = self.bab_byte(addr, off);
                let three = self.u32_lit(3);
                let bits = self.u32_op(ir::BinaryOperator::ShiftLeft, byte, three);
                let sixteen = self.u32_lit(16);
                let sh = self.u32_op(ir::BinaryOperator::And, bits, sixteen);
                let ffff = self.u32_lit(0xffff);
                let mask = self.u32_op(ir::BinaryOperator::ShiftLeft, ffff, sh);
                let keep = self.add(
                    ir::Expression::Unary {
                        op: ir::UnaryOperator::BitwiseNot,
                        expr: mask,
                        precise: false,
                    },
                    u,
                );
                let old = self.add(ir::Expression::Load { pointer: p }, u);
                let kept = self.u32_op(ir::BinaryOperator::And, old, keep);
                let moved = self.u32_op(ir::BinaryOperator::ShiftLeft, v32, sh);
                let new = self.u32_op(ir::BinaryOperator::InclusiveOr, kept, moved);
                self.stmt(ir::Statement::Store {
                    pointer: p,
                    value: new,
                });
            }
            Ty::Scalar(sc) => {
                let u64t = self.s.types.scalar(Sc::U64);
                let u64i = self.s.ir_ty(u64t);
                let v = if sc == Sc::U64 {
                    val
                } else {
                    self.as_kind(val, ir::ScalarKind::Uint, None, u64i)
                };
                let lo = self.as_kind(v, ir::ScalarKind::Uint, Some(4), u);
                let sh = self.lit(ir::Literal::U64(32));
                let hs = self.add(
                    ir::Expression::Binary {
                        op: ir::BinaryOperator::ShiftRight,
                        left: v,
                        right: sh,
                        precise: false,
                    },
                    u64i,
                );
                let hi = self.as_kind(hs, ir::ScalarKind::Uint, Some(4), u);
                self.bab_store_word(obj, addr, off, lo, span);
                self.bab_store_word(obj, addr, off + 4, hi, span);
            }
            Ty::Vector(sc, n) => {
                let st = self.s.types.scalar(sc);
                let sit = self.s.ir_ty(st);
                let c = Self::bab_scalar_size(sc);
                for i in 0..n as u32 {
                    let e = self.add(
                        ir::Expression::AccessIndex {
                            base: val,
                            index: i,
                        },
                        sit,
                    );
                    self.bab_store_at(obj, addr, off + i * c, e, st, span);
                }
            }
            Ty::Matrix(sc, r, c) => {
                let rt = self.s.types.vector(sc, c);
                let e = Self::bab_scalar_size(sc);
                let by_row = self.s.raw_matrices_by_row();
                let st = self.s.types.scalar(sc);
                for i in 0..r {
                    if by_row {
                        let row = self.matrix_row(val, sc, r, c, i);
                        self.bab_store_at(obj, addr, off + i as u32 * c as u32 * e, row, rt, span);
                        continue;
                    }
                    // Column-major: element (i, j) at (j * r + i) elements.
                    for j in 0..c {
                        let x = self.matrix_element(val, sc, r, c, i, j);
                        let at = off + (j as u32 * r as u32 + i as u32) * e;
                        self.bab_store_at(obj, addr, at, x, st, span);
                    }
                }
            }
            Ty::Array(e, Some(n)) => {
                let Some((sz, al)) = self.bab_layout(e, span) else {
                    return;
                };
                let stride = sz.div_ceil(al) * al;
                let eit = self.s.ir_ty(e);
                for i in 0..n {
                    let c = self.add(
                        ir::Expression::AccessIndex {
                            base: val,
                            index: i,
                        },
                        eit,
                    );
                    self.bab_store_at(obj, addr, off + i * stride, c, e, span);
                }
            }
            Ty::Struct(sid) => {
                let member_tys = self.s.types.member_types(sid);
                let mut o = 0u32;
                for (i, t) in member_tys.into_iter().enumerate() {
                    let Some((sz, al)) = self.bab_layout(t, span) else {
                        return;
                    };
                    o = o.div_ceil(al) * al;
                    let it = self.s.ir_ty(t);
                    let c = self.add(
                        ir::Expression::AccessIndex {
                            base: val,
                            index: i as u32,
                        },
                        it,
                    );
                    self.bab_store_at(obj, addr, off + o, c, t, span);
                    o += sz;
                }
            }
            _ => {
                self.s.unsupported(
                    format_args!("byte-address stores of `{}`", self.s.ty_name(ty)),
                    span,
                );
            }
        }
    }

    pub(in crate::sema) fn bab_interlocked(
        &mut self,
        obj: &Val,
        m: &str,
        args: &[Arg],
        span: Span,
    ) -> Val {
        let Some(a) = args.first() else {
            return self.wrong_args(m, span);
        };
        let Some(addr) = self.arg_as(a, types::UINT) else {
            return Val::error();
        };
        let Some((p, _)) = self.bab_word_ptr(obj, addr, 0, span) else {
            return Val::error();
        };
        self.interlocked_on(p, types::UINT, m, &args[1..], span)
    }

    /// `Interlocked*` on a pointer to a 32-bit integer (`ty`); `rest` are
    /// the arguments after the destination.
    pub fn interlocked_on(
        &mut self,
        p: ir::Handle<ir::Expression>,
        ty: TyId,
        m: &str,
        rest: &[Arg],
        span: Span,
    ) -> Val {
        let fun = match m {
            "InterlockedAdd" => ir::AtomicFunction::Add,
            "InterlockedAnd" => ir::AtomicFunction::And,
            "InterlockedOr" => ir::AtomicFunction::InclusiveOr,
            "InterlockedXor" => ir::AtomicFunction::ExclusiveOr,
            "InterlockedMin" => ir::AtomicFunction::Min,
            "InterlockedMax" => ir::AtomicFunction::Max,
            "InterlockedExchange" => ir::AtomicFunction::Exchange,
            "InterlockedCompareExchange" | "InterlockedCompareStore" => {
                ir::AtomicFunction::CompareExchange
            }
            _ => {
                return self.error(
                    codes::NO_METHOD,
                    format!("unknown atomic operation `{m}`"),
                    span,
                    "unknown",
                );
            }
        };
        let it = self.s.ir_ty(ty);
        if fun == ir::AtomicFunction::CompareExchange {
            let (Some(c), Some(v)) = (rest.first(), rest.get(1)) else {
                return self.wrong_args(m, span);
            };
            let (Some(ch), Some(vh)) = (self.arg_as(c, ty), self.arg_as(v, ty)) else {
                return Val::error();
            };
            let r = self.atomic(p, fun, vh, Some(ch), it);
            if m == "InterlockedCompareExchange" {
                let Some(o) = rest.get(2) else {
                    return self.wrong_args(m, span);
                };
                self.write_out(o, r, ty);
            }
            return Val::void();
        }
        let Some(v) = rest.first() else {
            return self.wrong_args(m, span);
        };
        let Some(vh) = self.arg_as(v, ty) else {
            return Val::error();
        };
        let r = self.atomic(p, fun, vh, None, it);
        if let Some(o) = rest.get(1) {
            self.write_out(o, r, ty);
        }
        Val::void()
    }
}
