//! Resolving names: type specifiers to types (built-in scalar, vector,
//! matrix and resource types, user structs, typedefs, templates), qualified
//! paths to scopes, and constant expressions to values.

use crate::diag::{Diagnostic, codes};
use crate::front::ast;
use crate::intern::Symbol;
use crate::sema::Sema;
use crate::sema::body::place::NO_SPAN;
use crate::sema::body::{LocalSym, Locals};
use crate::sema::types::consteval::{self, ConstVal, FoldError, Konst};
use crate::sema::types::scope::{GLOBAL_SCOPE, ScopeId, Sym, TypeEntry};
use crate::sema::types::{self, ResKind, Sc, StreamKind, TexDim, Ty, TyId};
use crate::span::Span;

/// Where names resolve: a scope of the tree, and the block scopes of the
/// function being lowered (if any).
#[derive(Clone, Copy)]
pub struct Env<'e> {
    pub scope: ScopeId,
    pub locals: Option<&'e Locals>,
}

impl<'e> Env<'e> {
    pub fn at(scope: ScopeId) -> Env<'static> {
        Env {
            scope,
            locals: None,
        }
    }
}

/// A scalar type keyword, as DXC maps it (`half` is 32-bit and the
/// minimum-precision types are 32-bit unless `-enable-16bit-types`).
pub fn builtin_scalar(name: &str, enable_16bit: bool) -> Option<Sc> {
    Some(match name {
        "bool" => Sc::Bool,
        "int" | "int32_t" => Sc::I32,
        "uint" | "dword" | "uint32_t" => Sc::U32,
        "float" | "float32_t" => Sc::F32,
        "double" | "float64_t" => Sc::F64,
        "int64_t" => Sc::I64,
        "uint64_t" => Sc::U64,
        "half" | "min16float" | "min10float" => {
            if enable_16bit {
                Sc::F16
            } else {
                Sc::F32
            }
        }
        "min16int" | "min12int" => {
            if enable_16bit {
                Sc::I16
            } else {
                Sc::I32
            }
        }
        "min16uint" => {
            if enable_16bit {
                Sc::U16
            } else {
                Sc::U32
            }
        }
        // Explicit 16-bit types need -enable-16bit-types; without it DXC
        // rejects them. We accept them as 16-bit (the backend adds the
        // capabilities).
        "int16_t" => Sc::I16,
        "uint16_t" => Sc::U16,
        "float16_t" => Sc::F16,
        _ => return None,
    })
}

fn resource_kind(name: &str) -> Option<ResKind> {
    use ResKind as R;
    let tex = |dim, array, ms, rw| R::Texture {
        dim,
        array,
        ms,
        rw,
        combined: false,
    };
    Some(match name {
        "Texture1D" => tex(TexDim::D1, false, false, false),
        "Texture1DArray" => tex(TexDim::D1, true, false, false),
        "Texture2D" => tex(TexDim::D2, false, false, false),
        "Texture2DArray" => tex(TexDim::D2, true, false, false),
        "Texture2DMS" => tex(TexDim::D2, false, true, false),
        "Texture2DMSArray" => tex(TexDim::D2, true, true, false),
        "Texture3D" => tex(TexDim::D3, false, false, false),
        "TextureCube" => tex(TexDim::Cube, false, false, false),
        "TextureCubeArray" => tex(TexDim::Cube, true, false, false),
        "RWTexture1D" | "RasterizerOrderedTexture1D" => tex(TexDim::D1, false, false, true),
        "RWTexture1DArray" | "RasterizerOrderedTexture1DArray" => {
            tex(TexDim::D1, true, false, true)
        }
        "RWTexture2D" | "RasterizerOrderedTexture2D" => tex(TexDim::D2, false, false, true),
        "RWTexture2DArray" | "RasterizerOrderedTexture2DArray" => {
            tex(TexDim::D2, true, false, true)
        }
        "RWTexture3D" | "RasterizerOrderedTexture3D" => tex(TexDim::D3, false, false, true),
        "Buffer" => R::TexelBuffer { rw: false },
        "RWBuffer" | "RasterizerOrderedBuffer" => R::TexelBuffer { rw: true },
        "StructuredBuffer" => R::StructuredBuffer,
        "RWStructuredBuffer" | "RasterizerOrderedStructuredBuffer" => R::RWStructuredBuffer,
        "AppendStructuredBuffer" => R::AppendStructuredBuffer,
        "ConsumeStructuredBuffer" => R::ConsumeStructuredBuffer,
        "ByteAddressBuffer" => R::ByteAddressBuffer,
        "RWByteAddressBuffer" | "RasterizerOrderedByteAddressBuffer" => R::RWByteAddressBuffer,
        "ConstantBuffer" => R::ConstantBuffer,
        "TextureBuffer" => R::TextureBuffer,
        "RaytracingAccelerationStructure" => R::RaytracingAccelerationStructure,
        "SubpassInput" => R::SubpassInput { ms: false },
        "SubpassInputMS" => R::SubpassInput { ms: true },
        _ => return None,
    })
}

