//! Function bodies: parameters, local variables, blocks, statements, and
//! structured control flow (selection and loop constructs with their merge
//! and continue blocks, SPIR-V 2.11).

use super::debug::BodyDebug;
use super::types::{MatrixRepr, SpvType, matrix_repr, storage_class};
use super::writer::Writer;
use super::{BackResult, encode, encode_words, internal, unsupported};
use crate::ir::{self, Expression, Handle, Statement, TypeInner};
use rspirv::binary::Assemble;
use rspirv::dr::{Instruction, Operand};
use rustc_hash::{FxHashMap, FxHashSet};
use smallvec::{SmallVec, smallvec};
use spirv::{Decoration, Op, StorageClass, Word};
use std::collections::hash_map::Entry;

/// What an IR expression became (one word and a tag: every expression
/// has one, and evaluating it stores it).
#[derive(Clone, Copy, Debug)]
pub(super) enum Value {
    /// Not evaluated (yet).
    None,
    /// A SPIR-V value.
    Id(Word),
    /// A pointer, by its index in [`FunctionWriter::pointers`]: a root
    /// variable and the indices of an access chain that is emitted where
    /// the pointer is first used in a block (SPIR-V needs the chain to
    /// dominate its uses: later uses in that block and the blocks nested
    /// in it reuse it).
    Pointer(u32),
}

#[derive(Debug)]
pub(super) struct PointerValue {
    pub root: Word,
    pub indices: Indices,
    /// The constant value of each index, where it is one.
    pub const_indices: SmallVec<[Option<u32>; 4]>,
    pub class: StorageClass,
    /// The IR type pointed to.
    pub pointee: Handle<ir::Type>,
    /// The global at the root, if the root is a global.
    pub global: Option<Handle<ir::GlobalVariable>>,
    /// Indexed with a `NonUniform` value: the chain and what is loaded
    /// through it are decorated `NonUniform`.
    pub non_uniform: bool,
    /// For a device pointer (`PhysicalStorageBuffer`): the alignment of
    /// what it points to, for the `Aligned` operand of loads and stores.
    pub align: Option<u32>,
}

/// A copy of the inline vectors by slice (the derived copy goes element by
/// element; an access copies its base's pointer each time).
impl Clone for PointerValue {
    fn clone(&self) -> Self {
        PointerValue {
            indices: Indices::from_slice(&self.indices),
            const_indices: SmallVec::from_slice(&self.const_indices),
            ..*self
        }
    }
}

/// The indices of an access chain (inline: chains are short, and pointer
/// values are copied for every use).
pub(super) type Indices = SmallVec<[Word; 4]>;

/// What makes two access chains the same: root, indices, storage class,
/// pointee and `NonUniform`.
pub(super) type ChainKey = (Word, Indices, StorageClass, Handle<ir::Type>, bool);

/// The block that wrote an access chain: its depth among the open blocks
/// and its serial number.
#[derive(Clone, Copy, Debug)]
pub(super) struct ChainScope {
    depth: usize,
    serial: u32,
}

/// A block being written or written: its label, and its instructions
/// after the label, encoded.
pub(super) struct Block {
    pub label: Word,
    pub words: Vec<u32>,
}

/// Where `break` and `continue` go.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Targets {
    pub break_to: Option<Word>,
    pub continue_to: Option<Word>,
}

