//! The C preprocessor as HLSL uses it (DXC's is clang's).
//!
//! Input: a main file and a [`FileLoader`]. Output: one token stream with
//! macro expansions and includes resolved, each token's location recorded in
//! the [`SourceMap`] (expanded tokens remember their spelling and expansion).
//!
//! The design follows clang's: a stack of token sources (`Context`s): files
//! at the bottom, macro expansions above them. A macro is disabled while its
//! expansion is on the stack, and an identifier naming a disabled macro is
//! "painted" ([`flags::NO_EXPAND`]) for good (C99 6.10.3.4p2). Arguments are
//! pre-expanded in isolation (C99 6.10.3.1) on the same machine: an argument
//! is pushed as a *barrier* context, its output collected in a `Frame`, and
//! the invocation resumes when the barrier runs dry. So no recursion depth
//! depends on the input: nested invocations, include chains and `#if`
//! nesting all live on explicit stacks (`ctxs`, `frames`, `conds`).
//!
//! Files: `directive.rs` (directives and conditional groups), `define.rs`
//! (`#define`, `#undef`, the macro table), `expand.rs` (invocation,
//! substitution, `#`, `##`, built-in macros), `include.rs` (search paths,
//! file cache, `#pragma once` and include guards), `expr.rs` (`#if`
//! arithmetic), `plain.rs` (tokens passed on as they are), `text.rs` (`-P`
//! output). The macros DXC predefines for the profile come in
//! [`PreprocessOptions::predefined`].

mod define;
mod directive;
mod expand;
mod expr;
mod include;
mod plain;
mod shared;
mod text;

pub use shared::LexCache;
pub use text::tokens_to_text;

use crate::diag::{Diagnostic, Diagnostics, codes};
use crate::front::lexer::{PpToken, Token, flags};
use crate::front::loader::FileLoader;
use crate::intern::Symbol;
use crate::intern::builtins::preprocessor_symbol;
use crate::source::{ExpansionId, FileId, SourceMap};
use crate::span::Span;
use define::{LazyMacro, MacroDef, MacroEntry};
use rustc_hash::FxHashMap;
use std::path::{Path, PathBuf};
use std::rc::Rc;

/// What the preprocessor needs from the command line.
#[derive(Clone, Debug, Default)]
pub struct PreprocessOptions {
    /// `-D NAME[=VALUE]` in order (value `None` means `1`).
    pub defines: Vec<(String, Option<String>)>,
    /// `-I DIR` in order.
    pub include_dirs: Vec<PathBuf>,
    /// Predefined macros for the target (name, value: each a number), set
    /// by the driver from the profile (`__SHADER_TARGET_STAGE`,
    /// `__HLSL_VERSION`, `__spirv__`…).
    pub predefined: Vec<(Symbol, u32)>,
}

/// The preprocessed program.
pub struct Preprocessed {
    /// The program's tokens. No newlines (line starts are flagged
    /// [`flags::LINE_START`]); a [`Token::Pragma`] may stand between any two
    /// tokens (from a `#pragma` line or `_Pragma`). Empty after a fatal
    /// error (include depth, runaway expansion).
    pub tokens: Vec<PpToken>,
    /// Every file read, the main file first.
    pub dependencies: Vec<PathBuf>,
}

/// The deepest `#include` nesting accepted (clang's limit too).
pub const MAX_INCLUDE_DEPTH: usize = 200;

/// The most tokens one macro expansion in the source text (with everything
/// it expands in turn) may produce, counting every token a substitution
/// writes and every token collected as an argument. Stops a macro that
/// doubles its output each level, or quadratic argument nesting, long before
/// memory runs out; real invocations stay far below it.
pub const MAX_EXPANSION_WORK: usize = 1 << 21;

/// The most tokens all macro expansions together may produce (about 500 MB
/// of tokens and locations; the largest real shaders need a few percent).
pub const MAX_TOTAL_EXPANSION_WORK: usize = 1 << 24;

