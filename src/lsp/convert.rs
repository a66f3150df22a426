//! Our diagnostics as LSP diagnostics, grouped by the file they point at.
//!
//! - The range is the primary label's span resolved through the source map
//!   (through macro expansions to where the text was spelled), in UTF-16
//!   columns of the text the compiler read.
//! - The primary label's text and the notes follow the message on their own
//!   lines; secondary labels, the macro expansions the span went through and
//!   the `#include` chain become `relatedInformation` (or more lines of the
//!   message for clients without it).
//! - A diagnostic in another file than the document compiled (an included
//!   header, a macro defined there) is published for that file, and echoed
//!   in the document at the `#include` line or macro use that leads there,
//!   so it is seen even when the header is not open.
//! - A diagnostic without a location sits at the start of the document.

use super::paths::normalize;
use super::text::{Document, LineIndex};
use crate::diag::{self, Severity};
use crate::source::{FileId, FileSpan, SourceMap};
use lsp_types::{
    Diagnostic, DiagnosticRelatedInformation, DiagnosticSeverity, Location, NumberOrString,
    Position, Range, Uri,
};
use std::borrow::Cow;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// Diagnostics by file (normalised path), each list in report order.
pub type ByFile = BTreeMap<PathBuf, Vec<Diagnostic>>;

struct Converter<'a> {
    sm: &'a SourceMap,
    main: &'a Path,
    uri_for: &'a dyn Fn(&Path) -> Option<Uri>,
    related_supported: bool,
    /// The open documents, whose line indexes serve the files the
    /// compiler read from them.
    open: &'a Open,
    /// Line indexes of the files seen so far: an open document's, else
    /// built on first use.
    lines: Vec<Option<Cow<'a, LineIndex>>>,
}

/// The open documents by normalised path.
pub type Open = rustc_hash::FxHashMap<PathBuf, Document>;

