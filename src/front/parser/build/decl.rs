//! Types and declarations: items, struct members, cbuffers, typedefs,
//! parameters, aliases.

use super::*;
use crate::diag::{Diagnostic, codes};
use crate::front::ast::{self, StmtKind};
use crate::intern::Symbol;
use crate::span::Span;

impl ParseCtx<'_> {
    // ---- types ------------------------------------------------------------

    pub fn named_type(
        &self,
        path: ast::Path,
        args: Option<Vec<ast::TemplateArg>>,
        span: Span,
    ) -> ast::TypeSpec {
        ast::TypeSpec {
            kind: ast::TypeSpecKind::Named { path, args },
            modifiers: ast::Modifiers::default(),
            span,
        }
    }

    /// `unsigned`, `unsigned int`, `unsigned int64_t`, `signed int`: written
    /// as the unsigned (or signed) type's own name.
    pub fn signed_type(
        &self,
        unsigned: bool,
        base: Option<ast::Ident>,
        span: Span,
    ) -> ast::TypeSpec {
        let name = match base {
            None => if unsigned { "uint" } else { "int" }.to_string(),
            Some(b) => {
                let s = b.name.as_str();
                let is_int = s.contains("int");
                let is_unsigned = s.starts_with("uint") || s.starts_with("min16uint");
                match (unsigned, is_int && !is_unsigned) {
                    // int → uint, min16int → min16uint, int64_t → uint64_t
                    (true, true) => s.replacen("int", "uint", 1),
                    (false, true) => s.to_string(),
                    _ => {
                        self.error(
                            codes::SYNTAX,
                            b.span,
                            &format!(
                                "`{}` cannot be used with `{s}`",
                                if unsigned { "unsigned" } else { "signed" }
                            ),
                            "not a signed integer type",
                        );
                        s.to_string()
                    }
                }
            }
        };
        let id = ast::Ident {
            name: Symbol::intern(&name),
            span,
        };
        self.named_type(ast::Path::single(id), None, span)
    }

    pub fn struct_type(&self, s: ast::StructDecl) -> ast::TypeSpec {
        let span = s.span;
        ast::TypeSpec {
            kind: ast::TypeSpecKind::Struct(Box::new(s)),
            modifiers: ast::Modifiers::default(),
            span,
        }
    }

    /// `struct S` used as a type (`typedef struct S T;`, `struct S s;`).
    pub fn elaborated_type(&self, name: ast::Ident, span: Span) -> ast::TypeSpec {
        self.named_type(ast::Path::single(name), None, span)
    }

    /// A type standing alone with modifiers and array dimensions:
    /// `row_major float3x3`, `float2[3]`.
    pub fn standalone_type(
        &self,
        modifiers: Option<ast::Modifiers>,
        mut ty: ast::TypeSpec,
        dims: Vec<Option<ast::Expr>>,
        span: Span,
    ) -> ast::TypeSpec {
        if let Some(m) = modifiers {
            ty.modifiers = m;
        }
        if dims.is_empty() {
            return ty;
        }
        ast::TypeSpec {
            kind: ast::TypeSpecKind::Array {
                element: Box::new(ty),
                dims,
            },
            modifiers: ast::Modifiers::default(),
            span,
        }
    }

    /// Splits a type defined in place with a name (`struct S {…} s;`) into
    /// the struct declaration and a reference to it.
    fn split_struct(&self, ty: ast::TypeSpec) -> (Option<ast::StructDecl>, ast::TypeSpec) {
        let ast::TypeSpec {
            kind,
            modifiers,
            span,
        } = ty;
        match kind {
            ast::TypeSpecKind::Struct(s) if s.name.is_some() => {
                let name = s.name.unwrap_or(ast::Ident {
                    name: Symbol::intern(""),
                    span: s.span,
                });
                let reference = self.named_type(ast::Path::single(name), None, name.span);
                (Some(*s), reference)
            }
            kind => (
                None,
                ast::TypeSpec {
                    kind,
                    modifiers,
                    span,
                },
            ),
        }
    }

    // ---- declarations -----------------------------------------------------

    pub fn declarator(
        &self,
        qualifier: Option<ast::Path>,
        name: ast::Ident,
        array: Vec<Option<ast::Expr>>,
        post: Option<Box<PostAnnots>>,
        init: Option<ast::Initializer>,
        span: Span,
    ) -> ast::Declarator {
        self.declare_value(name);
        let post = post.map(|p| *p).unwrap_or_default();
        ast::Declarator {
            qualifier: qualifier.map(Box::new),
            name,
            array,
            annotations: post.annotations,
            bit_width: post.bit_width,
            init,
            span,
        }
    }

    /// `: register(…)` with one to three arguments: `(t0)`, `(space1)`,
    /// `(t0, space1)`, `(ps_5_0, t0)`, `(ps_5_0, t0, space1)`.
    pub fn register(&self, args: Vec<ast::Ident>, span: Span) -> ast::Register {
        let is_space = |i: &ast::Ident| i.name.as_str().starts_with("space");
        let (profile, slot, space) = match args.as_slice() {
            [a] if is_space(a) => (None, None, Some(*a)),
            [a] => (None, Some(*a), None),
            [a, b] if is_space(b) => (None, Some(*a), Some(*b)),
            [a, b] => (Some(*a), Some(*b), None),
            [a, b, c] => (Some(*a), Some(*b), Some(*c)),
            _ => {
                self.error(
                    codes::SYNTAX,
                    span,
                    "`register` takes one to three arguments",
                    "expected `register(slot)`, `register(slot, spaceN)` or `register(profile, slot)`",
                );
                (None, None, None)
            }
        };
        ast::Register {
            profile,
            slot,
            space,
            span,
        }
    }

    pub fn add_semantic(&self, p: Option<Box<PostAnnots>>, name: ast::Ident) -> Box<PostAnnots> {
        let mut p = p.unwrap_or_default();
        if let Some(old) = p.annotations.semantic {
            self.push_diag(
                crate::diag::Diagnostic::error(codes::SYNTAX, "more than one semantic")
                    .label(name.span, "second semantic")
                    .label(old.span, "first semantic"),
            );
        }
        p.annotations.semantic = Some(ast::Semantic {
            name: name.name,
            span: name.span,
        });
        p
    }

    fn var_decl(
        &self,
        attrs: Vec<ast::Attribute>,
        specs: DeclSpecs,
        declarators: Vec<ast::Declarator>,
        span: Span,
    ) -> (Option<ast::StructDecl>, ast::VarDecl) {
        let (decl, ty) = self.split_struct(*specs.ty);
        (
            decl,
            ast::VarDecl {
                attrs,
                modifiers: specs.modifiers,
                ty: Box::new(ty),
                declarators,
                span,
            },
        )
    }

    fn function(
        &self,
        attrs: Vec<ast::Attribute>,
        template: Option<ast::TemplateParams>,
        decl: Decl,
        span: Span,
    ) -> Option<ast::Function> {
        let Decl::Function(parts) = decl else {
            return None;
        };
        let FnParts {
            specs,
            name,
            specialization,
            mut params,
            tail,
            body,
        } = *parts;
        // `f(void)` declares no parameters.
        if let [p] = params.as_slice()
            && p.name.is_none()
            && p.array.is_empty()
            && p.modifiers.is_empty()
            && is_void(&p.ty)
        {
            params.clear();
        }
        let annotations = tail.annotations.map(|a| *a).unwrap_or_default();
        if let Some(w) = &annotations.bit_width {
            self.error(
                codes::SYNTAX,
                w.span,
                "a function cannot have a bit-field width",
                "expected a semantic",
            );
        }
        Some(ast::Function {
            attrs,
            template,
            specialization,
            modifiers: specs.modifiers,
            return_type: *specs.ty,
            name,
            params,
            return_annotations: annotations.annotations,
            is_const: tail.is_const,
            body,
            span,
        })
    }

    /// A declaration at global (or namespace) scope.
    pub fn item_decl(
        &self,
        attrs: Vec<ast::Attribute>,
        template: Option<ast::TemplateParams>,
        decl: Decl,
        span: Span,
    ) -> Vec<ast::Item> {
        match decl {
            Decl::Vars(specs, ds)
                if template.is_some()
                    && ds
                        .iter()
                        .all(|d| d.qualifier.as_ref().is_some_and(|q| q.qualifier.is_some())) =>
            {
                let (st, var) = self.var_decl(attrs, specs, ds, span);
                let mut out = Vec::with_capacity(2);
                out.extend(st.map(ast::Item::Struct));
                out.extend(template.map(|t| ast::Item::StaticMemberTemplate(t, var)));
                out
            }
            // `template<class T> static const bool v = …;`
            Decl::Vars(specs, mut ds)
                if template.is_some() && ds.len() == 1 && ds[0].qualifier.is_none() =>
            {
                let d = ds.remove(0);
                self.declare_var_template(d.name);
                vec![self.var_template(attrs, template, None, specs, d, span)]
            }
            Decl::VarSpec(specs, name, args, init) => {
                if template.is_none() {
                    self.error(
                        codes::SYNTAX,
                        name.span,
                        "a specialisation of a variable template needs a `template<…>` head",
                        "not a template",
                    );
                    return vec![ast::Item::Error];
                }
                let d = ast::Declarator {
                    qualifier: None,
                    name,
                    array: Vec::new(),
                    annotations: ast::Annotations::default(),
                    bit_width: None,
                    init: Some(*init),
                    span,
                };
                vec![self.var_template(attrs, template, Some(args), specs, d, span)]
            }
            Decl::Vars(specs, ds) => {
                self.no_template(&template, span);
                let (st, var) = self.var_decl(attrs, specs, ds, span);
                let mut out = Vec::with_capacity(2);
                out.extend(st.map(ast::Item::Struct));
                out.push(ast::Item::Var(var));
                out
            }
            Decl::Struct(mut s) => {
                s.attrs.splice(0..0, attrs);
                s.template = template;
                vec![ast::Item::Struct(*s)]
            }
            // `template<typename T> struct Trait;`: the primary template of
            // specialisations, or a template defined later.
            Decl::Forward(name) if template.is_some() => vec![ast::Item::Struct(ast::StructDecl {
                attrs,
                kind: ast::StructKind::Struct,
                template,
                specialization: None,
                forward: true,
                name: Some(name),
                bases: Vec::new(),
                members: Vec::new(),
                span,
            })],
            Decl::Forward(name) => vec![ast::Item::ForwardStruct(name, span)],
            f @ Decl::Function(_) => self
                .function(attrs, template, f, span)
                .map(|f| ast::Item::Function(Box::new(f)))
                .into_iter()
                .collect(),
        }
    }

    /// A variable template (or a specialisation of one, `args`) as the
    /// struct template holding it as its static member
    /// [`VAR_TEMPLATE_MEMBER`]: instantiation and specialisation are the
    /// struct templates'.
    fn var_template(
        &self,
        attrs: Vec<ast::Attribute>,
        template: Option<ast::TemplateParams>,
        args: Option<Vec<ast::TemplateArg>>,
        specs: DeclSpecs,
        mut d: ast::Declarator,
        span: Span,
    ) -> ast::Item {
        let name = d.name;
        d.name = ast::Ident {
            name: crate::intern::Symbol::intern(super::VAR_TEMPLATE_MEMBER),
            span: name.span,
        };
        let (_, var) = self.var_decl(attrs, specs, vec![d], span);
        ast::Item::Struct(ast::StructDecl {
            attrs: Vec::new(),
            kind: ast::StructKind::Struct,
            template,
            specialization: args,
            forward: false,
            name: Some(name),
            bases: Vec::new(),
            members: vec![ast::StructMember::Field(var)],
            span,
        })
    }

    /// A declaration inside a struct, class or interface.
    pub fn member_decl(
        &self,
        attrs: Vec<ast::Attribute>,
        template: Option<ast::TemplateParams>,
        decl: Decl,
        span: Span,
    ) -> Vec<ast::StructMember> {
        // Variable templates are global or in namespaces only.
        let template = match decl {
            Decl::Vars(..) | Decl::VarSpec(..) if template.is_some() => {
                self.no_template(&template, span);
                None
            }
            _ => template,
        };
        self.item_decl(attrs, template, decl, span)
            .into_iter()
            .filter_map(|i| match i {
                ast::Item::Var(v) => Some(ast::StructMember::Field(v)),
                ast::Item::Function(f) => Some(ast::StructMember::Method(f)),
                ast::Item::Struct(s) => Some(ast::StructMember::Struct(s)),
                _ => None,
            })
            .collect()
    }

    pub fn cbuffer_member(
        &self,
        attrs: Vec<ast::Attribute>,
        decl: Decl,
        span: Span,
    ) -> Vec<CbMember> {
        self.item_decl(attrs, None, decl, span)
            .into_iter()
            .map(|i| match i {
                ast::Item::Var(v) => CbMember::Var(v),
                ast::Item::Struct(s) => CbMember::Struct(s),
                // DXC accepts functions in a cbuffer's body; they are
                // ordinary global functions.
                ast::Item::Function(f) => CbMember::Function(f),
                _ => CbMember::None,
            })
            .collect()
    }

    /// `cbuffer`/`tbuffer`: structs defined inside are declared before it.
    pub fn cbuffer(
        &self,
        attrs: Vec<ast::Attribute>,
        kind: ast::CBufferKind,
        name: ast::Ident,
        post: Option<Box<PostAnnots>>,
        members: Vec<CbMember>,
        span: Span,
    ) -> Vec<ast::Item> {
        let mut out = Vec::new();
        let mut after = Vec::new();
        let mut vars = Vec::with_capacity(members.len());
        for m in members {
            match m {
                CbMember::Var(v) => vars.push(v),
                CbMember::Struct(s) => out.push(ast::Item::Struct(s)),
                CbMember::Function(f) => after.push(ast::Item::Function(f)),
                CbMember::None => {}
            }
        }
        out.push(ast::Item::CBuffer(ast::CBuffer {
            attrs,
            kind,
            name,
            annotations: post.map(|p| p.annotations).unwrap_or_default(),
            members: vars,
            span,
        }));
        out.extend(after);
        out
    }

    fn no_template(&self, template: &Option<ast::TemplateParams>, span: Span) {
        if let Some(t) = template {
            self.push_diag(
                crate::diag::Diagnostic::error(
                    codes::UNSUPPORTED,
                    "not supported yet: variable templates",
                )
                .label(span, "this variable is declared as a template")
                .label(t.span, "template parameters here"),
            );
        }
    }

    pub fn typedef(
        &self,
        specs: DeclSpecs,
        names: Vec<(ast::Ident, Vec<Option<ast::Expr>>, Span)>,
        span: Span,
    ) -> TypedefOut {
        let (st, ty) = self.split_struct(*specs.ty);
        let forward = elaborated_name(&ty).map(|n| (n, span));
        let n = names.len();
        let mut typedefs = Vec::with_capacity(n);
        for (name, array, _) in names {
            typedefs.push(ast::Typedef {
                attrs: Vec::new(),
                modifiers: specs.modifiers.clone(),
                ty: ty.clone(),
                name,
                array,
                span,
            });
        }
        TypedefOut {
            structs: st.into_iter().collect(),
            typedefs,
            forward,
        }
    }

    /// The items of a global typedef, `attrs` (written before `typedef`)
    /// on each name it declares.
    pub fn typedef_items(&self, attrs: Vec<ast::Attribute>, t: TypedefOut) -> Vec<ast::Item> {
        let mut v: Vec<ast::Item> = t
            .forward
            .map(|(n, span)| ast::Item::ForwardStruct(n, span))
            .into_iter()
            .collect();
        v.extend(t.structs.into_iter().map(ast::Item::Struct));
        v.extend(t.typedefs.into_iter().map(|mut td| {
            td.attrs = attrs.clone();
            ast::Item::Typedef(td)
        }));
        v
    }

    pub fn typedef_members(&self, t: TypedefOut) -> Vec<ast::StructMember> {
        for td in &t.typedefs {
            self.note_member_type(td.name.name);
        }
        let mut v: Vec<ast::StructMember> = t
            .structs
            .into_iter()
            .map(ast::StructMember::Struct)
            .collect();
        v.extend(t.typedefs.into_iter().map(ast::StructMember::Typedef));
        v
    }

    pub fn typedef_stmts(&self, t: TypedefOut) -> Vec<ast::Stmt> {
        let mut v: Vec<ast::Stmt> = t
            .structs
            .into_iter()
            .map(|s| {
                let span = s.span;
                plain_stmt(StmtKind::Struct(Box::new(s)), span)
            })
            .collect();
        v.extend(t.typedefs.into_iter().map(|t| {
            let span = t.span;
            plain_stmt(StmtKind::Typedef(Box::new(t)), span)
        }));
        v
    }

    /// A local declaration statement whose type is a struct defined in place.
    pub fn local_struct_decl(
        &self,
        attrs: Vec<ast::Attribute>,
        specs: DeclSpecs,
        declarators: Vec<ast::Declarator>,
        span: Span,
    ) -> Vec<ast::Stmt> {
        let (st, var) = self.var_decl(attrs, specs, declarators, span);
        let mut v = Vec::with_capacity(2);
        if let Some(s) = st {
            let sspan = s.span;
            v.push(plain_stmt(StmtKind::Struct(Box::new(s)), sspan));
        }
        v.push(plain_stmt(StmtKind::Decl(var), span));
        v
    }

    pub fn local_decl(
        &self,
        attrs: Vec<ast::Attribute>,
        specs: DeclSpecs,
        declarators: Vec<ast::Declarator>,
        span: Span,
    ) -> ast::VarDecl {
        ast::VarDecl {
            attrs,
            modifiers: specs.modifiers,
            ty: specs.ty,
            declarators,
            span,
        }
    }

    pub fn param(
        &self,
        attrs: Vec<ast::Attribute>,
        specs: DeclSpecs,
        name: Option<ast::Ident>,
        array: Vec<Option<ast::Expr>>,
        post: Option<Box<PostAnnots>>,
        default: Option<PExpr>,
        span: Span,
    ) -> ast::Param {
        if let Some(n) = name {
            self.declare_param(n);
        }
        let post = post.map(|p| *p).unwrap_or_default();
        if let Some(w) = &post.bit_width {
            self.error(
                codes::SYNTAX,
                w.span,
                "a parameter cannot have a bit-field width",
                "expected a semantic",
            );
        }
        ast::Param {
            attrs,
            modifiers: specs.modifiers,
            ty: *specs.ty,
            name,
            array,
            annotations: post.annotations,
            default: default.map(|d| d.expr),
            span,
        }
    }

    /// Effects-framework annotations `< string UIName = "x"; >` after a
    /// declarator: parsed and dropped.
    pub fn fx_annotations(&self, span: Span) {
        self.warn(
            codes::IGNORED_EFFECTS_SYNTAX,
            span,
            "effects annotations are ignored",
            "this annotation block has no effect",
        );
    }

    /// An effects state block after a declarator: parsed and dropped.
    pub fn state_block(&self, span: Span) {
        self.warn(
            codes::IGNORED_EFFECTS_SYNTAX,
            span,
            "effects state blocks are ignored",
            "this state block has no effect",
        );
    }

    pub fn technique(&self, span: Span) -> ast::Item {
        self.warn(
            codes::IGNORED_EFFECTS_SYNTAX,
            span,
            "effects `technique` blocks are ignored",
            "this technique has no effect",
        );
        ast::Item::Technique
    }

    pub fn attribute(
        &self,
        body: (ast::Path, Vec<ast::Expr>, Span),
        cxx11: bool,
        span: Span,
    ) -> ast::Attribute {
        let (name, args, body_span) = body;
        use crate::front::attributes;
        let kind = attributes::lookup(&name);
        let a = ast::Attribute {
            name,
            kind,
            args,
            span: if cxx11 { body_span } else { span },
        };
        if kind.is_none() {
            let shown = attributes::display_name(&a);
            let mut d = Diagnostic::warning(
                codes::UNKNOWN_ATTRIBUTE,
                format!("unknown attribute `{shown}` is ignored"),
            )
            .label(a.name.span, "not an attribute hlslc knows");
            if let Some(s) = attributes::suggestion(&a.name) {
                d = d.note(format!("did you mean `{s}`?"));
            }
            self.push_diag(d);
        }
        a
    }

    /// `using T = float4;`
    pub fn alias(
        &self,
        alias: (ast::Ident, Vec<ast::Attribute>, DeclSpecs),
        span: Span,
    ) -> ast::Using {
        let (name, attrs, specs) = alias;
        let is_const = specs
            .modifiers
            .list
            .iter()
            .find(|&&(m, _)| m == ast::Modifier::Const)
            .map(|&(_, s)| s);
        if let Some(&(_, m)) = specs
            .modifiers
            .list
            .iter()
            .find(|&&(m, _)| m != ast::Modifier::Const)
        {
            self.warn(
                codes::IGNORED_SYNTAX,
                m,
                "modifiers in a type alias are ignored",
                "ignored",
            );
        }
        ast::Using::Alias {
            template: None,
            attrs,
            name,
            ty: *specs.ty,
            is_const,
            span,
        }
    }

    /// `using type = half;` in a struct: a member typedef.
    pub fn member_alias(
        &self,
        alias: (ast::Ident, Vec<ast::Attribute>, DeclSpecs),
        span: Span,
    ) -> ast::StructMember {
        match self.alias(alias, span) {
            ast::Using::Alias {
                name,
                attrs,
                ty,
                is_const,
                span,
                ..
            } => {
                if let Some(c) = is_const {
                    self.warn(
                        codes::IGNORED_SYNTAX,
                        c,
                        "`const` in a member type alias is ignored",
                        "ignored",
                    );
                }
                self.note_member_type(name.name);
                ast::StructMember::Typedef(ast::Typedef {
                    attrs,
                    modifiers: ast::Modifiers::default(),
                    ty,
                    name,
                    array: Vec::new(),
                    span,
                })
            }
            ast::Using::Namespace { .. } | ast::Using::Name { .. } => ast::StructMember::Error,
        }
    }

    /// `template<typename T> using V = vector<T, 4>;`
    pub fn template_alias(
        &self,
        template: ast::TemplateParams,
        alias: (ast::Ident, Vec<ast::Attribute>, DeclSpecs),
        span: Span,
    ) -> ast::Using {
        match self.alias(alias, span) {
            ast::Using::Alias {
                name,
                attrs,
                ty,
                is_const,
                span,
                ..
            } => ast::Using::Alias {
                template: Some(template),
                attrs,
                name,
                ty,
                is_const,
                span,
            },
            other => other,
        }
    }
}

/// The struct an elaborated type (`struct S` naming a struct, not defining
/// one) names: its span, unlike a plain type name's, starts at `struct`.
fn elaborated_name(ty: &ast::TypeSpec) -> Option<ast::Ident> {
    match &ty.kind {
        ast::TypeSpecKind::Named { path, args: None }
            if path.is_single() && ty.span.lo != path.last().span.lo =>
        {
            Some(path.last())
        }
        _ => None,
    }
}
