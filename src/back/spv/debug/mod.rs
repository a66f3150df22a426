//! Source-level debug information (`-Zi`, `-fspv-debug=vulkan[-with-source]`)
//! as NonSemantic.Shader.DebugInfo.100: the module-level part (the import,
//! sources with their text, the compilation unit, types, functions and
//! entry points). `body.rs` writes what stands in function bodies (scopes,
//! lines, variables), `types.rs` the debug types of IR types, `table.rs`
//! the set's numbers.
//!
//! Debugging tools (RenderDoc, Nsight) read these instructions; drivers
//! ignore them. Every operand is an id: numbers are `OpConstant`s of
//! `uint`. The instructions stand in the types-and-globals section, each
//! after the constants and debug instructions it names (they are made in
//! order, as they are needed); only `DebugScope`, `DebugLine`,
//! `DebugDeclare`, `DebugValue` and `DebugFunctionDefinition` stand in
//! function bodies.

mod body;
mod table;
mod types;

pub(super) use body::BodyDebug;
pub(super) use table::SET_NAME;

use super::writer::Writer;
use crate::back::spv::inst;
use crate::ir::{self, Handle};
use crate::source::SourceMap;
use crate::span::Span;
use rspirv::dr::{Instruction, Operand};
use rustc_hash::FxHashMap;
use spirv::{Op, Word};
use table::DebugOp;

/// What the backend needs to write debug information.
pub struct DebugInput<'a> {
    /// Resolves the IR's spans to files, lines and columns.
    pub source_map: &'a SourceMap,
    /// Embed the text of every source file (`vulkan-with-source`).
    pub with_source: bool,
    /// The command line, for `DebugEntryPoint`.
    pub command_line: String,
    /// The most bytes of source text per `OpString` (the rest continues
    /// in `DebugSourceContinued`); tests make it small.
    pub max_string_bytes: usize,
}

impl<'a> DebugInput<'a> {
    pub fn new(source_map: &'a SourceMap, with_source: bool, command_line: String) -> Self {
        DebugInput {
            source_map,
            with_source,
            command_line,
            max_string_bytes: table::MAX_STRING_BYTES,
        }
    }
}

/// A span resolved for `DebugLine`: the `DebugSource` of its file and its
/// 1-based first and last line and column.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct DebugLoc {
    pub source: Word,
    pub line: u32,
    pub column: u32,
    pub end_line: u32,
    pub end_column: u32,
}

/// The module-level state of debug information while a module is written.
pub(super) struct DebugState<'a> {
    input: &'a DebugInput<'a>,
    /// The `OpExtInstImport` id.
    pub set: Word,
    /// `OpString`s (the debug section).
    pub strings: Vec<Instruction>,
    string_ids: FxHashMap<String, Word>,
    /// The `DebugSource` of each file of the source map.
    sources: Vec<Word>,
    compilation_unit: Word,
    /// The debug type of each IR type asked for (`None`: not describable).
    types: FxHashMap<Handle<ir::Type>, Option<Word>>,
    /// `DebugTypeBasic` of each scalar type.
    basics: FxHashMap<ir::Scalar, Word>,
    /// `DebugFunction`s by name and declaration.
    functions: FxHashMap<(String, Span), Word>,
    /// `DebugLocalVariable`s by their operands: a variable that several
    /// `DebugValue`s describe (a promoted local, one per store) is one.
    pub local_variables: FxHashMap<Vec<Word>, Word>,
    /// The empty `DebugExpression` of every `DebugDeclare`/`DebugValue`.
    expression: Option<Word>,
    none: Option<Word>,
}

impl<'a> Writer<'a> {
    /// Starts debug information: the import, a `DebugSource` per file
    /// read (the main file first) and the compilation unit.
    pub(super) fn begin_debug_info(&mut self, input: &'a DebugInput<'a>) {
        // Core in SPIR-V 1.6; an extension before.
        self.extension("SPV_KHR_non_semantic_info");
        let set = self.id();
        self.debug = Some(DebugState {
            input,
            set,
            strings: Vec::new(),
            string_ids: FxHashMap::default(),
            sources: Vec::new(),
            compilation_unit: 0,
            types: FxHashMap::default(),
            basics: FxHashMap::default(),
            functions: FxHashMap::default(),
            local_variables: FxHashMap::default(),
            expression: None,
            none: None,
        });
        let sm = input.source_map;
        for (_, file) in sm.files() {
            let source = self.debug_source(&file.path.display().to_string(), &file.text, input);
            if let Some(d) = self.debug.as_mut() {
                d.sources.push(source);
            }
        }
        let Some(&main) = self.debug.as_ref().and_then(|d| d.sources.first()) else {
            return;
        };
        let version = self.const_u32(table::DEBUG_INFO_VERSION);
        let dwarf = self.const_u32(table::DWARF_VERSION);
        let language = self.const_u32(table::LANGUAGE_HLSL);
        let cu = self.debug_inst(DebugOp::CompilationUnit, &[version, dwarf, main, language]);
        if let Some(d) = self.debug.as_mut() {
            d.compilation_unit = cu;
        }
    }

