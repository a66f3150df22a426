//! Rename: `textDocument/prepareRename` and `textDocument/rename`.
//!
//! A name is one declaration wherever it is seen: the file and byte range
//! of its declared name (for a macro, of its `#define`d name). Rename
//! finds that declaration in every compilation that sees it — each open
//! document's (with the files it includes), and each other HLSL file of
//! the workspace that mentions the name and includes the declaration's
//! file (a local's function is all that can name it) — and edits every
//! occurrence, so
//! that renaming a struct member in a header also renames its uses in the
//! files including the header. Intrinsics, built-in types and names
//! declared outside the workspace (hlslc's built-in headers, an SDK's) are
//! refused with a message, as is a new name that is no identifier or that
//! would clash with a declaration beside the old one, or capture (or be
//! captured by) another name in a function that uses it.

use super::Server;
use super::analysis::{Analysis, At};
use super::paths;
use crate::front::lexer::{self, Token};
use crate::intern::{Symbol, builtins};
use crate::sema::calls::intrinsics::table as intrinsics;
use crate::sema::index::DefKind;
use lsp_types::{PrepareRenameResponse, TextDocumentPositionParams, TextEdit};
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The most workspace files a rename reads besides the open documents.
const MAX_WORKSPACE_FILES: usize = 2000;

/// What is renamed: a symbol or a macro, by where it is declared.
struct Target {
    path: PathBuf,
    range: std::ops::Range<usize>,
    is_macro: bool,
    name: String,
    /// A local or a parameter: its function is all that names it.
    local: bool,
}

impl Target {
    /// Whether `at` (of `a`) is where the target is declared.
    fn declared_at(&self, a: &Analysis, at: &At) -> bool {
        a.files[at.file].path == self.path && at.range == self.range
    }

    /// The target's symbol in `a`, if `a` sees it (not for a macro).
    fn symbol(&self, a: &Analysis) -> Option<usize> {
        a.symbols
            .iter()
            .position(|s| !self.is_macro && s.kind_is_real() && self.declared_at(a, &s.at))
    }

    /// The occurrences of the target in `a` (none if `a` does not see it).
    fn occurrences<'a>(&self, a: &'a Analysis) -> Vec<&'a At> {
        if self.is_macro {
            let Some(m) = a.macros.iter().position(|m| self.declared_at(a, &m.at)) else {
                return Vec::new();
            };
            let uses = a.macro_uses.iter().filter(|(_, j)| *j == m).map(|(at, _)| at);
            return std::iter::once(&a.macros[m].at).chain(uses).collect();
        }
        self.symbol(a).map_or_else(Vec::new, |i| a.occurrences(i).collect())
    }
}