/// Preprocesses `main`.
pub fn preprocess(
    main: &Path,
    loader: &dyn FileLoader,
    options: &PreprocessOptions,
    sm: &mut SourceMap,
    diags: &mut Diagnostics,
) -> Preprocessed {
    let mut pp = Preprocessor::new(loader, options, sm, diags);
    if pp.start(main) {
        pp.run_loop(1);
    }
    // After a fatal error the output is cut short and would only bring the
    // parser's complaints: nothing is passed on.
    let tokens = if pp.fatal {
        Vec::new()
    } else {
        std::mem::take(&mut pp.frames[0].out)
    };
    Preprocessed {
        tokens,
        dependencies: std::mem::take(&mut pp.files.deps),
    }
}

// ---------------------------------------------------------------------------
// The machine

/// A source of tokens on the context stack.
enum Context {
    File(FileCtx),
    Tokens(TokenCtx),
}

/// A file being read.
struct FileCtx {
    file: FileId,
    /// The file's tokens, placed where the file is in the location space,
    /// without newlines (see [`crate::front::lexer::lex_interned`]).
    toks: std::sync::Arc<Vec<PpToken>>,
    issues: std::sync::Arc<Vec<include::LexIssue>>,
    /// Next raw token.
    pos: usize,
    /// Next lex issue not yet reported or skipped.
    issue_pos: usize,
    /// `conds.len()` when the file was entered: its own conditionals are above.
    cond_base: usize,
    /// The normalised path (cache key), `None` for `<built-in>` text.
    key: Option<PathBuf>,
    guard: include::Guard,
    /// True for files entered by `#include` (they count toward the depth).
    included: bool,
}

/// Tokens of a macro expansion, or an argument being pre-expanded (a
/// barrier: reading stops at its end instead of falling into the context
/// below, so an argument is expanded in isolation).
struct TokenCtx {
    toks: Vec<PpToken>,
    pos: usize,
    /// The macro disabled while this context is on the stack.
    disables: Option<Symbol>,
    barrier: bool,
}

/// Where expanded tokens go: the program, one argument's pre-expansion, or
/// a directive's line.
struct Frame {
    kind: FrameKind,
    out: Vec<PpToken>,
    /// Flags an empty expansion leaves to the next token (SPACE_BEFORE, LINE_START).
    carry: u8,
}

enum FrameKind {
    Main,
    Directive,
    Argument(Box<expand::Invocation>),
}

/// One `#if` group on the conditional stack.
#[derive(Clone, Copy, Debug)]
struct Cond {
    /// The opening directive, for "unterminated" errors.
    span: Span,
    state: CondState,
    /// The `#else`, once seen.
    else_span: Option<Span>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum CondState {
    /// The current group is being processed.
    Active,
    /// No group taken yet: looking for a true `#elif` or an `#else`.
    Seeking,
    /// A group was taken: skipping to `#endif`.
    Done,
}

/// What reading one token gave.
enum Next {
    Tok(PpToken),
    /// The barrier context on top ran dry (not consumed).
    Barrier,
    /// The file on top ended (not consumed), or preprocessing stopped.
    FileEnd,
}

/// Symbols the preprocessor compares against.
struct WellKnown {
    defined: Symbol,
    va_args: Symbol,
}

struct Preprocessor<'a> {
    sm: &'a mut SourceMap,
    diags: &'a mut Diagnostics,
    loader: &'a dyn FileLoader,
    options: &'a PreprocessOptions,
    ctxs: Vec<Context>,
    frames: Vec<Frame>,
    macros: FxHashMap<Symbol, MacroEntry>,
    /// A bit per symbol index set when the symbol was ever defined as a
    /// macro: most identifiers are not, and a clear bit answers without
    /// hashing (a set one is checked in `macros`).
    macro_bits: Vec<u64>,
    /// Macros defined but not in `macros` until their first use (their
    /// bits set in `macro_bits`): see [`LazyMacro`].
    lazy: Vec<(Symbol, LazyMacro)>,
    conds: Vec<Cond>,
    files: include::Files,
    include_depth: usize,
    syms: WellKnown,
    /// `__COUNTER__`'s next value.
    counter: u64,
    /// Tokens produced or collected by the current expansion (reset at each
    /// token read from a file, where no expansion is active).
    work: usize,
    /// Tokens produced or collected by all expansions.
    total_work: usize,
    /// Set by a fatal error: every reader then sees the end of input.
    fatal: bool,
    /// Expanding an `#if`/`#elif` line: `defined` is an operator.
    in_if: bool,
    /// An error was reported while expanding the current directive line.
    directive_failed: bool,
    /// Depth of argument collection (directives like `#include` are refused
    /// inside macro arguments).
    collecting_args: u32,
    /// The output of the directive frame that just completed.
    finished_directive: Vec<PpToken>,
    /// Emptied token buffers, reused for expansions.
    spare: Vec<Vec<PpToken>>,
}

