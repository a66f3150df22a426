//! `hlslc lsp`: a language server on stdio that reports hlslc's
//! diagnostics as the user types.
//!
//! One thread, no async runtime: each notification is handled to the end
//! before the next is read. On every change the documents it affects are
//! compiled again over an in-memory overlay of the open documents
//! (`paths::OverlayLoader`: an `#include` of an open, unsaved header sees
//! the editor's text), and their diagnostics are published.
//!
//! - Text sync is incremental, in UTF-16 positions (`text.rs`).
//! - Which options a document is compiled with: `config.rs`. With a profile
//!   the whole compiler runs ([`crate::compile`]); without one, or when the
//!   file lacks the entry no one named (a workspace profile on a file with
//!   VSMain and PSMain, or on a header), the file is checked as a library
//!   ([`crate::check`]): every semantic error, no false E0601.
//! - Stale work is skipped: the `didChange` notifications already waiting
//!   are applied before compiling, so only the newest text is compiled.
//! - Roots and headers: an open document is compiled on its own unless an
//!   open document that is compiled includes it; then that one is compiled
//!   instead, and the header's diagnostics come from it. (A document with
//!   its own `// hlslc …` command line is always compiled on its own too.)
//!   Diagnostics are
//!   published per file, the union over every compiled document, and a
//!   file's list is published again (empty, to clear it) when it changes.
//! - A panic in the compiler is caught: the document gets an error at its
//!   start (`E0003`) and the client a log message; the server goes on.
//! - `shutdown` then `exit` ends with status 0; `exit` alone, or the input
//!   ending, with status 1 (LSP "exit Notification").

mod actions;
mod analysis;
mod complete;
mod config;
mod convert;
mod formatting;
mod inlay;
mod paths;
mod rename;
mod requests;
mod text;
mod tokens;
mod transport;

pub(crate) use config::Settings;

use crate::FileLoader;
use crate::{Compilation, Options};
use convert::ByFile;
use lsp_server::{Connection, ErrorCode, Message, Notification, Request, Response};
use lsp_types::notification::{self as note, Notification as _};
use lsp_types::{
    DidChangeConfigurationParams, DidChangeTextDocumentParams, DidCloseTextDocumentParams,
    DidOpenTextDocumentParams, DidSaveTextDocumentParams, LogMessageParams, MessageType,
    PositionEncodingKind, PublishDiagnosticsParams, SaveOptions, ServerCapabilities, ServerInfo,
    TextDocumentSyncCapability, TextDocumentSyncKind, TextDocumentSyncOptions,
    TextDocumentSyncSaveOptions, Uri,
};
use rustc_hash::FxHashMap;
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet, VecDeque};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};
use text::Document;

/// How the server compiles one document: the main file's path, the loader
/// that serves open documents, the options. [`compile_document`] is the
/// real one; tests pass others (one that panics, for instance).
pub(crate) type CompileFn = fn(&Path, &dyn FileLoader, &Options) -> Compilation;

/// Compiles with a profile of a stage, else checks the file as a library.
/// A profile without a named entry (a workspace setting) fits only the
/// files that define `main`: the others (several entry points, headers)
/// are checked as libraries rather than given a false E0601.
pub(crate) fn compile_document(
    path: &Path,
    loader: &dyn FileLoader,
    options: &Options,
) -> Compilation {
    if options
        .profile
        .is_none_or(|p| p.stage == crate::options::Stage::Library)
    {
        return crate::check(path, loader, options);
    }
    let c = crate::compile(path, loader, options);
    let no_entry = c
        .diagnostics
        .list
        .iter()
        .any(|d| d.code == crate::diag::codes::ENTRY_NOT_FOUND);
    if no_entry && !options.entry_named {
        crate::check(path, loader, options)
    } else {
        c
    }
}

/// Runs the server on stdin and stdout until `exit` (or the end of input);
/// returns the process exit status.
pub fn run_stdio() -> i32 {
    let (connection, io) = transport::stdio();
    let status = serve(connection, compile_document);
    match io.join() {
        Ok(()) => status,
        Err(e) => {
            eprintln!("hlslc lsp: {e}");
            1
        }
    }
}