impl Server<'_> {
    /// `prepareRename`: the name's range and text, or why it cannot be
    /// renamed.
    pub(super) fn prepare_rename(&self, p: &Value) -> Result<Option<PrepareRenameResponse>, String> {
        let Some((a, at, target)) = self.rename_target(p)? else {
            return Ok(None);
        };
        Ok(Some(PrepareRenameResponse::RangeWithPlaceholder {
            range: a.range(&at),
            placeholder: target.name,
        }))
    }

    /// `rename`: a WorkspaceEdit of every occurrence, in every file that
    /// has one.
    pub(super) fn rename(&self, p: &Value) -> Result<Option<Value>, String> {
        let new_name = p
            .get("newName")
            .and_then(Value::as_str)
            .ok_or("rename needs a new name")?;
        check_new_name(new_name)?;
        let Some((a, _, target)) = self.rename_target(p)? else {
            return Ok(None);
        };
        if let Some(why) = clash(&a, &target, new_name) {
            return Err(why);
        }
        let mut edits: BTreeMap<PathBuf, Vec<(std::ops::Range<usize>, lsp_types::Range)>> =
            BTreeMap::new();
        let mut add = |a: &Analysis| {
            for at in target.occurrences(a) {
                let path = a.files[at.file].path.clone();
                let list = edits.entry(path).or_default();
                if !list.iter().any(|(r, _)| *r == at.range) {
                    list.push((at.range.clone(), a.range(at)));
                }
            }
        };
        add(&a);
        let mut seen: Vec<PathBuf> = Vec::new();
        for (root, res) in &self.results {
            seen.push(root.clone());
            if let Some(l) = &res.analysis {
                add(&l.get());
            }
        }
        // Other files can name only what is declared outside a function,
        // and only if they include its file (directly or not).
        if !target.local {
            for path in self.files_seeing(&target.path, &target.name, &seen) {
                if let Some(other) = self.analyse_from_disk(&path) {
                    add(&other);
                }
            }
        }
        // A WorkspaceEdit's `changes`, by URI (as JSON: lsp_types keys a
        // hash map by `Uri`, which hashes its lazily parsed parts).
        let mut changes = serde_json::Map::new();
        for (path, list) in edits {
            let Some(uri) = Self::uri_for(&self.docs, &path) else {
                continue;
            };
            let list: Vec<TextEdit> = list
                .into_iter()
                .map(|(_, range)| TextEdit {
                    range,
                    new_text: new_name.to_string(),
                })
                .collect();
            changes.insert(uri.as_str().to_string(), serde_json::to_value(list).unwrap_or_default());
        }
        Ok(Some(serde_json::json!({ "changes": changes })))
    }

    /// The name at the request's position: its analysis, its occurrence
    /// there and what it names; `Ok(None)` where there is no name, an
    /// error for a name that cannot be renamed.
    fn rename_target(&self, p: &Value) -> Result<Option<(std::rc::Rc<Analysis>, At, Target)>, String> {
        let Ok(tp) = serde_json::from_value::<TextDocumentPositionParams>(p.clone()) else {
            return Ok(None);
        };
        let path = paths::uri_to_path(tp.text_document.uri.as_str());
        let Some((a, f)) = self.analysis_for(&path) else {
            return Ok(None);
        };
        let offset = super::requests::offset_of(&a, f, tp.position);
        let (at, decl, is_macro, name, local) = if let Some((at, m)) = a.macro_at(f, offset) {
            let m = &a.macros[m];
            (at.clone(), m.at.clone(), true, m.name.clone(), false)
        } else if let Some((at, i)) = a.symbol_at(f, offset) {
            let s = &a.symbols[i];
            let local = matches!(s.kind, DefKind::Local | DefKind::Parameter);
            (at.clone(), s.at.clone(), false, s.name.clone(), local)
        } else {
            return match word_at(&a.files[f].text, offset) {
                Some(w) if intrinsics::find(w).is_some() => {
                    Err(format!("`{w}` is an HLSL intrinsic: it cannot be renamed"))
                }
                Some(w) if builtins::is_builtin_type(Symbol::intern(w)) => {
                    Err(format!("`{w}` is a built-in type: it cannot be renamed"))
                }
                _ => Ok(None),
            };
        };
        let decl_path = a.files[decl.file].path.clone();
        if self.is_system_file(&decl_path) {
            return Err(format!(
                "`{name}` is declared in {}, outside the workspace: it cannot be renamed",
                decl_path.display()
            ));
        }
        let target = Target {
            path: decl_path,
            range: decl.range,
            is_macro,
            name,
            local,
        };
        Ok(Some((a, at, target)))
    }

    /// A file the user does not edit: hlslc's built-in headers and the
    /// predefined macros (`<hlslc>/…`, `<built-in>`), or one outside the
    /// workspace (when there is one).
    fn is_system_file(&self, path: &Path) -> bool {
        path.to_string_lossy().starts_with('<')
            || self.root.as_ref().is_some_and(|r| !path.starts_with(r))
    }

    /// The HLSL files under the workspace root, other than `skip`, whose
    /// text has `name` as a word.
    pub(super) fn workspace_files_mentioning(&self, name: &str, skip: &[PathBuf]) -> Vec<PathBuf> {
        self.workspace_files(skip)
            .into_iter()
            .filter(|p| self.text_of(p).is_some_and(|t| has_word(&t, name)))
            .collect()
    }

    /// The HLSL files under the workspace root (at most
    /// [`MAX_WORKSPACE_FILES`]), other than `skip`, in a stable order.
    fn workspace_files(&self, skip: &[PathBuf]) -> Vec<PathBuf> {
        let Some(root) = &self.root else {
            return Vec::new();
        };
        let mut out = Vec::new();
        let mut dirs = vec![root.clone()];
        while let Some(dir) = dirs.pop() {
            let Ok(entries) = std::fs::read_dir(&dir) else {
                continue;
            };
            let mut entries: Vec<PathBuf> = entries.filter_map(|e| Some(e.ok()?.path())).collect();
            entries.sort();
            for p in entries {
                let hidden = p
                    .file_name()
                    .is_some_and(|n| n.to_string_lossy().starts_with('.') || n == "target");
                if hidden {
                    continue;
                }
                if p.is_dir() {
                    dirs.push(p);
                    continue;
                }
                let hlsl = p
                    .extension()
                    .is_some_and(|e| ["hlsl", "hlsli", "fx", "fxh"].contains(&&*e.to_string_lossy()));
                let p = paths::normalize(&p);
                if !hlsl || skip.contains(&p) {
                    continue;
                }
                if out.len() >= MAX_WORKSPACE_FILES {
                    return out;
                }
                out.push(p);
            }
        }
        out
    }

    /// The workspace files other than `skip` that mention `name` and are
    /// `decl` or include it, directly or through other workspace files
    /// (each file read once). An `#include` is matched by its file name
    /// (so a name shared by two headers keeps both); a file whose
    /// `#include` names a macro is kept.
    fn files_seeing(&self, decl: &Path, name: &str, skip: &[PathBuf]) -> Vec<PathBuf> {
        let name_of = |p: &Path| p.file_name().map(|n| n.to_os_string());
        // Each workspace file, whether it is to compile if it sees `decl`,
        // and what it includes (`None`: not known).
        type Node = (PathBuf, bool, Option<Vec<std::ffi::OsString>>);
        let graph: Vec<Node> = self
            .workspace_files(&[])
            .into_iter()
            .filter_map(|p| {
                let text = self.text_of(&p)?;
                let wanted = !skip.contains(&p) && has_word(&text, name);
                Some((p, wanted, includes(&text)))
            })
            .collect();
        if !graph.iter().any(|(_, wanted, _)| *wanted) {
            return Vec::new();
        }
        let mut reaching: Vec<std::ffi::OsString> = name_of(decl).into_iter().collect();
        let mut reached: Vec<bool> = graph.iter().map(|(p, ..)| p.as_path() == decl).collect();
        loop {
            let mut grew = false;
            for (i, (p, _, inc)) in graph.iter().enumerate() {
                let hit = inc.as_ref().is_none_or(|inc| inc.iter().any(|n| reaching.contains(n)));
                if !reached[i] && hit {
                    reached[i] = true;
                    grew = true;
                    reaching.extend(name_of(p));
                }
            }
            if !grew {
                break;
            }
        }
        graph
            .into_iter()
            .zip(reached)
            .filter(|((_, wanted, _), reached)| *wanted && *reached)
            .map(|((p, ..), _)| p)
            .collect()
    }

    /// The analysis of a compilation of `path` as the server would compile
    /// it (its options, open documents' text for the files they are).
    pub(super) fn analyse_from_disk(&self, path: &Path) -> Option<Analysis> {
        let text = self.text_of(path)?;
        let (mut options, _) =
            super::config::options_for(&text, path, &self.settings, self.root.as_deref());
        options.index = true;
        let loader = paths::OverlayLoader { open: &self.docs };
        let compile = self.compile;
        let c = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            compile(path, &loader, &options)
        }))
        .ok()?;
        Some(Analysis::new(c.index, &c.source_map, &options.include_dirs))
    }
}

