//! Diagnostics: one type for every stage, rendered once at the boundary.
//!
//! A [`Diagnostic`] has a severity, a stable code (`E0101`, see [`codes`]), a
//! message, labels (the first is the primary label, the rest secondary) and
//! notes. Spans are [`Span`]s in the global location space; the renderers
//! resolve them through the [`SourceMap`](crate::source::SourceMap), adding
//! "in expansion of macro" and "included from" notes.

pub mod codes;
mod render;
pub mod suggest;

pub use codes::Code;
pub use render::{DiagnosticFormat, render, render_json, render_to_string};

use crate::span::Span;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Severity {
    Note,
    Warning,
    Error,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Label {
    pub span: Span,
    pub message: String,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    pub severity: Severity,
    pub code: Code,
    pub message: String,
    /// The first label is primary; the others are secondary.
    pub labels: Vec<Label>,
    pub notes: Vec<String>,
}

impl Diagnostic {
    pub fn new(severity: Severity, code: Code, message: impl Into<String>) -> Self {
        Diagnostic {
            severity,
            code,
            message: message.into(),
            labels: Vec::new(),
            notes: Vec::new(),
        }
    }
    pub fn error(code: Code, message: impl Into<String>) -> Self {
        Self::new(Severity::Error, code, message)
    }
    pub fn warning(code: Code, message: impl Into<String>) -> Self {
        Self::new(Severity::Warning, code, message)
    }
    /// Adds a label; the first one added is the primary label.
    pub fn label(mut self, span: Span, message: impl Into<String>) -> Self {
        self.labels.push(Label {
            span,
            message: message.into(),
        });
        self
    }
    pub fn note(mut self, note: impl Into<String>) -> Self {
        self.notes.push(note.into());
        self
    }
    pub fn primary_span(&self) -> Option<Span> {
        self.labels.first().map(|l| l.span)
    }
    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }
}

/// The diagnostics of one compilation, in the order they were reported.
#[derive(Clone, Debug, Default)]
pub struct Diagnostics {
    pub list: Vec<Diagnostic>,
}

impl Diagnostics {
    pub fn new() -> Self {
        Self::default()
    }
    pub fn push(&mut self, d: Diagnostic) {
        self.list.push(d);
    }
    pub fn extend(&mut self, ds: impl IntoIterator<Item = Diagnostic>) {
        self.list.extend(ds);
    }
    pub fn has_errors(&self) -> bool {
        self.list.iter().any(Diagnostic::is_error)
    }
    pub fn error_count(&self) -> usize {
        self.list.iter().filter(|d| d.is_error()).count()
    }
    pub fn iter(&self) -> std::slice::Iter<'_, Diagnostic> {
        self.list.iter()
    }
    pub fn is_empty(&self) -> bool {
        self.list.is_empty()
    }
}