/// Serves one client over `connection`, from `initialize` to `exit`;
/// returns the exit status. The connection is dropped on return, which
/// tells the client's end that the server is gone.
pub(crate) fn serve(connection: Connection, compile: CompileFn) -> i32 {
    let (id, params) = match connection.initialize_start() {
        Ok(x) => x,
        Err(e) => {
            eprintln!("hlslc lsp: {e}");
            return 1;
        }
    };
    let mut server = Server::new(&connection, compile, &params);
    let result = serde_json::json!({
        "capabilities": server_capabilities(),
        "serverInfo": ServerInfo {
            name: "hlslc".to_string(),
            version: Some(env!("CARGO_PKG_VERSION").to_string()),
        },
    });
    if let Err(e) = connection.initialize_finish(id, result) {
        eprintln!("hlslc lsp: {e}");
        return 1;
    }
    let warnings = std::mem::take(&mut server.startup_warnings);
    server.settings_warnings(warnings);
    server.run()
}

fn server_capabilities() -> ServerCapabilities {
    ServerCapabilities {
        position_encoding: Some(PositionEncodingKind::UTF16),
        text_document_sync: Some(TextDocumentSyncCapability::Options(
            TextDocumentSyncOptions {
                open_close: Some(true),
                change: Some(TextDocumentSyncKind::INCREMENTAL),
                will_save: None,
                will_save_wait_until: None,
                save: Some(TextDocumentSyncSaveOptions::SaveOptions(SaveOptions {
                    include_text: Some(false),
                })),
            },
        )),
        ..requests::capabilities()
    }
}

/// What the last compilation of a root document found.
struct RootResult {
    /// Every file it read (normalised), itself first.
    dependencies: Vec<PathBuf>,
    diagnostics: ByFile,
    /// What code intelligence answers from (`requests.rs`); the previous
    /// compilation's when this one made none.
    analysis: Option<std::rc::Rc<analysis::Lazy>>,
    /// The compilation's syntax tree, freed after publishing.
    leftovers: crate::Leftovers,
}

struct Server<'c> {
    connection: &'c Connection,
    compile: CompileFn,
    /// Open documents by normalised path.
    docs: FxHashMap<PathBuf, Document>,
    /// The compiled ("root") documents and their results.
    results: BTreeMap<PathBuf, RootResult>,
    /// What was last published for each file that has diagnostics.
    published: FxHashMap<PathBuf, Vec<lsp_types::Diagnostic>>,
    settings: Settings,
    root: Option<PathBuf>,
    related_supported: bool,
    startup_warnings: Vec<String>,
    /// Option warnings last logged per document, so a change does not log
    /// them again.
    logged_warnings: FxHashMap<PathBuf, Vec<String>>,
    shutdown_requested: bool,
    /// Messages read ahead while looking for queued changes, in order.
    backlog: VecDeque<Message>,
}

impl<'c> Server<'c> {
    fn new(connection: &'c Connection, compile: CompileFn, params: &Value) -> Self {
        // Read the few fields used by hand: a client that sends something
        // unexpected elsewhere in its parameters is still served.
        let root = params
            .pointer("/workspaceFolders/0/uri")
            .or_else(|| params.get("rootUri"))
            .and_then(Value::as_str)
            .map(paths::uri_to_path)
            .or_else(|| {
                params
                    .get("rootPath")
                    .and_then(Value::as_str)
                    .map(PathBuf::from)
            });
        let related_supported = params
            .pointer("/capabilities/textDocument/publishDiagnostics/relatedInformation")
            .and_then(Value::as_bool)
            .unwrap_or(false);
        let (settings, startup_warnings) = match params.get("initializationOptions") {
            Some(v) => Settings::from_json(v, root.as_deref()),
            None => (Settings::default(), Vec::new()),
        };
        Server {
            connection,
            compile,
            docs: FxHashMap::default(),
            results: BTreeMap::new(),
            published: FxHashMap::default(),
            settings,
            root,
            related_supported,
            startup_warnings,
            logged_warnings: FxHashMap::default(),
            shutdown_requested: false,
            backlog: VecDeque::new(),
        }
    }