impl<'a> Sema<'a> {
    fn entry(ty: TyId) -> TypeEntry {
        TypeEntry {
            ty,
            major: None,
            features: None,
        }
    }

    /// Resolves a written type. Errors are reported and give `ERROR`.
    pub fn resolve_type(&mut self, ts: &'a ast::TypeSpec, env: &Env) -> TypeEntry {
        match &ts.kind {
            ast::TypeSpecKind::Struct(decl) => {
                let key = &**decl as *const ast::StructDecl as usize;
                if let Some(&t) = self.decls.inline_structs.get(&key) {
                    return Self::entry(t);
                }
                let t = self.declare_struct(decl, env.scope);
                self.decls.inline_structs.insert(key, t);
                Self::entry(t)
            }
            ast::TypeSpecKind::Named { path, args } => {
                let numeric = match args {
                    None => self.builtin_numeric(path, env),
                    Some(_) => None,
                };
                let mut e = match numeric {
                    Some(t) => Self::entry(t),
                    None => self.resolve_named_type(path, args.as_deref(), env, ts.span),
                };
                // `StructuredBuffer<row_major float3x3>`.
                if ts.modifiers.has(ast::Modifier::RowMajor) {
                    e.major = Some(true);
                } else if ts.modifiers.has(ast::Modifier::ColumnMajor) {
                    e.major = Some(false);
                }
                e
            }
            ast::TypeSpecKind::Array { element, dims } => {
                let e = self.resolve_type(element, env);
                let ty = self.array_type(e.ty, dims, env, None);
                TypeEntry {
                    ty,
                    major: e.major,
                    features: None,
                }
            }
        }
    }

    /// `float3`, `uint`, `min16float2x2`: a scalar, vector or matrix
    /// type by its built-in name, where no declaration (in the scope tree
    /// or the function's block scopes) takes such a name. Then it is what
    /// [`Sema::resolve_named_type`] finds after its look-ups, which find
    /// nothing (a test compares the two).
    pub(in crate::sema) fn builtin_numeric(&mut self, path: &ast::Path, env: &Env) -> Option<TyId> {
        if !path.is_single()
            || self.scopes.builtin_declared()
            || env.locals.is_some_and(Locals::builtin_declared)
        {
            return None;
        }
        let (base, a, b) = crate::intern::builtins::numeric_spelling(path.last().name)?;
        let sc = builtin_scalar(base, self.opts.enable_16bit_types)?;
        Some(match b {
            None => self.types.vector(sc, a),
            Some(c) => self.types.matrix(sc, a, c),
        })
    }

