//! The state of semantic analysis: [`Sema`] and the tables it fills.

use super::table::{Table, define_id};
use super::types::scope::{FuncDeclId, GlobalId, ScopeId, Scopes, TemplateId};
use super::types::{Ty, TyId, Types, consteval::Konst, layout::Layouts};
use crate::diag::{Code, Diagnostic, Diagnostics, codes};
use crate::front::ast;
use crate::intern::Symbol;
use crate::ir::{self, Stage};
use crate::sema::options::SemaOptions;
use crate::span::Span;
use rustc_hash::FxHashMap;

/// Drops repeated diagnostics (same code, message and labels) reported
/// from index `from` on, keeping the first.
pub(super) fn dedup_diagnostics(diags: &mut Diagnostics, from: usize) {
    // A diagnostic's code, message and labels.
    type Key = (&'static str, String, Vec<(Span, String)>);
    let mut seen: rustc_hash::FxHashSet<Key> = Default::default();
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
    pub interp: Option<ir::Interpolation>,
    pub sampling: Option<ir::Sampling>,
    pub semantic: Option<(Symbol, Span)>,
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
    /// A template's explicit specialisations by their arguments
    /// (`template<> float f<half>(half x) {…}`): an instance with those
    /// arguments has that signature and body.
    pub specializations: FxHashMap<Vec<TArg>, &'a ast::Function>,
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
    /// A resource parameter or struct member a function is specialized
    /// for that holds no resource yet (an `out` parameter, a member never
    /// assigned): using it in the body is an error.
    NoRes,
    /// A resource parameter given an element of global array `gv` chosen
    /// at run time: the instance receives its `count` indices as `uint`
    /// arguments after all others, and indexes the global itself.
    ResIndexed {
        gv: ir::Handle<ir::GlobalVariable>,
        count: u8,
    },
    /// A function returning a resource specialized for the constant
    /// argument of its `param`-th parameter (which its body never
    /// changes), so that it can choose the resource at compile time.
    ConstArg {
        param: u16,
        value: i64,
    },
    /// A function whose `nointerpolation` parameter `param` is given the
    /// per-vertex pixel input named `input` (see `entry/vertex.rs`), so
    /// that `GetAttributeAtVertex` in its body reads that input.
    Vertex {
        param: u16,
        input: Symbol,
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
    /// For a struct template, the primary template: `forward` when it was
    /// only declared (`template<typename T> struct Trait;`).
    pub kind: TemplateKind<'a>,
    /// The scope the template was declared in.
    pub scope: ScopeId,
    /// Each argument list instantiated so far (instantiation is linear:
    /// once per list).
    pub instances: FxHashMap<Vec<TArg>, TyId>,
    /// Explicit specialisations by their argument list
    /// (`template<> struct Trait<half> {…}`).
    pub specializations: FxHashMap<Vec<TArg>, &'a ast::StructDecl>,
    /// Partial specialisations, in declaration order
    /// (`template<typename T, int N> struct Trait<vector<T, N> > {…}`).
    pub partials: Vec<&'a ast::StructDecl>,
    /// Out-of-line definitions of static members (`template<typename T>
    /// const static T S<T>::m = …;`), applied to every instance, with the
    /// scope each was written in.
    pub static_defs: Vec<(&'a ast::TemplateParams, &'a ast::VarDecl, ScopeId)>,
    pub span: Span,
}

impl<'a> Template<'a> {
    pub fn new(
        name: Symbol,
        params: &'a ast::TemplateParams,
        kind: TemplateKind<'a>,
        scope: ScopeId,
        span: Span,
    ) -> Template<'a> {
        Template {
            name,
            params,
            kind,
            scope,
            instances: FxHashMap::default(),
            specializations: FxHashMap::default(),
            partials: Vec::new(),
            static_defs: Vec::new(),
            span,
        }
    }
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
    PendingGlobal,
    /// A `static` resource variable: another name for a resource, set by
    /// its initializer or an assignment (index into `Sema::res_paths`).
    ResAlias(Option<ResPathId>),
    /// A global struct (or array of structs) of resources, flattened as
    /// DXC's legalization does: one global per member (struct: base
    /// first, then fields) or element, each a resource of its own or
    /// flattened in turn.
    ResStruct(Vec<GlobalId>),
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
    /// A `string` variable's text (its initializer), for `printf`.
    pub text: Option<String>,
}

impl GlobalInfo {
    /// A global named `name` of type `ty`, before its declaration gives it
    /// a kind (until then, an error that uses report nothing about).
    pub fn new(name: Symbol, ty: TyId, span: Span) -> GlobalInfo {
        GlobalInfo {
            name,
            ty,
            kind: GlobalKind::Error,
            span,
            read_only: None,
            konst: None,
            counter: None,
            resource: None,
            text: None,
        }
    }
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
    /// `vk::ext_decorate*` on the declaration: on the member.
    pub decorations: Vec<ir::SpirvDecoration>,
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
    /// A subpass input's `[[vk::input_attachment_index(i)]]`.
    pub input_attachment: Option<u32>,
    /// The register class the resource type implies (auto shift).
    pub class: crate::sema::options::RegisterClass,
    /// For a counter: the resource it counts (index into `resources`).
    pub counter_of: Option<ResourceId>,
    /// A member of a flattened global struct: an array takes one binding
    /// per element, as DXC's legalization leaves it.
    pub in_struct: bool,
    /// `[[vk::combinedImageSampler]]`: the attribute's span.
    pub combined: Option<Span>,
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

/// What the translation unit declares: functions, templates, globals, and
/// the declaration-time state (`#pragma pack_matrix`, template depth).
pub struct Decls<'a> {
    pub funcs: Table<FuncDeclId, FuncDecl<'a>>,
    pub templates: Table<TemplateId, Template<'a>>,
    pub globals: Table<GlobalId, GlobalInfo>,
    /// Struct template instances: their template and arguments.
    pub struct_instances: FxHashMap<TyId, (TemplateId, Vec<TArg>)>,
    /// The template instance whose struct `declare_struct_named` makes
    /// next: cached as soon as its (empty) type exists, so that its body
    /// naming it (`S<T>` inside `S`) finds it instead of instantiating it
    /// again.
    pub pending_instance: Option<(TemplateId, Vec<TArg>)>,
    /// `const static` members declared without a value and not defined
    /// (yet): where, and their qualified names. A use is an error.
    pub undefined_statics: FxHashMap<GlobalId, (Span, String)>,
    /// Inline struct definitions already declared (by address).
    pub inline_structs: FxHashMap<usize, TyId>,
    /// Structs declared `struct S;` and not defined yet.
    pub forward_structs: Vec<TyId>,
    /// Predefined struct types (`RayDesc`…), made on first use.
    pub builtin_structs: FxHashMap<&'static str, TyId>,
    /// groupshared variables with their spans, for the size budget.
    pub groupshared: Vec<(Symbol, TyId, Span)>,
    /// The attributes of typedefs and aliases that ask for capabilities or
    /// extensions (`TypeEntry::features`), with the scope they evaluate in.
    pub alias_features: Vec<(&'a [ast::Attribute], ScopeId)>,
    /// `vk::ext_type_def` calls and the `vk::ext_type<id>` types made.
    pub ext_types: super::decl::ext_type::ExtTypes<'a>,
    /// Alias templates written `using P = const T;`: their variables are
    /// `const`.
    pub const_alias_templates: rustc_hash::FxHashSet<TemplateId>,
    /// `#pragma pack_matrix` state: matrices default to row-major.
    pack_row_major: bool,
    /// Template instantiation depth, to stop runaway recursion.
    instantiation_depth: u32,
    /// For each function name, the parameter indices (bits) some overload
    /// takes `out`/`inout`, over the first `.1` function declarations.
    out_params: (FxHashMap<Symbol, u64>, usize),
}

impl<'a> Decls<'a> {
    fn new(pack_row_major: bool) -> Self {
        Decls {
            funcs: Table::new(),
            templates: Table::new(),
            globals: Table::new(),
            struct_instances: FxHashMap::default(),
            pending_instance: None,
            undefined_statics: FxHashMap::default(),
            inline_structs: FxHashMap::default(),
            alias_features: Vec::new(),
            ext_types: Default::default(),
            const_alias_templates: Default::default(),
            forward_structs: Vec::new(),
            builtin_structs: FxHashMap::default(),
            groupshared: Vec::new(),
            pack_row_major,
            instantiation_depth: 0,
            out_params: (FxHashMap::default(), 0),
        }
    }

    /// Default matrix majorness for declarations made now.
    pub fn default_row_major(&self) -> bool {
        self.pack_row_major
    }
    /// `#pragma pack_matrix(row_major)` or `(column_major)`.
    pub fn set_pack_matrix(&mut self, row_major: bool) {
        self.pack_row_major = row_major;
    }

    /// Enters one more level of template instantiation; `false` when
    /// instantiations nest too deep (a runaway recursion).
    pub fn enter_instantiation(&mut self) -> bool {
        if self.instantiation_depth > 64 {
            return false;
        }
        self.instantiation_depth += 1;
        true
    }
    pub fn leave_instantiation(&mut self) {
        self.instantiation_depth -= 1;
    }

    /// Records, for each function name, the parameter positions that some
    /// overload takes `out` or `inout` (see [`Decls::may_take_out`]).
    pub fn summarize_out_params(&mut self) {
        let mut map: FxHashMap<Symbol, u64> = FxHashMap::default();
        for f in &self.funcs {
            let mut bits = 0u64;
            for (i, p) in f.ast.params.iter().enumerate().take(64) {
                if takes_out(p) {
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
        let takes =
            |f: &FuncDecl| f.name == callee && f.ast.params.get(index).is_some_and(takes_out);
        // The functions declared before lowering started are summarized;
        // later ones (methods of template instances) are looked at.
        let (map, summarized) = &self.out_params;
        let user = map
            .get(&callee)
            .is_some_and(|&bits| index < 64 && bits & (1 << index) != 0)
            || (index >= 64 && self.funcs.values().take(*summarized).any(takes))
            || self.funcs.since(*summarized).iter().any(takes);
        user || super::calls::intrinsics::table::find_symbol(callee).is_some_and(|i| {
            i.overloads
                .iter()
                .any(|o| o.params.get(index).is_some_and(|p| p.out))
        })
    }
}

fn takes_out(p: &ast::Param) -> bool {
    p.modifiers.has(ast::Modifier::Out) || p.modifiers.has(ast::Modifier::Inout)
}

/// What needs a descriptor binding (resources, the `$Globals` block, the
/// descriptor heaps and their counters), and the resources that lowering
/// resolves at compile time.
#[derive(Default)]
pub struct ResourceRegistry {
    /// Resource declarations in declaration order (the `$Globals` block
    /// takes the place of its first member: `globals_block_order`).
    pub decls: Table<ResourceId, ResourceDecl>,
    pub globals_members: Table<GlobalsMemberId, GlobalsMember>,
    /// The `$Globals` block, once built.
    pub globals_block: Option<ir::Handle<ir::GlobalVariable>>,
    pub globals_block_order: Option<usize>,
    /// The resource each resource-returning function returns (`None`: not
    /// one resolvable at compile time).
    pub returned_res: FxHashMap<ir::Handle<ir::Function>, Option<ResReturn>>,
    /// The resources (by aggregate slot) each function returning a struct
    /// holding resources returns (`None`: not resolvable at compile time;
    /// `None` within: a member never assigned).
    pub returned_agg: FxHashMap<ir::Handle<ir::Function>, Option<Vec<Option<ResPathId>>>>,
    /// The resource each specialized function leaves in its `out`/`inout`
    /// resource parameters, by parameter index (`None`: none, or not the
    /// same one on every return).
    pub out_res: FxHashMap<ir::Handle<ir::Function>, Vec<(u16, Option<ResPathId>)>>,
    /// Runtime arrays standing for the descriptor heaps, by element memory
    /// type and heap (sampler or resource).
    pub heaps: FxHashMap<(ir::Handle<ir::Type>, bool), ir::Handle<ir::GlobalVariable>>,
    /// Where `ResourceDescriptorHeap` and `SamplerDescriptorHeap` (in
    /// this order) are first named.
    pub heap_spans: [Option<Span>; 2],
    /// The runtime array of counters of resources taken from the heap.
    pub counter_heap: Option<ir::Handle<ir::GlobalVariable>>,
    /// The first push constant block.
    pub push_constant_span: Option<Span>,
    /// `[[vk::combinedImageSampler]]` pairs: each sampler's global and the
    /// texture's, which became the one combined image sampler variable
    /// (the sampler's name now names it; its own global is never used).
    pub combined: FxHashMap<ir::Handle<ir::GlobalVariable>, ir::Handle<ir::GlobalVariable>>,
    /// Interned resource paths (`TArg::Res`).
    paths: Table<ResPathId, ResPath>,
    path_ids: FxHashMap<ResPath, ResPathId>,
}

impl ResourceRegistry {
    /// Interns a resource path.
    pub fn intern_path(&mut self, p: ResPath) -> ResPathId {
        if let Some(&i) = self.path_ids.get(&p) {
            return i;
        }
        let i = self.paths.push(p.clone());
        self.path_ids.insert(p, i);
        i
    }
    pub fn path(&self, id: ResPathId) -> &ResPath {
        &self.paths[id]
    }
    /// The resource declared for global `gv`.
    pub fn decl_of(
        &self,
        gv: ir::Handle<ir::GlobalVariable>,
    ) -> Option<(ResourceId, &ResourceDecl)> {
        self.decls.iter().find(|(_, r)| r.gv == gv)
    }
}

/// The entry point: its wrapper, the user's function it calls, and what
/// the wrapper or the stage needs besides.
#[derive(Default)]
pub struct EntryState<'a> {
    /// The entry point's IR wrapper, once made.
    pub wrapper: Option<ir::Handle<ir::Function>>,
    /// The user's entry function (`src.main`), whose arguments are stage
    /// inputs.
    pub user: Option<ir::Handle<ir::Function>>,
    /// Initialisers of `static` globals that must run at entry (global,
    /// the initialiser, the scope it resolves in).
    pub static_inits: Vec<(GlobalId, &'a ast::Initializer, ScopeId)>,
    /// Some reachable code takes derivatives (explicitly, or by implicit-LOD
    /// sampling): compute shaders then need a derivative group mode.
    pub uses_derivatives: bool,
    /// Geometry shaders: the output streams, in parameter order.
    pub streams: Vec<StreamOut>,
    /// Per-vertex pixel inputs (`GetAttributeAtVertex`).
    pub vertex: VertexInputs,
    /// Mesh shader outputs and the amplification shader's payload.
    pub mesh: super::entry::mesh::MeshState,
    /// A hit or miss shader's incoming ray payload (global, IR type), which
    /// the user's function holds in its first (`inout`) parameter.
    pub ray_payload: Option<(ir::Handle<ir::GlobalVariable>, ir::Handle<ir::Type>)>,
    /// A work graph node's input and outputs.
    pub node: super::entry::node::NodeState,
    /// A library's functions are lowered once, under the stage of the
    /// first entry that reaches them: each function's uses of intrinsics
    /// that only some stages have, with that stage, so that the other
    /// entries reaching it are checked too.
    pub stage_uses: rustc_hash::FxHashMap<ir::Handle<ir::Function>, (Stage, Vec<StageUse>)>,
}

/// A call of an intrinsic that only some stages have (`ReportHit`,
/// `DispatchRaysIndex`…), where a function's body makes it.
#[derive(Clone, Copy)]
pub struct StageUse {
    pub name: &'static str,
    pub stages: &'static [Stage],
    pub span: Span,
}

/// A pixel shader's `nointerpolation` inputs read one vertex at a time.
/// When some code calls `GetAttributeAtVertex`, each of them is an array
/// of three decorated `PerVertexKHR` (DXC); a plain read takes vertex 0.
#[derive(Default)]
pub struct VertexInputs {
    /// The pixel shader calls `GetAttributeAtVertex` somewhere.
    pub enabled: bool,
    /// By the name the wrapper gives the input (`input.color`, the
    /// parameter and its fields): the array variable, its element's IR
    /// type, and the element's HLSL type as declared (`bool` inputs are
    /// `uint` variables).
    pub by_name: FxHashMap<String, VertexInput>,
    /// The entry's parameters that hold such inputs: name and the span
    /// of the declaration, to tell them from locals of the same name.
    pub roots: Vec<(crate::intern::Symbol, Span)>,
    /// `nointerpolation` inputs of other types (structs with a semantic,
    /// arrays, matrices), by name: not read per vertex.
    pub unsupported: Vec<String>,
}

/// One per-vertex input variable.
#[derive(Clone, Copy)]
pub struct VertexInput {
    pub var: ir::Handle<ir::GlobalVariable>,
    pub elem: ir::Handle<ir::Type>,
    pub var_ty: crate::sema::types::TyId,
}

/// A geometry shader output stream.
#[derive(Clone, Debug)]
pub struct StreamOut {
    /// The vertex type (`T` of `TriangleStream<T>`).
    pub elem: crate::sema::types::TyId,
    /// The stream's number: its place among the stream parameters.
    pub number: u32,
    /// The number `EmitVertex`/`EndPrimitive` carry: `None` when it is the
    /// only stream.
    pub stream: Option<u32>,
    /// `append.N(vertex)`: stores the vertex to the stream's outputs and
    /// emits it.
    pub append: ir::Handle<ir::Function>,
    /// The entry parameter it is.
    pub param: Option<usize>,
    /// Its output variables.
    pub outputs: Vec<ir::Handle<ir::GlobalVariable>>,
}

/// The function bodies to lower, first come first served (as DXC's work
/// queue, so that lazily made globals such as counters come in its
/// order), and what lowering them records: the call graph and the names
/// of IR functions.
#[derive(Default)]
pub struct Worklist {
    pending: std::collections::VecDeque<Pending>,
    /// Functions whose bodies are lowered.
    lowered: rustc_hash::FxHashSet<ir::Handle<ir::Function>>,
    calls: Vec<CallEdge>,
    /// IR function → its user-facing name and span, for diagnostics.
    names: FxHashMap<ir::Handle<ir::Function>, (String, Span)>,
    /// What the last body lowered left for the next to reuse.
    pub(super) scratch: super::body::Scratch,
}

impl Worklist {
    pub(super) fn queue(&mut self, p: Pending) {
        self.pending.push_back(p);
    }
    /// The next body to lower (not lowered yet).
    pub(super) fn next(&mut self) -> Option<Pending> {
        while let Some(p) = self.pending.pop_front() {
            if !self.lowered.contains(&p.func) {
                return Some(p);
            }
        }
        None
    }
    /// Takes `func`'s body out of the queue, to lower it now.
    pub(super) fn take(&mut self, func: ir::Handle<ir::Function>) -> Option<Pending> {
        if self.lowered.contains(&func) {
            return None;
        }
        let i = self.pending.iter().position(|p| p.func == func)?;
        self.pending.remove(i)
    }
    pub(super) fn mark_lowered(&mut self, func: ir::Handle<ir::Function>) {
        self.lowered.insert(func);
    }
    pub fn record_call(
        &mut self,
        caller: ir::Handle<ir::Function>,
        callee: ir::Handle<ir::Function>,
        span: Span,
    ) {
        self.calls.push(CallEdge {
            caller,
            callee,
            span,
        });
    }
    pub(super) fn calls(&self) -> &[CallEdge] {
        &self.calls
    }
    pub fn set_name(&mut self, func: ir::Handle<ir::Function>, name: String, span: Span) {
        self.names.insert(func, (name, span));
    }
    /// The user-facing name of an IR function.
    pub fn name(&self, func: ir::Handle<ir::Function>) -> Option<&str> {
        self.names.get(&func).map(|(n, _)| n.as_str())
    }
}

/// Semantic analysis of one translation unit for one entry point.
///
/// `FnCtx` (in `body`) lowers one function body with a `&mut Sema`; what
/// it reaches is grouped by role: the types and scopes, the declarations,
/// the resource registry, the entry point, the worklist of bodies.
pub struct Sema<'a> {
    pub opts: &'a SemaOptions,
    /// The stage `-T` names.
    pub stage: Stage,
    diags: &'a mut Diagnostics,
    /// The module being built.
    pub module: ir::Module,
    /// HLSL types: the interner with its struct and enum tables.
    pub types: Types,
    /// The tree of namespaces, struct scopes and template environments.
    pub scopes: Scopes,
    /// Laid-out buffer types, and the explicit offsets found misaligned.
    pub layouts: Layouts,
    pub decls: Decls<'a>,
    pub res: ResourceRegistry,
    pub entry: EntryState<'a>,
    pub work: Worklist,
    /// Module constants of zero values, by type.
    zero_consts: FxHashMap<ir::Handle<ir::Type>, ir::Handle<ir::Expression>>,
    /// The code-intelligence side table, when `SemaOptions::index` asks for
    /// it (`sema::index`).
    pub index: Option<Box<super::index::Recorder>>,
}

impl<'a> Sema<'a> {
    pub fn new(opts: &'a SemaOptions, diags: &'a mut Diagnostics, stage: Stage) -> Self {
        Sema {
            opts,
            stage,
            diags,
            module: ir::Module {
                vendor: ir::Vendor {
                    mesh_nv: false,
                    // DXC's choice: NVIDIA's when `-fspv-extension` names
                    // it and not the Khronos one.
                    ray_tracing_nv: ir::extensions::allowed(
                        &opts.allowed_extensions,
                        "SPV_NV_ray_tracing",
                    ) && !opts.allowed_extensions.is_empty()
                        && !ir::extensions::allowed(
                            &opts.allowed_extensions,
                            "SPV_KHR_ray_tracing",
                        ),
                },
                ..ir::Module::default()
            },
            types: Types::new(),
            scopes: Scopes::new(),
            layouts: Layouts::new(
                crate::sema::types::layout::Rule::for_buffer(
                    opts.layout,
                    crate::sema::types::layout::BufferKind::Storage,
                ),
                opts.matrix_layout == crate::sema::options::MatrixLayout::RowMajor,
            ),
            decls: Decls::new(opts.matrix_layout == crate::sema::options::MatrixLayout::RowMajor),
            res: ResourceRegistry::default(),
            entry: EntryState::default(),
            work: Worklist::default(),
            zero_consts: FxHashMap::default(),
            index: opts.index.then(Box::default),
        }
    }

    // --- diagnostics -----------------------------------------------------

    pub fn error(
        &mut self,
        code: Code,
        msg: impl Into<String>,
        span: Span,
        label: impl Into<String>,
    ) {
        self.push(Diagnostic::error(code, msg).label(span, label));
    }
    pub fn warn(
        &mut self,
        code: Code,
        msg: impl Into<String>,
        span: Span,
        label: impl Into<String>,
    ) {
        self.push(Diagnostic::warning(code, msg).label(span, label));
    }
    pub fn push(&mut self, d: Diagnostic) {
        self.diags.push(d);
    }
    /// How many diagnostics were reported so far (a mark for
    /// [`Sema::drop_diagnostics_since`] and [`Sema::diagnostics_since`]).
    pub fn diagnostic_mark(&self) -> usize {
        self.diags.list.len()
    }
    pub fn diagnostics_since(&self, mark: usize) -> &[Diagnostic] {
        self.diags.list.get(mark..).unwrap_or_default()
    }
    pub fn error_count(&self) -> usize {
        self.diags.error_count()
    }
    /// Drops the diagnostics reported since `mark` that `drop` selects.
    pub fn drop_diagnostics_since(&mut self, mark: usize, drop: impl Fn(&Diagnostic) -> bool) {
        let mut i = 0;
        self.diags.list.retain(|d| {
            i += 1;
            i <= mark || !drop(d)
        });
    }
    pub fn unsupported(&mut self, what: impl std::fmt::Display, span: Span) {
        let d = Diagnostic::error(codes::UNSUPPORTED, format!("not supported yet: {what}"));
        self.diags.push(d.label(span, "not supported yet"));
    }
    pub fn ty_name(&self, ty: TyId) -> String {
        self.types.name(ty)
    }
    #[inline]
    pub fn ir_ty(&mut self, ty: TyId) -> ir::Handle<ir::Type> {
        if !self.decls.forward_structs.is_empty() {
            self.check_defined(ty);
        }
        self.types.ir_type(&mut self.module, &mut self.layouts, ty)
    }

    /// A value of a struct declared `struct S;` and never defined has no
    /// layout: an error, once per struct.
    fn check_defined(&mut self, ty: TyId) {
        let mut t = ty;
        while let Ty::Array(e, _) = *self.types.get(t) {
            t = e;
        }
        if !self.decls.forward_structs.contains(&t) {
            return;
        }
        self.decls.forward_structs.retain(|&x| x != t);
        let Ty::Struct(sid) = *self.types.get(t) else {
            return;
        };
        let info = self.types.struct_info(sid);
        let (name, span) = (info.display.clone(), info.span);
        self.push(
            Diagnostic::error(
                codes::UNKNOWN_TYPE,
                format!("struct `{name}` is declared but never defined"),
            )
            .label(span, "declared here, without members")
            .note(
                "a value of a struct needs its definition (`struct S { ... };`) in the same scope",
            ),
        );
    }

    /// A module-level zero constant of an IR type (cached by type).
    pub fn zero_const(&mut self, ty: ir::Handle<ir::Type>) -> ir::Handle<ir::Expression> {
        if let Some(&c) = self.zero_consts.get(&ty) {
            return c;
        }
        let c = self
            .module
            .add_const_expression(ir::Expression::ZeroValue(ty), ty);
        self.zero_consts.insert(ty, c);
        c
    }

    /// A resource path as HLSL would spell it (`bufs[2]`).
    pub fn res_path_name(&self, i: ResPathId) -> String {
        let p = self.res.path(i);
        let mut s = self.module.globals[p.gv].name.clone().unwrap_or_default();
        for ix in &p.indices {
            s.push_str(&format!("[{ix}]"));
        }
        s
    }
}
