//! What code intelligence answers from: the side table sema recorded for
//! the last compilation of a root document ([`crate::sema::index`]),
//! resolved to files and byte ranges, with what the preprocessor knows
//! (the `#define`s and their uses, `#include` lines, the groups `#if`
//! skipped).
//!
//! Every position is a file of the compilation ([`Analysis::files`], the
//! root first) and a byte range of the text the compiler read: for an
//! open document, the editor's text. A name spelled in a macro argument
//! maps to where it is spelled; one that a macro body produced, to the
//! body.

use super::paths::normalize;
use super::text::LineIndex;
use crate::sema::index::{DefKind, Index};
use crate::source::SourceMap;
use crate::span::Span;
use rustc_hash::FxHashMap;
use std::ops::Range;
use std::path::{Path, PathBuf};

/// A byte range of one file of the analysis.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct At {
    pub file: usize,
    pub range: Range<usize>,
}

impl At {
    /// Whether `offset` of `file` is in the range or just after its end
    /// (a cursor at the end of a name is on the name).
    pub fn touches(&self, file: usize, offset: usize) -> bool {
        self.file == file && self.range.start <= offset && offset <= self.range.end
    }
}

/// A file of the analysis.
pub struct File {
    pub path: PathBuf,
    pub text: String,
    pub lines: LineIndex,
}

/// A declaration.
pub struct Symbol {
    pub name: String,
    pub kind: DefKind,
    /// The declared name (for functions, the first declaration).
    pub at: At,
    /// A function's definition, when it is elsewhere.
    pub def_at: Option<At>,
    /// The whole declaration.
    pub extent: At,
    pub detail: String,
    pub container: Option<usize>,
    pub ty: Option<String>,
    pub params: Vec<String>,
    /// Each parameter's name (empty when it has none).
    pub param_names: Vec<String>,
    pub stage: Option<&'static str>,
    /// A global that cannot be assigned (see [`crate::sema::index::Def`]).
    pub readonly: bool,
    /// A `static` global.
    pub is_static: bool,
    /// The `//` or `/* */` comment lines directly above the declaration.
    pub doc: Option<String>,
}

/// A call of a user function or method.
pub struct Call {
    pub callee: At,
    pub function: usize,
    /// Each argument with its position among the arguments.
    pub args: Vec<(usize, At)>,
}

/// A `#define`.
pub struct Macro {
    pub name: String,
    pub at: At,
    /// `#define NAME(params) body`, as written.
    pub text: String,
}

/// One compilation's code intelligence.
pub struct Analysis {
    pub files: Vec<File>,
    pub symbols: Vec<Symbol>,
    /// Name occurrences and the symbol each names (declarations included),
    /// in file and offset order.
    pub uses: Vec<(At, usize)>,
    /// Expression types.
    pub types: Vec<(At, std::sync::Arc<str>)>,
    pub macros: Vec<Macro>,
    pub macro_uses: Vec<(At, usize)>,
    /// `#include` lines and the file each brought in.
    pub includes: Vec<(At, usize)>,
    /// The groups `#if` skipped.
    pub inactive: Vec<At>,
    /// Calls of user functions: the callee's name, the function's symbol,
    /// each argument (those that map to no file left out).
    pub calls: Vec<Call>,
    /// The directories `#include <…>` searches (for completion).
    pub include_dirs: Vec<PathBuf>,
}

impl Analysis {
    /// Resolves `index` (when sema ran) and the preprocessor's records in
    /// `sm`.
    pub fn new(index: Option<Index>, sm: &SourceMap, include_dirs: &[PathBuf]) -> Analysis {
        let files: Vec<File> = sm
            .files()
            .map(|(_, f)| File {
                path: normalize(&f.path),
                text: f.text.clone(),
                lines: LineIndex::new(&f.text),
            })
            .collect();
        let mut a = Analysis {
            files,
            symbols: Vec::new(),
            uses: Vec::new(),
            types: Vec::new(),
            macros: Vec::new(),
            macro_uses: Vec::new(),
            includes: Vec::new(),
            inactive: Vec::new(),
            calls: Vec::new(),
            include_dirs: include_dirs.to_vec(),
        };
        if let Some(mut ix) = index {
            ix.resolve();
            a.add_index(&ix, sm);
        }
        a.add_preprocessor(sm);
        a.uses.sort_by_key(|(at, _)| (at.file, at.range.start));
        a.types.sort_by_key(|(at, _)| (at.file, at.range.start));
        a
    }