    pub(in crate::sema) fn resolve_named_type(
        &mut self,
        path: &'a ast::Path,
        args: Option<&'a [ast::TemplateArg]>,
        env: &Env,
        span: Span,
    ) -> TypeEntry {
        if let Some(t) = self.vk_texture_type(path, args, env, span) {
            return Self::entry(t);
        }
        if let Some(t) = self.buffer_pointer_type(path, args, env, span) {
            return Self::entry(t);
        }
        let last = path.last();
        let sym = if path.is_single() {
            if let Some(locals) = env.locals {
                match locals.lookup(last.name) {
                    Some(LocalSym::Type(t)) => return self.used_alias(*t),
                    Some(_) => {
                        self.error(
                            codes::NOT_A_VALUE,
                            format!("`{}` is not a type", last.name),
                            last.span,
                            "a variable, not a type",
                        );
                        return Self::entry(types::ERROR);
                    }
                    None => {}
                }
            }
            self.scopes.lookup(env.scope, last.name).cloned()
        } else {
            if let Some(t) = self.inline_spirv_type(path, args, env, span) {
                return t;
            }
            let Some(scope) = self.resolve_scope_path(path, env) else {
                return Self::entry(types::ERROR);
            };
            match self.scopes.lookup_in(scope, last.name).cloned() {
                Some(s) => Some(s),
                None => {
                    self.error(
                        codes::UNKNOWN_TYPE,
                        format!(
                            "no type `{}` in `{}`",
                            last.name,
                            self.scopes.qualified_name(scope)
                        ),
                        last.span,
                        "not found in this scope",
                    );
                    return Self::entry(types::ERROR);
                }
            }
        };
        if let Some(key) = sym.as_ref().and_then(crate::sema::index::SymKey::of) {
            self.record_use(last.span, crate::sema::index::Target::Sym(key));
        }
        match sym {
            Some(Sym::Type(t)) => {
                // Inside a template instance its own name with arguments
                // names the template (`Trait<T>` in a specialisation of
                // `Trait`): C++'s injected class name.
                if args.is_some()
                    && let Some(inner) = self.type_scope(t.ty)
                    && let Some(outer) = self.scopes.get(inner).parent
                    && let Some(Sym::Template(id)) = self.scopes.lookup(outer, last.name).cloned()
                {
                    return Self::entry(self.instantiate_type_template(id, args, env, span));
                }
                if args.is_some() {
                    self.error(
                        codes::BAD_TEMPLATE_ARGS,
                        format!("`{}` is not a template", last.name),
                        span,
                        "template arguments given here",
                    );
                }
                return self.used_alias(t);
            }
            Some(Sym::Template(id)) => {
                return Self::entry(self.instantiate_type_template(id, args, env, span));
            }
            Some(Sym::Namespace(_))
            | Some(Sym::Funcs(_))
            | Some(Sym::Global(_))
            | Some(Sym::Value(..))
                if !path.is_single() || self.builtin_type(last.name, args, env, span).is_none() =>
            {
                self.error(
                    codes::UNKNOWN_TYPE,
                    format!("`{}` is not a type", last.name),
                    last.span,
                    "expected a type",
                );
                return Self::entry(types::ERROR);
            }
            _ => {}
        }
        if path.is_single()
            && let Some(t) = self.builtin_type(last.name, args, env, span)
        {
            return Self::entry(t);
        }
        self.error(
            codes::UNKNOWN_TYPE,
            format!("unknown type `{}`", last.name),
            last.span,
            "not a declared type",
        );
        Self::entry(types::ERROR)
    }

    /// Resolves all but the last segment of a qualified path to a scope
    /// (namespaces, structs, enums).
    pub fn resolve_scope_path(&mut self, path: &'a ast::Path, env: &Env) -> Option<ScopeId> {
        self.resolve_path_prefix(path, path.segments.len().saturating_sub(1), env)
    }