pub(super) struct FunctionWriter<'w, 'a> {
    pub w: &'w mut Writer<'a>,
    pub fun: &'a ir::Function,
    pub handle: Handle<ir::Function>,
    pub values: Vec<Value>,
    /// The pointers that [`Value::Pointer`]s name, in the order made
    /// (never changed once made: expressions may share one).
    pointers: Vec<PointerValue>,
    const_memo: Vec<Option<Word>>,
    /// Function variables for dynamic indexing into array and matrix
    /// values, by the `Access` expression.
    pub spills: FxHashMap<Handle<Expression>, Word>,
    /// Access chains already written, each with the block that wrote it:
    /// the same pointer is one chain where that block is still open (the
    /// chain dominates the block being written). A closed block's chains
    /// stay, unusable, until the same pointer is written again: forgetting
    /// them one by one cost more than keeping them.
    chains: FxHashMap<ChainKey, (Word, ChainScope)>,
    /// The serial number of each open block, outermost first.
    open_blocks: Vec<u32>,
    /// The serial number of the next block opened.
    next_block: u32,
    /// `OpVariable`s (encoded), placed at the top of the first block.
    variables: Vec<u32>,
    pub(super) blocks: Vec<Block>,
    pub(super) current: Option<Block>,
    /// Labels that some branch targets (the others are unreachable).
    pub(super) branched_to: FxHashSet<Word>,
    /// Ids decorated `NonUniform` (copies of `NonUniformResourceIndex`
    /// values and what is derived from them to reach a resource).
    pub non_uniform: FxHashSet<Word>,
    /// Set while the instructions of a precise expression are emitted.
    pub precise: bool,
    result_type: Option<Word>,
    /// How many blocks deep the statement being written is.
    depth: u32,
    /// Source-level debug information of the body, when asked for.
    pub debug: Option<BodyDebug>,
}

/// The error for a dangling expression handle (kept out of line: type
/// lookups are hot).
#[cold]
#[inline(never)]
pub(super) fn missing_expression(h: Handle<Expression>) -> super::Diagnostic {
    internal(format!("expression {h:?} does not exist"))
}

/// The error for an instruction emitted where no block is open (kept out
/// of line: every instruction asks for the open block).
#[cold]
#[inline(never)]
fn after_terminator() -> super::Diagnostic {
    internal("an instruction was emitted after a terminator")
}

/// The deepest nesting of blocks the backend writes.
const MAX_NESTING: u32 = 256;

impl Writer<'_> {
    pub fn write_function(&mut self, handle: Handle<ir::Function>) -> BackResult<()> {
        let ir = self.ir;
        let fun = &ir.functions[handle];
        if fun.expr_types.len() != fun.expressions.len() {
            return Err(internal(format!(
                "function `{}` has {} expressions but {} expression types",
                fun.name,
                fun.expressions.len(),
                fun.expr_types.len()
            )));
        }
        let Some(id) = self.function_ids[handle.index()] else {
            return Err(internal(format!("function `{}` has no id", fun.name)));
        };
        self.cur_span = fun.span;
        if let Some(name) = &fun.export {
            self.decorate_export(id, name);
        }
        let result_type = match &fun.result {
            Some(r) => Some(self.type_id(r.ty)?),
            None => None,
        };
        let ret = match result_type {
            Some(t) => t,
            None => self.void_type(),
        };
        let mut param_types = Vec::with_capacity(fun.arguments.len());
        for arg in &fun.arguments {
            param_types.push(self.type_id(arg.ty)?);
        }
        let fn_type = self.spv_type(SpvType::Function {
            result: ret,
            params: param_types.clone(),
        });
        self.name(id, &fun.name);
        let mut parameters = Vec::with_capacity(3 * fun.arguments.len());
        let mut arg_ids = Vec::with_capacity(fun.arguments.len());
        for (arg, &ty) in fun.arguments.iter().zip(&param_types) {
            let pid = self.id();
            encode_words(&mut parameters, Op::FunctionParameter, Some(ty), Some(pid), &[]);
            if let Some(name) = &arg.name {
                self.name(pid, name);
            }
            self.decorate_pointer_parameter(pid, arg.ty)?;
            self.write_spirv_decorations_on(pid, &arg.spirv_decorations);
            arg_ids.push(pid);
        }
        let def = [
            Operand::FunctionControl(spirv::FunctionControl::NONE),
            Operand::IdRef(fn_type),
        ];

        let mut fw = FunctionWriter {
            w: self,
            fun,
            handle,
            // Filled by `prepare`, in expression order.
            values: Vec::with_capacity(fun.expressions.len()),
            pointers: Vec::with_capacity(fun.expressions.len() / 4),
            const_memo: vec![None; fun.expressions.len()],
            spills: FxHashMap::default(),
            chains: FxHashMap::with_capacity_and_hasher(32, Default::default()),
            open_blocks: Vec::new(),
            next_block: 0,
            variables: Vec::new(),
            blocks: Vec::new(),
            current: None,
            branched_to: FxHashSet::default(),
            non_uniform: FxHashSet::default(),
            precise: false,
            result_type,
            depth: 0,
            debug: None,
        };
        fw.prepare(&arg_ids)?;
        let entry = fw.w.id();
        fw.begin_block(entry);
        fw.debug_begin_function(id)?;
        fw.write_block(&fun.body, Targets::default())?;
        if fw.current.is_some() {
            // Falling off the end of a function with a result cannot happen
            // in valid HLSL.
            let op = if result_type.is_some() {
                Op::Unreachable
            } else {
                Op::Return
            };
            fw.terminate(op, [])?;
        }
        let FunctionWriter {
            variables, blocks, ..
        } = fw;
        let words = &mut self.functions;
        encode(words, Op::Function, Some(ret), Some(id), &def);
        words.extend_from_slice(&parameters);
        for (i, block) in blocks.iter().enumerate() {
            encode_words(words, Op::Label, None, Some(block.label), &[]);
            if i == 0 {
                words.extend_from_slice(&variables);
            }
            words.extend_from_slice(&block.words);
        }
        encode_words(words, Op::FunctionEnd, None, None, &[]);
        Ok(())
    }
}

