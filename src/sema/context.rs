//! The state of semantic analysis: [`Sema`] and the tables it fills.

use super::table::{Table, define_id};
use super::types::consteval::Konst;
use super::types::scope::{FuncDeclId, GlobalId, ScopeId, Scopes, TemplateId};
use super::types::{TyId, Types};
use crate::diag::{Diagnostic, Diagnostics, codes};
use crate::front::ast;
use crate::intern::Symbol;
use crate::ir;
use crate::options::{Options, Stage};
use crate::source::SourceMap;
use crate::span::Span;
use rustc_hash::FxHashMap;

/// Whether a diagnostic is about the language (and so reported in
/// functions that are not emitted) rather than the stage, the target or
/// code generation.
pub(super) fn language_diagnostic(code: codes::Code) -> bool {
    use codes::*;
    [
        UNKNOWN_NAME,
        UNKNOWN_TYPE,
        REDEFINITION,
        TYPE_MISMATCH,
        NO_MEMBER,
        BAD_SWIZZLE,
        BAD_OPERANDS,
        NOT_INDEXABLE,
        NO_MATCHING_OVERLOAD,
        AMBIGUOUS_CALL,
        WRONG_ARG_COUNT,
        BAD_TEMPLATE_ARGS,
        NOT_A_VALUE,
        NOT_ASSIGNABLE,
        BAD_INITIALIZER,
        BAD_CAST,
        UNSIZED_ARRAY,
        NOT_CALLABLE,
        IMPLICIT_TRUNCATION,
        CONFLICTING_STORAGE,
        MODIFIER_NOT_ALLOWED,
        DUPLICATE_MODIFIER,
        CONST_UNINITIALIZED,
        ASSIGN_READ_ONLY,
        CONFLICTING_INTERPOLATION,
        ATOMIC_NOT_SHARED,
        MISSING_RETURN,
        BREAK_OUTSIDE,
        CONTINUE_OUTSIDE,
        BAD_RETURN,
        BAD_CASE,
        OUT_ARG_NOT_LVALUE,
        NO_METHOD,
        INTEGER_DIVISION_BY_ZERO,
        NOT_CONSTANT,
        BAD_ARRAY_SIZE,
    ]
    .contains(&code)
}

/// Drops repeated diagnostics (same code, message and labels) reported
/// from index `from` on, keeping the first.
pub(super) fn dedup_diagnostics(diags: &mut Diagnostics, from: usize) {
    let mut seen: rustc_hash::FxHashSet<(&'static str, String, Vec<(Span, String)>)> =
        Default::default();
    let mut kept = Vec::with_capacity(diags.list.len());
    for (i, d) in std::mem::take(&mut diags.list).into_iter().enumerate() {
        if i >= from {
            let key = (
                d.code.0,
                d.message.clone(),
                d.labels
                    .iter()
                    .map(|l| (l.span, l.message.clone()))
                    .collect(),
            );
            if !seen.insert(key) {
                continue;
            }
        }
        kept.push(d);
    }
    diags.list = kept;
}

define_id! {
    /// An interned resource path (`Sema::res_paths`).
    pub struct ResPathId;
}
define_id! {
    /// A resource declaration waiting for its binding (`Sema::resources`).
    pub struct ResourceId;
}
define_id! {
    /// A `$Globals` member collected during declaration
    /// (`Sema::globals_members`).
    pub struct GlobalsMemberId;
}

/// Parameter direction.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Dir {
    In,
    Out,
    InOut,
}

/// One parameter of a resolved function signature.
#[derive(Clone, Debug)]
pub struct ParamSig<'a> {
    pub name: Option<Symbol>,
    pub ty: TyId,
    pub dir: Dir,
    pub default: Option<&'a ast::Expr>,
    pub precise: bool,
    pub major: Option<bool>,
    pub interp: Option<ir::Interpolation>,
    pub sampling: Option<ir::Sampling>,
    pub semantic: Option<(Symbol, Span)>,
    /// `uniform` parameter of an entry point.
    pub uniform: bool,
    /// Geometry/mesh/hull parameter kinds that the interface needs.
    pub modifiers: ast::Modifiers,
    pub attrs: &'a [ast::Attribute],
    pub span: Span,
}

/// A resolved function signature.
#[derive(Clone, Debug)]
pub struct Sig<'a> {
    pub params: Vec<ParamSig<'a>>,
    pub ret: TyId,
    pub ret_precise: bool,
    pub ret_semantic: Option<(Symbol, Span)>,
}