    /// Resolves the qualifier and the first `n` segments of a path to the
    /// scope they name.
    pub fn resolve_path_prefix(
        &mut self,
        path: &'a ast::Path,
        n: usize,
        env: &Env,
    ) -> Option<ScopeId> {
        let segs = &path.segments[..n.min(path.segments.len())];
        let mut cur = if path.global { GLOBAL_SCOPE } else { env.scope };
        if let Some(q) = &path.qualifier {
            // `S<T>::…`: the members of the template instance.
            let t = self.resolve_type(&q.0, env).ty;
            cur = self.member_scope(t, q.0.span)?;
        }
        for (i, seg) in segs.iter().enumerate() {
            let found = if i == 0 && !path.global && path.qualifier.is_none() {
                // A local type (struct declared in the function) may start the path.
                if let Some(LocalSym::Type(t)) = env.locals.and_then(|l| l.lookup(seg.name)) {
                    Some(Sym::Type(*t))
                } else {
                    self.scopes.lookup(cur, seg.name).cloned()
                }
            } else {
                self.scopes.lookup_in(cur, seg.name).cloned()
            };
            cur = match found {
                Some(Sym::Namespace(s)) => s,
                Some(Sym::Type(t)) => self.member_scope(t.ty, seg.span)?,
                _ => {
                    self.error(
                        codes::UNKNOWN_NAME,
                        format!("unknown namespace or type `{}`", seg.name),
                        seg.span,
                        "not found",
                    );
                    return None;
                }
            };
        }
        Some(cur)
    }

    /// The scope of the members of `ty`, named before `::` at `span`.
    fn member_scope(&mut self, ty: TyId, span: Span) -> Option<ScopeId> {
        if ty == types::ERROR {
            return None;
        }
        let s = self.type_scope(ty);
        if s.is_none() {
            self.error(
                codes::UNKNOWN_NAME,
                format!("type `{}` has no members to name", self.ty_name(ty)),
                span,
                "not a struct or enum",
            );
        }
        s
    }

    /// The scope holding a struct's or enum's members.
    pub fn type_scope(&self, ty: TyId) -> Option<ScopeId> {
        match *self.types.get(ty) {
            Ty::Struct(s) => Some(self.types.struct_info(s).scope),
            Ty::Enum(e) => Some(self.types.enum_info(e).scope),
            _ => None,
        }
    }

