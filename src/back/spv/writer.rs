//! The module as a whole: header, capabilities, extensions, globals,
//! functions, and the assembly of SPIR-V's logical layout (SPIR-V 2.4).

use super::constant::ConstCache;
use super::debug::DebugState;
use super::types::TypeCache;
use super::{BackResult, Options, encode, encode_joined, encode_with_string, encode_words, internal};
use crate::back::spv::inst;
use crate::ir::{self, Handle};
use crate::span::Span;
use rspirv::binary::Assemble;
use rspirv::dr::{self, Instruction, Operand};
use rustc_hash::{FxHashMap, FxHashSet};
use spirv::{Capability, Op, Word};
use std::collections::{BTreeMap, BTreeSet};

/// The instructions of one section of the module (SPIR-V 2.4), encoded
/// as they are written.
#[derive(Default)]
pub(super) struct Section(Vec<u32>);

impl Section {
    /// An empty section with room for `words` words.
    fn with_capacity(words: usize) -> Self {
        Section(Vec::with_capacity(words))
    }

    /// Appends `inst`.
    pub fn push(&mut self, inst: Instruction) {
        inst.assemble_into(&mut self.0);
    }

    /// Appends an instruction that ends with a string (see
    /// [`encode_with_string`]).
    pub fn encode_with_string(
        &mut self,
        op: Op,
        result_id: Option<Word>,
        operands: &[Word],
        text: &str,
    ) {
        encode_with_string(&mut self.0, op, result_id, operands, text);
    }

    /// Appends an instruction whose operands are one word each (see
    /// [`encode_words`]).
    pub fn encode_words(
        &mut self,
        op: Op,
        result_type: Option<Word>,
        result_id: Option<Word>,
        operands: &[Word],
    ) {
        encode_words(&mut self.0, op, result_type, result_id, operands);
    }
}

/// What one IR function touches, for entry-point interfaces.
#[derive(Clone, Debug, Default)]
pub(super) struct FunctionUses {
    /// Globals named by its expressions (sorted, unique).
    pub globals: Vec<Handle<ir::GlobalVariable>>,
    /// Functions it calls (sorted, unique).
    pub callees: Vec<Handle<ir::Function>>,
    /// Built-in input variables the backend created for it (wave lane
    /// index and count), by id.
    pub builtins: BTreeSet<Word>,
}

pub(super) struct Writer<'a> {
    pub ir: &'a ir::Module,
    pub options: &'a Options,
    /// (major, minor) of the SPIR-V being written.
    pub version: (u8, u8),
    pub(super) next_id: Word,
    /// Capabilities the module uses, with the span of each one's first
    /// use; extensions asked for by name (`requirements.rs` derives the
    /// rest).
    pub capabilities: BTreeSet<Capability>,
    pub first_use: BTreeMap<Capability, Span>,
    pub extensions: BTreeSet<String>,
    pub ext_first_use: BTreeMap<String, Span>,
    /// Instructions that need a newer SPIR-V than 1.0 (`OpDecorateId`,
    /// `OpExecutionModeId`): the version each needs and the first span.
    pub instruction_first_use: BTreeMap<&'static str, ((u8, u8), Span)>,
    /// The source span of what is being written, for diagnostics of the
    /// requirements.
    pub cur_span: Span,
    glsl_std: Option<Word>,
    /// Extended instruction sets other than GLSL.std.450, by name.
    pub ext_sets: BTreeMap<String, Word>,
    /// `OpString`s the code uses (printf formats), one per text.
    strings: Section,
    string_ids: FxHashMap<String, Word>,
    pub annotations: Section,
    pub names: Section,
    /// Types, constants and global variables, in definition order.
    pub globals: Section,
    /// The functions written so far, encoded.
    pub functions: Vec<u32>,
    pub types: TypeCache,
    pub constants: ConstCache,
    /// The `OpVariable` of each IR global the module declares
    /// ([`ir::Module::declared_globals`]); `None` for one left out.
    pub global_ids: Vec<Option<Word>>,
    /// The `OpFunction` id of each IR function reachable from an entry point.
    pub function_ids: Vec<Option<Word>>,
    pub function_uses: Vec<FunctionUses>,
    /// Input variables the backend adds itself (`SubgroupSize`…).
    pub builtin_inputs: BTreeMap<spirv::BuiltIn, Word>,
    /// Struct ids decorated as buffer blocks: the decoration, and whether
    /// the buffer is writable.
    pub block_structs: FxHashMap<Word, (spirv::Decoration, bool)>,
    /// Fragment inputs (by variable id) decorated `Flat`.
    pub flat_added: FxHashSet<Word>,
    /// Source-level debug information, when asked for.
    pub debug: Option<DebugState<'a>>,
    /// Some instruction has the Device scope (under the Vulkan memory
    /// model that needs `VulkanMemoryModelDeviceScope`).
    pub device_scope_used: bool,
}