/// A declared function (or function template, or method).
pub struct FuncDecl<'a> {
    pub name: Symbol,
    /// The first declaration seen (a prototype or the definition).
    pub ast: &'a ast::Function,
    /// The declaration with a body.
    pub def: Option<&'a ast::Function>,
    /// Where its signature and body resolve names.
    pub scope: ScopeId,
    /// For methods: the struct (`this`), unless the method is static.
    pub this_ty: Option<TyId>,
    pub is_template: bool,
    /// Resolved signature (not for templates).
    pub sig: Option<Sig<'a>>,
    /// The IR function (not for templates); created on first use.
    pub ir: Option<ir::Handle<ir::Function>>,
    /// Template instantiations by their arguments.
    pub instances: FxHashMap<Vec<TArg>, FuncInstance<'a>>,
}

/// A function template instantiation.
#[derive(Clone)]
pub struct FuncInstance<'a> {
    pub env: ScopeId,
    pub sig: Sig<'a>,
    pub ir: ir::Handle<ir::Function>,
}

/// A template argument, as instantiation keys use it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TArg {
    Type(TyId),
    Value(i64),
    /// A resource argument a function is specialized for (index into
    /// `Sema::res_paths`).
    Res(ResPathId),
    /// A method instance whose `this` is a struct holding resources: the
    /// `Res` arguments after it start with the resources of `this`'s slots
    /// (depth first), and its data members are passed as one pointer each.
    AggThis,
    /// A function returning a resource specialized for the constant
    /// argument of its `param`-th parameter (which its body never
    /// changes), so that it can choose the resource at compile time.
    ConstArg {
        param: u16,
        value: i64,
    },
}

/// What a function returning a resource returns.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ResReturn {
    /// Always this resource (an interned [`ResPath`]).
    Fixed(ResPathId),
    /// An element of this global array (of arrays) of resources: the IR
    /// function returns its `count` indices (a `uint` or `uintN`) and the
    /// caller indexes the global.
    Indexed {
        gv: ir::Handle<ir::GlobalVariable>,
        count: u8,
    },
}

/// A resource named at compile time: a global and constant indices into it
/// (`bufs[2]`). Resource values in sema are always such paths, so that
/// functions taking or returning resources can be specialized and
/// resource locals resolved, as DXC's legalization does.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ResPath {
    pub gv: ir::Handle<ir::GlobalVariable>,
    pub indices: Vec<u32>,
}

/// A struct or alias template.
pub struct Template<'a> {
    pub name: Symbol,
    pub params: &'a ast::TemplateParams,
    pub kind: TemplateKind<'a>,
    /// The scope the template was declared in.
    pub scope: ScopeId,
    pub instances: FxHashMap<Vec<TArg>, TyId>,
    pub span: Span,
}

pub enum TemplateKind<'a> {
    Struct(&'a ast::StructDecl),
    Alias(&'a ast::TypeSpec),
}

/// How a global variable is reached.
#[derive(Clone, Debug)]
pub enum GlobalKind {
    /// Its own IR global: `static` (Private), `groupshared` (Workgroup),
    /// push constant blocks, resources (Handle space or buffer blocks).
    Var {
        gv: ir::Handle<ir::GlobalVariable>,
        /// The IR type in memory (laid out for buffers).
        mem: ir::Handle<ir::Type>,
    },
    /// A member of a block global (cbuffer, tbuffer, `$Globals`).
    Member {
        gv: ir::Handle<ir::GlobalVariable>,
        index: u32,
        mem: ir::Handle<ir::Type>,
    },
    /// A `$Globals` member before the block is built (index into
    /// `Sema::globals_members`).
    PendingGlobal(GlobalsMemberId),
    /// A `static` resource variable: another name for a resource, set by
    /// its initializer or an assignment (index into `Sema::res_paths`).
    ResAlias(Option<ResPathId>),
    /// A specialization constant (`[[vk::constant_id(N)]]`): a module
    /// constant expression the backend writes as `OpSpecConstant`.
    SpecConstant(ir::Handle<ir::Expression>),
    /// Declared with an error: uses are silently errors.
    Error,
}

/// A global variable, cbuffer member or resource.
#[derive(Clone, Debug)]
pub struct GlobalInfo {
    pub name: Symbol,
    /// The HLSL type (for `ConstantBuffer<T>`/`TextureBuffer<T>`: `T`).
    pub ty: TyId,
    pub kind: GlobalKind,
    pub span: Span,
    /// Why it cannot be assigned (uniform, cbuffer member, const,
    /// read-only resource contents).
    pub read_only: Option<ReadOnly>,
    /// A scalar value known at compile time (`static const int N = 4;`).
    pub konst: Option<Konst>,
    /// The counter of a RW/Append/Consume structured buffer, once created.
    pub counter: Option<ir::Handle<ir::GlobalVariable>>,
    /// Index into `Sema::resources`, for resources.
    pub resource: Option<ResourceId>,
}

/// Why a place cannot be assigned.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReadOnly {
    /// A `const` variable, declared here.
    Const(Span),
    /// A uniform global (non-static global, `$Globals`), declared here.
    Uniform(Span),
    /// A cbuffer/tbuffer member or `ConstantBuffer` contents.
    CBuffer(Span),
    /// The contents of a read-only resource (`StructuredBuffer`, `Texture2D`).
    Resource(Span),
    /// An rvalue (the result of an expression).
    Rvalue,
    /// A swizzle or matrix selection naming a component twice.
    RepeatedComponent,
    /// An `in` parameter of a `const` method's `this`.
    ConstThis,
}

