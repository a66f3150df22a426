//! Where source went: a compilation's [`SourceMap`] records the files it
//! read (through a [`FileLoader`](crate::FileLoader)) and the macro
//! expansions it made, and resolves the [`Span`]s of its diagnostics to
//! files, lines and columns when they are rendered ([`crate::diag`]).
//!
//! Inside, every location resolves here to a file, line and column.
//! Files are laid out one after another in the location space (`base` of a
//! file is one past the end of the previous file, so that a file's end-of-file
//! position is distinct from the next file's start). Expanded tokens live in a
//! separate table, each remembering where it was spelled and which expansion
//! produced it, so diagnostics can say "in expansion of macro X".

pub use crate::span::Span;

use crate::intern::Symbol;
use crate::span::Loc;
use std::ops::Range;
use std::path::PathBuf;

/// Index of a file in the [`SourceMap`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(crate) struct FileId(pub u32);

/// Index of a macro expansion in the [`SourceMap`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct ExpansionId(pub u32);

/// One loaded source file.
#[derive(Debug)]
pub(crate) struct SourceFile {
    /// The name shown in diagnostics (the path as the user or `#include` wrote it).
    pub name: String,
    /// The path the file was read from, used to resolve relative includes.
    pub path: PathBuf,
    pub text: String,
    /// Byte offset of the start of each line, found on first use (most
    /// compilations resolve no location at all): see [`Self::line_starts`].
    line_starts: std::sync::OnceLock<Vec<u32>>,
    /// First location of this file in the global location space.
    pub base: u32,
    /// Where this file was `#include`d from, if it was.
    pub included_from: Option<Loc>,
    /// `#line` directives in this file, in order of offset.
    pub line_directives: Vec<LineDirective>,
}

impl SourceFile {
    /// Byte offset of the start of each line.
    pub(crate) fn line_starts(&self) -> &[u32] {
        self.line_starts.get_or_init(|| {
            let mut starts = vec![0u32];
            starts.extend(memchr_newlines(self.text.as_bytes()));
            starts
        })
    }
}

/// A `#line N "name"` directive: from byte `offset` of its file on (the start
/// of the line after the directive), that line is numbered `line` and the
/// file is presented as `name`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct LineDirective {
    pub offset: u32,
    pub line: u32,
    pub name: String,
}

/// A token produced by macro expansion.
#[derive(Clone, Copy, Debug)]
pub(crate) struct ExpandedToken {
    /// Where the token's text was spelled: in the macro body, or in an argument.
    /// Always a file span (never itself an expansion location).
    pub spelling: Span,
    pub expansion: ExpansionId,
}

/// One expansion of a macro.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Expansion {
    pub macro_name: Symbol,
    /// The invocation (`NAME` or `NAME(args)`); may itself lie in an expansion.
    pub call_site: Span,
}

/// A span resolved to one file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct FileSpan {
    pub file: FileId,
    pub range: Range<usize>,
}

/// Where a span came from: the file span to show, and the macro expansions it
/// went through (innermost first).
#[derive(Clone, Debug)]
pub(crate) struct ResolvedSpan {
    pub span: FileSpan,
    pub expansions: Vec<(Symbol, FileSpan)>,
}

/// A `#define`, for code intelligence (read by the language server).
#[cfg_attr(not(feature = "lsp"), allow(dead_code))]
#[derive(Clone, Copy, Debug)]
pub(crate) struct MacroDefinition {
    pub name: Symbol,
    /// The name in the directive.
    pub name_span: Span,
    /// The directive's line after the name (parameters and body).
    pub rest: Span,
    /// How many expansions were recorded before it: the expansions from
    /// this index on (until the next definition of the name) are its.
    pub first_expansion: u32,
}