    /// Built-in type names: scalars, vectors, matrices, `vector<T,N>`,
    /// `matrix<T,R,C>`, resources and samplers.
    fn builtin_type(
        &mut self,
        name: Symbol,
        args: Option<&'a [ast::TemplateArg]>,
        env: &Env,
        span: Span,
    ) -> Option<TyId> {
        // Scalars, vectors and matrices (no other name is one of their
        // spellings): from the symbol's number, not its text.
        if let Some((base, a, b)) = crate::intern::builtins::numeric_spelling(name)
            && let Some(sc) = builtin_scalar(base, self.opts.enable_16bit_types)
        {
            return Some(match b {
                None => self.types.vector(sc, a),
                Some(c) => self.types.matrix(sc, a, c),
            });
        }
        let s = name.as_str();
        if let Some(t) = self.builtin_struct(s) {
            return Some(t);
        }
        if let Some(t) = self.node_object_type(s, args, env, span) {
            return Some(t);
        }
        match s {
            "void" => return Some(types::VOID),
            "string" => return Some(types::STRING),
            // SM 6.6: four bytes packed in a `uint`, as DXC's SPIR-V has
            // them; hlslc treats both as `uint`.
            "int8_t4_packed" | "uint8_t4_packed" => return Some(types::UINT),
            "SamplerState" | "sampler" | "sampler1D" | "sampler2D" | "sampler3D"
            | "samplerCUBE" | "sampler_state" => {
                return Some(self.types.intern(Ty::Sampler { comparison: false }));
            }
            "SamplerComparisonState" => {
                return Some(self.types.intern(Ty::Sampler { comparison: true }));
            }
            "vector" => {
                let (sc, n) = match args {
                    None => (Sc::F32, 4),
                    Some(a) => {
                        let sc = self.template_scalar_arg(a.first(), env, span)?;
                        let n = self.template_int_arg(a.get(1), env, span, 4)?;
                        if !(1..=4).contains(&n) {
                            self.error(
                                codes::BAD_TEMPLATE_ARGS,
                                format!("vector size must be 1 to 4, not {n}"),
                                span,
                                "invalid vector size",
                            );
                            return Some(types::ERROR);
                        }
                        (sc, n as u8)
                    }
                };
                return Some(self.types.vector(sc, n));
            }
            "matrix" => {
                let (sc, r, c) = match args {
                    None => (Sc::F32, 4, 4),
                    Some(a) => {
                        let sc = self.template_scalar_arg(a.first(), env, span)?;
                        let r = self.template_int_arg(a.get(1), env, span, 4)?;
                        let c = self.template_int_arg(a.get(2), env, span, 4)?;
                        if !(1..=4).contains(&r) || !(1..=4).contains(&c) {
                            self.error(
                                codes::BAD_TEMPLATE_ARGS,
                                format!("matrix dimensions must be 1 to 4, not {r}x{c}"),
                                span,
                                "invalid matrix size",
                            );
                            return Some(types::ERROR);
                        }
                        (sc, r as u8, c as u8)
                    }
                };
                return Some(self.types.matrix(sc, r, c));
            }
            "PointStream" | "LineStream" | "TriangleStream" => {
                let kind = match s {
                    "PointStream" => StreamKind::Point,
                    "LineStream" => StreamKind::Line,
                    _ => StreamKind::Triangle,
                };
                let Some(arg) = args.and_then(|a| a.first()) else {
                    self.error(
                        codes::BAD_TEMPLATE_ARGS,
                        format!("`{s}` needs a vertex type: `{s}<T>`"),
                        span,
                        "missing template argument",
                    );
                    return Some(types::ERROR);
                };
                let elem = self.template_type_arg(arg, env);
                if elem == types::ERROR {
                    return Some(types::ERROR);
                }
                return Some(self.types.intern(Ty::Stream(kind, elem)));
            }
            // `RayQuery<RAY_FLAGS[, RAYQUERY_FLAGS]>` (the second, SM 6.9's
            // opacity micromap flag, changes nothing in SPIR-V).
            "RayQuery" => {
                let Some(first) = args.and_then(|a| a.first()) else {
                    self.error(
                        codes::BAD_TEMPLATE_ARGS,
                        "`RayQuery` needs its ray flags: `RayQuery<RAY_FLAG_NONE>`",
                        span,
                        "missing template argument",
                    );
                    return Some(types::ERROR);
                };
                let flags = self.template_int_arg(Some(first), env, span, 0)?;
                return Some(self.types.intern(Ty::RayQuery(flags as u32)));
            }
            // `InputPatch<T, N>` and `OutputPatch<T, N>` are arrays of `N`
            // control points (SPIR-V.rst, "InputPatch and OutputPatch"); the
            // entry point tells them apart by the parameter's written type.
            "InputPatch" | "OutputPatch" => {
                let (Some(arg), Some(_)) =
                    (args.and_then(|a| a.first()), args.and_then(|a| a.get(1)))
                else {
                    self.error(
                        codes::BAD_TEMPLATE_ARGS,
                        format!("`{s}` needs a control point type and a count: `{s}<T, N>`"),
                        span,
                        "missing template arguments",
                    );
                    return Some(types::ERROR);
                };
                let elem = self.template_type_arg(arg, env);
                let n = self.template_int_arg(args.and_then(|a| a.get(1)), env, span, 1)?;
                if !(1..=32).contains(&n) {
                    self.error(
                        codes::BAD_TEMPLATE_ARGS,
                        format!("`{s}` holds 1 to 32 control points, not {n}"),
                        span,
                        "invalid control point count",
                    );
                    return Some(types::ERROR);
                }
                if elem == types::ERROR {
                    return Some(types::ERROR);
                }
                return Some(self.types.array(elem, Some(n as u32)));
            }
            _ => {}
        }
        let kind = resource_kind(s)?;
        self.resource_type(s, kind, args, env, span)
    }