/// A `$Globals` member collected during declaration.
pub struct GlobalsMember {
    pub global: GlobalId,
    pub name: Symbol,
    pub ty: TyId,
    pub row_major: bool,
    /// `register(cN)`: offset N*16.
    pub offset: Option<u32>,
    pub span: Span,
}

/// A resource declaration waiting for its binding.
#[derive(Clone, Debug)]
pub struct ResourceDecl {
    pub gv: ir::Handle<ir::GlobalVariable>,
    pub name: Symbol,
    /// `[[vk::binding(b, s)]]`
    pub vk_binding: Option<(u32, u32)>,
    /// `register(xN, spaceM)`: class letter, number, space.
    pub register: Option<(Option<char>, u32, u32)>,
    /// `[[vk::counter_binding(n)]]`
    pub counter_binding: Option<u32>,
    /// The register class the resource type implies (auto shift).
    pub class: crate::options::RegisterClass,
    /// For a counter: the resource it counts (index into `resources`).
    pub counter_of: Option<ResourceId>,
    pub span: Span,
}

/// A function body waiting to be lowered.
struct Pending {
    func: ir::Handle<ir::Function>,
    decl: FuncDeclId,
    env: ScopeId,
    /// Signature index: `None` for non-templates (in the decl), else the
    /// template arguments of the instance.
    inst: Option<Vec<TArg>>,
}

/// A call edge, for the recursion check.
struct CallEdge {
    caller: ir::Handle<ir::Function>,
    callee: ir::Handle<ir::Function>,
    span: Span,
}