    fn send(&self, m: Message) {
        // The client is gone when this fails; the loop ends on the next read.
        let _ = self.connection.sender.send(m);
    }

    fn log(&self, typ: MessageType, message: String) {
        self.send(
            Notification::new(
                note::LogMessage::METHOD.to_string(),
                LogMessageParams { typ, message },
            )
            .into(),
        );
    }

    /// Problems with the settings: logged, and shown to the user once
    /// (`window/showMessage`), since a setting that does not take effect
    /// is otherwise silent.
    fn settings_warnings(&self, warnings: Vec<String>) {
        if warnings.is_empty() {
            return;
        }
        let shown = format!("hlslc: {}", warnings.join("; "));
        for w in warnings {
            self.log(MessageType::WARNING, w);
        }
        self.send(
            Notification::new(
                note::ShowMessage::METHOD.to_string(),
                lsp_types::ShowMessageParams {
                    typ: MessageType::WARNING,
                    message: shown,
                },
            )
            .into(),
        );
    }

    fn run(&mut self) -> i32 {
        while let Some(m) = self.backlog.pop_front().or_else(|| self.next_message()) {
            match m {
                Message::Request(r) => self.request(r),
                Message::Notification(n) if n.method == note::Exit::METHOD => {
                    return if self.shutdown_requested { 0 } else { 1 };
                }
                Message::Notification(n) => {
                    if !self.shutdown_requested {
                        self.notification(n);
                    }
                }
                Message::Response(_) => {}
            }
        }
        // The client went away without `exit`.
        1
    }

    /// The next message from the client. When none comes for a moment,
    /// the analyses not built yet (code intelligence of the last
    /// compilations, [`analysis::Lazy`]) are built meanwhile, so that a
    /// later request finds them ready; `None` when the client is gone.
    fn next_message(&mut self) -> Option<Message> {
        const QUIET: std::time::Duration = std::time::Duration::from_millis(30);
        loop {
            let pending = self
                .results
                .values()
                .filter_map(|r| r.analysis.as_ref())
                .find(|l| !l.is_built())
                .cloned();
            let Some(lazy) = pending else {
                return self.connection.receiver.recv().ok();
            };
            match self.connection.receiver.recv_timeout(QUIET) {
                Ok(m) => return Some(m),
                Err(e) if e.is_disconnected() => return None,
                Err(_) => {
                    lazy.get();
                }
            }
        }
    }

    fn request(&mut self, r: Request) {
        let response = if self.shutdown_requested {
            Response::new_err(
                r.id,
                ErrorCode::InvalidRequest as i32,
                "the server is shutting down".to_string(),
            )
        } else if r.method == "shutdown" {
            self.shutdown_requested = true;
            Response::new_ok(r.id, ())
        } else if let Some(response) = self.code_request(&r) {
            response
        } else {
            Response::new_err(
                r.id,
                ErrorCode::MethodNotFound as i32,
                format!("hlslc lsp does not handle '{}'", r.method),
            )
        };
        self.send(response.into());
    }

    fn notification(&mut self, n: Notification) {
        let method = n.method.clone();
        let result = match method.as_str() {
            note::DidOpenTextDocument::METHOD => n
                .extract::<DidOpenTextDocumentParams>(&method)
                .map(|p| self.did_open(p)),
            note::DidChangeTextDocument::METHOD => n
                .extract::<DidChangeTextDocumentParams>(&method)
                .map(|p| self.did_change(p)),
            note::DidCloseTextDocument::METHOD => n
                .extract::<DidCloseTextDocumentParams>(&method)
                .map(|p| self.did_close(p)),
            note::DidSaveTextDocument::METHOD => n
                .extract::<DidSaveTextDocumentParams>(&method)
                .map(|p| self.did_save(p)),
            note::DidChangeConfiguration::METHOD => n
                .extract::<DidChangeConfigurationParams>(&method)
                .map(|p| self.did_change_configuration(p)),
            // `initialized`, `$/cancelRequest`, `$/setTrace`…: nothing to do.
            _ => Ok(()),
        };
        if let Err(e) = result {
            self.log(
                MessageType::WARNING,
                format!("ignored a malformed '{method}' notification: {e}"),
            );
        }
    }