    /// `DebugSource` of one file, its text split over
    /// `DebugSourceContinued`s when it is longer than one string holds.
    fn debug_source(&mut self, path: &str, text: &str, input: &DebugInput) -> Word {
        let name = self.debug_string(path);
        if !input.with_source {
            return self.debug_inst(DebugOp::Source, &[name]);
        }
        let mut chunks = split_text(text, input.max_string_bytes.max(4)).into_iter();
        let first = chunks.next().unwrap_or_default();
        let first = self.debug_string(first);
        let source = self.debug_inst(DebugOp::Source, &[name, first]);
        for chunk in chunks {
            let s = self.debug_string(chunk);
            self.debug_inst(DebugOp::SourceContinued, &[s]);
        }
        source
    }

    /// An `OpString` (one per distinct text). A SPIR-V string ends at its
    /// first NUL, so a NUL in the text (a stray byte in a source file or a
    /// `#line` name) is written as U+FFFD.
    pub(super) fn debug_string(&mut self, text: &str) -> Word {
        if text.contains('\0') {
            return self.debug_string(&text.replace('\0', "\u{FFFD}"));
        }
        if let Some(&id) = self.debug.as_ref().and_then(|d| d.string_ids.get(text)) {
            return id;
        }
        let id = self.id();
        if let Some(d) = self.debug.as_mut() {
            d.strings.push(inst(
                Op::String,
                None,
                Some(id),
                vec![Operand::LiteralString(text.to_string())],
            ));
            d.string_ids.insert(text.to_string(), id);
        }
        id
    }

    /// A module-level debug instruction; returns its id.
    pub(super) fn debug_inst(&mut self, op: DebugOp, operands: &[Word]) -> Word {
        let inst = self.debug_instruction(op, operands);
        let id = inst.result_id.unwrap_or_default();
        self.globals.push(inst);
        id
    }

    /// `OpExtInst %void %set op operands…` with a fresh result id.
    pub(super) fn debug_instruction(&mut self, op: DebugOp, operands: &[Word]) -> Instruction {
        let void = self.void_type();
        let id = self.id();
        let set = self.debug.as_ref().map_or(0, |d| d.set);
        let mut ops = vec![
            Operand::IdRef(set),
            Operand::LiteralExtInstInteger(op as u32),
        ];
        ops.extend(operands.iter().map(|&w| Operand::IdRef(w)));
        inst(Op::ExtInst, Some(void), Some(id), ops)
    }

    /// Where a span is, through includes and macro expansions (a statement
    /// written by a macro is where the macro is used).
    pub(super) fn debug_loc(&mut self, span: Span) -> Option<DebugLoc> {
        let d = self.debug.as_ref()?;
        if span.is_dummy() {
            return None;
        }
        let sm = d.input.source_map;
        let site = sm.expansion_site(span);
        let fs = sm.file_span(site)?;
        let source = *d.sources.get(fs.file.0 as usize)?;
        let (line, column) = sm.line_col(fs.file, fs.range.start);
        let (end_line, end_column) = sm.line_col(fs.file, fs.range.end);
        Some(DebugLoc {
            source,
            line: line as u32,
            column: column as u32,
            end_line: end_line as u32,
            end_column: end_column as u32,
        })
    }

    /// The `DebugSource` of the main file.
    fn main_source(&self) -> Word {
        self.debug
            .as_ref()
            .and_then(|d| d.sources.first().copied())
            .unwrap_or_default()
    }

    /// `DebugInfoNone`, for what has no description.
    pub(super) fn debug_none(&mut self) -> Word {
        self.debug_singleton(DebugOp::InfoNone, |d| &mut d.none)
    }

    /// The empty `DebugExpression`.
    pub(super) fn debug_expression(&mut self) -> Word {
        self.debug_singleton(DebugOp::Expression, |d| &mut d.expression)
    }

    /// An operand-less debug instruction made once, kept in `slot`.
    fn debug_singleton(
        &mut self,
        op: DebugOp,
        slot: for<'s> fn(&'s mut DebugState<'a>) -> &'s mut Option<Word>,
    ) -> Word {
        if let Some(id) = self.debug.as_mut().and_then(|d| *slot(d)) {
            return id;
        }
        let id = self.debug_inst(op, &[]);
        if let Some(d) = self.debug.as_mut() {
            *slot(d) = Some(id);
        }
        id
    }

