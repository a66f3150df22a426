//! Code intelligence requests, answered from the [`Analysis`] of the last
//! compilation that read the document: hover, definition and declaration,
//! references, document and workspace symbols, folding ranges, document
//! links, and inactive `#if` groups as semantic tokens (one token type,
//! `comment`, over each skipped line, so every client greys them out as
//! it greys comments). Completion and signature help: `complete.rs`.
//!
//! A position anywhere (past the end, inside a character, in a file
//! without analysis) gives an empty answer, never an error.

use super::Server;
use super::analysis::{Analysis, At, Symbol};
use crate::sema::index::DefKind;
use lsp_server::{Request, Response};
use lsp_types::{
    DocumentLink, DocumentSymbol, FoldingRange, FoldingRangeKind, GotoDefinitionResponse, Hover,
    HoverContents, Location, MarkupContent, MarkupKind, Position,
    SymbolInformation, SymbolKind, TextDocumentPositionParams, Uri,
};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::rc::Rc;

/// A position in a document of an analysis: the analysis, the file, the
/// byte offset.
pub(super) struct Cursor {
    pub analysis: Rc<Analysis>,
    pub file: usize,
    pub offset: usize,
}

impl Server<'_> {
    /// Answers a code intelligence request, or `None` for a method this
    /// module does not handle.
    pub(super) fn code_request(&self, r: &Request) -> Option<Response> {
        let p = &r.params;
        let result: Value = match r.method.as_str() {
            "textDocument/hover" => json(self.cursor(p).and_then(|c| hover(&c))),
            "textDocument/definition" => {
                json(self.cursor(p).and_then(|c| self.definition(&c, true)))
            }
            "textDocument/declaration" => {
                json(self.cursor(p).and_then(|c| self.definition(&c, false)))
            }
            "textDocument/references" => {
                let decl = p
                    .pointer("/context/includeDeclaration")
                    .and_then(Value::as_bool)
                    .unwrap_or(true);
                json(self.cursor(p).map(|c| self.references(&c, decl)))
            }
            "textDocument/documentSymbol" => {
                json(self.document(p).map(|(a, f)| document_symbols(&a, f)))
            }
            "workspace/symbol" => {
                let q = p.get("query").and_then(Value::as_str).unwrap_or("");
                json(self.workspace_symbols(q))
            }
            "textDocument/foldingRange" => json(self.document(p).map(|(a, f)| folding(&a, f))),
            "textDocument/documentLink" => json(self.document(p).map(|(a, f)| self.links(&a, f))),
            "textDocument/inlayHint" => {
                let range = p
                    .get("range")
                    .and_then(|r| serde_json::from_value::<lsp_types::Range>(r.clone()).ok());
                json(
                    self.document(p)
                        .zip(range)
                        .map(|((a, f), r)| super::inlay::parameter_names(&a, f, r)),
                )
            }
            "textDocument/semanticTokens/full" => json(
                self.document(p)
                    .map(|(a, f)| super::tokens::semantic_tokens(&a, f, None)),
            ),
            "textDocument/semanticTokens/range" => {
                let range = p
                    .get("range")
                    .and_then(|r| serde_json::from_value::<lsp_types::Range>(r.clone()).ok());
                json(self.document(p).zip(range).map(|((a, f), r)| {
                    let bytes = offset_of(&a, f, r.start)..offset_of(&a, f, r.end);
                    super::tokens::semantic_tokens(&a, f, Some(bytes))
                }))
            }
            "textDocument/codeAction" => json(self.code_actions(p)),
            "textDocument/formatting" => json(self.formatting(p, false)),
            "textDocument/rangeFormatting" => json(self.formatting(p, true)),
            "textDocument/prepareRename" => match self.prepare_rename(p) {
                Ok(v) => json(v),
                Err(m) => return Some(failed(r, m)),
            },
            "textDocument/rename" => match self.rename(p) {
                Ok(v) => json(v),
                Err(m) => return Some(failed(r, m)),
            },
            "textDocument/completion" => json(
                self.cursor(p)
                    .map(|c| super::complete::completion(self, &c)),
            ),
            "textDocument/signatureHelp" => json(
                self.cursor(p)
                    .and_then(|c| super::complete::signature_help(&c)),
            ),
            _ => return None,
        };
        Some(Response::new_ok(r.id.clone(), result))
    }

    /// The analysis that covers the document at `path`: its own, else that
    /// of a compiled document that includes it.
    pub(super) fn analysis_for(&self, path: &Path) -> Option<(Rc<Analysis>, usize)> {
        let own = self.results.get(path).into_iter();
        let others = self
            .results
            .iter()
            .filter(|(r, _)| *r != path)
            .map(|(_, v)| v);
        own.chain(others).find_map(|res| {
            let a = res.analysis.as_ref()?.get();
            let f = a.file_of(path)?;
            Some((a, f))
        })
    }

    fn document(&self, p: &Value) -> Option<(Rc<Analysis>, usize)> {
        let uri = p.pointer("/textDocument/uri").and_then(Value::as_str)?;
        self.analysis_for(&super::paths::uri_to_path(uri))
    }

    fn cursor(&self, p: &Value) -> Option<Cursor> {
        let tp: TextDocumentPositionParams = serde_json::from_value(p.clone()).ok()?;
        let path = super::paths::uri_to_path(tp.text_document.uri.as_str());
        let (analysis, file) = self.analysis_for(&path)?;
        let offset = offset_of(&analysis, file, tp.position);
        Some(Cursor {
            analysis,
            file,
            offset,
        })
    }

    /// The URI of file `f` of an analysis.
    pub(super) fn uri_of(&self, a: &Analysis, f: usize) -> Option<Uri> {
        Self::uri_for(&self.docs, &a.files.get(f)?.path)
    }

    fn location(&self, a: &Analysis, at: &At) -> Option<Location> {
        Some(Location {
            uri: self.uri_of(a, at.file)?,
            range: a.range(at),
        })
    }

    fn definition(&self, c: &Cursor, definition: bool) -> Option<GotoDefinitionResponse> {
        let a = &c.analysis;
        if let Some((_, f)) = a.include_at(c.file, c.offset) {
            let at = At {
                file: f,
                range: 0..0,
            };
            return Some(GotoDefinitionResponse::Scalar(self.location(a, &at)?));
        }
        if let Some((_, m)) = a.macro_at(c.file, c.offset) {
            return Some(GotoDefinitionResponse::Scalar(
                self.location(a, &a.macros[m].at)?,
            ));
        }
        let (_, i) = a.symbol_at(c.file, c.offset)?;
        let s = &a.symbols[i];
        let at = match (&s.def_at, definition) {
            (Some(d), true) => d,
            _ => &s.at,
        };
        Some(GotoDefinitionResponse::Scalar(self.location(a, at)?))
    }

    fn references(&self, c: &Cursor, include_declaration: bool) -> Vec<Location> {
        let a = &c.analysis;
        if let Some((_, m)) = a.macro_at(c.file, c.offset) {
            let uses = a
                .macro_uses
                .iter()
                .filter(|(_, j)| *j == m)
                .map(|(at, _)| at);
            let def = include_declaration.then_some(&a.macros[m].at);
            return uses
                .chain(def)
                .filter_map(|at| self.location(a, at))
                .collect();
        }
        let Some((_, i)) = a.symbol_at(c.file, c.offset) else {
            return Vec::new();
        };
        let s = &a.symbols[i];
        a.occurrences(i)
            .filter(|at| include_declaration || (**at != s.at && Some(*at) != s.def_at.as_ref()))
            .filter_map(|at| self.location(a, at))
            .collect()
    }

    fn workspace_symbols(&self, query: &str) -> Vec<SymbolInformation> {
        let q = query.to_lowercase();
        let mut out = Vec::new();
        let mut seen: Vec<(PathBuf, usize)> = Vec::new();
        for res in self.results.values() {
            let Some(a) = res.analysis.as_ref().map(|l| l.get()) else {
                continue;
            };
            let a = &a;
            for s in &a.symbols {
                if !s.kind_is_real()
                    || matches!(s.kind, DefKind::Local | DefKind::Parameter)
                    || !s.name.to_lowercase().contains(&q)
                {
                    continue;
                }
                let key = (a.files[s.at.file].path.clone(), s.at.range.start);
                if seen.contains(&key) {
                    continue;
                }
                let Some(location) = self.location(a, &s.at) else {
                    continue;
                };
                seen.push(key);
                #[allow(deprecated)]
                out.push(SymbolInformation {
                    name: s.name.clone(),
                    kind: symbol_kind(s.kind),
                    tags: None,
                    deprecated: None,
                    location,
                    container_name: s.container.map(|c| a.symbols[c].name.clone()),
                });
            }
        }
        out
    }

    fn links(&self, a: &Analysis, f: usize) -> Vec<DocumentLink> {
        a.includes
            .iter()
            .filter(|(at, _)| at.file == f)
            .filter_map(|(at, target)| {
                // The quoted name, else the whole line.
                let text = &a.files[f].text[at.range.clone()];
                let range = match (text.find(['"', '<']), text.rfind(['"', '>'])) {
                    (Some(i), Some(j)) if j > i => at.range.start + i + 1..at.range.start + j,
                    _ => at.range.clone(),
                };
                let range = a.range(&At { file: f, range });
                Some(DocumentLink {
                    range,
                    target: Some(self.uri_of(a, *target)?),
                    tooltip: Some(a.files[*target].path.display().to_string()),
                    data: None,
                })
            })
            .collect()
    }
}