impl<'a> FunctionWriter<'_, 'a> {
    /// Local variables, and the values of expressions that need no
    /// evaluation (variable and argument references).
    fn prepare(&mut self, args: &[Word]) -> BackResult<()> {
        let fun = self.fun;
        let mut local_ids = Vec::with_capacity(fun.local_variables.len());
        for (_, local) in fun.local_variables.iter() {
            let ty = self.w.type_id(local.ty)?;
            let init = match local.init {
                Some(e) => Some(self.constant(e)?.ok_or_else(|| {
                    internal(format!(
                        "local `{}` has a non-constant initialiser",
                        local.name.as_deref().unwrap_or("?")
                    ))
                })?),
                None => None,
            };
            let id = self.add_variable(ty, init);
            if let Some(name) = &local.name {
                self.w.name(id, name);
            }
            self.w
                .decorate_pointer_variable(id, local.ty, local.aliased)?;
            self.w.write_spirv_decorations_on(id, &local.spirv_decorations);
            local_ids.push(id);
        }
        let ir = self.w.ir;
        for (h, expr) in fun.expressions.iter() {
            let value = match *expr {
                Expression::GlobalVariable(g) => {
                    let global = &ir.globals[g];
                    self.new_pointer(PointerValue {
                        root: self.w.global_id(g)?,
                        indices: SmallVec::new(),
                        const_indices: SmallVec::new(),
                        class: storage_class(global.space, self.w.version),
                        pointee: global.ty,
                        global: Some(g),
                        non_uniform: false,
                        align: None,
                    })
                }
                Expression::LocalVariable(l) => {
                    let Some(&root) = local_ids.get(l.index()) else {
                        return Err(internal(format!("local {l:?} does not exist")));
                    };
                    self.new_pointer(PointerValue {
                        root,
                        indices: SmallVec::new(),
                        const_indices: SmallVec::new(),
                        class: StorageClass::Function,
                        pointee: fun.local_variables[l].ty,
                        global: None,
                        non_uniform: false,
                        align: None,
                    })
                }
                Expression::FunctionArgument(i) => {
                    let Some(arg) = fun.arguments.get(i as usize) else {
                        return Err(internal(format!("argument {i} does not exist")));
                    };
                    let id = args[i as usize];
                    match self.w.ir_type(arg.ty)?.inner {
                        TypeInner::Pointer { base, space } => self.new_pointer(PointerValue {
                            root: id,
                            indices: SmallVec::new(),
                            const_indices: SmallVec::new(),
                            class: storage_class(space, self.w.version),
                            pointee: base,
                            global: None,
                            non_uniform: false,
                            align: match space {
                                ir::AddressSpace::PhysicalStorage { align } => Some(align),
                                _ => None,
                            },
                        }),
                        _ => Value::Id(id),
                    }
                }
                Expression::Access { base, .. } => {
                    // Dynamic indexing into an array or matrix value needs
                    // the value in memory (OpAccessChain works on pointers
                    // only; OpVectorExtractDynamic on vectors only).
                    let base_ty = self.expr_type(base)?;
                    let spill = match self.w.ir_type(base_ty)?.inner {
                        TypeInner::Array { .. } => true,
                        TypeInner::Matrix {
                            rows,
                            columns,
                            scalar,
                        } => matches!(
                            matrix_repr(rows, columns, scalar),
                            MatrixRepr::Matrix { .. } | MatrixRepr::Array { .. }
                        ),
                        _ => false,
                    };
                    if spill {
                        let ty = self.w.type_id(base_ty)?;
                        let var = self.add_variable(ty, None);
                        self.spills.insert(h, var);
                    }
                    Value::None
                }
                _ => Value::None,
            };
            self.values.push(value);
        }
        Ok(())
    }

    /// The value of a new pointer.
    pub fn new_pointer(&mut self, pv: PointerValue) -> Value {
        let index = self.pointers.len() as u32;
        self.pointers.push(pv);
        Value::Pointer(index)
    }

    /// The pointer that [`Value::Pointer`] `index` names.
    #[inline]
    pub fn pointer_at(&self, index: u32) -> BackResult<&PointerValue> {
        match self.pointers.get(index as usize) {
            Some(pv) => Ok(pv),
            None => Err(internal(format!("pointer {index} does not exist"))),
        }
    }

    /// A new Function-storage variable of type `ty`.
    pub fn add_variable(&mut self, ty: Word, init: Option<Word>) -> Word {
        let pointer = self.w.pointer_type(ty, StorageClass::Function);
        let id = self.w.id();
        let class = Operand::StorageClass(StorageClass::Function);
        let operands = match init {
            Some(init) => &[class, Operand::IdRef(init)][..],
            None => &[class][..],
        };
        encode(&mut self.variables, Op::Variable, Some(pointer), Some(id), operands);
        id
    }

    /// The value of function expression `h` as a constant, if it is one.
    pub fn constant(&mut self, h: Handle<Expression>) -> BackResult<Option<Word>> {
        let fun = self.fun;
        self.w
            .constant_of(&fun.expressions, &fun.expr_types, h, &mut self.const_memo)
    }

    #[inline]
    pub fn expr_type(&self, h: Handle<Expression>) -> BackResult<Handle<ir::Type>> {
        match self.fun.expr_types.get(h.index()) {
            Some(&ty) => Ok(ty),
            None => Err(missing_expression(h)),
        }
    }

    pub fn expr_inner(&self, h: Handle<Expression>) -> BackResult<&'a TypeInner> {
        let ty = self.expr_type(h)?;
        Ok(&self.w.ir_type(ty)?.inner)
    }

    // -----------------------------------------------------------------------
    // Blocks and instructions
    // -----------------------------------------------------------------------

    pub(super) fn begin_block(&mut self, label: Word) {
        self.current = Some(Block {
            label,
            words: Vec::with_capacity(64),
        });
        // Cannot fail: the block is open.
        let _ = self.debug_after_label();
    }

    /// The words of the open block.
    #[inline]
    fn block_words(&mut self) -> BackResult<&mut Vec<u32>> {
        match &mut self.current {
            Some(block) => Ok(&mut block.words),
            None => Err(after_terminator()),
        }
    }

    pub fn emit(&mut self, inst: Instruction) -> BackResult<()> {
        inst.assemble_into(self.block_words()?);
        Ok(())
    }

    /// Emits an instruction with a result and returns the result id.
    pub fn emit_value(
        &mut self,
        op: Op,
        ty: Word,
        operands: impl AsRef<[Operand]>,
    ) -> BackResult<Word> {
        let id = self.w.id();
        encode(self.block_words()?, op, Some(ty), Some(id), operands.as_ref());
        Ok(id)
    }

    /// Emits an instruction whose operands are one word each (ids and
    /// 32-bit literals), and returns its result id.
    pub fn emit_words(&mut self, op: Op, ty: Word, operands: &[Word]) -> BackResult<Word> {
        let id = self.w.id();
        encode_words(self.block_words()?, op, Some(ty), Some(id), operands);
        Ok(id)
    }

    /// [`Self::emit_words`] for an instruction without a result.
    pub fn emit_void_words(&mut self, op: Op, operands: &[Word]) -> BackResult<()> {
        encode_words(self.block_words()?, op, None, None, operands);
        Ok(())
    }

    /// Emits an arithmetic instruction: the one that computes the value of
    /// an IR expression, decorated `NoContraction` when the expression is
    /// precise (HLSL-SEMANTICS.md, "precise").
    pub fn emit_arith(
        &mut self,
        op: Op,
        ty: Word,
        operands: impl AsRef<[Operand]>,
    ) -> BackResult<Word> {
        let id = self.emit_value(op, ty, operands)?;
        self.no_contraction(id);
        Ok(id)
    }

    /// Decorates `id` `NoContraction` when the expression being written
    /// is precise.
    pub fn no_contraction(&mut self, id: Word) {
        if self.precise {
            self.w.decorate(id, Decoration::NoContraction, &[]);
        }
    }

    pub fn emit_void(&mut self, op: Op, operands: impl AsRef<[Operand]>) -> BackResult<()> {
        encode(self.block_words()?, op, None, None, operands.as_ref());
        Ok(())
    }

    pub(super) fn terminate(&mut self, op: Op, operands: impl AsRef<[Operand]>) -> BackResult<()> {
        let Some(mut block) = self.current.take() else {
            return Err(internal("a block was terminated twice"));
        };
        encode(&mut block.words, op, None, None, operands.as_ref());
        self.blocks.push(block);
        Ok(())
    }

    pub(super) fn branch(&mut self, target: Word) -> BackResult<()> {
        self.branched_to.insert(target);
        self.terminate(Op::Branch, [Operand::IdRef(target)])
    }

    pub(super) fn branch_conditional(
        &mut self,
        condition: Word,
        accept: Word,
        reject: Word,
    ) -> BackResult<()> {
        self.branched_to.insert(accept);
        self.branched_to.insert(reject);
        self.terminate(
            Op::BranchConditional,
            [
                Operand::IdRef(condition),
                Operand::IdRef(accept),
                Operand::IdRef(reject),
            ],
        )
    }

    /// Opens the merge block of a construct; when no branch reaches it, it
    /// only holds `OpUnreachable` and the code after the construct is dead.
    pub(super) fn begin_merge(&mut self, merge: Word) -> BackResult<()> {
        self.begin_block(merge);
        if !self.branched_to.contains(&merge) {
            self.terminate(Op::Unreachable, [])?;
        }
        Ok(())
    }

    // -----------------------------------------------------------------------
    // Statements
    // -----------------------------------------------------------------------

    /// The `OpAccessChain` that `key` describes: one already written where
    /// the block being written can use it, else a new one, kept for the
    /// rest of that block (one hashing of the key either way).
    pub(super) fn access_chain(&mut self, key: ChainKey) -> BackResult<Word> {
        let open = &self.open_blocks;
        let entry = match self.chains.entry(key) {
            // Serial numbers grow, so the block open at that depth is the
            // one that wrote the chain only while it has not closed.
            Entry::Occupied(e) if open.get(e.get().1.depth) == Some(&e.get().1.serial) => {
                return Ok(e.get().0);
            }
            entry => entry,
        };
        let &(root, ref indices, class, pointee, non_uniform) = entry.key();
        let mut operands: SmallVec<[Word; 8]> = smallvec![root];
        operands.extend_from_slice(indices);
        let ty = self.w.ir_pointer_type(pointee, class)?;
        let id = self.w.id();
        if let Some(&serial) = open.last() {
            let scope = ChainScope {
                depth: open.len() - 1,
                serial,
            };
            entry.insert_entry((id, scope));
        }
        encode_words(self.block_words()?, Op::AccessChain, Some(ty), Some(id), &operands);
        if non_uniform {
            self.mark_non_uniform(id);
        }
        Ok(id)
    }

    pub(super) fn write_block(&mut self, block: &[Statement], targets: Targets) -> BackResult<()> {
        // Bounds the recursion over nested blocks (no stack overflow on
        // pathological input).
        if self.depth >= MAX_NESTING {
            return Err(unsupported(format!(
                "control flow nested more than {MAX_NESTING} levels deep"
            )));
        }
        self.depth += 1;
        let saved = self.debug_enter_block();
        self.open_blocks.push(self.next_block);
        self.next_block += 1;
        let result = self.write_statements(block, targets);
        // What the block wrote does not dominate what follows it.
        self.open_blocks.pop();
        self.depth -= 1;
        result?;
        self.debug_leave_block(saved)
    }

    /// Control-flow statements recurse into their blocks; everything else
    /// is written by `write_simple_statement`, whose larger frame is then
    /// not part of every nesting level.
    pub(super) fn write_statement(&mut self, stmt: &Statement, targets: Targets) -> BackResult<()> {
        match stmt {
            Statement::Block(block) => self.write_block(block, targets),
            Statement::Switch { selector, cases } => self.write_switch(*selector, cases, targets),
            _ => self.write_simple_statement(stmt, targets),
        }
    }

    pub(super) fn write_simple_statement(&mut self, stmt: &Statement, targets: Targets) -> BackResult<()> {
        self.at_statement(stmt);
        match stmt {
            Statement::Block(_)
            | Statement::If { .. }
            | Statement::Switch { .. }
            | Statement::Loop { .. }
            | Statement::Merge { .. }
            | Statement::Carry { .. } => {
                return Err(internal("control flow in write_simple_statement"));
            }
            Statement::Emit(range) => {
                if range.end_index() > self.fun.expressions.len() {
                    return Err(internal(format!(
                        "emit range {range:?} is outside the expressions"
                    )));
                }
                for h in range.iter() {
                    self.at(h);
                    let value = self.write_expression(h)?;
                    self.values[h.index()] = value;
                }
            }
            Statement::Break => match targets.break_to {
                Some(t) => self.branch(t)?,
                None => return Err(internal("`break` outside a loop or switch")),
            },
            Statement::Continue => match targets.continue_to {
                Some(t) => self.branch(t)?,
                None => return Err(internal("`continue` outside a loop")),
            },
            Statement::Return { value } => match (value, self.result_type) {
                (Some(v), Some(_)) => {
                    let id = self.value(*v)?;
                    self.terminate(Op::ReturnValue, [Operand::IdRef(id)])?;
                }
                (None, None) => self.terminate(Op::Return, [])?,
                (Some(_), None) => {
                    return Err(internal(format!(
                        "function `{}` returns a value but has no result type",
                        self.fun.name
                    )));
                }
                (None, Some(_)) => {
                    return Err(internal(format!(
                        "function `{}` returns without a value",
                        self.fun.name
                    )));
                }
            },
            Statement::Kill => self.terminate(Op::Kill, [])?,
            Statement::EndHit { accept } => self.write_end_hit(*accept)?,
            Statement::Ray { op, args, result } => self.write_ray(*op, args, *result)?,
            Statement::Node { op, args, result } => self.write_node(*op, args, *result)?,
            Statement::Spirv { inst, args, result } => self.write_spirv(inst, args, *result)?,
            Statement::ScopedBarrier {
                execution,
                memory,
                semantics,
            } => self.write_scoped_barrier(*execution, *memory, *semantics)?,
            Statement::Barrier { memory, execution } => self.write_barrier(*memory, *execution)?,
            Statement::Store { pointer, value } => self.write_store(*pointer, *value)?,
            Statement::ImageStore {
                image,
                coordinate,
                value,
            } => self.write_image_store(*image, *coordinate, *value)?,
            Statement::Atomic {
                pointer,
                fun,
                value,
                compare,
                result,
            } => self.write_atomic(*pointer, *fun, *value, *compare, *result)?,
            Statement::Call {
                function,
                arguments,
                result,
            } => self.write_call(*function, arguments, *result)?,
            Statement::Subgroup { op, args, result } => self.write_subgroup(*op, args, *result)?,
            Statement::EmitVertex { stream } => match *stream {
                None => self.emit_void(Op::EmitVertex, [])?,
                Some(n) => {
                    self.w.capability(spirv::Capability::GeometryStreams);
                    let s = self.w.const_u32(n);
                    self.emit_void(Op::EmitStreamVertex, [Operand::IdRef(s)])?;
                }
            },
            Statement::SetMeshOutputs {
                vertices,
                primitives,
            } => self.write_set_mesh_outputs(*vertices, *primitives)?,
            Statement::EmitMeshTasks { x, y, z, payload } => {
                self.write_emit_mesh_tasks([*x, *y, *z], *payload)?
            }
            Statement::Debug(info) => self.write_debug(info)?,
            Statement::DebugPrintf { format, args } => self.write_printf(format, args)?,
            Statement::DebugBreak => self.write_debug_break()?,
            Statement::EndPrimitive { stream } => match *stream {
                None => self.emit_void(Op::EndPrimitive, [])?,
                Some(n) => {
                    self.w.capability(spirv::Capability::GeometryStreams);
                    let s = self.w.const_u32(n);
                    self.emit_void(Op::EndStreamPrimitive, [Operand::IdRef(s)])?;
                }
            },
        }
        Ok(())
    }

    fn write_store(
        &mut self,
        pointer: Handle<Expression>,
        value: Handle<Expression>,
    ) -> BackResult<()> {
        let align = self.pointer_ref(pointer)?.align;
        let mut v = self.value(value)?;
        if self.w.options.invert_y {
            let pv = self.pointer(pointer)?;
            if self.is_raster_position(&pv) {
                v = self.invert_y(&pv, v, value)?;
            }
        }
        let p = self.pointer_id_of(pointer)?;
        let mut operands: SmallVec<[Word; 4]> = smallvec![p, v];
        operands.extend(Self::memory_operands(align));
        self.emit_void_words(Op::Store, &operands)
    }

    /// True when `pv` points into the rasterizer's position: a `float4`
    /// Output global with built-in Position. (A hull shader's per-control-
    /// point positions are an array, and are not inverted.)
    fn is_raster_position(&self, pv: &PointerValue) -> bool {
        pv.global.is_some_and(|g| {
            let g = &self.w.ir.globals[g];
            g.space == ir::AddressSpace::Output
                && g.io == Some(ir::Binding::BuiltIn(spirv::BuiltIn::Position))
                && self
                    .w
                    .ir_type(g.ty)
                    .is_ok_and(|t| matches!(t.inner, TypeInner::Vector { .. }))
        })
    }

    /// `-fvk-invert-y`: the value to store into `Position` with y negated.
    fn invert_y(
        &mut self,
        pv: &PointerValue,
        v: Word,
        value: Handle<Expression>,
    ) -> BackResult<Word> {
        let ty = self.expr_type(value)?;
        let ty_id = self.w.type_id(ty)?;
        match pv.const_indices.as_slice() {
            [] => {
                let f32_ty = self.w.scalar_type(ir::Scalar::F32);
                let y = self.emit_value(
                    Op::CompositeExtract,
                    f32_ty,
                    [Operand::IdRef(v), Operand::LiteralBit32(1)],
                )?;
                let ny = self.emit_value(Op::FNegate, f32_ty, [Operand::IdRef(y)])?;
                self.emit_value(
                    Op::CompositeInsert,
                    ty_id,
                    [
                        Operand::IdRef(ny),
                        Operand::IdRef(v),
                        Operand::LiteralBit32(1),
                    ],
                )
            }
            [Some(1)] => self.emit_value(Op::FNegate, ty_id, [Operand::IdRef(v)]),
            [Some(_)] => Ok(v),
            _ => Err(unsupported(
                "-fvk-invert-y with a dynamically indexed store into SV_Position",
            )),
        }
    }

    fn write_call(
        &mut self,
        function: Handle<ir::Function>,
        arguments: &[Handle<Expression>],
        result: Option<Handle<Expression>>,
    ) -> BackResult<()> {
        let ir = self.w.ir;
        let Some(callee) = ir.functions.get(function) else {
            return Err(internal(format!("call of missing function {function:?}")));
        };
        let Some(fid) = self.w.function_ids[function.index()] else {
            return Err(internal(format!("function `{}` has no id", callee.name)));
        };
        if arguments.len() != callee.arguments.len() {
            return Err(internal(format!(
                "call of `{}` with {} arguments for {} parameters",
                callee.name,
                arguments.len(),
                callee.arguments.len()
            )));
        }
        let ret = match &callee.result {
            Some(r) => self.w.type_id(r.ty)?,
            None => self.w.void_type(),
        };
        let mut operands = vec![Operand::IdRef(fid)];
        let mut copy_back = Vec::new();
        for (&a, param) in arguments.iter().zip(&callee.arguments) {
            let Some(value) = self.values.get(a.index()) else {
                return Err(internal(format!("argument {a:?} does not exist")));
            };
            let id = match (*value, &self.w.ir_type(param.ty)?.inner) {
                (Value::Pointer(i), TypeInner::Pointer { base, space }) => {
                    let pv = self.pointer_at(i)?.clone();
                    let class = storage_class(*space, self.w.version);
                    if (pv.indices.is_empty() && pv.class == class)
                        || pv.class == StorageClass::UniformConstant
                    {
                        self.pointer_id(&pv)?
                    } else {
                        // Logical SPIR-V passes only whole variables of the
                        // parameter's storage class (SPIR-V 2.16.1,
                        // OpFunctionCall): copy in to a temporary, and back
                        // out after the call, as HLSL's out/inout do.
                        let ty = self.w.type_id(*base)?;
                        let temp = self.add_variable(ty, None);
                        let p = self.pointer_id(&pv)?;
                        let v = self.emit_value(Op::Load, ty, [Operand::IdRef(p)])?;
                        self.emit_void(Op::Store, [Operand::IdRef(temp), Operand::IdRef(v)])?;
                        copy_back.push((pv, temp, ty));
                        temp
                    }
                }
                _ => self.value(a)?,
            };
            operands.push(Operand::IdRef(id));
        }
        let id = self.emit_value(Op::FunctionCall, ret, operands)?;
        for (pv, temp, ty) in copy_back {
            let v = self.emit_value(Op::Load, ty, [Operand::IdRef(temp)])?;
            let p = self.pointer_id(&pv)?;
            self.emit_void(Op::Store, [Operand::IdRef(p), Operand::IdRef(v)])?;
        }
        if let Some(r) = result {
            self.set_result(r, id)?;
        }
        Ok(())
    }

    /// Records the result of a statement (call, atomic, wave op) as the
    /// value of its result expression.
    pub fn set_result(&mut self, h: Handle<Expression>, id: Word) -> BackResult<()> {
        let value = self.device_pointer_value(id, self.expr_type(h)?)?;
        match self.values.get_mut(h.index()) {
            Some(slot) => {
                *slot = value;
                Ok(())
            }
            None => Err(internal(format!("result expression {h:?} does not exist"))),
        }
    }
}