/// Why renaming `target` to `new` in `a` would change what a name means:
/// `new` is already declared beside it (same function, struct or file
/// scope), or names something else in a function where the target is
/// used (the renamed name would capture it, or be captured).
fn clash(a: &Analysis, target: &Target, new: &str) -> Option<String> {
    if target.is_macro {
        return a
            .macros
            .iter()
            .any(|m| m.name == new)
            .then(|| format!("`{new}` is already a macro"));
    }
    let own = target.symbol(a)?;
    let container = a.symbols[own].container;
    if let Some(o) = a
        .symbols
        .iter()
        .find(|o| o.kind_is_real() && o.name == new && o.container == container)
    {
        return Some(format!("`{new}` is already declared here ({}): the rename would clash with it", o.detail));
    }
    // The functions where the target is used.
    let functions: Vec<&At> = a
        .occurrences(own)
        .filter_map(|at| {
            a.symbols
                .iter()
                .filter(|f| matches!(f.kind, DefKind::Function | DefKind::Method))
                .map(|f| &f.extent)
                .find(|e| e.file == at.file && e.range.start <= at.range.start && at.range.end <= e.range.end)
        })
        .collect();
    let captured = a.uses.iter().find(|(at, j)| {
        a.symbols[*j].name == new
            && functions
                .iter()
                .any(|e| e.file == at.file && e.range.start <= at.range.start && at.range.end <= e.range.end)
    })?;
    Some(format!(
        "`{new}` already names {} where `{}` is used: the rename would change what a name means",
        a.symbols[captured.1].detail, target.name
    ))
}