impl<'a> Preprocessor<'a> {
    fn new(
        loader: &'a dyn FileLoader,
        options: &'a PreprocessOptions,
        sm: &'a mut SourceMap,
        diags: &'a mut Diagnostics,
    ) -> Self {
        let mut pp = Preprocessor {
            sm,
            diags,
            loader,
            options,
            ctxs: Vec::new(),
            frames: vec![Frame {
                kind: FrameKind::Main,
                out: Vec::new(),
                carry: 0,
            }],
            // Sized for a shader's own macros and the predefined ones it
            // uses: no rehashing.
            macros: FxHashMap::with_capacity_and_hasher(64, Default::default()),
            macro_bits: Vec::new(),
            lazy: Vec::with_capacity(32),
            conds: Vec::new(),
            files: include::Files::default(),
            include_depth: 0,
            syms: WellKnown {
                defined: const { preprocessor_symbol("defined") },
                va_args: const { preprocessor_symbol("__VA_ARGS__") },
            },
            counter: 0,
            work: 0,
            total_work: 0,
            fatal: false,
            in_if: false,
            directive_failed: false,
            collecting_args: 0,
            finished_directive: Vec::new(),
            spare: Vec::new(),
        };
        pp.define_builtins();
        pp
    }

    /// Loads the main file and the predefined and `-D` macros (as the pseudo
    /// files `<built-in>` and `<command line>`, so their definitions have
    /// locations). Returns false when the main file cannot be read.
    fn start(&mut self, main: &Path) -> bool {
        let text = match self.loader.read(main) {
            Ok(t) => t,
            Err(e) => {
                self.diags.push(Diagnostic::error(
                    codes::IO_ERROR,
                    format!("cannot read '{}': {e}", main.display()),
                ));
                return false;
            }
        };
        let key = include::normalize(main);
        self.files.deps.push(main.to_path_buf());
        let Some(fid) = self.add_file(main.display().to_string(), main, text, None) else {
            return false;
        };
        let lexed = self
            .files
            .lex_and_cache(self.sm, fid, key.clone(), self.loader.lex_cache());
        // The output is about as long as the main file.
        self.frames[0].out.reserve(lexed.toks.len());
        self.push_file(fid, &lexed, Some(key), false);

        let mut cmdline = String::new();
        for (name, value) in &self.options.defines {
            let value = value.as_deref().unwrap_or("1");
            // One line per definition, whatever the value holds.
            let line = format!("#define {name} {value}").replace(['\n', '\r'], " ");
            cmdline.push_str(&line);
            cmdline.push('\n');
        }
        let mut builtin = String::with_capacity(1024);
        for &(name, value) in &self.options.predefined {
            builtin.push_str("#define ");
            builtin.push_str(name.as_str());
            builtin.push(' ');
            define::push_decimal(&mut builtin, value);
            builtin.push('\n');
        }
        // Pushed last, read first: built-ins, then -D, then the main file.
        for (name, text) in [("<command line>", cmdline), ("<built-in>", builtin)] {
            if text.is_empty() {
                continue;
            }
            let Some(fid) = self.add_file(name.to_string(), Path::new(name), text, None) else {
                return false;
            };
            if name == "<built-in>" && self.define_predefined(fid) {
                continue;
            }
            let f = self.sm.file(fid);
            let (toks, issues) = include::lex_file(&f.text, f.base);
            let lexed = include::LexedFile {
                toks: toks.into(),
                issues: issues.into(),
                first: fid,
            };
            self.push_file(fid, &lexed, None, false);
        }
        true
    }