    fn add_index(&mut self, ix: &Index, sm: &SourceMap) {
        let resolve = |s: Span| at(sm, s);
        let mut by_span: FxHashMap<Span, usize> = FxHashMap::default();
        // Symbols keep the index's numbering (containers refer to it);
        // one that maps to no file keeps an empty place.
        for (i, d) in ix.defs.iter().enumerate() {
            by_span.insert(d.span, i);
            if let Some(s) = d.def_span {
                by_span.entry(s).or_insert(i);
            }
            let Some(name_at) = resolve(d.span) else {
                self.symbols.push(Symbol::placeholder());
                continue;
            };
            let extent = resolve(d.extent)
                .filter(|e| e.file == name_at.file && e.range.start <= name_at.range.start)
                .unwrap_or_else(|| name_at.clone());
            let doc = doc_above(&self.files[extent.file].text, extent.range.start);
            self.symbols.push(Symbol {
                name: d.name.clone(),
                kind: d.kind,
                def_at: d.def_span.and_then(resolve).filter(|x| *x != name_at),
                at: name_at,
                extent,
                detail: d.detail.clone(),
                container: d.container,
                ty: d.ty.clone(),
                params: d.params.clone(),
                param_names: d.param_names.clone(),
                stage: d.stage,
                readonly: d.readonly,
                is_static: d.is_static,
                doc,
            });
        }
        for (i, s) in self.symbols.iter().enumerate() {
            if s.kind_is_real() {
                self.uses.push((s.at.clone(), i));
                if let Some(d) = &s.def_at {
                    self.uses.push((d.clone(), i));
                }
            }
        }
        for u in &ix.uses {
            if let (Some(a), Some(&i)) = (resolve(u.span), by_span.get(&u.target)) {
                self.uses.push((a, i));
            }
        }
        self.uses.dedup();
        for (callee, args) in &ix.calls {
            let Ok(u) = ix
                .uses
                .binary_search_by_key(&(callee.lo, callee.hi), |u| (u.span.lo, u.span.hi))
            else {
                continue;
            };
            let (Some(&function), Some(callee)) =
                (by_span.get(&ix.uses[u].target), resolve(*callee))
            else {
                continue;
            };
            let args = args
                .iter()
                .enumerate()
                .filter_map(|(i, s)| Some((i, resolve(*s)?)))
                .collect();
            self.calls.push(Call {
                callee,
                function,
                args,
            });
        }
        for (s, t) in &ix.types {
            if let Some(a) = resolve(*s) {
                self.types.push((a, t.clone()));
            }
        }
    }

    fn add_preprocessor(&mut self, sm: &SourceMap) {
        let defs = sm.macro_definitions();
        // `defs[j]` is `self.macros[kept[j]]`.
        let mut kept: Vec<Option<usize>> = Vec::with_capacity(defs.len());
        for d in defs {
            kept.push(None);
            let (Some(name_at), Some(rest)) = (at(sm, d.name_span), at(sm, d.rest)) else {
                continue;
            };
            // Not the predefined and `-D` macros (`<built-in>`,
            // `<command line>`): they have no place to go to.
            if sm
                .file(crate::source::FileId(name_at.file as u32))
                .name
                .starts_with('<')
            {
                continue;
            }
            let text = &self.files[name_at.file].text;
            let body = text
                .get(name_at.range.end..rest.range.end.max(name_at.range.end))
                .unwrap_or("");
            if let Some(k) = kept.last_mut() {
                *k = Some(self.macros.len());
            }
            self.macros.push(Macro {
                name: d.name.to_string(),
                text: format!("#define {}{}", d.name, body.replace("\\\n", "\n")),
                at: name_at,
            });
        }
        for (i, e) in sm.expansions().iter().enumerate() {
            // Uses written in the text (not produced by another macro).
            if e.call_site.lo.is_expansion() {
                continue;
            }
            let Some(mut site) = at(sm, e.call_site) else {
                continue;
            };
            let len = e.macro_name.as_str().len();
            site.range.end = (site.range.start + len).min(site.range.end.max(site.range.start));
            // The definition in force: the last one made before this use.
            let def = defs
                .iter()
                .enumerate()
                .rfind(|(_, d)| d.name == e.macro_name && d.first_expansion as usize <= i)
                .and_then(|(j, _)| kept[j]);
            if let Some(j) = def {
                self.macro_uses.push((site, j));
            }
        }
        for (id, f) in sm.files() {
            let Some(loc) = f.included_from else {
                continue;
            };
            let Some(from) = sm.file_of(loc) else {
                continue;
            };
            let src = sm.file(from);
            let start = (loc.0 - src.base) as usize;
            let end = src.text[start.min(src.text.len())..]
                .find('\n')
                .map_or(src.text.len(), |n| start + n);
            let at = At {
                file: from.0 as usize,
                range: start..end.max(start),
            };
            if !self.includes.iter().any(|(a, _)| *a == at) {
                self.includes.push((at, id.0 as usize));
            }
        }
        for s in sm.skipped() {
            if let Some(a) = at(sm, *s)
                && a.range.end > a.range.start
            {
                self.inactive.push(a);
            }
        }
    }