impl<'a> Writer<'a> {
    pub fn new(ir: &'a ir::Module, options: &'a Options) -> Self {
        // Room up front for what a small module writes (a section that
        // grows from nothing is copied at every doubling), and for about
        // five words per IR expression of code.
        let code: usize = ir.functions.iter().map(|(_, f)| f.expressions.len()).sum();
        let names = if options.debug_names { 256 } else { 0 };
        Writer {
            ir,
            options,
            version: options.target_env.spirv_version(),
            next_id: 1,
            capabilities: BTreeSet::new(),
            first_use: BTreeMap::new(),
            extensions: BTreeSet::new(),
            ext_first_use: BTreeMap::new(),
            instruction_first_use: BTreeMap::new(),
            cur_span: Span::default(),
            glsl_std: None,
            ext_sets: BTreeMap::new(),
            strings: Section::default(),
            string_ids: FxHashMap::default(),
            annotations: Section::with_capacity(128),
            names: Section::with_capacity(names),
            globals: Section::with_capacity(512),
            functions: Vec::with_capacity(5 * code + 64),
            types: TypeCache::new(&ir.types),
            constants: ConstCache::with_capacity(64),
            global_ids: Vec::new(),
            function_ids: vec![None; ir.functions.len()],
            function_uses: vec![FunctionUses::default(); ir.functions.len()],
            builtin_inputs: BTreeMap::new(),
            block_structs: FxHashMap::default(),
            flat_added: FxHashSet::default(),
            debug: None,
            device_scope_used: false,
        }
    }

    /// A fresh result id.
    pub fn id(&mut self) -> Word {
        let id = self.next_id;
        self.next_id += 1;
        id
    }

    /// True when the SPIR-V being written is at least `major.minor`.
    pub fn version_at_least(&self, major: u8, minor: u8) -> bool {
        self.version >= (major, minor)
    }

    /// The id of the `GLSL.std.450` import, imported on first use.
    pub fn glsl_std(&mut self) -> Word {
        match self.glsl_std {
            Some(id) => id,
            None => {
                let id = self.id();
                self.glsl_std = Some(id);
                id
            }
        }
    }

    /// An `OpString` of `text` (one per distinct text).
    pub fn string(&mut self, text: &str) -> Word {
        if let Some(&id) = self.string_ids.get(text) {
            return id;
        }
        let id = self.id();
        self.strings.encode_with_string(Op::String, Some(id), &[], text);
        self.string_ids.insert(text.to_string(), id);
        id
    }

    pub fn decorate(&mut self, target: Word, decoration: spirv::Decoration, extra: &[u32]) {
        let head = [target, decoration as u32];
        encode_joined(&mut self.annotations.0, Op::Decorate, &head, extra);
    }

    /// `LinkageAttributes "name" Export` on an `export` function (Linkage
    /// capability), as DXC writes it.
    pub fn decorate_export(&mut self, target: Word, name: &str) {
        self.capability(Capability::Linkage);
        self.decorate_with(
            target,
            spirv::Decoration::LinkageAttributes,
            vec![
                Operand::LiteralString(name.to_string()),
                Operand::LinkageType(spirv::LinkageType::Export),
            ],
        );
    }

    pub fn decorate_builtin(&mut self, target: Word, builtin: spirv::BuiltIn) {
        self.decorate(target, spirv::Decoration::BuiltIn, &[builtin as u32]);
    }

    /// `OpDecorate target decoration operands…`.
    fn decorate_with(&mut self, target: Word, decoration: spirv::Decoration, extra: Vec<Operand>) {
        let mut operands = vec![Operand::IdRef(target), Operand::Decoration(decoration)];
        operands.extend(extra);
        self.annotations
            .push(inst(Op::Decorate, None, None, operands));
    }

    pub fn decorate_member(
        &mut self,
        target: Word,
        member: u32,
        decoration: spirv::Decoration,
        extra: &[u32],
    ) {
        let head = [target, member, decoration as u32];
        encode_joined(&mut self.annotations.0, Op::MemberDecorate, &head, extra);
    }

