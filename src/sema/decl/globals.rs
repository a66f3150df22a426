//! Global variables: storage classes at global scope (static, groupshared,
//! uniforms gathered into `$Globals`), resources and their blocks, push
//! constants, cbuffers, counters, register and binding attributes.

use crate::diag::{Diagnostic, codes};
use crate::front::ast;
use crate::front::attributes::Attr;
use crate::intern::Symbol;
use crate::ir;
use crate::ir::Stage;
use crate::sema::body::FnCtx;
use crate::sema::decl::storage::{DeclSite, Storage};
use crate::sema::decl::{find_attr, parse_register_slot, scratch_builder};
use crate::sema::types::layout::{BufferKind, Rule};
use crate::sema::types::resolve::Env;
use crate::sema::types::scope::{GlobalId, ScopeId, Sym, TypeEntry};
use crate::sema::types::{self, ResKind, Sc, Ty, TyId};
use crate::sema::{GlobalInfo, GlobalKind, GlobalsMember, ReadOnly, ResPathId, Sema};
use crate::span::Span;

impl<'a> Sema<'a> {
    // --- global variables -----------------------------------------------

    pub(in crate::sema) fn declare_global_vars(&mut self, vd: &'a ast::VarDecl, scope: ScopeId) {
        let st = self.check_modifiers(&vd.modifiers, DeclSite::Global);
        self.require_spirv_features(&vd.attrs, &Env::at(scope));
        let base = self.resolve_type(&vd.ty, &Env::at(scope));
        for d in &vd.declarators {
            if d.qualifier.is_some() {
                self.define_static_member(d, base, scope);
                continue;
            }
            self.declare_one_global(vd, d, &st, base, scope);
            self.decorate_global(&vd.attrs, d.name, scope);
        }
    }

    /// `float4 S::M = init;`: the out-of-line definition of a static
    /// member declared in struct `S`.
    pub(in crate::sema) fn define_static_member(
        &mut self,
        d: &'a ast::Declarator,
        base: TypeEntry,
        scope: ScopeId,
    ) {
        let Some(q) = &d.qualifier else { return };
        let Some(s) = self.resolve_path_prefix(q, q.segments.len(), &Env::at(scope)) else {
            return;
        };
        let Some(Sym::Global(g)) = self.scopes.lookup_in(s, d.name.name).cloned() else {
            self.error(
                codes::UNKNOWN_NAME,
                format!("no static member `{}` to define", d.name.name),
                d.name.span,
                "not declared in that struct",
            );
            return;
        };
        let ty = self.array_type(base.ty, &d.array, &Env::at(s), None);
        let Some(init) = &d.init else { return };
        self.decls.undefined_statics.remove(&g);
        if let GlobalKind::Var { gv, .. } = self.decls.globals[g].kind {
            let (_, c) = self.lower_global_init(ty, init, s);
            match c {
                Some(c) => self.module.globals[gv].init = Some(c),
                None => self.entry.static_inits.push((g, init, s)),
            }
            if self.types.is_scalar(ty)
                && let ast::Initializer::Expr(e) = init
                && let Ok(k) = self.const_eval(e, &Env::at(s))
            {
                let sc = self.types.component(ty).unwrap_or(Sc::I32);
                self.decls.globals[g].konst = Some(k.convert(sc));
            }
        }
    }

    pub(in crate::sema) fn new_global(
        &mut self,
        info: GlobalInfo,
        scope: ScopeId,
        name: ast::Ident,
    ) -> GlobalId {
        let id = self.decls.globals.next_id();
        if let GlobalKind::Var { gv, .. } = info.kind {
            self.module.decl_spans.set_global(gv, name.span);
        }
        self.decls.globals.push(info);
        self.declare_name(scope, name, Sym::Global(id));
        id
    }

    /// Records a global that has no name of its own (a member of a
    /// flattened struct of resources).
    pub(in crate::sema) fn hidden_global(&mut self, info: GlobalInfo) -> GlobalId {
        let id = self.decls.globals.next_id();
        if let GlobalKind::Var { gv, .. } = info.kind {
            self.module.decl_spans.set_global(gv, info.span);
        }
        self.decls.globals.push(info);
        id
    }