    /// The file of the analysis at `path`.
    pub fn file_of(&self, path: &Path) -> Option<usize> {
        self.files.iter().position(|f| f.path == path)
    }

    /// The symbol named at `offset` of `file` (the innermost occurrence).
    pub fn symbol_at(&self, file: usize, offset: usize) -> Option<(&At, usize)> {
        self.uses
            .iter()
            .filter(|(a, _)| a.touches(file, offset))
            .min_by_key(|(a, _)| a.range.len())
            .map(|(a, i)| (a, *i))
    }

    /// The macro used or defined at `offset` of `file`.
    pub fn macro_at(&self, file: usize, offset: usize) -> Option<(&At, usize)> {
        self.macro_uses
            .iter()
            .map(|(a, i)| (a, *i))
            .chain(self.macros.iter().enumerate().map(|(i, m)| (&m.at, i)))
            .find(|(a, _)| a.touches(file, offset))
    }

    /// The `#include` line at `offset` of `file`, and the file it brings in.
    pub fn include_at(&self, file: usize, offset: usize) -> Option<(&At, usize)> {
        self.includes
            .iter()
            .find(|(a, _)| a.touches(file, offset))
            .map(|(a, f)| (a, *f))
    }

    /// The type of the innermost expression at `offset` of `file`.
    pub fn type_at(&self, file: usize, offset: usize) -> Option<(&At, &str)> {
        self.types
            .iter()
            .filter(|(a, _)| a.touches(file, offset))
            .min_by_key(|(a, _)| a.range.len())
            .map(|(a, t)| (a, &**t))
    }

    /// Every occurrence of symbol `i` (its declarations included).
    pub fn occurrences(&self, i: usize) -> impl Iterator<Item = &At> {
        self.uses
            .iter()
            .filter(move |(_, j)| *j == i)
            .map(|(a, _)| a)
    }

    /// The LSP range of `at`.
    pub fn range(&self, at: &At) -> lsp_types::Range {
        let f = &self.files[at.file];
        f.lines.range(&f.text, at.range.start, at.range.end)
    }

    /// The struct symbol of the type named `ty`, if it is a struct.
    pub fn struct_named(&self, ty: &str) -> Option<usize> {
        self.symbols
            .iter()
            .position(|s| s.kind == DefKind::Struct && s.ty.as_deref() == Some(ty))
    }

    /// The members (fields and methods) of the struct symbol `st`.
    pub fn members(&self, st: usize) -> impl Iterator<Item = &Symbol> {
        self.symbols.iter().filter(move |s| {
            s.container == Some(st) && matches!(s.kind, DefKind::Field | DefKind::Method)
        })
    }
}

impl Symbol {
    fn placeholder() -> Symbol {
        Symbol {
            name: String::new(),
            kind: DefKind::Local,
            at: At {
                file: usize::MAX,
                range: 0..0,
            },
            def_at: None,
            extent: At {
                file: usize::MAX,
                range: 0..0,
            },
            detail: String::new(),
            container: None,
            ty: None,
            params: Vec::new(),
            param_names: Vec::new(),
            stage: None,
            readonly: false,
            is_static: false,
            doc: None,
        }
    }