pub struct Sema<'a> {
    pub opts: &'a Options,
    pub sm: &'a SourceMap,
    pub diags: &'a mut Diagnostics,
    pub stage: Stage,
    pub module: ir::Module,
    pub types: Types,
    pub scopes: Scopes,
    pub layouts: super::types::layout::Layouts,
    pub funcs: Table<FuncDeclId, FuncDecl<'a>>,
    pub templates: Table<TemplateId, Template<'a>>,
    pub globals: Table<GlobalId, GlobalInfo>,
    /// Initialisers of `static` globals that must run at entry (global,
    /// the initialiser, the scope it resolves in).
    pub static_inits: Vec<(GlobalId, &'a ast::Initializer, ScopeId)>,
    pub globals_members: Table<GlobalsMemberId, GlobalsMember>,
    /// The `$Globals` block, once built.
    pub globals_block: Option<ir::Handle<ir::GlobalVariable>>,
    /// Declaration order of resources (the `$Globals` block takes the place
    /// of its first member: `globals_block_order`).
    pub resources: Table<ResourceId, ResourceDecl>,
    pub globals_block_order: Option<usize>,
    /// `#pragma pack_matrix` state: matrices default to row-major.
    pub pack_row_major: bool,
    /// Inline struct definitions already declared (by address).
    pub inline_structs: FxHashMap<usize, TyId>,
    /// groupshared variables with their spans, for the size budget.
    pub groupshared: Vec<(Symbol, TyId, Span)>,
    /// Functions to lower, first come first served (as DXC's work queue,
    /// so that lazily made globals such as counters come in its order).
    pending: std::collections::VecDeque<Pending>,
    call_edges: Vec<CallEdge>,
    /// IR function → its user-facing name and span, for diagnostics.
    pub func_names: FxHashMap<ir::Handle<ir::Function>, (String, Span)>,
    /// The entry point's IR wrapper, once made.
    pub entry_wrapper: Option<ir::Handle<ir::Function>>,
    /// The user's entry function (`src.main`), whose arguments are stage
    /// inputs.
    pub entry_user: Option<ir::Handle<ir::Function>>,
    /// Template instantiation depth, to stop runaway recursion.
    pub instantiation_depth: u32,
    /// Module constants of zero values, by type.
    pub zero_consts: FxHashMap<ir::Handle<ir::Type>, ir::Handle<ir::Expression>>,
    /// Functions whose bodies are lowered.
    pub lowered: rustc_hash::FxHashSet<ir::Handle<ir::Function>>,
    /// Interned resource paths (`TArg::Res`).
    pub res_paths: Table<ResPathId, ResPath>,
    res_path_ids: FxHashMap<ResPath, ResPathId>,
    /// The resource each resource-returning function returns (`None`: not
    /// one resolvable at compile time).
    pub returned_res: FxHashMap<ir::Handle<ir::Function>, Option<ResReturn>>,
    /// The resources (by aggregate slot) each function returning a struct
    /// holding resources returns (`None`: not resolvable at compile time).
    pub returned_agg: FxHashMap<ir::Handle<ir::Function>, Option<Vec<ResPathId>>>,
    /// Runtime arrays standing for the descriptor heaps, by element memory
    /// type and heap (sampler or resource).
    pub heap_globals: FxHashMap<(ir::Handle<ir::Type>, bool), ir::Handle<ir::GlobalVariable>>,
    /// The first push constant block.
    pub push_constant_span: Option<Span>,
    /// For each function name, the parameter indices (bits) some overload
    /// takes `out`/`inout`, over the first `.1` function declarations.
    pub out_params: (FxHashMap<Symbol, u64>, usize),
    /// Predefined struct types (`RayDesc`…), made on first use.
    pub builtin_structs: FxHashMap<&'static str, TyId>,
    /// The runtime array of counters of resources taken from the heap.
    pub counter_heap: Option<ir::Handle<ir::GlobalVariable>>,
    /// Some reachable code takes derivatives (explicitly, or by implicit-LOD
    /// sampling): compute shaders then need a derivative group mode.
    pub uses_derivatives: bool,
    /// Struct template instances: their template and arguments.
    pub struct_instances: FxHashMap<TyId, (TemplateId, Vec<TArg>)>,
}

impl<'a> Sema<'a> {
    pub fn new(
        opts: &'a Options,
        sm: &'a SourceMap,
        diags: &'a mut Diagnostics,
        stage: Stage,
    ) -> Self {
        Sema {
            opts,
            sm,
            diags,
            stage,
            module: ir::Module::default(),
            types: Types::new(),
            scopes: Scopes::new(),
            layouts: super::types::layout::Layouts::default(),
            funcs: Table::new(),
            templates: Table::new(),
            globals: Table::new(),
            static_inits: Vec::new(),
            globals_members: Table::new(),
            globals_block: None,
            resources: Table::new(),
            globals_block_order: None,
            pack_row_major: opts.matrix_layout == crate::options::MatrixLayout::RowMajor,
            inline_structs: FxHashMap::default(),
            groupshared: Vec::new(),
            pending: Default::default(),
            call_edges: Vec::new(),
            func_names: FxHashMap::default(),
            entry_wrapper: None,
            entry_user: None,
            instantiation_depth: 0,
            zero_consts: FxHashMap::default(),
            struct_instances: FxHashMap::default(),
            uses_derivatives: false,
            heap_globals: FxHashMap::default(),
            builtin_structs: FxHashMap::default(),
            out_params: (FxHashMap::default(), 0),
            push_constant_span: None,
            counter_heap: None,
            lowered: Default::default(),
            res_paths: Table::new(),
            res_path_ids: FxHashMap::default(),
            returned_res: FxHashMap::default(),
            returned_agg: FxHashMap::default(),
        }
    }

    // --- diagnostics -----------------------------------------------------

    pub fn error(
        &mut self,
        code: crate::diag::Code,
        msg: impl Into<String>,
        span: Span,
        label: impl Into<String>,
    ) {
        self.diags
            .push(Diagnostic::error(code, msg).label(span, label));
    }
    pub fn warn(
        &mut self,
        code: crate::diag::Code,
        msg: impl Into<String>,
        span: Span,
        label: impl Into<String>,
    ) {
        self.diags
            .push(Diagnostic::warning(code, msg).label(span, label));
    }
    pub fn push(&mut self, d: Diagnostic) {
        self.diags.push(d);
    }
    pub fn unsupported(&mut self, what: impl std::fmt::Display, span: Span) {
        self.diags.push(
            Diagnostic::error(codes::UNSUPPORTED, format!("not supported yet: {what}"))
                .label(span, "not supported yet"),
        );
    }