    /// Declares one global variable: its type, then the storage class that
    /// its type, attributes and modifiers give it.
    pub(in crate::sema) fn declare_one_global(
        &mut self,
        vd: &'a ast::VarDecl,
        d: &'a ast::Declarator,
        st: &Storage,
        base: TypeEntry,
        scope: ScopeId,
    ) {
        let env = Env::at(scope);
        let ty = self.array_type(base.ty, &d.array, &env, None);
        let info = GlobalInfo::new(d.name.name, ty, d.name.span);
        if ty == types::ERROR {
            self.new_global(info, scope, d.name);
            return;
        }
        self.check_major(st, ty);
        if find_attr(&vd.attrs, Attr::VkExtStorageClass).is_some() {
            self.declare_ext_storage_global(vd, d, st, scope, info);
            return;
        }
        let row_major = st
            .major
            .map(|(m, _)| m)
            .or(base.major)
            .unwrap_or(self.decls.default_row_major());
        if self.types.is_resource(ty) || matches!(self.types.get(ty), Ty::Resource(..)) {
            self.declare_resource_variable(vd, d, st, row_major, scope, info);
            return;
        }
        if self.types.contains_resource(ty) {
            self.declare_resource_struct(d, vd, st, scope, info);
            return;
        }
        if let Some(a) = find_attr(&vd.attrs, Attr::VkConstantId) {
            if let Some(stat) = st.is_static {
                // The pipeline sets a specialization constant: it must be
                // visible outside the module.
                self.push(
                    Diagnostic::error(
                        codes::BAD_ATTRIBUTE,
                        format!(
                            "specialization constant `{}` cannot be `static`",
                            d.name.name
                        ),
                    )
                    .label(d.name.span, "declared `static`")
                    .label(stat, "`static` hides it from the pipeline")
                    .label(a.span, "made a specialization constant here"),
                );
                self.new_global(info, scope, d.name);
                return;
            }
            self.declare_spec_constant(d, a, ty, scope, info);
            return;
        }
        // `string` variables only name text for `printf`; DXC requires an
        // initializer.
        if ty == types::STRING {
            if d.init.is_none() {
                self.error(
                    codes::CONST_UNINITIALIZED,
                    format!("string variable `{}` must be initialized", d.name.name),
                    d.name.span,
                    "no initializer",
                );
            }
            let mut info = info;
            if let Some(ast::Initializer::Expr(e)) = &d.init
                && let ast::ExprKind::Literal(ast::Literal::String(text)) = &e.kind
            {
                info.text = Some(text.to_string());
            }
            self.new_global(info, scope, d.name);
            return;
        }
        // [[vk::push_constant]] on a struct variable.
        if find_attr(&vd.attrs, Attr::VkPushConstant).is_some() {
            self.declare_push_constant(vd, d, ty, scope, info);
            return;
        }
        if let Some((a, space)) = ext_builtin_attr(&vd.attrs) {
            if self.check_ext_builtin(vd, st, a, space) {
                self.declare_ext_builtin(d, a, space, scope, info);
            } else {
                self.new_global(info, scope, d.name);
            }
        } else if let Some(gs) = st.groupshared {
            self.declare_groupshared(d, gs, st.precise, scope, info);
        } else if st.is_static.is_some() {
            self.declare_static(d, st, scope, info);
        } else {
            self.declare_uniform(vd, d, row_major, scope, info);
        }
    }