/// The files a compilation read, their include relations and macro
/// expansions: what the renderers of [`crate::diag`] resolve spans with.
/// It also keeps the `#define`s and the groups that `#if` skipped, for
/// the language server (a few entries per directive).
#[derive(Debug, Default)]
pub struct SourceMap {
    files: Vec<SourceFile>,
    expanded: Vec<ExpandedToken>,
    expansions: Vec<Expansion>,
    next_base: u32,
    macro_defs: Vec<MacroDefinition>,
    skipped: Vec<Span>,
}

/// Limit of the file part of the location space (the rest is for expansions).
const MAX_FILE_SPACE: u32 = crate::span::EXPANSION_BIT - 1;

impl SourceMap {
    /// An empty map.
    pub fn new() -> Self {
        // Location 0 is reserved for "no location" (Span::default()).
        SourceMap {
            next_base: 1,
            ..Default::default()
        }
    }

    /// Adds a file and returns its id, or `None` when the location space is full
    /// (more than 2 GiB of source).
    pub(crate) fn add_file(
        &mut self,
        name: impl Into<String>,
        path: impl Into<PathBuf>,
        text: String,
        included_from: Option<Loc>,
    ) -> Option<FileId> {
        let len = u32::try_from(text.len()).ok()?;
        let base = self.next_base;
        let next = base.checked_add(len)?.checked_add(1)?;
        if next > MAX_FILE_SPACE {
            return None;
        }
        let id = FileId(self.files.len() as u32);
        self.files.push(SourceFile {
            name: name.into(),
            path: path.into(),
            text,
            line_starts: std::sync::OnceLock::new(),
            base,
            included_from,
            line_directives: Vec::new(),
        });
        self.next_base = next;
        Some(id)
    }

    pub(crate) fn file(&self, id: FileId) -> &SourceFile {
        &self.files[id.0 as usize]
    }

    pub(crate) fn files(&self) -> impl Iterator<Item = (FileId, &SourceFile)> {
        self.files
            .iter()
            .enumerate()
            .map(|(i, f)| (FileId(i as u32), f))
    }

    /// The source files in the order the preprocessor entered them (the
    /// main file first, a header each time an `#include` entered it), each
    /// with its `#include` depth (0 for the main file): what `-Vi` lists.
    /// The pseudo files of predefined and `-D` macros are left out.
    pub fn include_process(&self) -> Vec<(&str, usize)> {
        self.files
            .iter()
            .filter(|f| !(f.included_from.is_none() && f.name.starts_with('<')))
            .map(|f| {
                let mut depth = 0;
                let mut from = f.included_from;
                // Each step goes to an earlier file, so this ends.
                while let Some(id) = from.and_then(|l| self.file_of(l)) {
                    depth += 1;
                    from = self.file(id).included_from;
                }
                (f.name.as_str(), depth)
            })
            .collect()
    }

    /// The span of bytes `range` of `file`.
    pub(crate) fn span(&self, file: FileId, range: Range<u32>) -> Span {
        let base = self.file(file).base;
        Span::new(Loc(base + range.start), Loc(base + range.end))
    }

    /// Records a new macro expansion.
    pub(crate) fn add_expansion(&mut self, macro_name: Symbol, call_site: Span) -> ExpansionId {
        let id = ExpansionId(self.expansions.len() as u32);
        self.expansions.push(Expansion {
            macro_name,
            call_site,
        });
        id
    }

    /// Records a token produced by `expansion`, spelled at `spelling` (a file
    /// span, or an expansion location, which is followed to its spelling).
    /// Returns its location, or `None` when the expansion space is full.
    pub(crate) fn add_expanded_token(
        &mut self,
        spelling: Span,
        expansion: ExpansionId,
    ) -> Option<Span> {
        let spelling = self.spelling_span(spelling);
        let index = u32::try_from(self.expanded.len()).ok()?;
        if index >= crate::span::EXPANSION_BIT - 1 {
            return None;
        }
        self.expanded.push(ExpandedToken {
            spelling,
            expansion,
        });
        let lo = Loc::from_expansion_index(index);
        Some(Span::new(lo, Loc(lo.0 + 1)))
    }