    /// `vk::SampledTexture2D<T>` and the other combined image sampler
    /// types, named with their `vk::` qualifier.
    fn vk_texture_type(
        &mut self,
        path: &'a ast::Path,
        args: Option<&'a [ast::TemplateArg]>,
        env: &Env,
        span: Span,
    ) -> Option<TyId> {
        let [vk, name] = &path.segments[..] else {
            return None;
        };
        if path.global || path.qualifier.is_some() || vk.name.as_str() != "vk" {
            return None;
        }
        let (dim, array, ms) = match name.name.as_str() {
            "SampledTexture1D" => (TexDim::D1, false, false),
            "SampledTexture1DArray" => (TexDim::D1, true, false),
            "SampledTexture2D" => (TexDim::D2, false, false),
            "SampledTexture2DArray" => (TexDim::D2, true, false),
            "SampledTexture2DMS" => (TexDim::D2, false, true),
            "SampledTexture2DMSArray" => (TexDim::D2, true, true),
            "SampledTexture3D" => (TexDim::D3, false, false),
            "SampledTextureCUBE" => (TexDim::Cube, false, false),
            "SampledTextureCUBEArray" => (TexDim::Cube, true, false),
            _ => return None,
        };
        let kind = ResKind::Texture {
            dim,
            array,
            ms,
            rw: false,
            combined: true,
        };
        self.resource_type(&kind.name(), kind, args, env, span)
    }

    /// A resource type `s` of `kind` with its template arguments.
    fn resource_type(
        &mut self,
        s: &str,
        kind: ResKind,
        args: Option<&'a [ast::TemplateArg]>,
        env: &Env,
        span: Span,
    ) -> Option<TyId> {
        let elem = match args.and_then(|a| a.first()) {
            Some(arg) => Some(self.template_type_arg(arg, env)),
            None => match kind {
                ResKind::Texture { .. }
                | ResKind::TexelBuffer { .. }
                | ResKind::SubpassInput { .. } => Some(self.types.vector(Sc::F32, 4)),
                ResKind::ByteAddressBuffer
                | ResKind::RWByteAddressBuffer
                | ResKind::RaytracingAccelerationStructure => None,
                _ => {
                    self.error(
                        codes::BAD_TEMPLATE_ARGS,
                        format!("`{s}` needs an element type: `{s}<T>`"),
                        span,
                        "missing template argument",
                    );
                    return Some(types::ERROR);
                }
            },
        };
        if elem == Some(types::ERROR) {
            return Some(types::ERROR);
        }
        // Typed buffers and textures hold at most four scalar components
        // (one texel).
        if let (
            ResKind::Texture { .. } | ResKind::TexelBuffer { .. } | ResKind::SubpassInput { .. },
            Some(e),
        ) = (kind, elem)
            && !matches!(self.types.get(e), Ty::Scalar(_) | Ty::Vector(..))
        {
            self.error(
                codes::BAD_TEMPLATE_ARGS,
                format!(
                    "elements of typed buffers and textures must be scalars or vectors, not `{}`",
                    self.ty_name(e)
                ),
                span,
                "not a scalar or vector",
            );
            return Some(types::ERROR);
        }
        // An element has a size: a buffer of unsized arrays would be a
        // runtime array of runtime arrays.
        if let Some(e) = elem
            && let Ty::Array(_, None) = self.types.get(e)
        {
            self.error(
                codes::BAD_TEMPLATE_ARGS,
                format!(
                    "the element type of `{s}` is an unsized array, `{}`",
                    self.ty_name(e)
                ),
                span,
                "give the array a size",
            );
            return Some(types::ERROR);
        }
        Some(self.types.intern(Ty::Resource(kind, elem)))
    }

    // --- constant evaluation over the AST --------------------------------