    /// Adds a file to the source map, or reports that the location space is
    /// full (more than 2 GiB of source).
    fn add_file(
        &mut self,
        name: String,
        path: &Path,
        text: String,
        included_from: Option<crate::span::Loc>,
    ) -> Option<FileId> {
        let id = self.sm.add_file(name, path, text, included_from);
        if id.is_none() {
            self.fatal(Diagnostic::error(
                codes::INTERNAL,
                "too much source text: the location space (2 GiB) is full",
            ));
        }
        id
    }

    fn push_file(
        &mut self,
        file: FileId,
        lexed: &include::LexedFile,
        key: Option<PathBuf>,
        included: bool,
    ) {
        if included {
            // The output is about as long as the files read: room for the
            // rest of the open files and this one, so that the output does
            // not grow (copying all of it) while they are read.
            let rest: usize = self
                .ctxs
                .iter()
                .map(|c| match c {
                    Context::File(f) => f.toks.len() - f.pos,
                    Context::Tokens(_) => 0,
                })
                .sum();
            reserve_used(&mut self.frames[0].out, rest + lexed.toks.len());
        }
        self.ctxs.push(Context::File(FileCtx {
            file,
            toks: lexed.toks.clone(),
            issues: lexed.issues.clone(),
            pos: 0,
            issue_pos: 0,
            cond_base: self.conds.len(),
            key,
            guard: include::Guard::Start,
            included,
        }));
        if included {
            self.include_depth += 1;
        }
    }

    /// Reports a fatal error: preprocessing stops.
    fn fatal(&mut self, d: Diagnostic) {
        self.diags.push(d);
        self.fatal = true;
    }

    fn error(&mut self, d: Diagnostic) {
        self.diags.push(d);
    }

    /// The innermost file being read.
    fn current_file(&self) -> Option<&FileCtx> {
        self.ctxs.iter().rev().find_map(|c| match c {
            Context::File(f) => Some(f),
            Context::Tokens(_) => None,
        })
    }

    /// Enters a macro in the table.
    fn insert_macro(&mut self, name: Symbol, entry: MacroEntry) {
        self.set_macro_bit(name);
        self.macros.insert(name, entry);
    }

    /// Notes that `name` was defined as a macro (in `macros` or `lazy`).
    fn set_macro_bit(&mut self, name: Symbol) {
        let i = name.index() as usize;
        if self.macro_bits.len() <= i / 64 {
            self.macro_bits.resize(i / 64 + 1, 0);
        }
        self.macro_bits[i / 64] |= 1 << (i % 64);
    }

    /// Whether `name` was ever defined as a macro: if not, it is none.
    fn has_macro_bit(&self, name: Symbol) -> bool {
        let i = name.index() as usize;
        self.macro_bits
            .get(i / 64)
            .is_some_and(|w| w & (1 << (i % 64)) != 0)
    }

    /// The macro named `name` in the table, if there is one (not one that
    /// waits in `lazy`, which no expansion has disabled).
    fn macro_named(&self, name: Symbol) -> Option<&MacroEntry> {
        if self.has_macro_bit(name) {
            self.macros.get(&name)
        } else {
            None
        }
    }

    /// The definition of the macro named `name`, if there is one (entered
    /// in the table now if it waits in `lazy`).
    fn macro_def(&mut self, name: Symbol) -> Option<Rc<MacroDef>> {
        if !self.has_macro_bit(name) {
            return None;
        }
        match self.macros.get(&name) {
            Some(e) => Some(e.def.clone()),
            None => self.enter_lazy(name),
        }
    }