    /// A global of resource type: a resource of its own, or (`static`)
    /// another name for one.
    fn declare_resource_variable(
        &mut self,
        vd: &'a ast::VarDecl,
        d: &'a ast::Declarator,
        st: &Storage,
        row_major: bool,
        scope: ScopeId,
        mut info: GlobalInfo,
    ) {
        let ty = info.ty;
        if let Some(gs) = st.groupshared {
            self.unsupported("`groupshared` resource variables", gs);
            self.new_global(info, scope, d.name);
            return;
        }
        if st.is_static.is_none() {
            self.declare_resource_global(vd, d, ty, row_major, scope, info);
            return;
        }
        // An input attachment is a descriptor of the render pass: nothing
        // else can stand for it.
        let mut elem = ty;
        while let Ty::Array(e, _) = *self.types.get(elem) {
            elem = e;
        }
        if let (Some(at), Ty::Resource(ResKind::SubpassInput { .. }, _)) =
            (st.is_static, self.types.get(elem))
        {
            self.error(
                codes::MODIFIER_NOT_ALLOWED,
                "a subpass input cannot be `static`",
                at,
                "a subpass input is a descriptor of the render pass",
            );
            self.new_global(info, scope, d.name);
            return;
        }
        // A static resource is another name for a global resource,
        // given by its initializer or a later assignment.
        let alias = match &d.init {
            Some(ast::Initializer::Expr(e)) => self.static_resource_alias(e, ty, scope),
            _ => None,
        };
        info.kind = GlobalKind::ResAlias(alias);
        info.read_only = self.resource_read_only(ty, d.name.span);
        self.new_global(info, scope, d.name);
    }

    /// The resource that a static resource's initializer names, lowered
    /// in a scratch function; it must be known at compile time.
    fn static_resource_alias(
        &mut self,
        e: &'a ast::Expr,
        ty: TyId,
        scope: ScopeId,
    ) -> Option<ResPathId> {
        let mut cx = FnCtx::new(self, scratch_builder(scope));
        let v = cx.expr(e);
        let v = if v.ty != ty && !v.is_error() {
            cx.convert(v, ty, e.span)
        } else {
            v
        };
        if v.is_error() {
            return None;
        }
        match cx.res_path(&v) {
            Some(p) => Some(cx.s.res.intern_path(p)),
            None => {
                cx.unsupported(
                    "a static resource initialized with a resource not known at compile time",
                    e.span,
                );
                None
            }
        }
    }

    /// The rules of `vk::ext_builtin_input`/`_output` (DXC's): not both,
    /// on a `static` variable, `const` for an input. False (with an error)
    /// when one is broken.
    fn check_ext_builtin(
        &mut self,
        vd: &'a ast::VarDecl,
        st: &Storage,
        a: &'a ast::Attribute,
        space: ir::AddressSpace,
    ) -> bool {
        let both = find_attr(&vd.attrs, Attr::VkExtBuiltinOutput).filter(|o| o.span != a.span);
        let problem = if let Some(o) = both {
            Some((
                o.span,
                "`vk::ext_builtin_input` cannot be used together with `vk::ext_builtin_output`",
                "a built-in is an input or an output",
            ))
        } else if st.is_static.is_none() {
            Some((
                a.span,
                "`vk::ext_builtin_input` and `vk::ext_builtin_output` apply to `static` variables only",
                "add `static` to the variable",
            ))
        } else if space == ir::AddressSpace::Input && st.is_const.is_none() {
            Some((
                a.span,
                "`vk::ext_builtin_input` applies to `const` variables only",
                "an input is read-only: declare it `static const`",
            ))
        } else {
            None
        };
        let Some((span, msg, label)) = problem else {
            return true;
        };
        self.error(codes::BAD_ATTRIBUTE, msg, span, label);
        false
    }

