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
pub(crate) use render::render;
pub use render::{DiagnosticFormat, render_json, render_to_string, write_to_stderr};

use crate::span::Span;

/// How bad a diagnostic is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Severity {
    /// Extra information.
    Note,
    /// A problem that does not stop the compilation.
    Warning,
    /// The compilation produces no output.
    Error,
}

/// A place in the source a diagnostic points at, with what it says there.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Label {
    /// Where; resolved by the compilation's
    /// [`SourceMap`](crate::source::SourceMap).
    pub span: Span,
    /// What the label says (may be empty).
    pub message: String,
}

/// One problem found by the compiler.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    /// Error, warning or note.
    pub severity: Severity,
    /// The stable code (`E0301`): see [`codes`].
    pub code: Code,
    /// The one-line message.
    pub message: String,
    /// The first label is primary; the others are secondary.
    pub labels: Vec<Label>,
    /// Notes and help shown after the source excerpt.
    pub notes: Vec<String>,
}

impl Diagnostic {
    /// A diagnostic without labels or notes.
    pub fn new(severity: Severity, code: Code, message: impl Into<String>) -> Self {
        Diagnostic {
            severity,
            code,
            message: message.into(),
            labels: Vec::new(),
            notes: Vec::new(),
        }
    }
    /// An error without labels or notes.
    pub fn error(code: Code, message: impl Into<String>) -> Self {
        Self::new(Severity::Error, code, message)
    }
    /// A warning without labels or notes.
    pub fn warning(code: Code, message: impl Into<String>) -> Self {
        Self::new(Severity::Warning, code, message)
    }
    /// Adds a label; the first one added is the primary label.
    pub(crate) fn label(mut self, span: Span, message: impl Into<String>) -> Self {
        self.labels.push(Label {
            span,
            message: message.into(),
        });
        self
    }
    /// Adds a note.
    pub fn note(mut self, note: impl Into<String>) -> Self {
        self.notes.push(note.into());
        self
    }
    /// The span of the primary label.
    pub fn primary_span(&self) -> Option<Span> {
        self.labels.first().map(|l| l.span)
    }
    /// Whether the severity is [`Severity::Error`].
    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }
}

/// The diagnostics of one compilation, in the order they were reported.
#[derive(Clone, Debug, Default)]
pub struct Diagnostics {
    /// Every diagnostic, in order.
    pub list: Vec<Diagnostic>,
}

impl Diagnostics {
    /// No diagnostics.
    pub fn new() -> Self {
        Self::default()
    }
    /// Adds one.
    pub fn push(&mut self, d: Diagnostic) {
        self.list.push(d);
    }
    /// Adds several.
    pub fn extend(&mut self, ds: impl IntoIterator<Item = Diagnostic>) {
        self.list.extend(ds);
    }
    /// Whether one is an error.
    pub fn has_errors(&self) -> bool {
        self.list.iter().any(Diagnostic::is_error)
    }
    /// How many are errors.
    pub fn error_count(&self) -> usize {
        self.list.iter().filter(|d| d.is_error()).count()
    }
    /// Iterates over them in order.
    pub fn iter(&self) -> std::slice::Iter<'_, Diagnostic> {
        self.list.iter()
    }
    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.list.is_empty()
    }
}