    /// The `DebugFunction` of a function named `name` declared at `decl`
    /// (made on first use). `signature` is its result and parameter types
    /// when known: an inlined function that is gone has none.
    pub(super) fn debug_function(
        &mut self,
        name: &str,
        decl: Span,
        signature: Option<Signature>,
    ) -> Option<Word> {
        let key = (name.to_string(), decl);
        if let Some(&id) = self.debug.as_ref()?.functions.get(&key) {
            return Some(id);
        }
        let loc = self.debug_loc(decl);
        let cu = self.debug.as_ref()?.compilation_unit;
        let fn_type = self.debug_function_type(signature);
        let name_id = self.debug_string(name);
        let linkage = self.debug_string("");
        let (source, line, column) = match loc {
            Some(l) => (l.source, l.line, l.column),
            None => (self.main_source(), 1, 1),
        };
        let line_id = self.const_u32(line);
        let column_id = self.const_u32(column);
        let flags = self.const_u32(table::flags::PUBLIC | table::flags::DEFINITION);
        let id = self.debug_inst(
            DebugOp::Function,
            &[
                name_id, fn_type, source, line_id, column_id, cu, linkage, flags, line_id,
            ],
        );
        self.debug.as_mut()?.functions.insert(key, id);
        Some(id)
    }

    /// The `DebugSource`, line and column constants of a declaration
    /// (line 1 of the main source when it is not known).
    pub(super) fn decl_site(&mut self, span: Option<Span>) -> (Word, Word, Word) {
        let loc = span.and_then(|s| self.debug_loc(s));
        let (source, line, column) = match loc {
            Some(l) => (l.source, l.line, l.column),
            None => (self.main_source(), 1, 1),
        };
        (source, self.const_u32(line), self.const_u32(column))
    }

    /// `DebugGlobalVariable` of each user global whose declaration is
    /// known and whose type has a debug type (`static`s, groupshared
    /// variables, cbuffer and buffer blocks, push constants), in the
    /// order of the module's globals; after the global variables.
    pub(super) fn debug_globals(&mut self) {
        let Some(cu) = self.debug.as_ref().map(|d| d.compilation_unit) else {
            return;
        };
        let ir = self.ir;
        let flags = self.const_u32(table::flags::PUBLIC | table::flags::DEFINITION);
        for (h, g) in ir.globals.iter() {
            let (Some(&span), Some(name)) = (ir.decl_spans.globals.get(&h), g.name.as_deref())
            else {
                continue;
            };
            let Some(&Some(variable)) = self.global_ids.get(h.index()) else {
                continue;
            };
            let Some(ty) = self.debug_type(g.ty) else {
                continue;
            };
            let (source, line, column) = self.decl_site(Some(span));
            let name = self.debug_string(name);
            self.debug_inst(
                DebugOp::GlobalVariable,
                &[name, ty, source, line, column, cu, name, variable, flags],
            );
        }
    }

    /// `DebugEntryPoint` of each entry point, after the functions.
    pub(super) fn debug_entry_points(&mut self) {
        let Some(d) = self.debug.as_ref() else {
            return;
        };
        let cu = d.compilation_unit;
        let command_line = d.input.command_line.clone();
        let signature = self.debug_string(concat!("hlslc ", env!("CARGO_PKG_VERSION")));
        let args = self.debug_string(&command_line);
        let ir = self.ir;
        for ep in &ir.entry_points {
            let Some(f) = ir.functions.get(ep.function) else {
                continue;
            };
            let sig = function_signature(f);
            if let Some(dbg_fn) = self.debug_function(&f.name, f.span, Some(sig)) {
                self.debug_inst(DebugOp::EntryPoint, &[dbg_fn, cu, signature, args]);
            }
        }
    }
}

/// The result and parameter types of a function (pointers for `out`
/// parameters: their debug type is the pointee's).
/// A function's result type (none for `void`) and parameter types.
pub(super) type Signature = (Option<Handle<ir::Type>>, Vec<Handle<ir::Type>>);

pub(super) fn function_signature(f: &ir::Function) -> Signature {
    (
        f.result.as_ref().map(|r| r.ty),
        f.arguments.iter().map(|a| a.ty).collect(),
    )
}

/// `text` in pieces of at most `max` bytes, cut at character boundaries.
fn split_text(text: &str, max: usize) -> Vec<&str> {
    let mut out = Vec::new();
    let mut rest = text;
    while rest.len() > max {
        let mut cut = max;
        while !rest.is_char_boundary(cut) {
            cut -= 1;
        }
        let (head, tail) = rest.split_at(cut);
        out.push(head);
        rest = tail;
    }
    out.push(rest);
    out
}