/// A request refused with a message for the user (a rename that cannot
/// be made).
fn failed(r: &Request, message: String) -> Response {
    Response::new_err(r.id.clone(), lsp_server::ErrorCode::RequestFailed as i32, message)
}

fn json<T: serde::Serialize>(v: T) -> Value {
    serde_json::to_value(v).unwrap_or(Value::Null)
}

/// The byte offset of an LSP position in file `f` of `a`.
pub(super) fn offset_of(a: &Analysis, f: usize, pos: Position) -> usize {
    let file = &a.files[f];
    file.lines.offset(&file.text, pos)
}

fn markdown(code: &str, doc: Option<&str>) -> HoverContents {
    let mut value = format!("```hlsl\n{code}\n```");
    if let Some(d) = doc {
        value.push_str("\n\n");
        value.push_str(d);
    }
    HoverContents::Markup(MarkupContent {
        kind: MarkupKind::Markdown,
        value,
    })
}

/// What a symbol's hover shows first: its declaration, with its struct or
/// cbuffer and, for entry points, the stage.
fn symbol_header(a: &Analysis, s: &Symbol) -> String {
    let mut h = s.detail.clone();
    if let Some(c) = s.container
        && matches!(
            s.kind,
            DefKind::Field | DefKind::Method | DefKind::CBufferMember | DefKind::EnumValue
        )
    {
        h = format!("{h} // in {}", a.symbols[c].detail);
    }
    if let Some(st) = s.stage {
        h = format!("// {st} entry point\n{h}");
    }
    h
}

