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
pub(super) struct Pending {
    pub(super) func: ir::Handle<ir::Function>,
    pub(super) decl: FuncDeclId,
    pub(super) env: ScopeId,
    /// Signature index: `None` for non-templates (in the decl), else the
    /// template arguments of the instance.
    pub(super) inst: Option<Vec<TArg>>,
}

/// A call edge, for the recursion check.
pub(super) struct CallEdge {
    pub(super) caller: ir::Handle<ir::Function>,
    pub(super) callee: ir::Handle<ir::Function>,
    pub(super) span: Span,
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
    pub(super) pending: std::collections::VecDeque<Pending>,
    pub(super) call_edges: Vec<CallEdge>,
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
}