    /// `[[vk::ext_builtin_input(N)]] static const T name;` (or
    /// `ext_builtin_output`, without `const`): the Input (Output) variable
    /// decorated `BuiltIn N`, shared with the built-ins hlslc makes itself
    /// (inline SPIR-V, SPIR-V.rst).
    fn declare_ext_builtin(
        &mut self,
        d: &'a ast::Declarator,
        a: &'a ast::Attribute,
        space: ir::AddressSpace,
        scope: ScopeId,
        mut info: GlobalInfo,
    ) {
        let env = Env::at(scope);
        let n = match a.args.as_slice() {
            [e] => self.const_int(e, &env).and_then(|v| u32::try_from(v).ok()),
            _ => None,
        };
        let Some(b) = n.and_then(spirv::BuiltIn::from_u32) else {
            self.error(
                codes::BAD_ATTRIBUTE,
                "this attribute takes the number of a SPIR-V `BuiltIn`",
                a.span,
                "expected e.g. `[[vk::ext_builtin_input(23)]]` for HelperInvocation",
            );
            self.new_global(info, scope, d.name);
            return;
        };
        let other = self.module.globals.iter().find(|(_, g)| {
            g.io == Some(ir::Binding::BuiltIn(b))
                && matches!(g.space, ir::AddressSpace::Input | ir::AddressSpace::Output)
                && g.space != space
        });
        if let Some((_, g)) = other {
            let was = if g.space == ir::AddressSpace::Input {
                "an input"
            } else {
                "an output"
            };
            let now = if space == ir::AddressSpace::Input {
                "an input"
            } else {
                "an output"
            };
            let msg = format!("built-in {} ({b:?}) is declared again as {now}", b as u32);
            let label = format!(
                "`{}` already declares it as {was}",
                g.name.as_deref().unwrap_or("a variable")
            );
            self.push(
                Diagnostic::error(codes::BAD_ATTRIBUTE, msg)
                    .label(a.span, "declared again here")
                    .note(label),
            );
            self.new_global(info, scope, d.name);
            return;
        }
        if !self.ext_builtin_fits(b, space, info.ty, d.name.span) {
            self.new_global(info, scope, d.name);
            return;
        }
        let name = d.name.name.as_str();
        let gv = if space == ir::AddressSpace::Input {
            info.read_only = Some(ReadOnly::Const(a.span));
            self.builtin_input(b, name, info.ty)
        } else {
            let (gv, _) = self.add_variable(d.name.name, space, info.ty, false);
            self.module.globals[gv].io = Some(ir::Binding::BuiltIn(b));
            gv
        };
        let mem = self.module.globals[gv].ty;
        info.kind = GlobalKind::Var { gv, mem };
        self.new_global(info, scope, d.name);
    }

    /// A module-scope variable of the IR in `space`, for a global of HLSL
    /// type `ty`: the variable and its IR type.
    pub(super) fn add_variable(
        &mut self,
        name: Symbol,
        space: ir::AddressSpace,
        ty: TyId,
        precise: bool,
    ) -> (ir::Handle<ir::GlobalVariable>, ir::Handle<ir::Type>) {
        let irt = self.ir_ty(ty);
        let gv = ir::build::add_global(&mut self.module, name.as_str(), space, irt);
        self.module.globals[gv].precise = precise;
        (gv, irt)
    }

    /// `groupshared T name;`: a Workgroup variable, in the stages that
    /// have workgroups, without an initializer, of a known size.
    pub(super) fn declare_groupshared(
        &mut self,
        d: &'a ast::Declarator,
        gs: Span,
        precise: bool,
        scope: ScopeId,
        mut info: GlobalInfo,
    ) {
        let (ty, span) = (info.ty, info.span);
        if !matches!(
            self.stage,
            Stage::Compute | Stage::Mesh | Stage::Amplification | Stage::Library
        ) {
            self.push(
                Diagnostic::error(
                    codes::GROUPSHARED_STAGE,
                    format!(
                        "groupshared variable `{}` in {} shader",
                        d.name.name,
                        self.stage.with_article()
                    ),
                )
                .label(
                    gs,
                    "groupshared memory exists only in compute, mesh and amplification shaders",
                )
                .label(span, "declared here"),
            );
        }
        if let Some(init) = &d.init {
            self.push(
                Diagnostic::warning(
                    codes::GROUPSHARED_INIT,
                    format!(
                        "the initializer of groupshared variable `{}` is ignored",
                        d.name.name
                    ),
                )
                .label(init.span(), "ignored")
                .label(gs, "because the variable is groupshared")
                .note("groupshared memory is uninitialized; write it from the threads, then sync with a barrier"),
            );
        }
        if matches!(self.types.get(ty), Ty::Array(_, None)) {
            self.error(
                codes::UNSIZED_ARRAY,
                "groupshared arrays need a size",
                span,
                "unsized array",
            );
            self.new_global(info, scope, d.name);
            return;
        }
        let space = self.groupshared_space(d.name.name);
        let (gv, irt) = self.add_variable(d.name.name, space, ty, precise);
        self.decls.groupshared.push((d.name.name, ty, span));
        info.kind = GlobalKind::Var { gv, mem: irt };
        self.new_global(info, scope, d.name);
    }