    fn did_open(&mut self, p: DidOpenTextDocumentParams) {
        let d = p.text_document;
        let path = paths::uri_to_path(d.uri.as_str());
        self.docs
            .insert(path.clone(), Document::new(d.uri, d.version, d.text));
        let roots = self.roots_for(&path);
        self.recompile(roots, BTreeSet::new());
    }

    fn did_change(&mut self, p: DidChangeTextDocumentParams) {
        let mut changed: Vec<PathBuf> = self.apply_change(p).into_iter().collect();
        for path in self.take_queued_changes() {
            if !changed.contains(&path) {
                changed.push(path);
            }
        }
        let mut roots: Vec<PathBuf> = Vec::new();
        for path in &changed {
            for r in self.roots_for(path) {
                if !roots.contains(&r) {
                    roots.push(r);
                }
            }
        }
        self.recompile(roots, BTreeSet::new());
    }

    /// Applies a change to an open document's text; returns its path.
    fn apply_change(&mut self, p: DidChangeTextDocumentParams) -> Option<PathBuf> {
        let path = paths::uri_to_path(p.text_document.uri.as_str());
        let Some(doc) = self.docs.get_mut(&path) else {
            self.log(
                MessageType::WARNING,
                format!("a change to '{}', which is not open", path.display()),
            );
            return None;
        };
        doc.version = p.text_document.version;
        for change in p.content_changes {
            doc.apply(change);
        }
        Some(path)
    }

    /// Applies the `didChange` notifications that are already waiting, so
    /// that a burst of keystrokes is compiled once, on the newest text;
    /// returns the documents they changed. Reading stops at the first
    /// other message, which waits in the backlog: messages keep their
    /// order.
    fn take_queued_changes(&mut self) -> Vec<PathBuf> {
        let mut changed = Vec::new();
        while self.backlog.is_empty() {
            let Ok(m) = self.connection.receiver.try_recv() else {
                break;
            };
            let n = match m {
                Message::Notification(n) if n.method == note::DidChangeTextDocument::METHOD => n,
                other => {
                    self.backlog.push_back(other);
                    break;
                }
            };
            match n.extract::<DidChangeTextDocumentParams>(note::DidChangeTextDocument::METHOD) {
                Ok(p) => changed.extend(self.apply_change(p)),
                Err(e) => self.log(
                    MessageType::WARNING,
                    format!("ignored a malformed 'textDocument/didChange' notification: {e}"),
                ),
            }
        }
        changed
    }

    fn did_save(&mut self, p: DidSaveTextDocumentParams) {
        let path = paths::uri_to_path(p.text_document.uri.as_str());
        let roots = self.roots_for(&path);
        self.recompile(roots, BTreeSet::new());
    }

    fn did_close(&mut self, p: DidCloseTextDocumentParams) {
        let path = paths::uri_to_path(p.text_document.uri.as_str());
        if self.docs.remove(&path).is_none() {
            return;
        }
        self.logged_warnings.remove(&path);
        let mut affected = BTreeSet::new();
        if let Some(old) = self.results.remove(&path) {
            affected.extend(old.diagnostics.into_keys());
            affected.insert(path.clone());
        }
        // Documents that include it now read it from the disk; open
        // documents it included are compiled on their own again.
        let mut roots: Vec<PathBuf> = self
            .results
            .iter()
            .filter(|(_, r)| r.dependencies.contains(&path))
            .map(|(p, _)| p.clone())
            .collect();
        let mut orphans: Vec<PathBuf> = self
            .docs
            .keys()
            .filter(|d| !self.results.contains_key(*d) && !self.is_included(d))
            .cloned()
            .collect();
        orphans.sort();
        roots.extend(orphans);
        self.recompile(roots, affected);
    }

