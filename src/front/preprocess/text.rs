//! Preprocessed tokens back to text (`-P`), as cpp prints them: tokens on
//! the line their source (or, for macro expansions, their invocation) was
//! on, first tokens indented as in the source, `#line N "file"` markers when
//! the file changes or lines jump, `#pragma` lines kept.

use crate::front::lexer::{PpToken, Token, flags};
use crate::source::{FileId, SourceMap};

/// Up to this many skipped lines are written as blank lines; more get a
/// `#line` marker (cpp uses 8 as well).
const MAX_BLANK_LINES: usize = 8;

/// Renders preprocessed tokens as text (for `-P`): one output line per
/// source line that produced tokens, spaces where the source had them.
pub fn tokens_to_text(tokens: &[PpToken], sm: &SourceMap) -> String {
    let mut out = String::with_capacity(tokens.len() * 6);
    // The file, presumed name and line the output is at.
    let mut cur: Option<(FileId, String, usize)> = None;
    let mut at_line_start = true;
    let mut prev: Option<&PpToken> = None;
    for t in tokens {
        let loc = if t.span.lo.is_expansion() {
            sm.expansion_site(t.span).lo
        } else {
            t.span.lo
        };
        let place = sm.file_of(loc).map(|f| {
            let off = (loc.0 - sm.file(f).base) as usize;
            let (name, line) = sm.presumed_line(f, off);
            (f, name, line, off)
        });
        if let Some((file, name, line, _)) = &place {
            let same_file = cur
                .as_ref()
                .is_some_and(|(f, n, _)| f == file && n.as_str() == *name);
            let cur_line = cur.as_ref().map_or(0, |c| c.2);
            if !same_file || *line > cur_line + MAX_BLANK_LINES {
                if !at_line_start {
                    out.push('\n');
                }
                out.push_str(&format!("#line {line} \"{}\"\n", escape(name)));
                cur = Some((*file, name.to_string(), *line));
                at_line_start = true;
            } else if *line > cur_line {
                for _ in cur_line..*line {
                    out.push('\n');
                }
                if let Some(c) = cur.as_mut() {
                    c.2 = *line;
                }
                at_line_start = true;
            }
        }
        if t.kind == Token::Pragma {
            if !at_line_start {
                out.push('\n');
            }
            out.push_str("#pragma ");
            out.push_str(t.sym.as_str());
            out.push('\n');
            if let Some(c) = cur.as_mut() {
                c.2 += 1;
            }
            at_line_start = true;
            prev = None;
            continue;
        }
        let text = t.sym.as_str();
        if at_line_start {
            // Indent as the source did (for an expansion, as its invocation).
            if let Some((file, _, _, off)) = place {
                let (_, col) = sm.line_col(file, off);
                for _ in 1..col {
                    out.push(' ');
                }
            }
        } else if t.flags & flags::SPACE_BEFORE != 0 || prev.is_some_and(|p| would_merge(p, text)) {
            out.push(' ');
        }
        out.push_str(text);
        at_line_start = false;
        prev = Some(t);
    }
    if !at_line_start {
        out.push('\n');
    }
    out
}

fn escape(name: &str) -> String {
    name.replace('\\', "\\\\").replace('"', "\\\"")
}

/// Whether writing `next` right after `prev` would lex differently (two
/// words running together, `+` `+` becoming `++`, `/` `/` a comment).
fn would_merge(prev: &PpToken, next: &str) -> bool {
    let p = prev.sym.as_str();
    let (Some(a), Some(b)) = (p.chars().next_back(), next.chars().next()) else {
        return false;
    };
    let word = |c: char| c.is_ascii_alphanumeric() || c == '_';
    if word(a) && (word(b) || b == '.') || a == '.' && b.is_ascii_digit() {
        return true;
    }
    matches!(
        (a, b),
        ('+', '+' | '=')
            | ('-', '-' | '=' | '>')
            | ('<', '<' | '=')
            | ('>', '>' | '=')
            | ('&', '&' | '=')
            | ('|', '|' | '=')
            | ('=' | '!' | '*' | '%' | '^', '=')
            | ('/', '/' | '*' | '=')
            | ('*', '/')
            | (':', ':')
            | ('#', '#')
            | ('.', '.')
    )
}