    /// False for the placeholder of a declaration that maps to no file.
    pub fn kind_is_real(&self) -> bool {
        self.at.file != usize::MAX
    }
}

/// What a [`Lazy`] builds its analysis from: the side table, the source
/// map and the include directories.
type LazyInputs = (Option<Index>, SourceMap, Vec<PathBuf>);

/// A compilation's [`Analysis`], built when it is first asked for (or
/// when the server is idle): a change publishes its diagnostics without
/// waiting for it.
pub struct Lazy {
    built: std::cell::OnceCell<std::rc::Rc<Analysis>>,
    inputs: std::cell::RefCell<Option<LazyInputs>>,
}

impl Lazy {
    pub fn new(index: Option<Index>, sm: SourceMap, include_dirs: Vec<PathBuf>) -> Lazy {
        Lazy {
            built: std::cell::OnceCell::new(),
            inputs: std::cell::RefCell::new(Some((index, sm, include_dirs))),
        }
    }

    /// Whether [`Lazy::get`] has built it.
    pub fn is_built(&self) -> bool {
        self.built.get().is_some()
    }

    /// The analysis, built now if it was not. A panic while building it
    /// (a bug) gives an empty analysis rather than ending the server.
    pub fn get(&self) -> std::rc::Rc<Analysis> {
        self.built
            .get_or_init(|| {
                let inputs = self.inputs.borrow_mut().take();
                let (index, sm, dirs) =
                    inputs.unwrap_or_else(|| (None, SourceMap::new(), Vec::new()));
                let build = || Analysis::new(index, &sm, &dirs);
                let a = std::panic::catch_unwind(std::panic::AssertUnwindSafe(build))
                    .unwrap_or_else(|_| Analysis::new(None, &SourceMap::new(), &[]));
                std::rc::Rc::new(a)
            })
            .clone()
    }
}

/// A span of the compilation as a file and byte range.
fn at(sm: &SourceMap, span: Span) -> Option<At> {
    if span.is_dummy() {
        return None;
    }
    let r = sm.resolve(span)?;
    Some(At {
        file: r.span.file.0 as usize,
        range: r.span.range,
    })
}

/// The comment directly above the line holding `offset`: `//` lines, or
/// one `/* */` block, with no blank line between it and the declaration.
/// Reads only the lines it keeps (and the one that stops it), backwards
/// from the declaration: every symbol of a file asks, so a scan of the
/// whole text above each would be quadratic in the file's length.
pub fn doc_above(text: &str, offset: usize) -> Option<String> {
    let offset = offset.min(text.len());
    let line_start = text.get(..offset)?.rfind('\n').map_or(0, |i| i + 1);
    let mut lines = text[..line_start].lines().rev().map(str::trim).peekable();
    let mut out: Vec<String> = Vec::new();
    if lines.peek().is_some_and(|l| l.ends_with("*/")) {
        // A block comment: back to its `/*`.
        for l in lines {
            let opened = l.starts_with("/*");
            let l = l.trim_start_matches("/**").trim_start_matches("/*");
            let l = l.trim_end_matches("*/").trim();
            let l = l.strip_prefix("* ").or(l.strip_prefix('*')).unwrap_or(l);
            out.push(l.trim_end().to_string());
            if opened {
                break;
            }
        }
    } else {
        for l in lines {
            let Some(c) = l.strip_prefix("//") else {
                break;
            };
            let c = c.trim_start_matches('/').trim_start_matches('!');
            out.push(c.strip_prefix(' ').unwrap_or(c).trim_end().to_string());
        }
    }
    out.reverse();
    while out.first().is_some_and(|l| l.is_empty()) {
        out.remove(0);
    }
    while out.last().is_some_and(|l| l.is_empty()) {
        out.pop();
    }
    // The `// hlslc: …` command line is settings, not documentation.
    if out.is_empty() || out.iter().any(|l| l.starts_with("hlslc")) {
        return None;
    }
    Some(out.join("\n"))
}