    /// Records a `#define` (see [`MacroDefinition`]).
    pub(crate) fn add_macro_definition(&mut self, name: Symbol, name_span: Span, rest: Span) {
        self.macro_defs.push(MacroDefinition {
            name,
            name_span,
            rest,
            first_expansion: self.expansions.len() as u32,
        });
    }
    #[cfg(feature = "lsp")]
    pub(crate) fn macro_definitions(&self) -> &[MacroDefinition] {
        &self.macro_defs
    }
    /// Every macro expansion, in the order they happened.
    #[cfg(feature = "lsp")]
    pub(crate) fn expansions(&self) -> &[Expansion] {
        &self.expansions
    }
    /// Records a group that a false `#if`/`#elif`/`#else` skipped.
    pub(crate) fn add_skipped(&mut self, span: Span) {
        self.skipped.push(span);
    }
    /// The skipped groups, in the order they were skipped.
    #[cfg(feature = "lsp")]
    pub(crate) fn skipped(&self) -> &[Span] {
        &self.skipped
    }

    pub(crate) fn expansion(&self, id: ExpansionId) -> &Expansion {
        &self.expansions[id.0 as usize]
    }

    pub(crate) fn expanded_token(&self, loc: Loc) -> Option<&ExpandedToken> {
        loc.expansion_index()
            .and_then(|i| self.expanded.get(i as usize))
    }

    /// The file containing a file location. The end-of-file position belongs to
    /// its file.
    pub(crate) fn file_of(&self, loc: Loc) -> Option<FileId> {
        if loc.is_expansion() || loc.0 == 0 {
            return None;
        }
        let i = self.files.partition_point(|f| f.base <= loc.0);
        if i == 0 {
            return None;
        }
        let f = &self.files[i - 1];
        (loc.0 - f.base <= f.text.len() as u32).then_some(FileId((i - 1) as u32))
    }

    /// The location of byte `offset` of `file` (for tests).
    #[cfg(test)]
    pub(crate) fn loc(&self, file: FileId, offset: u32) -> Loc {
        Loc(self.file(file).base + offset)
    }

    /// "file:line:col" for a location, following expansions to their
    /// spelling (for tests).
    #[cfg(test)]
    pub(crate) fn describe(&self, loc: Loc) -> String {
        let s = self.spelling_span(Span::new(loc, loc));
        match self.file_span(s) {
            Some(fs) => {
                let (l, c) = self.line_col(fs.file, fs.range.start);
                format!("{}:{}:{}", self.file(fs.file).name, l, c)
            }
            None => "<unknown>".to_string(),
        }
    }

    /// Follows an expansion location to the file span where its token was spelled.
    pub(crate) fn spelling_span(&self, span: Span) -> Span {
        match self.expanded_token(span.lo) {
            Some(t) => t.spelling,
            None => span,
        }
    }

    /// The span in the user's text that a span stands for: for a span inside
    /// an expansion, the invocation of the outermost macro.
    pub(crate) fn expansion_site(&self, span: Span) -> Span {
        let mut s = span;
        while let Some(t) = self.expanded_token(s.lo) {
            s = self.expansion(t.expansion).call_site;
        }
        let mut hi = span.hi;
        let mut hs = Span::new(Loc(span.hi.0.saturating_sub(1)), span.hi);
        while let Some(t) = self.expanded_token(hs.lo) {
            hs = self.expansion(t.expansion).call_site;
            hi = hs.hi;
        }
        if hi.is_expansion() || hi < s.lo {
            hi = s.hi;
        }
        Span::new(s.lo, hi)
    }