    pub fn ty_name(&self, ty: TyId) -> String {
        self.types.name(ty)
    }
    pub fn ir_ty(&mut self, ty: TyId) -> ir::Handle<ir::Type> {
        self.types.ir_type(&mut self.module, ty)
    }

    /// Default matrix majorness for declarations made now.
    pub fn default_row_major(&self) -> bool {
        self.pack_row_major
    }

    // --- the worklist ----------------------------------------------------

    /// The IR function of a non-template function declaration, creating it
    /// (and queueing its body) on first use.
    pub fn func_ir(&mut self, id: FuncDeclId) -> Option<ir::Handle<ir::Function>> {
        if let Some(h) = self.funcs[id].ir {
            return Some(h);
        }
        let sig = self.funcs[id].sig.clone()?;
        let scope = self.funcs[id].scope;
        let h = self.new_ir_function(id, &sig, None);
        self.funcs[id].ir = Some(h);
        self.pending.push_back(Pending {
            func: h,
            decl: id,
            env: scope,
            inst: None,
        });
        Some(h)
    }

    /// Queues a template instance's body.
    pub fn queue_instance(
        &mut self,
        id: FuncDeclId,
        args: Vec<TArg>,
        env: ScopeId,
        sig: Sig<'a>,
    ) -> ir::Handle<ir::Function> {
        if let Some(inst) = self.funcs[id].instances.get(&args) {
            return inst.ir;
        }
        let h = self.new_ir_function(id, &sig, Some(&args));
        self.funcs[id]
            .instances
            .insert(args.clone(), FuncInstance { env, sig, ir: h });
        self.pending.push_back(Pending {
            func: h,
            decl: id,
            env,
            inst: Some(args),
        });
        h
    }

    /// Makes the IR function shell for a signature: arguments (by value for
    /// `in`, Function pointers for `out`/`inout`, pointers for resources),
    /// `this` first for methods, and the result.
    fn new_ir_function(
        &mut self,
        id: FuncDeclId,
        sig: &Sig<'a>,
        args: Option<&[TArg]>,
    ) -> ir::Handle<ir::Function> {
        let decl = &self.funcs[id];
        let mut name = self.scopes.qualified_name(decl.scope);
        if !name.is_empty() {
            name.push_str("::");
        }
        name.push_str(decl.name.as_str());
        if let Some(args) = args {
            let parts: Vec<String> = args
                .iter()
                .map(|a| match a {
                    TArg::Type(t) => self.types.name(*t),
                    TArg::Value(v) => v.to_string(),
                    TArg::Res(r) => self.res_path_name(*r),
                    TArg::AggThis => "this".into(),
                    TArg::ConstArg { value, .. } => value.to_string(),
                })
                .collect();
            if decl.is_template {
                name.push_str(&format!("<{}>", parts.join(", ")));
            } else if !parts.is_empty() {
                name.push_str(&format!("({})", parts.join(", ")));
            }
        }
        let specialized = args.is_some_and(|a| a.iter().any(|t| matches!(t, TArg::Res(_))));
        let this_ty = decl.this_ty;
        let span = decl.ast.name.span;
        let agg_this = args.is_some_and(|a| a.contains(&TArg::AggThis));
        let mut arguments = Vec::new();
        if let (Some(t), true) = (this_ty, agg_this) {
            // One pointer per data member of the aggregate `this`.
            for (i, (slot, is_res)) in self.agg_slots(t).into_iter().enumerate() {
                if is_res {
                    continue;
                }
                let base = self.ir_ty(slot);
                let ptr = self.module.ty(ir::TypeInner::Pointer {
                    base,
                    space: ir::AddressSpace::Function,
                });
                arguments.push(ir::FunctionArgument {
                    name: Some(format!("this.{i}")),
                    ty: ptr,
                    precise: false,
                });
            }
        } else if let Some(t) = this_ty {
            let base = self.ir_ty(t);
            let ptr = self.module.ty(ir::TypeInner::Pointer {
                base,
                space: ir::AddressSpace::Function,
            });
            arguments.push(ir::FunctionArgument {
                name: Some("this".into()),
                ty: ptr,
                precise: false,
            });
        }
        for p in &sig.params {
            // Resource parameters of a specialized function are not
            // arguments: the body names the resources directly.
            if specialized && self.types.is_resource(p.ty) {
                continue;
            }
            let ty = self.param_ir_type(p.ty, p.dir);
            arguments.push(ir::FunctionArgument {
                name: p.name.map(|n| n.to_string()),
                ty,
                precise: p.precise,
            });
        }
        // A struct holding resources is returned through one pointer per
        // data member (its resources are known at compile time).
        let agg_ret = self.types.is_agg(sig.ret);
        if agg_ret {
            for (i, (slot, is_res)) in self.agg_slots(sig.ret).into_iter().enumerate() {
                if is_res {
                    continue;
                }
                let base = self.ir_ty(slot);
                let ty = self.module.ty(ir::TypeInner::Pointer {
                    base,
                    space: ir::AddressSpace::Function,
                });
                arguments.push(ir::FunctionArgument {
                    name: Some(format!("result.{i}")),
                    ty,
                    precise: false,
                });
            }
        }
        let result = if sig.ret == super::types::VOID || self.types.is_resource(sig.ret) || agg_ret
        {
            None
        } else {
            Some(ir::FunctionResult {
                ty: self.ir_ty(sig.ret),
                precise: sig.ret_precise,
            })
        };
        let h = self.module.functions.append(ir::Function {
            name: name.clone(),
            arguments,
            result,
            ..Default::default()
        });
        self.func_names.insert(h, (name, span));
        h
    }