    /// Evaluates an integer constant expression (array sizes, template
    /// arguments, attribute arguments). Reports an error and gives `None`
    /// when it is not constant.
    pub fn const_int(&mut self, e: &'a ast::Expr, env: &Env) -> Option<i64> {
        match self.const_eval(e, env) {
            Ok(k) => match k.v {
                ConstVal::Int(_) | ConstVal::Bool(_) => Some(k.as_i64()),
                ConstVal::Float(f) if f.fract() == 0.0 => Some(f as i64),
                ConstVal::Float(_) => {
                    self.error(
                        codes::NOT_CONSTANT,
                        "expected an integer constant",
                        e.span,
                        "this is a float",
                    );
                    None
                }
            },
            Err(true) => None,
            Err(false) => {
                self.error(
                    codes::NOT_CONSTANT,
                    "expected a constant expression",
                    e.span,
                    "not a compile-time constant",
                );
                None
            }
        }
    }

    /// Evaluates a scalar constant expression. `Err(true)`: an error was
    /// reported; `Err(false)`: the expression is not constant (nothing
    /// reported).
    pub fn const_eval(&mut self, e: &'a ast::Expr, env: &Env) -> Result<Konst, bool> {
        use ast::ExprKind as E;
        match &e.kind {
            E::Literal(l) => literal_konst(l, self.opts.enable_16bit_types).ok_or(false),
            E::Name(path) => self.const_name(path, env),
            E::Unary(op, x) => {
                let a = self.const_eval(x, env)?;
                consteval::fold_unary(*op, a).map_err(|_| false)
            }
            E::Binary(op, x, y) => {
                let a = self.const_eval(x, env)?;
                let b = self.const_eval(y, env)?;
                match consteval::fold_binary(*op, a, b) {
                    Ok(k) => Ok(k),
                    Err(FoldError::DivisionByZero) => {
                        self.push(
                            Diagnostic::error(
                                codes::CONST_DIV_BY_ZERO,
                                "integer division by zero in a constant expression",
                            )
                            .label(y.span, "this is zero")
                            .label(e.span, "in this division"),
                        );
                        Err(true)
                    }
                    Err(FoldError::BadOperands) => Err(false),
                }
            }
            E::Ternary(c, a, b) => {
                let c = self.const_eval(c, env)?;
                let (a, b) = (self.const_eval(a, env)?, self.const_eval(b, env)?);
                let sc = consteval::common_scalar(a.sc, b.sc);
                Ok(if c.as_bool() {
                    a.convert(sc)
                } else {
                    b.convert(sc)
                })
            }
            E::Cast(ts, x) => {
                let t = self.resolve_type(ts, env).ty;
                let v = self.const_eval(x, env)?;
                match self.types.get(t) {
                    Ty::Scalar(s) => Ok(v.convert(*s)),
                    Ty::Enum(en) => Ok(v.convert(self.types.enum_info(*en).underlying)),
                    _ => Err(false),
                }
            }
            E::Construct(ts, args) if args.len() == 1 => {
                let t = self.resolve_type(ts, env).ty;
                let v = self.const_eval(&args[0], env)?;
                match self.types.get(t) {
                    Ty::Scalar(s) => Ok(v.convert(*s)),
                    _ => Err(false),
                }
            }
            E::SizeOfType(ts) => {
                let t = self.resolve_type(ts, env).ty;
                Ok(Konst {
                    sc: Sc::U32,
                    v: ConstVal::Int(self.value_size(t) as i64),
                })
            }
            E::Comma(_, b) => self.const_eval(b, env),
            _ => Err(false),
        }
    }

    pub(in crate::sema) fn const_name(
        &mut self,
        path: &'a ast::Path,
        env: &Env,
    ) -> Result<Konst, bool> {
        let last = path.last();
        let sym = if path.is_single() {
            if let Some(l) = env.locals.and_then(|l| l.lookup(last.name)) {
                return match l {
                    LocalSym::Value(k) => Ok(*k),
                    LocalSym::Var(v) => v.konst.ok_or(false),
                    _ => Err(false),
                };
            }
            self.scopes.lookup(env.scope, last.name).cloned()
        } else {
            match self.resolve_scope_path(path, env) {
                Some(s) => self.scopes.lookup_in(s, last.name).cloned(),
                None => return Err(true),
            }
        };
        match sym {
            Some(Sym::Value(v, ty)) => {
                self.record_enum_value_use(ty, last.name, last.span);
                let sc = self.types.component(ty).unwrap_or(Sc::I32);
                Ok(Konst { sc, v })
            }
            Some(Sym::Global(g)) => self.decls.globals[g].konst.ok_or(false),
            None if path.is_single() => {
                match crate::sema::calls::raytracing::dxr_constant(last.name.as_str()) {
                    Some(v) => Ok(Konst {
                        sc: Sc::U32,
                        v: ConstVal::Int(i64::from(v)),
                    }),
                    None => Err(false),
                }
            }
            _ => Err(false),
        }
    }
}

