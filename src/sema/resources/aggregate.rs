//! Locals that hold resources: a resource local names a global resource
//! (known at compile time), and a local struct with resource members is an
//! aggregate of such names and ordinary locals for its data members. This
//! is what DXC's legalization makes of them; SPIR-V has no resource values
//! to store.

use crate::diag::codes;
use crate::front::ast;
use crate::intern::Symbol;
use crate::ir;
use crate::sema::Sema;
use crate::sema::body::place::{Place, Val, ValKind};
use crate::sema::body::{FnCtx, LocalSym, LocalVar};
use crate::sema::types::{Ty, TyId};
use crate::span::Span;
use std::collections::VecDeque;

impl<'s, 'a> FnCtx<'s, 'a> {
    /// A resource value as a compile-time alias when it names a global
    /// (so that it can be used in any block later), else as it is.
    pub fn res_alias(&mut self, v: Val) -> Val {
        match self.res_path(&v) {
            Some(p) => {
                let id = self.s.res.intern_path(p);
                Val {
                    ty: v.ty,
                    kind: ValKind::Res(id),
                    read_only: v.read_only,
                }
            }
            None => v,
        }
    }

    /// Makes an aliased resource usable here: its place in this function.
    pub fn materialize(&mut self, v: Val, span: Span, what: &dyn Fn() -> String) -> Val {
        match v.kind {
            ValKind::Res(id) => self.res_path_place(id, v.ty, v.read_only),
            ValKind::Void if self.s.types.is_resource(v.ty) => self.error(
                codes::RESOURCE_MISUSE,
                format!("{} is used before a resource is assigned to it", what()),
                span,
                "no resource assigned yet",
            ),
            ValKind::Runtime(at) => {
                self.s.push(
                    crate::diag::Diagnostic::error(
                        codes::RESOURCE_MISUSE,
                        format!(
                            "{} names a resource not known at compile time: paths chosen at run time assign it different resources",
                            what()
                        ),
                    )
                    .label(span, "used here")
                    .label(at, "the paths meet here")
                    .note("Vulkan cannot select a resource at run time; assign it on every path before using it, or use it inside each branch"),
                );
                Val::error()
            }
            _ => v,
        }
    }

    /// A fresh aggregate for a local of struct type `ty` containing
    /// resources: data members get locals of their own, resources none yet.
    pub fn make_agg(&mut self, ty: TyId, name: &str) -> Val {
        let mut slots: Vec<(TyId, String)> = Vec::new();
        match *self.s.types.get(ty) {
            // An array of structs holding resources: one aggregate per element.
            Ty::Array(e, Some(n)) => slots.extend((0..n).map(|i| (e, format!("{name}[{i}]")))),
            Ty::Struct(sid) => {
                let info = self.s.types.struct_info(sid);
                if let Some(b) = info.base {
                    slots.push((b, format!("{name}.base")));
                }
                for f in self.s.types.storage_fields(sid) {
                    slots.push((f.ty, format!("{name}.{}", f.name)));
                }
            }
            _ => return Val::error(),
        }
        let mut members = Vec::new();
        for (t, n) in slots {
            members.push(self.agg_slot(t, &n));
        }
        Val {
            ty,
            kind: ValKind::Agg(members),
            read_only: None,
        }
    }

    fn agg_slot(&mut self, t: TyId, name: &str) -> Val {
        if self.s.types.is_resource(t) {
            return Val {
                ty: t,
                kind: ValKind::Void,
                read_only: None,
            };
        }
        if self.s.types.contains_resource(t) {
            return self.make_agg(t, name);
        }
        let irt = self.s.ir_ty(t);
        let lv = self.local_var(Some(name.to_string()), irt, false);
        Val::place(
            t,
            Place::Ptr {
                ptr: lv,
                mem: irt,
                space: ir::AddressSpace::Function,
            },
            None,
        )
    }

    /// Copies aggregate `src` into aggregate `dst` member by member: data
    /// is stored, resources are re-aliased. Returns the updated `dst`.
    pub fn agg_copy(&mut self, dst: &Val, src: Val, span: Span) -> Val {
        let (ValKind::Agg(dm), ValKind::Agg(sm)) = (&dst.kind, &src.kind) else {
            return self.mismatch(src.ty, dst.ty, span);
        };
        let mut out = Vec::with_capacity(dm.len());
        for (d, s) in dm.iter().zip(sm.iter()) {
            out.push(self.agg_store_member(d, s.clone(), span));
        }
        Val {
            ty: dst.ty,
            kind: ValKind::Agg(out),
            read_only: dst.read_only,
        }
    }