    /// The IR type of a parameter: a value for `in`, a Function pointer for
    /// `out`/`inout`, and for resources the pointer to the resource.
    pub fn param_ir_type(&mut self, ty: TyId, dir: Dir) -> ir::Handle<ir::Type> {
        if self.types.is_resource(ty) {
            return self.resource_pointer_type(ty);
        }
        let base = self.ir_ty(ty);
        match dir {
            Dir::In => base,
            Dir::Out | Dir::InOut => self.module.ty(ir::TypeInner::Pointer {
                base,
                space: ir::AddressSpace::Function,
            }),
        }
    }

    pub(super) fn drain_worklist(&mut self) {
        while let Some(p) = self.pending.pop_front() {
            if self.lowered.contains(&p.func) {
                continue;
            }
            self.lower_function_body(p.func, p.decl, p.env, p.inst);
        }
    }

    /// Lowers a queued function now (a function returning a resource: its
    /// callers need to know which).
    pub fn lower_now(&mut self, func: ir::Handle<ir::Function>) {
        if self.lowered.contains(&func) {
            return;
        }
        if let Some(i) = self.pending.iter().position(|p| p.func == func) {
            let Some(p) = self.pending.remove(i) else {
                return;
            };
            self.lower_function_body(p.func, p.decl, p.env, p.inst);
        }
    }

    /// Interns a resource path.
    pub fn intern_res_path(&mut self, p: ResPath) -> ResPathId {
        if let Some(&i) = self.res_path_ids.get(&p) {
            return i;
        }
        let i = self.res_paths.push(p.clone());
        self.res_path_ids.insert(p, i);
        i
    }

    pub fn res_path_name(&self, i: ResPathId) -> String {
        let p = &self.res_paths[i];
        let mut s = self.module.globals[p.gv].name.clone().unwrap_or_default();
        for ix in &p.indices {
            s.push_str(&format!("[{ix}]"));
        }
        s
    }

    pub fn record_call(
        &mut self,
        caller: ir::Handle<ir::Function>,
        callee: ir::Handle<ir::Function>,
        span: Span,
    ) {
        self.call_edges.push(CallEdge {
            caller,
            callee,
            span,
        });
    }

    /// HLSL forbids recursion (DXC: "recursive functions are not
    /// allowed"): find a cycle in the call graph and show it.
    pub(super) fn check_recursion(&mut self) {
        let n = self.module.functions.len();
        let mut adj: Vec<Vec<(usize, Span)>> = vec![Vec::new(); n];
        for e in &self.call_edges {
            // Calls from scratch contexts (constant initialisers) are not
            // part of any function.
            if e.caller.index() < n && e.callee.index() < n {
                adj[e.caller.index()].push((e.callee.index(), e.span));
            }
        }
        // Iterative DFS with colours: 0 white, 1 on stack, 2 done. Every
        // back edge closes a cycle; each function is reported in one cycle
        // at most.
        let mut colour = vec![0u8; n];
        let mut reported = vec![false; n];
        for start in 0..n {
            if colour[start] != 0 {
                continue;
            }
            let mut stack: Vec<(usize, usize)> = vec![(start, 0)];
            colour[start] = 1;
            while let Some(&mut (v, ref mut i)) = stack.last_mut() {
                if *i < adj[v].len() {
                    let (w, _) = adj[v][*i];
                    *i += 1;
                    if colour[w] == 1 {
                        // The cycle is the stack from w to v, then back to w.
                        let pos = stack.iter().position(|&(x, _)| x == w).unwrap_or(0);
                        let cycle: Vec<usize> = stack[pos..].iter().map(|&(x, _)| x).collect();
                        if cycle.iter().all(|&f| !reported[f]) {
                            for &f in &cycle {
                                reported[f] = true;
                            }
                            self.report_cycle(&cycle, &adj);
                        }
                    } else if colour[w] == 0 {
                        colour[w] = 1;
                        stack.push((w, 0));
                    }
                } else {
                    colour[v] = 2;
                    stack.pop();
                }
            }
        }
    }