    fn did_change_configuration(&mut self, p: DidChangeConfigurationParams) {
        let (settings, warnings) = Settings::from_json(&p.settings, self.root.as_deref());
        self.settings_warnings(warnings);
        if settings != self.settings {
            self.settings = settings;
            let roots = self.results.keys().cloned().collect();
            self.recompile(roots, BTreeSet::new());
        }
    }

    /// Whether a compiled document other than `path` reads it.
    fn is_included(&self, path: &Path) -> bool {
        self.results
            .iter()
            .any(|(r, res)| r != path && res.dependencies.iter().any(|d| d == path))
    }

    /// The documents to compile when `path` changed: those that include it,
    /// or itself when none does.
    fn roots_for(&self, path: &Path) -> Vec<PathBuf> {
        let including: Vec<PathBuf> = self
            .results
            .iter()
            .filter(|(r, res)| *r != path && res.dependencies.iter().any(|d| d == path))
            .map(|(r, _)| r.clone())
            .collect();
        let mut roots = including;
        if self.docs.contains_key(path) && (roots.is_empty() || self.is_standalone(path)) {
            roots.push(path.to_path_buf());
        }
        roots
    }

    /// A document with its own `// hlslc …` command line says how it is
    /// compiled: it is compiled on its own even when another includes it.
    fn is_standalone(&self, path: &Path) -> bool {
        self.docs
            .get(path)
            .is_some_and(|d| config::command_line_in(&d.text).is_some())
    }

    /// Compiles `roots` and publishes what changed, including the files in
    /// `affected` (whose diagnostics may have gone).
    fn recompile(&mut self, roots: Vec<PathBuf>, mut affected: BTreeSet<PathBuf>) {
        // The analyses replaced, freed after publishing (a large file's
        // side table takes a while to free).
        let mut replaced = Vec::new();
        let mut freed_later = Vec::new();
        for root in roots {
            if !self.docs.contains_key(&root) {
                continue;
            }
            let mut result = self.compile_root(&root);
            freed_later.push(std::mem::take(&mut result.leftovers));
            if let Some(old) = self.results.remove(&root) {
                affected.extend(old.diagnostics.into_keys());
                match result.analysis {
                    None => result.analysis = old.analysis,
                    Some(_) => replaced.push(old.analysis),
                }
            }
            affected.extend(result.diagnostics.keys().cloned());
            // Open documents this one includes are covered by it now
            // (unless they are compiled on their own).
            for dep in result.dependencies.iter().skip(1) {
                if dep != &root
                    && !self.is_standalone(dep)
                    && let Some(old) = self.results.remove(dep)
                {
                    affected.extend(old.diagnostics.into_keys());
                }
            }
            self.results.insert(root, result);
        }
        self.publish(affected);
        drop(replaced);
        // On another core when there is one: the next edit's check need
        // not wait for it (if the thread cannot start, the closure and
        // the trees are dropped here).
        let _ = std::thread::Builder::new()
            .name("hlslc-free".into())
            .spawn(move || drop(freed_later));
    }

    /// The URI to publish a file's diagnostics under: the open document's
    /// own, else one made from the path.
    /// (`None` only if that is no valid URI, which `path_to_uri`'s
    /// escaping rules out.)
    fn uri_for(docs: &FxHashMap<PathBuf, Document>, path: &Path) -> Option<Uri> {
        match docs.get(path) {
            Some(d) => Some(d.uri.clone()),
            None => paths::path_to_uri(path).parse().ok(),
        }
    }

    /// The text of `path`: the open document's, else the file's.
    fn text_of(&self, path: &Path) -> Option<String> {
        match self.docs.get(path) {
            Some(d) => Some(d.text.clone()),
            None => std::fs::read_to_string(path).ok(),
        }
    }