    /// Whether `name` is defined as a macro (`defined`, `#ifdef`).
    fn is_defined(&self, name: Symbol) -> bool {
        self.has_macro_bit(name)
            && (self.macros.contains_key(&name) || self.lazy.iter().any(|&(n, _)| n == name))
    }

    fn take_buf(&mut self) -> Vec<PpToken> {
        self.spare.pop().unwrap_or_default()
    }

    fn recycle(&mut self, mut v: Vec<PpToken>) {
        if v.capacity() > 0 && self.spare.len() < 64 {
            v.clear();
            self.spare.push(v);
        }
    }

    fn pop_context(&mut self) {
        match self.ctxs.pop() {
            Some(Context::Tokens(t)) => {
                if let Some(m) = t.disables
                    && let Some(e) = self.macros.get_mut(&m)
                {
                    e.disabled = e.disabled.saturating_sub(1);
                }
                self.recycle(t.toks);
            }
            Some(Context::File(f)) if f.included => self.include_depth -= 1,
            Some(Context::File(_)) | None => {}
        }
    }

    /// Pushes an expansion's tokens for rescanning with `name` disabled;
    /// writes them at once when none can expand.
    fn push_expansion(&mut self, toks: Vec<PpToken>, name: Symbol, name_flags: u8) {
        if toks.is_empty() {
            // Nothing to rescan; the next token takes the name's place.
            if let Some(f) = self.frames.last_mut() {
                f.carry |= name_flags & (flags::SPACE_BEFORE | flags::LINE_START);
            }
            self.recycle(toks);
            return;
        }
        if !self.fatal && !toks.iter().any(|t| t.kind.is_ident_like()) {
            // No name to expand in the rescan (`#define N 8`, most object-like
            // macros): the tokens are written as reading them back would.
            for &t in &toks {
                self.emit(t);
            }
            self.recycle(toks);
            return;
        }
        if let Some(e) = self.macros.get_mut(&name) {
            e.disabled += 1;
        }
        self.ctxs.push(Context::Tokens(TokenCtx {
            toks,
            pos: 0,
            disables: Some(name),
            barrier: false,
        }));
    }

    /// Pushes tokens to be expanded in isolation (an argument, a directive line).
    fn push_barrier(&mut self, toks: Vec<PpToken>) {
        self.ctxs.push(Context::Tokens(TokenCtx {
            toks,
            pos: 0,
            disables: None,
            barrier: true,
        }));
    }

    /// Writes a finished token to the current frame.
    fn emit(&mut self, mut tok: PpToken) {
        if let Some(f) = self.frames.last_mut() {
            tok.flags |= f.carry;
            f.carry = 0;
            f.out.push(tok);
        }
    }

    /// Records an expanded token: `tok`'s kind, text and flags at a new
    /// location spelled at `spelling`, produced by `exp`.
    fn expanded_token(&mut self, tok: PpToken, spelling: Span, exp: ExpansionId) -> PpToken {
        match self.sm.add_expanded_token(spelling, exp) {
            Some(span) => PpToken { span, ..tok },
            None => {
                if !self.fatal {
                    self.fatal(Diagnostic::error(
                        codes::PP_EXPANSION_LIMIT,
                        "too many macro-expanded tokens: the location space is full",
                    ));
                }
                tok
            }
        }
    }

    // -----------------------------------------------------------------------
    // Reading tokens