    fn report_cycle(&mut self, cycle: &[usize], adj: &[Vec<(usize, Span)>]) {
        let name = |s: &Self, i: usize| {
            s.func_names
                .get(&ir::Handle::from_index(i))
                .map_or_else(|| "?".to_string(), |(n, _)| n.clone())
        };
        let mut path: Vec<String> = cycle.iter().map(|&i| name(self, i)).collect();
        path.push(name(self, cycle[0]));
        let first = name(self, cycle[0]);
        let msg = if cycle.len() == 1 {
            format!("recursive call: `{first}` calls itself")
        } else {
            format!(
                "recursive call: `{first}` calls itself through {}",
                path[1..cycle.len()]
                    .iter()
                    .map(|n| format!("`{n}`"))
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        };
        let mut d = Diagnostic::error(codes::RECURSION, msg);
        // One label per call of the cycle, the first primary.
        for k in 0..cycle.len() {
            let (from, to) = (cycle[k], cycle[(k + 1) % cycle.len()]);
            if let Some((_, s)) = adj[from].iter().find(|(x, _)| *x == to) {
                d = d.label(
                    *s,
                    format!("`{}` calls `{}` here", name(self, from), name(self, to)),
                );
            }
        }
        d = d.note(format!("call cycle: {}", path.join(" -> ")));
        d = d.note("HLSL does not allow recursion: every call is inlined by the target");
        self.push(d);
    }

    /// An Input built-in read by an intrinsic (one global per built-in).
    pub fn builtin_input(
        &mut self,
        b: spirv::BuiltIn,
        name: &str,
        ty: TyId,
    ) -> ir::Handle<ir::GlobalVariable> {
        if let Some((h, _)) = self.module.globals.iter().find(|(_, g)| {
            g.io == Some(ir::Binding::BuiltIn(b)) && g.space == ir::AddressSpace::Input
        }) {
            return h;
        }
        let it = self.ir_ty(ty);
        self.module.globals.append(ir::GlobalVariable {
            name: Some(name.into()),
            space: ir::AddressSpace::Input,
            ty: it,
            init: None,
            binding: None,
            io: Some(ir::Binding::BuiltIn(b)),
            precise: false,
            invariant: false,
            semantic: None,
            counter: None,
        })
    }

    /// Records, for each function name, the parameter positions that some
    /// overload takes `out` or `inout` (see [`Sema::may_take_out`]).
    pub(super) fn summarize_out_params(&mut self) {
        let mut map: FxHashMap<Symbol, u64> = FxHashMap::default();
        for f in &self.funcs {
            let mut bits = 0u64;
            for (i, p) in f.ast.params.iter().enumerate().take(64) {
                if p.modifiers.has(ast::Modifier::Out) || p.modifiers.has(ast::Modifier::Inout) {
                    bits |= 1 << i;
                }
            }
            *map.entry(f.name).or_default() |= bits;
        }
        self.out_params = (map, self.funcs.len());
    }

    /// Whether some function, method or intrinsic named `callee` may take
    /// its argument at `index` as `out` or `inout`.
    pub fn may_take_out(&self, callee: Symbol, index: usize) -> bool {
        let takes_out = |f: &FuncDecl| {
            f.name == callee
                && f.ast.params.get(index).is_some_and(|p| {
                    p.modifiers.has(ast::Modifier::Out) || p.modifiers.has(ast::Modifier::Inout)
                })
        };
        // The functions declared before lowering started are summarized;
        // later ones (methods of template instances) are looked at.
        let (map, summarized) = &self.out_params;
        let user = map
            .get(&callee)
            .is_some_and(|&bits| index < 64 && bits & (1 << index) != 0)
            || (index >= 64 && self.funcs.values().take(*summarized).any(takes_out))
            || self.funcs.since(*summarized).iter().any(takes_out);
        user || super::calls::intrinsics::table::find(callee.as_str()).is_some_and(|i| {
            i.overloads
                .iter()
                .any(|o| o.params.get(index).is_some_and(|p| p.out))
        })
    }

    /// Lowers the functions the entry point does not reach, for their
    /// language errors only (as DXC's front end checks every function), and
    /// throws the code away. Problems that depend on the stage, the target
    /// or code generation ("not supported yet", stage-only statements and
    /// intrinsics, recursion, undefined callees) are not reported for them:
    /// they are no problem in code that is never emitted.
    pub(super) fn check_unused_functions(&mut self) {
        let unused: Vec<FuncDeclId> = self
            .funcs
            .iter()
            .filter(|(_, f)| f.def.is_some() && !f.is_template && f.ir.is_none() && f.sig.is_some())
            .map(|(id, _)| id)
            .collect();
        if unused.is_empty() {
            return;
        }
        let saved = self.module.clone();
        let from = self.diags.list.len();
        for id in unused {
            self.func_ir(id);
            self.drain_worklist();
        }
        self.module = saved;
        let mut i = 0;
        self.diags.list.retain(|d| {
            i += 1;
            i <= from || language_diagnostic(d.code)
        });
    }

    /// Explicit offsets that break the layout rule of their buffer would
    /// give invalid SPIR-V (Vulkan "Offset and Stride Assignment").
    pub(super) fn report_misaligned_offsets(&mut self) {
        let mut seen_overlap = rustc_hash::FxHashSet::default();
        for (span, prev) in std::mem::take(&mut self.layouts.overlaps) {
            if !seen_overlap.insert(span) {
                continue;
            }
            let mut d = Diagnostic::error(
                codes::MISALIGNED_OFFSET,
                "this member's explicit offset overlaps an earlier member",
            )
            .label(span, "placed over another member");
            if let Some(p) = prev {
                d = d.label(p, "overlapped member");
            }
            self.push(d);
        }
        let mut seen = rustc_hash::FxHashSet::default();
        for m in std::mem::take(&mut self.layouts.misaligned) {
            if !seen.insert(m.span) {
                continue;
            }
            let msg = if m.straddles {
                format!(
                    "at offset {}, this vector would straddle a 16-byte boundary",
                    m.offset
                )
            } else {
                format!(
                    "offset {} is not a multiple of this member's alignment ({})",
                    m.offset, m.align
                )
            };
            self.push(
                Diagnostic::error(codes::MISALIGNED_OFFSET, msg)
                .label(m.span, "misaligned member")
                .note("the buffer's layout rule needs aligned members; `-fvk-use-scalar-layout` relaxes alignment to the component size"),
            );
        }
    }

    /// groupshared memory is limited to 32 KB in D3D11+ compute shaders.
    pub(super) fn check_groupshared_budget(&mut self) {
        const LIMIT: u64 = 32768;
        let mut total = 0u64;
        let mut sizes = Vec::new();
        for &(name, ty, span) in &self.groupshared {
            let sz = self.value_size(ty) as u64;
            total += sz;
            sizes.push((name, sz, span));
        }
        if total <= LIMIT {
            return;
        }
        let mut d = Diagnostic::error(
            codes::GROUPSHARED_TOO_LARGE,
            format!("groupshared memory is {total} bytes, more than the limit of {LIMIT} bytes"),
        );
        for (i, (name, sz, span)) in sizes.iter().enumerate() {
            d = d.label(
                *span,
                if i == 0 {
                    format!("`{name}` takes {sz} bytes")
                } else {
                    format!("`{name}`: {sz} bytes")
                },
            );
        }
        d = d.note(format!(
            "total: {total} bytes; a thread group may share at most 32 KB (32768 bytes)"
        ));
        self.push(d);
    }

    /// Size in bytes of a value as D3D counts groupshared memory (scalar
    /// packing; bool takes 4 bytes).
    pub fn value_size(&self, ty: TyId) -> u32 {
        use super::types::{Sc, Ty};
        let sc = |s: Sc| -> u32 {
            if s == Sc::Bool {
                4
            } else {
                s.concrete().width() as u32
            }
        };
        match *self.types.get(ty) {
            Ty::Scalar(s) => sc(s),
            Ty::Enum(_) => 4,
            Ty::Vector(s, n) => sc(s) * n as u32,
            Ty::Matrix(s, r, c) => sc(s) * r as u32 * c as u32,
            Ty::Array(e, n) => self.value_size(e).saturating_mul(n.unwrap_or(0)),
            Ty::Struct(sid) => self
                .types
                .member_types(sid)
                .into_iter()
                .fold(0u32, |a, t| a.saturating_add(self.value_size(t))),
            _ => 0,
        }
    }
}