    /// Stores `v` into one member slot of an aggregate; gives the new slot.
    fn agg_store_member(&mut self, slot: &Val, v: Val, span: Span) -> Val {
        if self.s.types.is_resource(slot.ty) {
            if v.is_error() {
                return slot.clone();
            }
            let v = if v.ty != slot.ty {
                self.convert(v, slot.ty, span)
            } else {
                v
            };
            return match v.kind {
                ValKind::Res(_) | ValKind::Void => v,
                _ => self.res_alias(v),
            };
        }
        if matches!(slot.kind, ValKind::Agg(_)) {
            return self.agg_copy(slot, v, span);
        }
        if let Some(p) = slot.as_place().cloned() {
            let c = self.convert(v, slot.ty, span);
            if let Some(h) = self.value(&c) {
                self.write_place(&p, slot.ty, h);
            }
        }
        slot.clone()
    }

    /// Fills a fresh aggregate from an initialiser list: each leaf of the
    /// list goes to the next resource slot or component of a data member.
    pub fn agg_init_list(&mut self, agg: Val, items: &'a [ast::Initializer], span: Span) -> Val {
        let mut leaves = VecDeque::new();
        self.agg_leaves(items, &mut leaves);
        let out = self.agg_fill(agg, &mut leaves, span);
        if !leaves.is_empty() {
            return self.error(
                codes::BAD_INITIALIZER,
                "too many initializer components",
                span,
                "left over",
            );
        }
        out
    }

    fn agg_leaves(&mut self, items: &'a [ast::Initializer], out: &mut VecDeque<Val>) {
        for it in items {
            match it {
                ast::Initializer::Expr(e) => match &e.kind {
                    ast::ExprKind::InitList(inner) => self.agg_leaves(inner, out),
                    _ => {
                        let v = self.expr(e);
                        out.push_back(v);
                    }
                },
                ast::Initializer::List(inner, _) => self.agg_leaves(inner, out),
            }
        }
    }

    fn agg_fill(&mut self, agg: Val, q: &mut VecDeque<Val>, span: Span) -> Val {
        let ValKind::Agg(members) = agg.kind else {
            return agg;
        };
        let mut out = Vec::with_capacity(members.len());
        for m in members {
            if matches!(m.kind, ValKind::Agg(_)) {
                // A whole aggregate of the same type, or its parts.
                if q.front()
                    .is_some_and(|f| f.ty == m.ty && matches!(f.kind, ValKind::Agg(_)))
                {
                    let src = q.pop_front().unwrap_or_else(Val::error);
                    out.push(self.agg_copy(&m, src, span));
                } else {
                    out.push(self.agg_fill(m, q, span));
                }
                continue;
            }
            if self.s.types.is_resource(m.ty) {
                let v = q.pop_front().unwrap_or_else(Val::error);
                out.push(self.agg_store_member(&m, v, span));
                continue;
            }
            // A data member from as many components as it has.
            if let Some(p) = m.as_place().cloned() {
                if let Some(h) = self.build_from(m.ty, q, span) {
                    self.write_place(&p, m.ty, h);
                } else {
                    self.s.error(
                        codes::BAD_INITIALIZER,
                        "too few initializer components",
                        span,
                        "ran out of components",
                    );
                }
            }
            out.push(m);
        }
        Val {
            ty: agg.ty,
            kind: ValKind::Agg(out),
            read_only: agg.read_only,
        }
    }

    /// `x.a.b = v` where `x` is an aggregate local and the member holds a
    /// resource (or an aggregate): rebinds it. `None` when `l` is not
    /// such a member.
    pub fn agg_assign(&mut self, l: &'a ast::Expr, r: &'a ast::Expr, span: Span) -> Option<Val> {
        // The member chain, innermost last.
        let mut names: Vec<ast::Ident> = Vec::new();
        let mut cur = l;
        let root = loop {
            match &cur.kind {
                ast::ExprKind::Member(obj, id) => {
                    names.push(*id);
                    cur = obj;
                }
                ast::ExprKind::Name(p) if p.is_single() => break p.last().name,
                _ => return None,
            }
        };
        names.reverse();
        let Some(LocalSym::Var(lv)) = self.fb.locals.lookup(root).cloned() else {
            return None;
        };
        if !matches!(lv.val.kind, ValKind::Agg(_)) {
            return None;
        }
        // Find the slot; only resource or aggregate slots are rebound here.
        let target_ty = self.agg_slot_type(&lv.val, &names)?;
        if !self.s.types.is_resource(target_ty) && !self.s.types.contains_resource(target_ty) {
            return None;
        }
        let v = self.expr(r);
        let new_root = self.agg_replace(&lv.val, &names, v, span)?;
        let mut nl: LocalVar = lv.clone();
        nl.val = new_root;
        self.fb.locals.rebind(root, LocalSym::Var(nl));
        Some(Val::void())
    }