    /// Resolves a span for display: the file span to point at (where the text
    /// was spelled when it lies inside one expansion, else the invocation
    /// range) and the chain of expansions it went through.
    pub(crate) fn resolve(&self, span: Span) -> Option<ResolvedSpan> {
        let mut expansions = Vec::new();
        let primary = if let Some(tok) = self.expanded_token(span.lo) {
            // Collect the expansion chain from the first token.
            let mut exp = Some(tok.expansion);
            while let Some(e) = exp {
                let e = self.expansion(e);
                let site = self.expansion_site(e.call_site);
                if let Some(fs) = self.file_span(site) {
                    expansions.push((e.macro_name, fs));
                }
                exp = self.expanded_token(e.call_site.lo).map(|t| t.expansion);
            }
            let last = Loc(span.hi.0.saturating_sub(1));
            let same_expansion = self.expanded_token(last).is_some_and(|t2| {
                t2.expansion == tok.expansion && t2.spelling.lo >= tok.spelling.lo
            });
            if same_expansion {
                let t2 = self
                    .expanded_token(last)
                    .map(|t| t.spelling)
                    .unwrap_or(tok.spelling);
                Span::new(tok.spelling.lo, t2.hi)
            } else if span.hi.0 == span.lo.0 + 1 {
                tok.spelling
            } else {
                self.expansion_site(span)
            }
        } else if span.hi.is_expansion() {
            self.expansion_site(span)
        } else {
            span
        };
        let fs = self.file_span(primary)?;
        Some(ResolvedSpan {
            span: fs,
            expansions,
        })
    }

    /// A span of file locations as a file and byte range (the end clamped to
    /// the start's file).
    pub(crate) fn file_span(&self, span: Span) -> Option<FileSpan> {
        let file = self.file_of(span.lo)?;
        let f = self.file(file);
        let lo = (span.lo.0 - f.base) as usize;
        let hi = if self.file_of(span.hi) == Some(file) && span.hi >= span.lo {
            (span.hi.0 - f.base) as usize
        } else {
            lo
        };
        Some(FileSpan {
            file,
            range: lo..hi,
        })
    }

    /// 1-based line and column (in bytes, counted as characters for ASCII).
    pub(crate) fn line_col(&self, file: FileId, offset: usize) -> (usize, usize) {
        let f = self.file(file);
        let line = f.line_starts().partition_point(|&s| s as usize <= offset) - 1;
        let start = f.line_starts()[line] as usize;
        let col = f
            .text
            .get(start..offset.min(f.text.len()))
            .map_or(offset - start, |s| s.chars().count());
        (line + 1, col + 1)
    }

    /// Records a `#line` directive of `file` taking effect at byte `offset`
    /// (directives must be added in order). `name: None` keeps the name the
    /// file presents at that point.
    pub(crate) fn add_line_directive(
        &mut self,
        file: FileId,
        offset: u32,
        line: u32,
        name: Option<String>,
    ) {
        let name = match name {
            Some(n) => n,
            None => self.presumed_line(file, offset as usize).0.to_string(),
        };
        self.files[file.0 as usize]
            .line_directives
            .push(LineDirective { offset, line, name });
    }

    /// The file name and 1-based line that `#line` directives make byte
    /// `offset` of `file` present as (`__FILE__`, `__LINE__`, `-P` markers).
    pub(crate) fn presumed_line(&self, file: FileId, offset: usize) -> (&str, usize) {
        let f = self.file(file);
        let physical = |o: usize| f.line_starts().partition_point(|&s| s as usize <= o);
        let line = physical(offset);
        let i = f
            .line_directives
            .partition_point(|d| d.offset as usize <= offset);
        match i.checked_sub(1).map(|i| &f.line_directives[i]) {
            Some(d) => {
                let from = physical(d.offset as usize);
                (d.name.as_str(), d.line as usize + line - from)
            }
            None => (f.name.as_str(), line),
        }
    }

    /// The chain of `#include`s that led to `file`, innermost first, as
    /// (including file, 1-based line).
    pub(crate) fn include_chain(&self, file: FileId) -> Vec<(FileId, usize)> {
        let mut out = Vec::new();
        let mut cur = self.file(file).included_from;
        let mut guard = 0;
        while let Some(loc) = cur {
            let Some(f) = self.file_of(loc) else { break };
            let (line, _) = self.line_col(f, (loc.0 - self.file(f).base) as usize);
            out.push((f, line));
            cur = self.file(f).included_from;
            guard += 1;
            if guard > 1000 {
                break;
            }
        }
        out
    }
}