    /// `static T name = init;`: a Private variable, initialized by a
    /// module constant or else at the start of the entry point.
    pub(super) fn declare_static(
        &mut self,
        d: &'a ast::Declarator,
        st: &Storage,
        scope: ScopeId,
        mut info: GlobalInfo,
    ) {
        let mut init_const = None;
        if let Some(init) = &d.init {
            let (ty, c) = self.lower_global_init(info.ty, init, scope);
            info.ty = ty;
            init_const = c;
            if st.is_const.is_some()
                && let ast::Initializer::Expr(e) = init
                && self.types.is_scalar(ty)
            {
                let sc = self.types.component(ty).unwrap_or(Sc::I32);
                if let Ok(k) = self.const_eval(e, &Env::at(scope)) {
                    info.konst = Some(k.convert(sc));
                }
            }
        } else if matches!(self.types.get(info.ty), Ty::Array(_, None)) {
            self.error(
                codes::UNSIZED_ARRAY,
                "an array without size needs an initializer",
                info.span,
                "unsized array",
            );
            self.new_global(info, scope, d.name);
            return;
        }
        let (gv, irt) =
            self.add_variable(d.name.name, ir::AddressSpace::Private, info.ty, st.precise);
        self.module.globals[gv].init = init_const;
        info.kind = GlobalKind::Var { gv, mem: irt };
        if let Some(c) = st.is_const {
            info.read_only = Some(ReadOnly::Const(c));
        }
        let id = self.new_global(info, scope, d.name);
        if let (Some(init), None) = (&d.init, init_const) {
            self.entry.static_inits.push((id, init, scope));
        }
    }

    /// Whether `ty` is or holds a `vk::SpirvOpaqueType` (or an opaque
    /// `vk::ext_type`), which no buffer can hold.
    fn holds_opaque_spirv(&self, ty: TyId) -> bool {
        match self.types.get(ty) {
            Ty::Spirv(t) => t.layout.is_none(),
            Ty::Array(e, _) => self.holds_opaque_spirv(*e),
            _ => self.types.as_struct(ty).is_some_and(|sid| {
                self.types
                    .struct_info(sid)
                    .fields
                    .iter()
                    .any(|f| self.holds_opaque_spirv(f.ty))
            }),
        }
    }