    fn compile_root(&mut self, path: &Path) -> RootResult {
        let Some(doc) = self.docs.get(path) else {
            return RootResult {
                dependencies: vec![path.to_path_buf()],
                diagnostics: ByFile::new(),
                analysis: None,
                leftovers: crate::Leftovers::default(),
            };
        };
        let (mut options, warnings) =
            config::options_for(&doc.text, path, &self.settings, self.root.as_deref());
        if self.logged_warnings.get(path) != Some(&warnings) {
            for w in &warnings {
                self.log(MessageType::WARNING, format!("{}: {w}", path.display()));
            }
            self.logged_warnings.insert(path.to_path_buf(), warnings);
        }
        options.index = true;
        let docs = &self.docs;
        let compile = self.compile;
        let related = self.related_supported;
        let run = || {
            let loader = paths::OverlayLoader { open: docs };
            let mut c = compile(path, &loader, &options);
            let leftovers = std::mem::take(&mut c.leftovers);
            let uri_for = |p: &Path| Self::uri_for(docs, p);
            let diagnostics = convert::convert(
                &c.diagnostics.list,
                &c.source_map,
                path,
                &uri_for,
                related,
                docs,
            );
            let mut dependencies = vec![path.to_path_buf()];
            for d in &c.dependencies {
                let d = paths::normalize(d);
                if !dependencies.contains(&d) {
                    dependencies.push(d);
                }
            }
            let analysis = analysis::Lazy::new(c.index, c.source_map, options.include_dirs.clone());
            RootResult {
                dependencies,
                diagnostics,
                analysis: Some(std::rc::Rc::new(analysis)),
                leftovers,
            }
        };
        match catch_unwind(AssertUnwindSafe(run)) {
            Ok(r) => r,
            Err(payload) => {
                let what = payload
                    .downcast_ref::<&str>()
                    .map(|s| s.to_string())
                    .or_else(|| payload.downcast_ref::<String>().cloned())
                    .unwrap_or_else(|| "unknown panic".to_string());
                self.log(
                    MessageType::ERROR,
                    format!(
                        "hlslc panicked while compiling {}: {what} (this is a bug in hlslc; please report it with the file)",
                        path.display()
                    ),
                );
                let d = lsp_types::Diagnostic {
                    range: convert::document_start(),
                    severity: Some(lsp_types::DiagnosticSeverity::ERROR),
                    code: Some(lsp_types::NumberOrString::String(
                        crate::diag::codes::INTERNAL.0.to_string(),
                    )),
                    source: Some("hlslc".to_string()),
                    message: format!(
                        "internal compiler error: hlslc panicked while compiling this file: {what}"
                    ),
                    ..lsp_types::Diagnostic::default()
                };
                // Keep the dependencies of the last good compilation, so
                // that a fix in an included header is still noticed.
                let dependencies = self
                    .results
                    .get(path)
                    .map_or_else(|| vec![path.to_path_buf()], |r| r.dependencies.clone());
                RootResult {
                    dependencies,
                    diagnostics: BTreeMap::from([(path.to_path_buf(), vec![d])]),
                    analysis: None,
                    leftovers: crate::Leftovers::default(),
                }
            }
        }
    }

    /// Publishes the diagnostics of each file in `files` whose list changed.
    fn publish(&mut self, files: BTreeSet<PathBuf>) {
        for f in files {
            let mut list: Vec<lsp_types::Diagnostic> = self
                .results
                .values()
                .filter_map(|r| r.diagnostics.get(&f))
                .flatten()
                .cloned()
                .collect();
            convert::dedup(&mut list);
            let before = self.published.get(&f).map_or(&[][..], Vec::as_slice);
            if before == list.as_slice() {
                continue;
            }
            let Some(uri) = Self::uri_for(&self.docs, &f) else {
                continue;
            };
            let params = PublishDiagnosticsParams {
                uri,
                diagnostics: list.clone(),
                version: self.docs.get(&f).map(|d| d.version),
            };
            self.send(
                Notification::new(note::PublishDiagnostics::METHOD.to_string(), params).into(),
            );
            if list.is_empty() {
                self.published.remove(&f);
            } else {
                self.published.insert(f, list);
            }
        }
    }
}