fn hover(c: &Cursor) -> Option<Hover> {
    let a = &c.analysis;
    if let Some((at, m)) = a.macro_at(c.file, c.offset) {
        return Some(Hover {
            contents: markdown(&a.macros[m].text, None),
            range: Some(a.range(at)),
        });
    }
    if let Some((at, f)) = a.include_at(c.file, c.offset) {
        return Some(Hover {
            contents: markdown(&format!("// {}", a.files[f].path.display()), None),
            range: Some(a.range(at)),
        });
    }
    if let Some((at, i)) = a.symbol_at(c.file, c.offset) {
        let s = &a.symbols[i];
        return Some(Hover {
            contents: markdown(&symbol_header(a, s), s.doc.as_deref()),
            range: Some(a.range(at)),
        });
    }
    let word = super::complete::word_at(&a.files[c.file].text, c.offset);
    if let Some(i) = crate::sema::calls::intrinsics::table::find(&word.1) {
        let mut lines = Vec::new();
        let mut slots = Vec::new();
        for o in i.overloads {
            let (sig, _, s) = o.describe(i.name);
            lines.push(sig);
            slots.extend(s);
        }
        slots.sort();
        slots.dedup();
        let doc = format!("intrinsic function\n\n{}", slots.join("  \n"));
        let range = a.range(&At {
            file: c.file,
            range: word.0,
        });
        return Some(Hover {
            contents: markdown(&lines.join("\n"), Some(&doc)),
            range: Some(range),
        });
    }
    let (at, ty) = a.type_at(c.file, c.offset)?;
    Some(Hover {
        contents: markdown(ty, None),
        range: Some(a.range(at)),
    })
}