/// A new name must be one identifier that is no keyword or built-in type.
fn check_new_name(name: &str) -> Result<(), String> {
    let (tokens, errors) = lexer::lex(name);
    let one_ident = errors.is_empty()
        && tokens.len() == 1
        && tokens[0].kind == Token::Ident
        && tokens[0].end as usize == name.len();
    if !one_ident {
        return Err(format!("`{name}` is not an identifier"));
    }
    if builtins::is_builtin_type(Symbol::intern(name)) {
        return Err(format!("`{name}` is a built-in type"));
    }
    Ok(())
}

/// The identifier around `offset` of `text`.
fn word_at(text: &str, offset: usize) -> Option<&str> {
    let is_word = |c: char| c.is_ascii_alphanumeric() || c == '_';
    let offset = offset.min(text.len());
    let start = text[..offset].rfind(|c| !is_word(c)).map_or(0, |i| i + 1);
    let end = text[offset..].find(|c| !is_word(c)).map_or(text.len(), |i| offset + i);
    (end > start).then(|| &text[start..end])
}

/// Whether `text` has `word` as a whole word.
fn has_word(text: &str, word: &str) -> bool {
    let is_word = |c: Option<char>| c.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_');
    text.match_indices(word).any(|(i, _)| {
        !is_word(text[..i].chars().next_back()) && !is_word(text[i + word.len()..].chars().next())
    })
}

/// The file names the `#include` lines of `text` name; `None` when one
/// names a macro (what it includes is not known without preprocessing).
fn includes(text: &str) -> Option<Vec<std::ffi::OsString>> {
    let mut out = Vec::new();
    for line in text.lines() {
        let Some(rest) = line.trim_start().strip_prefix('#') else {
            continue;
        };
        let Some(spec) = rest.trim_start().strip_prefix("include") else {
            continue;
        };
        let spec = spec.trim();
        let inner = spec
            .strip_prefix('"')
            .and_then(|s| s.split('"').next())
            .or_else(|| spec.strip_prefix('<').and_then(|s| s.split('>').next()))?;
        out.extend(Path::new(inner).file_name().map(|n| n.to_os_string()));
    }
    Some(out)
}