    /// `OpName`, when debug names are asked for.
    pub fn name(&mut self, target: Word, name: &str) {
        if self.options.debug_names && !name.is_empty() {
            self.names.encode_with_string(Op::Name, None, &[target], name);
        }
    }

    pub fn member_name(&mut self, target: Word, member: u32, name: &str) {
        if self.options.debug_names && !name.is_empty() {
            self.names
                .encode_with_string(Op::MemberName, None, &[target, member], name);
        }
    }

    /// Declares the globals the entry points use (and those the options
    /// keep; [`ir::Module::declared_globals`]) in the IR's order, except
    /// that with `-fspv-reflect` a buffer's counter comes just before the
    /// buffer: `OpDecorateId BUFFER CounterBuffer COUNTER` needs its id
    /// operand declared before its target (newer spirv-val checks this).
    fn write_globals(&mut self, reachable: &[Handle<ir::Function>]) -> BackResult<()> {
        let ir = self.ir;
        // What the reachable functions name, as `analyse_functions` found
        // it (the same as `globals_named_by`, without another pass over
        // every expression).
        let mut named = vec![false; ir.globals.len()];
        for f in reachable {
            for g in &self.function_uses[f.index()].globals {
                if let Some(n) = named.get_mut(g.index()) {
                    *n = true;
                }
            }
        }
        let declared = ir.declared_globals_among(named, self.options.keep_unused);
        let mut ids: Vec<Option<Word>> = vec![None; ir.globals.len()];
        for (handle, global) in ir.globals.iter() {
            let first = global.counter.filter(|_| self.options.spv_reflect);
            for h in first.into_iter().chain([handle]) {
                if declared[h.index()] && ids[h.index()].is_none() {
                    self.cur_span = ir.decl_spans.globals.get(&h).copied().unwrap_or_default();
                    ids[h.index()] = Some(self.write_global(h, &ir.globals[h])?);
                }
            }
            // What cannot be declared is an error whether used or not.
            if !declared[handle.index()] {
                let get = |h: Handle<ir::Type>| (h.index() < ir.types.len()).then(|| &ir.types[h]);
                let mut ty = get(global.ty);
                while let Some(ir::TypeInner::Array { base, .. }) = ty.map(|t| &t.inner) {
                    ty = get(*base);
                }
                if let Some(ir::TypeInner::Image { sampled, .. }) = ty.map(|t| &t.inner) {
                    super::types::texel_type(*sampled)?;
                }
            }
        }
        self.global_ids = ids;
        Ok(())
    }

    /// The `OpVariable` of a global that code of the module names (so
    /// that it is declared).
    pub fn global_id(&self, g: Handle<ir::GlobalVariable>) -> BackResult<Word> {
        self.global_ids
            .get(g.index())
            .copied()
            .flatten()
            .ok_or_else(|| internal(format!("global {g:?} is used but was not declared")))
    }

    /// Writes the whole module.
    pub fn write(mut self) -> BackResult<Vec<u32>> {
        self.check_entry_points()?;
        let reachable = self.analyse_functions()?;
        for &f in &reachable {
            let id = self.id();
            self.function_ids[f.index()] = Some(id);
        }
        self.spirv_decoration_constants();
        self.write_globals(&reachable)?;
        self.debug_globals();
        self.decorate_counter_buffers();
        for &f in &reachable {
            self.write_function(f)?;
        }
        self.write_spirv_decorations();
        let mut entry_points = Vec::new();
        let mut execution_modes = Vec::new();
        for ep in &self.ir.entry_points {
            let (entry, modes) = self.write_entry_point(ep)?;
            entry_points.push(entry);
            // A mode belongs to the entry point's function: entry points
            // that share one function state it once (SPIR-V forbids a
            // mode twice on one entry point, such as LocalSize).
            for m in modes {
                if !execution_modes.contains(&m) {
                    execution_modes.push(m);
                }
            }
        }
        self.debug_entry_points();

        let needs = self.resolve_requirements()?;

        // The sections in SPIR-V's logical layout (SPIR-V 2.4), in one
        // allocation (an instruction is a few words; strings may need one
        // more growth).
        let debug = self.debug.take();
        let strings = debug.as_ref().map_or(&[][..], |d| &d.strings[..]);
        let sections = [&self.strings, &self.names, &self.annotations, &self.globals];
        let count = entry_points.len() + execution_modes.len() + strings.len() + 16;
        let encoded = sections.iter().map(|s| s.0.len()).sum::<usize>();
        let mut words = Vec::with_capacity(5 * count + encoded + self.functions.len());
        let mut header = dr::ModuleHeader::new(self.next_id);
        header.set_version(self.version.0, self.version.1);
        header.assemble_into(&mut words);
        for &c in &needs.capabilities {
            encode(&mut words, Op::Capability, None, None, &[Operand::Capability(c)]);
        }
        for e in &needs.extensions {
            let name = Operand::LiteralString(e.clone());
            encode(&mut words, Op::Extension, None, None, &[name]);
        }
        if let Some(id) = self.glsl_std {
            let name = Operand::LiteralString("GLSL.std.450".into());
            encode(&mut words, Op::ExtInstImport, None, Some(id), &[name]);
        }
        for import in self.ext_set_imports() {
            import.assemble_into(&mut words);
        }
        if let Some(d) = &debug {
            let name = Operand::LiteralString(super::debug::SET_NAME.into());
            encode(&mut words, Op::ExtInstImport, None, Some(d.set), &[name]);
        }
        let model = [
            Operand::AddressingModel(needs.addressing),
            Operand::MemoryModel(needs.memory),
        ];
        encode(&mut words, Op::MemoryModel, None, None, &model);
        for instruction in entry_points.iter().chain(&execution_modes).chain(strings) {
            instruction.assemble_into(&mut words);
        }
        for section in sections {
            words.extend_from_slice(&section.0);
        }
        words.extend_from_slice(&self.functions);
        Ok(words)
    }