pub(super) fn symbol_kind(k: DefKind) -> SymbolKind {
    match k {
        DefKind::Local | DefKind::Parameter => SymbolKind::VARIABLE,
        DefKind::Global | DefKind::Resource => SymbolKind::VARIABLE,
        DefKind::CBufferMember | DefKind::Field => SymbolKind::FIELD,
        DefKind::CBuffer => SymbolKind::NAMESPACE,
        DefKind::Function => SymbolKind::FUNCTION,
        DefKind::Method => SymbolKind::METHOD,
        DefKind::Struct | DefKind::Template => SymbolKind::STRUCT,
        DefKind::Typedef => SymbolKind::TYPE_PARAMETER,
        DefKind::Enum => SymbolKind::ENUM,
        DefKind::EnumValue => SymbolKind::ENUM_MEMBER,
        DefKind::Namespace => SymbolKind::NAMESPACE,
    }
}

/// The outline of file `f`: functions (entry points with their stage),
/// structs with their members, cbuffers with theirs, resources, globals,
/// types.
fn document_symbols(a: &Analysis, f: usize) -> Vec<DocumentSymbol> {
    let top = |s: &Symbol| {
        s.kind_is_real()
            && s.at.file == f
            && !matches!(s.kind, DefKind::Local | DefKind::Parameter)
            && s.container.is_none_or(|c| {
                !matches!(
                    a.symbols[c].kind,
                    DefKind::Struct | DefKind::CBuffer | DefKind::Enum
                )
            })
    };
    let mut out: Vec<DocumentSymbol> = a
        .symbols
        .iter()
        .enumerate()
        .filter(|(_, s)| top(s))
        .map(|(i, s)| {
            let mut d = outline_entry(a, s);
            let children: Vec<DocumentSymbol> = a
                .symbols
                .iter()
                .filter(|m| m.container == Some(i) && m.kind_is_real() && m.at.file == f)
                .filter(|m| !matches!(m.kind, DefKind::Local | DefKind::Parameter))
                .map(|m| outline_entry(a, m))
                .collect();
            if !children.is_empty() {
                d.children = Some(children);
            }
            d
        })
        .collect();
    out.sort_by_key(|d| (d.range.start.line, d.range.start.character));
    out
}

fn outline_entry(a: &Analysis, s: &Symbol) -> DocumentSymbol {
    // The function's own place is its definition when it has one.
    let at = s.def_at.as_ref().unwrap_or(&s.at);
    let selection = a.range(at);
    let mut range = a.range(&s.extent);
    if s.extent.range.start > at.range.start || s.extent.range.end < at.range.end {
        range = selection;
    }
    let detail = match s.stage {
        Some(st) => format!("{} ({st} entry point)", s.detail),
        None => s.detail.clone(),
    };
    #[allow(deprecated)]
    DocumentSymbol {
        name: s.name.clone(),
        detail: Some(detail),
        kind: symbol_kind(s.kind),
        tags: None,
        deprecated: None,
        range,
        selection_range: selection,
        children: None,
    }
}