/// The constant of a literal (`1` is a literal int, `1.5` a literal float,
/// suffixes fix the type).
pub fn literal_konst(l: &ast::Literal, enable_16bit: bool) -> Option<Konst> {
    use ast::{FloatSuffix, IntSuffix};
    Some(match l {
        ast::Literal::Int { value, suffix } => {
            let sc = match suffix {
                IntSuffix::None => Sc::LitInt,
                IntSuffix::U => Sc::U32,
                IntSuffix::L => Sc::I64,
                IntSuffix::UL => Sc::U64,
            };
            Konst {
                sc,
                v: ConstVal::Int(consteval::wrap_int(*value as i64, sc)),
            }
        }
        ast::Literal::Float { text, suffix } => {
            let sc = match suffix {
                FloatSuffix::None => Sc::LitFloat,
                FloatSuffix::F => Sc::F32,
                FloatSuffix::H => {
                    if enable_16bit {
                        Sc::F16
                    } else {
                        Sc::F32
                    }
                }
                FloatSuffix::L => Sc::F64,
            };
            // The text ends with the suffix's one letter, if any.
            let text = text.as_str();
            let digits = match suffix {
                FloatSuffix::None => text,
                _ => text.get(..text.len().saturating_sub(1)).unwrap_or(text),
            };
            let f = match consteval::short_decimal(digits) {
                Some(f) => f,
                None => digits.parse().ok()?,
            };
            Konst {
                sc,
                v: ConstVal::Float(consteval::round_float(f, sc)),
            }
        }
        ast::Literal::Bool(b) => Konst::bool(*b),
        ast::Literal::String(_) => return None,
    })
}

impl Sema<'_> {
    /// The predefined struct types of the ray tracing headers, which shader
    /// code of any stage may name: `RayDesc` and
    /// `BuiltInTriangleIntersectionAttributes`.
    pub(in crate::sema) fn builtin_struct(&mut self, name: &str) -> Option<TyId> {
        let (key, fields): (&'static str, &[(&str, Sc, u8)]) = match name {
            "RayDesc" => (
                "RayDesc",
                &[
                    ("Origin", Sc::F32, 3),
                    ("TMin", Sc::F32, 1),
                    ("Direction", Sc::F32, 3),
                    ("TMax", Sc::F32, 1),
                ],
            ),
            "BuiltInTriangleIntersectionAttributes" => (
                "BuiltInTriangleIntersectionAttributes",
                &[("barycentrics", Sc::F32, 2)],
            ),
            _ => return None,
        };
        if let Some(&t) = self.decls.builtin_structs.get(key) {
            return Some(t);
        }
        let fields = fields
            .iter()
            .enumerate()
            .map(|(i, &(n, sc, k))| {
                let ty = if k == 1 {
                    self.types.scalar(sc)
                } else {
                    self.types.vector(sc, k)
                };
                types::Field::plain(i as u32, Symbol::intern(n), ty, NO_SPAN)
            })
            .collect();
        let t = self
            .types
            .add_struct(types::StructInfo::global(key, fields, NO_SPAN));
        self.decls.builtin_structs.insert(key, t);
        Some(t)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scalar_names() {
        assert_eq!(builtin_scalar("half", false), Some(Sc::F32));
        assert_eq!(builtin_scalar("half", true), Some(Sc::F16));
        assert_eq!(builtin_scalar("dword", false), Some(Sc::U32));
    }
}