impl Converter<'_> {
    fn path(&self, file: FileId) -> PathBuf {
        normalize(&self.sm.file(file).path)
    }

    fn range(&mut self, file: FileId, start: usize, end: usize) -> Range {
        let f = self.sm.file(file);
        let text = &f.text;
        let i = file.0 as usize;
        if self.lines.len() <= i {
            self.lines.resize(i + 1, None);
        }
        let open = self.open;
        let index = self.lines[i].get_or_insert_with(|| {
            // The document's own index when the compiler read its text
            // (the editor's, unsaved): no scan of the whole file.
            match open.get(&normalize(&f.path)) {
                Some(d) if d.text == *text => Cow::Borrowed(d.lines()),
                _ => Cow::Owned(LineIndex::new(text)),
            }
        });
        index.range(text, start, end)
    }

    fn location(&mut self, fs: &FileSpan) -> (PathBuf, Range) {
        let range = self.range(fs.file, fs.range.start, fs.range.end);
        (self.path(fs.file), range)
    }

    /// The `#include` directives that led to `file`, innermost first, as
    /// (file, byte offset of the directive's line… to its end).
    fn include_sites(&self, file: FileId) -> Vec<FileSpan> {
        let mut out = Vec::new();
        let mut cur = self.sm.file(file).included_from;
        while let Some(loc) = cur {
            let Some(f) = self.sm.file_of(loc) else { break };
            let src = self.sm.file(f);
            let start = (loc.0 - src.base) as usize;
            let end = src.text[start.min(src.text.len())..]
                .find('\n')
                .map_or(src.text.len(), |n| start + n);
            out.push(FileSpan {
                file: f,
                range: start..end.max(start),
            });
            cur = src.included_from;
            // An include chain deeper than this is a cycle the preprocessor
            // stopped; never loop on it.
            if out.len() > 1000 {
                break;
            }
        }
        out
    }

    fn convert(&mut self, d: &diag::Diagnostic, out: &mut ByFile) {
        let severity = match d.severity {
            Severity::Error => DiagnosticSeverity::ERROR,
            Severity::Warning => DiagnosticSeverity::WARNING,
            Severity::Note => DiagnosticSeverity::INFORMATION,
        };
        let mut message = d.message.clone();
        let mut related: Vec<(PathBuf, Range, String)> = Vec::new();
        let primary = d
            .labels
            .first()
            .and_then(|l| self.sm.resolve(l.span).map(|r| (l, r)));
        let mut echo: Option<(FileSpan, String)> = None;
        let (path, range) = match &primary {
            Some((label, resolved)) => {
                if !label.message.is_empty() && label.message != d.message {
                    message.push('\n');
                    message.push_str(&label.message);
                }
                for (name, site) in &resolved.expansions {
                    let (p, r) = self.location(site);
                    related.push((p, r, format!("in expansion of macro `{name}`")));
                }
                let file = resolved.span.file;
                let includes = self.include_sites(file);
                for site in &includes {
                    let (p, r) = self.location(site);
                    related.push((p, r, "included from here".to_string()));
                }
                if self.path(file) != self.main {
                    // Where the document leads to this file: the outermost
                    // macro use in it, else its `#include` line.
                    let via_macro = resolved
                        .expansions
                        .iter()
                        .rev()
                        .find(|(_, s)| self.path(s.file) == self.main);
                    echo = match via_macro {
                        Some((name, s)) => {
                            Some((s.clone(), format!("in expansion of macro `{name}`")))
                        }
                        None => includes
                            .iter()
                            .find(|s| self.path(s.file) == self.main)
                            .map(|s| (s.clone(), "in included file".to_string())),
                    };
                }
                self.location(&resolved.span)
            }
            None => (
                self.main.to_path_buf(),
                Range::new(Position::new(0, 0), Position::new(0, 0)),
            ),
        };
        for l in d.labels.iter().skip(1) {
            if let Some(r) = self.sm.resolve(l.span) {
                let (p, range) = self.location(&r.span);
                let m = if l.message.is_empty() {
                    "related".to_string()
                } else {
                    l.message.clone()
                };
                related.push((p, range, m));
            }
        }
        for n in &d.notes {
            message.push_str("\nnote: ");
            message.push_str(n);
        }
        let code = Some(NumberOrString::String(d.code.0.to_string()));
        let related_info = if self.related_supported {
            Some(
                related
                    .iter()
                    .filter_map(|(p, r, m)| {
                        Some(DiagnosticRelatedInformation {
                            location: Location::new((self.uri_for)(p)?, *r),
                            message: m.clone(),
                        })
                    })
                    .collect::<Vec<_>>(),
            )
            .filter(|v| !v.is_empty())
        } else {
            for (p, r, m) in &related {
                message.push_str(&format!(
                    "\n{}:{}:{}: {m}",
                    p.display(),
                    r.start.line + 1,
                    r.start.character + 1
                ));
            }
            None
        };
        if let Some((site, how)) = echo {
            let (p, r) = self.location(&site);
            let first_line = d.message.lines().next().unwrap_or("");
            out.entry(p).or_default().push(Diagnostic {
                range: r,
                severity: Some(severity),
                code: code.clone(),
                source: Some("hlslc".to_string()),
                message: format!("{how}: {first_line}"),
                related_information: (self.uri_for)(&path)
                    .filter(|_| self.related_supported)
                    .map(|uri| {
                        vec![DiagnosticRelatedInformation {
                            location: Location::new(uri, range),
                            message: d.message.clone(),
                        }]
                    }),
                ..Diagnostic::default()
            });
        }
        out.entry(path).or_default().push(Diagnostic {
            range,
            severity: Some(severity),
            code,
            source: Some("hlslc".to_string()),
            message,
            related_information: related_info,
            ..Diagnostic::default()
        });
    }
}

/// Converts the diagnostics of a compilation of `main`. `uri_for` names a
/// file (the open document's own URI when it is open).
pub fn convert(
    diagnostics: &[diag::Diagnostic],
    sm: &SourceMap,
    main: &Path,
    uri_for: &dyn Fn(&Path) -> Option<Uri>,
    related_supported: bool,
    open: &Open,
) -> ByFile {
    let mut c = Converter {
        sm,
        main,
        uri_for,
        related_supported,
        open,
        lines: Vec::new(),
    };
    let mut out = ByFile::new();
    for d in diagnostics {
        c.convert(d, &mut out);
    }
    for list in out.values_mut() {
        dedup(list);
    }
    out
}

/// Removes repeated diagnostics (a header included twice reports its
/// problems twice), keeping the first of each.
pub fn dedup(list: &mut Vec<Diagnostic>) {
    let mut seen = rustc_hash::FxHashSet::default();
    list.retain(|d| {
        let r = d.range;
        let code = match &d.code {
            Some(NumberOrString::String(s)) => s.clone(),
            Some(NumberOrString::Number(n)) => n.to_string(),
            None => String::new(),
        };
        seen.insert((
            r.start.line,
            r.start.character,
            r.end.line,
            r.end.character,
            code,
            d.message.clone(),
        ))
    });
}

/// A location for diagnostics that have none: the start of the document.
pub fn document_start() -> Range {
    Range::new(Position::new(0, 0), Position::new(0, 0))
}