/// Declarations over several lines (functions, structs, cbuffers) and the
/// skipped `#if` groups.
fn folding(a: &Analysis, f: usize) -> Vec<FoldingRange> {
    let mut out = Vec::new();
    let mut add = |at: &At, kind: Option<FoldingRangeKind>| {
        let r = a.range(at);
        if r.end.line > r.start.line {
            out.push(FoldingRange {
                start_line: r.start.line,
                start_character: None,
                end_line: r.end.line,
                end_character: None,
                kind,
                collapsed_text: None,
            });
        }
    };
    for s in &a.symbols {
        if s.kind_is_real()
            && s.extent.file == f
            && matches!(
                s.kind,
                DefKind::Function | DefKind::Method | DefKind::Struct | DefKind::CBuffer
            )
        {
            add(&s.extent, None);
        }
    }
    for at in a.inactive.iter().filter(|at| at.file == f) {
        add(at, Some(FoldingRangeKind::Region));
    }
    out.sort_by_key(|r| (r.start_line, r.end_line));
    out.dedup_by_key(|r| (r.start_line, r.end_line));
    out
}

/// The capabilities of the requests answered here (what `initialize`
/// advertises besides text sync).
pub(super) fn capabilities() -> lsp_types::ServerCapabilities {
    use lsp_types::{
        CompletionOptions, DocumentLinkOptions, OneOf, SemanticTokenModifier, SemanticTokenType,
        SemanticTokensFullOptions, SemanticTokensLegend, SemanticTokensOptions,
        SemanticTokensServerCapabilities, SignatureHelpOptions,
    };
    lsp_types::ServerCapabilities {
        hover_provider: Some(lsp_types::HoverProviderCapability::Simple(true)),
        definition_provider: Some(OneOf::Left(true)),
        declaration_provider: Some(lsp_types::DeclarationCapability::Simple(true)),
        references_provider: Some(OneOf::Left(true)),
        document_symbol_provider: Some(OneOf::Left(true)),
        workspace_symbol_provider: Some(OneOf::Left(true)),
        inlay_hint_provider: Some(OneOf::Left(true)),
        document_formatting_provider: Some(OneOf::Left(true)),
        document_range_formatting_provider: Some(OneOf::Left(true)),
        code_action_provider: Some(lsp_types::CodeActionProviderCapability::Options(
            lsp_types::CodeActionOptions {
                code_action_kinds: Some(vec![lsp_types::CodeActionKind::QUICKFIX]),
                ..Default::default()
            },
        )),
        rename_provider: Some(OneOf::Right(lsp_types::RenameOptions {
            prepare_provider: Some(true),
            work_done_progress_options: Default::default(),
        })),
        folding_range_provider: Some(lsp_types::FoldingRangeProviderCapability::Simple(true)),
        document_link_provider: Some(DocumentLinkOptions {
            resolve_provider: Some(false),
            work_done_progress_options: Default::default(),
        }),
        completion_provider: Some(CompletionOptions {
            trigger_characters: Some(
                [".", ":", "[", "\"", "<", "/"]
                    .iter()
                    .map(|s| s.to_string())
                    .collect(),
            ),
            ..CompletionOptions::default()
        }),
        signature_help_provider: Some(SignatureHelpOptions {
            trigger_characters: Some(vec!["(".to_string(), ",".to_string()]),
            retrigger_characters: None,
            work_done_progress_options: Default::default(),
        }),
        semantic_tokens_provider: Some(SemanticTokensServerCapabilities::SemanticTokensOptions(
            SemanticTokensOptions {
                legend: SemanticTokensLegend {
                    token_types: super::tokens::TOKEN_TYPES
                        .iter()
                        .map(|t| SemanticTokenType::new(t))
                        .collect(),
                    token_modifiers: super::tokens::TOKEN_MODIFIERS
                        .iter()
                        .map(|m| SemanticTokenModifier::new(m))
                        .collect(),
                },
                full: Some(SemanticTokensFullOptions::Bool(true)),
                range: Some(true),
                work_done_progress_options: Default::default(),
            },
        )),
        ..lsp_types::ServerCapabilities::default()
    }
}