    /// A uniform: a member of `$Globals`, placed by `register(cN)` or by
    /// its layout; it has no initializer, packoffset or binding of its own.
    fn declare_uniform(
        &mut self,
        vd: &'a ast::VarDecl,
        d: &'a ast::Declarator,
        row_major: bool,
        scope: ScopeId,
        mut info: GlobalInfo,
    ) {
        let (ty, span) = (info.ty, info.span);
        if self.holds_opaque_spirv(ty) {
            let shown = self.ty_name(ty);
            self.push(
                Diagnostic::error(
                    codes::TYPE_MISMATCH,
                    format!("`{}` of type `{shown}` cannot be a uniform", d.name.name),
                )
                .label(span, "an opaque SPIR-V type has no memory layout for `$Globals`")
                .note("declare it `static`, as a local, or with `[[vk::ext_storage_class(…)]]`"),
            );
            self.new_global(info, scope, d.name);
            return;
        }
        if let Some(init) = &d.init {
            self.warn(
                codes::LOSSY_CONVERSION,
                format!("the initializer of uniform `{}` is ignored", d.name.name),
                init.span(),
                "uniforms are set by the application",
            );
        }
        if matches!(self.types.get(ty), Ty::Array(_, None)) {
            self.error(
                codes::UNSIZED_ARRAY,
                "a uniform array needs a size",
                span,
                "unsized array",
            );
            self.new_global(info, scope, d.name);
            return;
        }
        let mut offset = None;
        for r in &d.annotations.registers {
            if let Some(slot) = r.slot
                && let Some(('c', n)) = parse_register_slot(slot.name.as_str())
            {
                offset = Some(n * 16);
            }
        }
        if let Some(p) = &d.annotations.packoffset {
            self.error(
                codes::BAD_REGISTER,
                "packoffset is only allowed on cbuffer members",
                p.span,
                "not in a cbuffer",
            );
        }
        // A member of `$Globals` has no binding of its own.
        if let Some(b) = find_attr(&vd.attrs, Attr::VkBinding) {
            self.push(
                Diagnostic::error(
                    codes::BAD_ATTRIBUTE,
                    format!(
                        "`{}` is placed in $Globals, so it cannot have `vk::binding`",
                        d.name.name
                    ),
                )
                .label(b.span, "a binding")
                .label(span, "a uniform global")
                .note("`-fvk-bind-globals N M` sets the binding of $Globals"),
            );
        }
        self.check_int_matrices(ty, row_major, span);
        self.res.globals_members.push(GlobalsMember {
            global: self.decls.globals.next_id(),
            name: d.name.name,
            ty,
            row_major,
            offset,
            span,
            decorations: Vec::new(),
        });
        if self.res.globals_block_order.is_none() {
            self.res.globals_block_order = Some(self.res.decls.len());
        }
        info.kind = GlobalKind::PendingGlobal;
        info.read_only = Some(ReadOnly::Uniform(span));
        self.new_global(info, scope, d.name);
    }

    /// Lowers a static global's initialiser in a scratch context: gives the
    /// (sized) type, and the module constant when the value is constant.
    /// `[[vk::constant_id(N)]] const T name = default;` (SPIR-V.rst,
    /// "Specialization constants"): a scalar whose value the pipeline may
    /// set; the initializer, a constant, is its default.
    fn declare_spec_constant(
        &mut self,
        d: &'a ast::Declarator,
        a: &'a ast::Attribute,
        ty: TyId,
        scope: ScopeId,
        mut info: GlobalInfo,
    ) {
        let env = Env::at(scope);
        let id = match a.args.as_slice() {
            [e] => self.const_int(e, &env).and_then(|v| u32::try_from(v).ok()),
            _ => None,
        };
        let Some(id) = id else {
            self.error(
                codes::BAD_ATTRIBUTE,
                "`vk::constant_id` takes one non-negative integer constant",
                a.span,
                "expected e.g. `[[vk::constant_id(0)]]`",
            );
            self.new_global(info, scope, d.name);
            return;
        };
        // DXC takes bool and 16- or 32-bit scalars.
        let sc = match self.types.get(ty) {
            Ty::Scalar(s) if !s.is_literal() && s.width() <= 4 => Some(*s),
            _ => None,
        };
        let Some(sc) = sc else {
            self.error(
                codes::BAD_ATTRIBUTE,
                format!(
                    "a specialization constant must be a bool or a 16- or 32-bit scalar, not `{}`",
                    self.ty_name(ty)
                ),
                d.name.span,
                "not a specialization constant type",
            );
            self.new_global(info, scope, d.name);
            return;
        };
        let init = match &d.init {
            Some(ast::Initializer::Expr(e)) => Some(e),
            _ => None,
        };
        let Some(init) = init else {
            self.error(
                codes::CONST_UNINITIALIZED,
                format!(
                    "specialization constant `{}` needs a default value",
                    d.name.name
                ),
                d.name.span,
                "no initializer",
            );
            self.new_global(info, scope, d.name);
            return;
        };
        let k = match self.const_eval(init, &env) {
            Ok(k) => k.convert(sc),
            Err(_) => {
                self.error(
                    codes::NOT_CONSTANT,
                    "the default value of a specialization constant must be a constant",
                    init.span,
                    "not a constant",
                );
                self.new_global(info, scope, d.name);
                return;
            }
        };
        let it = self.ir_ty(ty);
        // Its own constant expression: it must not be shared with equal
        // ordinary constants.
        let c = self.module.add_const_expression(
            ir::Expression::Literal(crate::sema::body::place::konst_literal(k)),
            it,
        );
        self.module.spec_constants.push(ir::SpecConstant {
            id,
            value: c,
            name: Some(d.name.name.to_string()),
        });
        info.kind = GlobalKind::SpecConstant(c);
        info.read_only = Some(ReadOnly::Const(d.name.span));
        self.new_global(info, scope, d.name);
    }

