//! Quick fixes (`textDocument/codeAction`) for the diagnostics that carry
//! a suggestion:
//!
//! - an unknown name (E0301) with "did you mean `x`?": replace it;
//! - an unknown name that a header of the workspace declares: add its
//!   `#include`, after the document's last one;
//! - a compute entry point without `[numthreads]` (E0602): add
//!   `[numthreads(1, 1, 1)]` on the line before it;
//! - an entry parameter or output without a semantic (E0604): add the
//!   semantic the diagnostic suggests for the stage.
//!
//! The client sends the diagnostics back with the request; each fix names
//! the one it fixes.

use super::Server;
use super::paths;
use lsp_types::{
    CodeAction, CodeActionKind, Diagnostic, NumberOrString, Position, Range, TextEdit,
};
use serde_json::{Value, json};
use std::path::Path;

impl Server<'_> {
    /// The quick fixes for the diagnostics of a `codeAction` request.
    pub(super) fn code_actions(&self, p: &Value) -> Vec<Value> {
        let Some(uri) = p.pointer("/textDocument/uri").and_then(Value::as_str) else {
            return Vec::new();
        };
        let path = paths::uri_to_path(uri);
        let Some(text) = self.text_of(&path) else {
            return Vec::new();
        };
        let diagnostics: Vec<Diagnostic> = p
            .pointer("/context/diagnostics")
            .and_then(|d| serde_json::from_value(d.clone()).ok())
            .unwrap_or_default();
        let mut out = Vec::new();
        for d in diagnostics.iter().filter(|d| d.source.as_deref() == Some("hlslc")) {
            let code = match &d.code {
                Some(NumberOrString::String(c)) => c.as_str(),
                _ => continue,
            };
            let fixes: Vec<(String, TextEdit)> = match code {
                "E0301" => {
                    let mut f: Vec<_> = between(&d.message, "did you mean `", "`?")
                        .map(|s| (format!("Replace with `{s}`"), edit(d.range, s)))
                        .into_iter()
                        .collect();
                    if let Some(name) = between(&d.message, "`", "`") {
                        f.extend(self.include_fixes(&path, &text, name));
                    }
                    f
                }
                "E0602" => numthreads_fix(&text, d.range.start).into_iter().collect(),
                "E0604" => semantic_fix(&text, d).into_iter().collect(),
                _ => continue,
            };
            for (title, e) in fixes {
                out.push(action(uri, title, e, d));
            }
        }
        out
    }

    /// `#include`s of the workspace headers that declare `name` (a symbol
    /// or a macro of the header itself), at the place for a new one.
    fn include_fixes(&self, doc: &Path, text: &str, name: &str) -> Vec<(String, TextEdit)> {
        let mut out = Vec::new();
        let headers = self
            .workspace_files_mentioning(name, &[doc.to_path_buf()])
            .into_iter()
            .filter(|h| h.extension().is_some_and(|e| e != "hlsl"));
        for header in headers {
            let Some(a) = self.analyse_from_disk(&header) else {
                continue;
            };
            let own = |file: usize| a.files.get(file).is_some_and(|f| f.path == header);
            let declares = a.symbols.iter().any(|s| s.name == name && s.kind_is_real() && own(s.at.file))
                || a.macros.iter().any(|m| m.name == name && own(m.at.file));
            if !declares {
                continue;
            }
            let spelled = relative(doc.parent().unwrap_or(Path::new("")), &header);
            let line = include_line(text);
            out.push((
                format!("Add `#include \"{spelled}\"`"),
                edit(
                    Range::new(Position::new(line, 0), Position::new(line, 0)),
                    &format!("#include \"{spelled}\"\n"),
                ),
            ));
        }
        out
    }
}

/// The text between the first `open` and the next `close` after it.
fn between<'a>(s: &'a str, open: &str, close: &str) -> Option<&'a str> {
    let start = s.find(open)? + open.len();
    let len = s[start..].find(close)?;
    Some(&s[start..start + len])
}

fn edit(range: Range, new_text: &str) -> TextEdit {
    TextEdit {
        range,
        new_text: new_text.to_string(),
    }
}

/// A quick fix of `d` in the document `uri`.
fn action(uri: &str, title: String, e: TextEdit, d: &Diagnostic) -> Value {
    let a = CodeAction {
        title,
        kind: Some(CodeActionKind::QUICKFIX),
        diagnostics: Some(vec![d.clone()]),
        is_preferred: Some(true),
        ..CodeAction::default()
    };
    let mut v = serde_json::to_value(a).unwrap_or_default();
    // The edit as JSON (see `rename`: lsp_types keys changes by `Uri`).
    v["edit"] = json!({ "changes": { uri: [e] } });
    v
}

/// `[numthreads(1, 1, 1)]` on a line of its own before the function whose
/// name is at `name`, indented as its line.
fn numthreads_fix(text: &str, name: Position) -> Option<(String, TextEdit)> {
    let line = text.lines().nth(name.line as usize)?;
    let indent: String = line.chars().take_while(|c| c.is_whitespace()).collect();
    let at = Position::new(name.line, 0);
    Some((
        "Add `[numthreads(1, 1, 1)]`".to_string(),
        edit(Range::new(at, at), &format!("{indent}[numthreads(1, 1, 1)]\n")),
    ))
}

/// The semantic E0604 suggests (`needs a semantic such as `: X``), after
/// the parameter, or after the parameter list for an output (whose
/// diagnostic is at the function's name).
fn semantic_fix(text: &str, d: &Diagnostic) -> Option<(String, TextEdit)> {
    let semantic = between(&d.message, "such as `: ", "`")?;
    let at = if d.message.contains("entry point output") {
        after_parameters(text, d.range.end)?
    } else {
        d.range.end
    };
    Some((
        format!("Add the semantic `{semantic}`"),
        edit(Range::new(at, at), &format!(" : {semantic}")),
    ))
}

/// The position just after the `)` closing the first `(` after `from`.
fn after_parameters(text: &str, from: Position) -> Option<Position> {
    let mut depth = 0;
    for (n, l) in text.lines().enumerate().skip(from.line as usize) {
        let start = if n as u32 == from.line { from.character as usize } else { 0 };
        for (i, c) in l.char_indices().filter(|(i, _)| *i >= start) {
            match c {
                '(' => depth += 1,
                ')' if depth == 1 => return Some(Position::new(n as u32, (i + 1) as u32)),
                ')' => depth -= 1,
                _ => {}
            }
        }
    }
    None
}

/// The line a new `#include` goes on: after the last `#include`, else
/// after the leading comment lines.
fn include_line(text: &str) -> u32 {
    let lines: Vec<&str> = text.lines().collect();
    if let Some(i) = lines.iter().rposition(|l| l.trim_start().starts_with("#include")) {
        return i as u32 + 1;
    }
    lines.iter().take_while(|l| l.trim_start().starts_with("//")).count() as u32
}

/// `to` as an `#include` spells it from the directory `from` (`/`
/// separators, `..` where needed).
fn relative(from: &Path, to: &Path) -> String {
    let from: Vec<_> = from.components().collect();
    let to_parts: Vec<_> = to.components().collect();
    let common = from.iter().zip(&to_parts).take_while(|(a, b)| a == b).count();
    let mut parts: Vec<String> = vec!["..".to_string(); from.len() - common];
    parts.extend(to_parts[common..].iter().map(|c| c.as_os_str().to_string_lossy().into_owned()));
    let spelled = parts.join("/");
    if spelled.is_empty() {
        to.display().to_string()
    } else {
        spelled
    }
}
