//! Rendering diagnostics: human (codespan-reporting), short one-line, JSON.

use super::{Diagnostic, Severity};
use crate::source::SourceMap;
use codespan_reporting::diagnostic as cs;
use codespan_reporting::term::{self, termcolor::WriteColor};

/// How diagnostics are printed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum DiagnosticFormat {
    /// Source excerpts with carets and labels (the default).
    #[default]
    Human,
    /// One line each, `file:line:col: error[E0101]: message`, as IDEs and
    /// `make` expect.
    Short,
    /// One JSON object per line (see [`render_json`]).
    Json,
}

fn severity(s: Severity) -> cs::Severity {
    match s {
        Severity::Error => cs::Severity::Error,
        Severity::Warning => cs::Severity::Warning,
        Severity::Note => cs::Severity::Note,
    }
}

/// Converts one of our diagnostics into codespan diagnostics: the diagnostic
/// itself, then one note per macro expansion its primary span went through.
fn to_codespan(d: &Diagnostic, sm: &SourceMap) -> Vec<cs::Diagnostic<crate::source::FileId>> {
    let mut main = cs::Diagnostic::new(severity(d.severity))
        .with_code(d.code.0)
        .with_message(&d.message);
    let mut labels = Vec::new();
    let mut extra = Vec::new();
    let mut notes = Vec::new();
    for (i, l) in d.labels.iter().enumerate() {
        let Some(r) = sm.resolve(l.span) else {
            continue;
        };
        let label = if i == 0 {
            cs::Label::primary(r.span.file, r.span.range.clone())
        } else {
            cs::Label::secondary(r.span.file, r.span.range.clone())
        };
        labels.push(label.with_message(&l.message));
        if i == 0 {
            for (name, site) in &r.expansions {
                extra.push(
                    cs::Diagnostic::note()
                        .with_message(format!("in expansion of macro '{name}'"))
                        .with_labels(vec![cs::Label::primary(site.file, site.range.clone())]),
                );
            }
            // The include chain of the file the user is shown last (where the
            // expansion started, or the primary file).
            let outer = r.expansions.last().map_or(r.span.file, |(_, s)| s.file);
            for (f, line) in sm.include_chain(r.span.file) {
                notes.push(format!("included from {}:{}", sm.file(f).name, line));
            }
            if outer != r.span.file {
                for (f, line) in sm.include_chain(outer) {
                    notes.push(format!("included from {}:{}", sm.file(f).name, line));
                }
            }
        }
    }
    notes.extend(d.notes.iter().cloned());
    main = main.with_labels(labels).with_notes(notes);
    let mut out = vec![main];
    out.extend(extra);
    out
}

/// Writes diagnostics to `w` in the given format.
pub(crate) fn render(
    w: &mut dyn WriteColor,
    diags: &[Diagnostic],
    sm: &SourceMap,
    format: DiagnosticFormat,
) -> std::io::Result<()> {
    if format == DiagnosticFormat::Json {
        for d in diags {
            writeln!(w, "{}", render_json(d, sm))?;
        }
        return Ok(());
    }
    let mut config = term::Config::default();
    if format == DiagnosticFormat::Short {
        config.display_style = term::DisplayStyle::Short;
    }
    for d in diags {
        for c in to_codespan(d, sm) {
            term::emit(w, &config, &crate::source::CodespanFiles(sm), &c)
                .map_err(std::io::Error::other)?;
        }
    }
    Ok(())
}

/// Writes diagnostics to stderr in the given format, coloured when `color`
/// is true (the `hlslc` binary colours only a terminal).
pub fn write_to_stderr(
    diags: &[Diagnostic],
    sm: &SourceMap,
    format: DiagnosticFormat,
    color: bool,
) -> std::io::Result<()> {
    let choice = if color {
        term::termcolor::ColorChoice::Auto
    } else {
        term::termcolor::ColorChoice::Never
    };
    let mut stderr = term::termcolor::StandardStream::stderr(choice);
    render(&mut stderr, diags, sm, format)
}

/// Renders diagnostics as plain text (no colour): what a log, a test or a
/// build script shows.
pub fn render_to_string(diags: &[Diagnostic], sm: &SourceMap, format: DiagnosticFormat) -> String {
    let mut buf = term::termcolor::NoColor::new(Vec::new());
    // Writing into a Vec cannot fail.
    let _ = render(&mut buf, diags, sm, format);
    String::from_utf8_lossy(&buf.into_inner()).into_owned()
}

/// One diagnostic as a JSON object: `severity`, `code`, `message`, `file`,
/// `line`, `column`, `end_line`, `end_column` (1-based, of the primary label),
/// `labels` and `notes`.
pub fn render_json(d: &Diagnostic, sm: &SourceMap) -> String {
    let pos = |span| {
        let r = sm.resolve(span)?;
        let (l, c) = sm.line_col(r.span.file, r.span.range.start);
        let (el, ec) = sm.line_col(r.span.file, r.span.range.end);
        Some((sm.file(r.span.file).name.clone(), l, c, el, ec))
    };
    let labels: Vec<serde_json::Value> = d
        .labels
        .iter()
        .filter_map(|l| {
            let (file, line, column, end_line, end_column) = pos(l.span)?;
            Some(serde_json::json!({
                "file": file, "line": line, "column": column,
                "end_line": end_line, "end_column": end_column, "message": l.message,
            }))
        })
        .collect();
    let primary = d.primary_span().and_then(pos);
    let sev = match d.severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Note => "note",
    };
    let mut obj = serde_json::json!({
        "severity": sev, "code": d.code.0, "message": d.message,
        "labels": labels, "notes": d.notes,
    });
    if let Some((file, line, column, end_line, end_column)) = primary {
        obj["file"] = file.into();
        obj["line"] = line.into();
        obj["column"] = column.into();
        obj["end_line"] = end_line.into();
        obj["end_column"] = end_column.into();
    }
    obj.to_string()
}