    pub(in crate::sema) fn lower_global_init(
        &mut self,
        ty: TyId,
        init: &'a ast::Initializer,
        scope: ScopeId,
    ) -> (TyId, Option<ir::Handle<ir::Expression>>) {
        if let Some((ty, c)) = self.literal_array_init(ty, init) {
            return (ty, Some(c));
        }
        self.lower_global_init_general(ty, init, scope)
    }

    /// [`Sema::lower_global_init`] by lowering the initializer in a scratch
    /// function and lifting its value into module constants.
    pub(in crate::sema) fn lower_global_init_general(
        &mut self,
        ty: TyId,
        init: &'a ast::Initializer,
        scope: ScopeId,
    ) -> (TyId, Option<ir::Handle<ir::Expression>>) {
        let mut cx = FnCtx::new(self, scratch_builder(scope));
        let (t2, v) = cx.lower_initializer(ty, init);
        let c = match cx.value(&v) {
            Some(h) => cx.lift_const(h),
            None => None,
        };
        (t2, c)
    }

    pub(in crate::sema) fn declare_push_constant(
        &mut self,
        vd: &'a ast::VarDecl,
        d: &'a ast::Declarator,
        ty: TyId,
        scope: ScopeId,
        info: GlobalInfo,
    ) {
        // Push constants have no descriptor: no binding to give.
        let pc = find_attr(&vd.attrs, Attr::VkPushConstant).map_or(d.span, |a| a.span);
        self.refuse_binding(
            &vd.attrs,
            "vk::push_constant",
            pc,
            "for a push constant block",
        );
        // Vulkan: one push constant block per entry point
        // (VUID-StandaloneSpirv-OpVariable-06673).
        if let Some(prev) = self.res.push_constant_span {
            self.push(
                Diagnostic::error(
                    codes::RESOURCE_MISUSE,
                    "only one push constant block is allowed",
                )
                .label(d.name.span, "a second push constant block")
                .label(prev, "the first one"),
            );
            self.new_global(info, scope, d.name);
            return;
        }
        self.res.push_constant_span = Some(d.name.span);
        let rule = Rule::for_buffer(self.opts.layout, BufferKind::Storage);
        let (elem, name) = match self.types.get(ty) {
            Ty::Resource(ResKind::ConstantBuffer, Some(t)) => {
                (*t, format!("type.PushConstant.{}", self.ty_name(*t)))
            }
            Ty::Struct(_) => (ty, format!("type.PushConstant.{}", self.ty_name(ty))),
            _ => {
                self.error(
                    codes::RESOURCE_MISUSE,
                    "a push constant block must be a struct",
                    d.span,
                    "not a struct",
                );
                self.new_global(info, scope, d.name);
                return;
            }
        };
        self.declare_block_var(
            d,
            scope,
            info,
            elem,
            name,
            rule,
            ir::AddressSpace::PushConstant,
        );
    }
}

/// `vk::ext_builtin_input`/`vk::ext_builtin_output` and the storage each
/// gives.
fn ext_builtin_attr(attrs: &[ast::Attribute]) -> Option<(&ast::Attribute, ir::AddressSpace)> {
    let input = find_attr(attrs, Attr::VkExtBuiltinInput).map(|a| (a, ir::AddressSpace::Input));
    input.or_else(|| {
        find_attr(attrs, Attr::VkExtBuiltinOutput).map(|a| (a, ir::AddressSpace::Output))
    })
}