    /// The next token from the context stack, unexpanded. Pops exhausted
    /// macro contexts (re-enabling their macros), runs directives in files,
    /// and paints identifiers that name a disabled macro.
    fn next_token(&mut self) -> Next {
        loop {
            if self.fatal {
                return Next::FileEnd;
            }
            let Some(ctx) = self.ctxs.last_mut() else {
                return Next::FileEnd;
            };
            match ctx {
                Context::Tokens(t) => {
                    if let Some(&tok) = t.toks.get(t.pos) {
                        t.pos += 1;
                        let mut tok = tok;
                        if tok.flags & flags::NO_EXPAND == 0
                            && tok.kind.is_ident_like()
                            && self.macro_named(tok.sym).is_some_and(|m| m.disabled > 0)
                        {
                            tok.flags |= flags::NO_EXPAND;
                        }
                        return Next::Tok(tok);
                    }
                    if t.barrier {
                        return Next::Barrier;
                    }
                    self.pop_context();
                }
                Context::File(_) => {
                    if self.is_skipping() {
                        self.skip_group();
                    }
                    let Some(Context::File(f)) = self.ctxs.last_mut() else {
                        continue;
                    };
                    let Some(&raw) = f.toks.get(f.pos) else {
                        self.report_lex_issues(u32::MAX);
                        return Next::FileEnd;
                    };
                    if f.issues
                        .get(f.issue_pos)
                        .is_some_and(|i| i.start < raw.span.lo.0)
                    {
                        self.report_lex_issues(raw.span.lo.0);
                        continue;
                    }
                    match raw.kind {
                        Token::Hash if raw.flags & flags::LINE_START != 0 => self.directive(),
                        _ => {
                            f.guard.saw_token();
                            f.pos += 1;
                            self.work = 0;
                            return Next::Tok(raw);
                        }
                    }
                }
            }
        }
    }

    /// Reports the lex issues of the top file that start before `before` (a
    /// location).
    fn report_lex_issues(&mut self, before: u32) {
        let Some(Context::File(f)) = self.ctxs.last_mut() else {
            return;
        };
        let mut found = Vec::new();
        while let Some(&i) = f.issues.get(f.issue_pos).filter(|i| i.start < before) {
            found.push(i);
            f.issue_pos += 1;
        }
        for i in found {
            self.error(i.diagnostic(Span::from(i.start..i.end)));
        }
    }

    /// True when the innermost conditional group is being skipped.
    fn is_skipping(&self) -> bool {
        self.conds
            .last()
            .is_some_and(|c| c.state != CondState::Active)
    }

    /// Whether the next token (looking through exhausted contexts, without
    /// consuming anything) is `(`: a function-like macro name is invoked
    /// only then. Looks past newlines in a file but not past its end, nor
    /// past a barrier (clang's `isNextPPTokenLParen`).
    fn next_is_lparen(&self) -> bool {
        for ctx in self.ctxs.iter().rev() {
            match ctx {
                Context::Tokens(t) => {
                    if let Some(tok) = t.toks.get(t.pos) {
                        return tok.kind == Token::LParen;
                    }
                    if t.barrier {
                        return false;
                    }
                }
                Context::File(f) => {
                    if self.is_skipping() {
                        return false;
                    }
                    return f.toks.get(f.pos).is_some_and(|t| t.kind == Token::LParen);
                }
            }
        }
        false
    }

    /// Handles the end of the file on top: unterminated conditionals, include
    /// guard bookkeeping. Returns false when no input is left.
    fn end_file(&mut self) -> bool {
        let Some(Context::File(f)) = self.ctxs.last() else {
            // A barrier or empty stack: nothing more to read here.
            return false;
        };
        let cond_base = f.cond_base;
        let key = f.key.clone();
        let guard = f.guard;
        while self.conds.len() > cond_base {
            if let Some(c) = self.conds.pop() {
                self.error(
                    Diagnostic::error(
                        codes::PP_UNTERMINATED_CONDITIONAL,
                        "unterminated conditional directive",
                    )
                    .label(c.span, "this group has no matching #endif"),
                );
            }
        }
        if let (Some(key), include::Guard::Closed(m)) = (key, guard) {
            self.files.guards.insert(key, m);
        }
        self.pop_context();
        !self.ctxs.is_empty()
    }

    // -----------------------------------------------------------------------
    // The expansion loop

    /// Reads, expands and emits tokens until the frame stack drops below
    /// `stop` frames (a directive line or argument is done) or input ends.
    fn run_loop(&mut self, stop: usize) {
        loop {
            if let Some(t) = self.plain_file_tokens() {
                self.handle_token(t);
                continue;
            }
            match self.next_token() {
                Next::Tok(t) => self.handle_token(t),
                Next::Barrier => {
                    self.complete_frame();
                    if self.frames.len() < stop {
                        return;
                    }
                }
                Next::FileEnd => {
                    if self.fatal || self.frames.len() > 1 || !self.end_file() {
                        return;
                    }
                }
            }
        }
    }