    /// Finds the functions reachable from the entry points (in arena order)
    /// and records what each of them uses.
    fn analyse_functions(&mut self) -> BackResult<Vec<Handle<ir::Function>>> {
        for (handle, fun) in self.ir.functions.iter() {
            let mut globals = Vec::new();
            for (_, expr) in fun.expressions.iter() {
                if let ir::Expression::GlobalVariable(g) = *expr {
                    if self.ir.globals.get(g).is_none() {
                        return Err(internal(format!(
                            "function `{}` names global {g:?}, which does not exist",
                            fun.name
                        )));
                    }
                    globals.push(g);
                }
            }
            globals.sort();
            globals.dedup();
            let mut callees = Vec::new();
            ir::visit::walk_statements(&fun.body, |s| {
                if let ir::Statement::Call { function, .. } = s {
                    callees.push(*function);
                }
            });
            callees.sort();
            callees.dedup();
            if let Some(bad) = callees
                .iter()
                .find(|c| self.ir.functions.get(**c).is_none())
            {
                return Err(internal(format!(
                    "function `{}` calls function {bad:?}, which does not exist",
                    fun.name
                )));
            }
            let uses = &mut self.function_uses[handle.index()];
            uses.globals = globals;
            uses.callees = callees;
        }
        let mut reachable = vec![false; self.ir.functions.len()];
        let mut stack: Vec<Handle<ir::Function>> = Vec::new();
        for ep in &self.ir.entry_points {
            if self.ir.functions.get(ep.function).is_none() {
                return Err(internal(format!(
                    "entry point `{}` names a function that does not exist",
                    ep.name
                )));
            }
            stack.push(ep.function);
        }
        // Exported functions are roots too: a linker may call them.
        let exported = self.ir.functions.iter().filter(|(_, f)| f.export.is_some());
        stack.extend(exported.map(|(h, _)| h));
        while let Some(f) = stack.pop() {
            if std::mem::replace(&mut reachable[f.index()], true) {
                continue;
            }
            stack.extend(self.function_uses[f.index()].callees.iter().copied());
        }
        Ok(self
            .ir
            .functions
            .handles()
            .filter(|h| reachable[h.index()])
            .collect())
    }

    /// All globals and backend-made built-ins that the functions reachable
    /// from `entry` use, in a fixed order.
    pub fn entry_point_uses(
        &self,
        entry: Handle<ir::Function>,
    ) -> (Vec<Handle<ir::GlobalVariable>>, Vec<Word>) {
        let mut seen = vec![false; self.ir.functions.len()];
        let mut globals = BTreeSet::new();
        let mut builtins = BTreeSet::new();
        let mut stack = vec![entry];
        while let Some(f) = stack.pop() {
            if std::mem::replace(&mut seen[f.index()], true) {
                continue;
            }
            let uses = &self.function_uses[f.index()];
            globals.extend(uses.globals.iter().copied());
            builtins.extend(uses.builtins.iter().copied());
            stack.extend(uses.callees.iter().copied());
        }
        (
            globals.into_iter().collect(),
            builtins.into_iter().collect(),
        )
    }
}