/// The source map as codespan-reporting reads files (the renderers use
/// it; a wrapper, so that `FileId` stays the crate's own).
pub(crate) struct CodespanFiles<'m>(pub(crate) &'m SourceMap);

impl<'a> codespan_reporting::files::Files<'a> for CodespanFiles<'_> {
    type FileId = FileId;
    type Name = &'a str;
    type Source = &'a str;

    fn name(&'a self, id: FileId) -> Result<&'a str, codespan_reporting::files::Error> {
        self.0
            .files
            .get(id.0 as usize)
            .map(|f| f.name.as_str())
            .ok_or(codespan_reporting::files::Error::FileMissing)
    }

    fn source(&'a self, id: FileId) -> Result<&'a str, codespan_reporting::files::Error> {
        self.0
            .files
            .get(id.0 as usize)
            .map(|f| f.text.as_str())
            .ok_or(codespan_reporting::files::Error::FileMissing)
    }

    fn line_index(
        &'a self,
        id: FileId,
        byte_index: usize,
    ) -> Result<usize, codespan_reporting::files::Error> {
        let f = self
            .0
            .files
            .get(id.0 as usize)
            .ok_or(codespan_reporting::files::Error::FileMissing)?;
        Ok(f.line_starts()
            .partition_point(|&s| s as usize <= byte_index)
            .saturating_sub(1))
    }

    fn line_range(
        &'a self,
        id: FileId,
        line_index: usize,
    ) -> Result<Range<usize>, codespan_reporting::files::Error> {
        let f = self
            .0
            .files
            .get(id.0 as usize)
            .ok_or(codespan_reporting::files::Error::FileMissing)?;
        let start = *f.line_starts().get(line_index).ok_or(
            codespan_reporting::files::Error::LineTooLarge {
                given: line_index,
                max: f.line_starts().len() - 1,
            },
        )? as usize;
        let end = f
            .line_starts()
            .get(line_index + 1)
            .map_or(f.text.len(), |&e| e as usize);
        Ok(start..end)
    }
}

fn memchr_newlines(bytes: &[u8]) -> impl Iterator<Item = u32> + '_ {
    bytes
        .iter()
        .enumerate()
        .filter(|&(_, &b)| b == b'\n')
        .map(|(i, _)| i as u32 + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn files_resolve_to_line_and_column() {
        let mut sm = SourceMap::new();
        let a = sm
            .add_file("a.hlsl", "a.hlsl", "ab\ncd\n".into(), None)
            .unwrap();
        let b = sm.add_file("b.hlsl", "b.hlsl", "xyz".into(), None).unwrap();
        assert_eq!(sm.file_of(sm.loc(a, 4)), Some(a));
        assert_eq!(
            sm.file_of(sm.loc(a, 6)),
            Some(a),
            "end of file belongs to the file"
        );
        assert_eq!(sm.file_of(sm.loc(b, 0)), Some(b));
        assert_eq!(sm.line_col(a, 4), (2, 2));
        assert_eq!(sm.describe(sm.loc(b, 2)), "b.hlsl:1:3");
    }

    #[test]
    fn expanded_tokens_resolve_to_spelling_with_chain() {
        let mut sm = SourceMap::new();
        // #define X y\nX
        let a = sm
            .add_file("a.hlsl", "a.hlsl", "#define X y\nX\n".into(), None)
            .unwrap();
        let e = sm.add_expansion(Symbol::intern("X"), sm.span(a, 12..13));
        let t = sm.add_expanded_token(sm.span(a, 10..11), e).unwrap();
        let r = sm.resolve(t).unwrap();
        assert_eq!(
            r.span,
            FileSpan {
                file: a,
                range: 10..11
            }
        );
        assert_eq!(r.expansions.len(), 1);
        assert_eq!(r.expansions[0].1.range, 12..13);
        assert_eq!(sm.expansion_site(t), sm.span(a, 12..13));
    }
}