    /// One token: expand it if it names an enabled macro, else emit it.
    fn handle_token(&mut self, tok: PpToken) {
        if tok.flags & flags::NO_EXPAND == 0 && tok.kind.is_ident_like() {
            if self.in_if && tok.sym == self.syms.defined {
                self.handle_defined(tok);
                return;
            }
            if let Some(def) = self.macro_def(tok.sym) {
                self.expand(tok, def);
                return;
            }
        }
        self.emit(tok);
    }

    /// The barrier on top ran dry: the frame on top is complete.
    fn complete_frame(&mut self) {
        self.pop_context();
        let Some(frame) = self.frames.pop() else {
            return;
        };
        match frame.kind {
            FrameKind::Argument(inv) => self.argument_expanded(inv, frame.out),
            FrameKind::Directive => self.finished_directive = frame.out,
            FrameKind::Main => self.frames.push(frame),
        }
    }

    /// Macro-expands the tokens of a directive line in isolation.
    fn expand_line(&mut self, toks: Vec<PpToken>) -> Vec<PpToken> {
        let out = self.take_buf();
        self.frames.push(Frame {
            kind: FrameKind::Directive,
            out,
            carry: 0,
        });
        let stop = self.frames.len();
        self.push_barrier(toks);
        self.run_loop(stop);
        if self.frames.len() >= stop {
            // Stopped by a fatal error.
            self.frames.truncate(stop - 1);
            return Vec::new();
        }
        std::mem::take(&mut self.finished_directive)
    }

    /// `defined X` or `defined(X)` in an `#if` line: becomes `1` or `0`.
    fn handle_defined(&mut self, tok: PpToken) {
        let mut paren = None;
        let mut next = self.next_token();
        if let Next::Tok(t) = next
            && t.kind == Token::LParen
        {
            paren = Some(t);
            next = self.next_token();
        }
        let name = match next {
            Next::Tok(t) if t.kind.is_ident_like() => t,
            other => {
                let at = match other {
                    Next::Tok(t) => t.span,
                    _ => paren.map_or(tok.span, |p| p.span),
                };
                self.directive_failed = true;
                self.error(
                    Diagnostic::error(
                        codes::PP_BAD_EXPRESSION,
                        "'defined' must be followed by a macro name",
                    )
                    .label(at, "expected an identifier")
                    .label(tok.span, "'defined' is here"),
                );
                return;
            }
        };
        if let Some(p) = paren {
            match self.next_token() {
                Next::Tok(t) if t.kind == Token::RParen => {}
                other => {
                    let at = match other {
                        Next::Tok(t) => t.span,
                        _ => name.span,
                    };
                    self.directive_failed = true;
                    self.error(
                        Diagnostic::error(
                            codes::PP_BAD_EXPRESSION,
                            "missing ')' after 'defined(NAME'",
                        )
                        .label(at, "expected ')'")
                        .label(p.span, "to match this '('"),
                    );
                    return;
                }
            }
        }
        let is_defined = self.is_defined(name.sym);
        self.emit(PpToken {
            kind: Token::IntLit,
            sym: Symbol::intern(if is_defined { "1" } else { "0" }),
            span: tok.span,
            flags: tok.flags,
        });
    }
}

/// `v.reserve(additional)`, but into a new buffer when `v` uses under a
/// quarter of its capacity: growing in place (`realloc`) copies the whole
/// old buffer, used or not, and the output is sized for the main file
/// before an `#include` at its top grows it, nearly empty.
fn reserve_used(v: &mut Vec<PpToken>, additional: usize) {
    if v.capacity() - v.len() >= additional || v.len() >= v.capacity() / 4 {
        v.reserve(additional);
        return;
    }
    let mut grown = Vec::with_capacity(v.len() + additional);
    grown.extend_from_slice(v);
    *v = grown;
}