    /// The index of field `name` (searching bases) in an aggregate's struct:
    /// the path of member indices.
    fn agg_field_path(&self, ty: TyId, name: Symbol) -> Option<Vec<u32>> {
        let sid = self.s.types.as_struct(ty)?;
        let info = self.s.types.struct_info(sid);
        if let Some(f) = info.fields.iter().find(|f| f.name == name) {
            return Some(vec![f.member]);
        }
        let base = info.base?;
        let mut p = self.agg_field_path(base, name)?;
        p.insert(0, 0);
        Some(p)
    }

    fn agg_slot_type(&self, root: &Val, names: &[ast::Ident]) -> Option<TyId> {
        let mut v = root;
        for n in names {
            let path = self.agg_field_path(v.ty, n.name)?;
            for i in path {
                let ValKind::Agg(m) = &v.kind else {
                    return None;
                };
                v = m.get(i as usize)?;
            }
        }
        Some(v.ty)
    }

    fn agg_replace(&mut self, v: &Val, names: &[ast::Ident], new: Val, span: Span) -> Option<Val> {
        let Some((first, rest)) = names.split_first() else {
            return Some(self.agg_store_member(v, new, span));
        };
        let path = self.agg_field_path(v.ty, first.name)?;
        self.agg_replace_path(v, &path, rest, new, span)
    }

    fn agg_replace_path(
        &mut self,
        v: &Val,
        path: &[u32],
        names: &[ast::Ident],
        new: Val,
        span: Span,
    ) -> Option<Val> {
        let Some((&i, more)) = path.split_first() else {
            return self.agg_replace(v, names, new, span);
        };
        let ValKind::Agg(members) = &v.kind else {
            return None;
        };
        let mut members = members.clone();
        let child = members.get(i as usize)?.clone();
        members[i as usize] = self.agg_replace_path(&child, more, names, new, span)?;
        Some(Val {
            ty: v.ty,
            kind: ValKind::Agg(members),
            read_only: v.read_only,
        })
    }
}

impl Sema<'_> {
    /// The member types of an aggregate of type `ty`: a struct's base and
    /// fields, or an array's elements.
    pub fn agg_parts(&self, ty: TyId) -> Vec<TyId> {
        match *self.types.get(ty) {
            Ty::Array(e, Some(n)) => vec![e; n as usize],
            Ty::Struct(sid) => {
                let info = self.types.struct_info(sid);
                let mut slots: Vec<TyId> = info.base.into_iter().collect();
                slots.extend(self.types.storage_fields(sid).map(|f| f.ty));
                slots
            }
            _ => Vec::new(),
        }
    }

    /// The leaves of an aggregate of struct type `ty` in the order
    /// [`FnCtx::make_agg`] builds them (base first, depth first): each
    /// resource or data member with whether it is a resource.
    pub fn agg_slots(&self, ty: TyId) -> Vec<(TyId, bool)> {
        let mut out = Vec::new();
        self.agg_slots_into(ty, &mut out);
        out
    }

    fn agg_slots_into(&self, ty: TyId, out: &mut Vec<(TyId, bool)>) {
        for t in self.agg_parts(ty) {
            if self.types.is_resource(t) {
                out.push((t, true));
            } else if self.types.contains_resource(t) {
                self.agg_slots_into(t, out);
            } else {
                out.push((t, false));
            }
        }
    }
}

impl<'s, 'a> FnCtx<'s, 'a> {
    /// The leaves of an aggregate value, in [`Sema::agg_slots`] order.
    pub fn agg_leaves_of(&self, v: &Val, out: &mut Vec<Val>) {
        match &v.kind {
            ValKind::Agg(members) => {
                for m in members {
                    if matches!(m.kind, ValKind::Agg(_)) {
                        self.agg_leaves_of(m, out);
                    } else {
                        out.push(m.clone());
                    }
                }
            }
            _ => out.push(v.clone()),
        }
    }

    /// Rebuilds an aggregate of type `ty` from its leaves, taking them in
    /// order from `leaves`.
    pub fn agg_from_leaves(&self, ty: TyId, leaves: &mut std::vec::IntoIter<Val>) -> Val {
        let slots = self.s.agg_parts(ty);
        if slots.is_empty() {
            return Val::error();
        }
        let members = slots
            .into_iter()
            .map(|t| {
                if !self.s.types.is_resource(t) && self.s.types.contains_resource(t) {
                    self.agg_from_leaves(t, leaves)
                } else {
                    leaves.next().unwrap_or_else(Val::error)
                }
            })
            .collect();
        Val {
            ty,
            kind: ValKind::Agg(members),
            read_only: None,
        }
    }
}
