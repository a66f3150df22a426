//! One DXC command line, as the `hlslc` binary runs it: parse, compile
//! (or preprocess, or check), write the files it names, and keep what it
//! prints on stdout and stderr in buffers, so that a batch can print each
//! job's output whole and in order.

use crate::FileLoader;
use crate::diag::{self, Diagnostic, DiagnosticFormat, Severity};
use crate::options::{Action, CommandLine, EmitKind};
use crate::source::SourceMap;
use crate::{Artifact, Compilation};
use codespan_reporting::term::termcolor::{Ansi, NoColor, WriteColor};
use std::path::{Path, PathBuf};

/// Whether the process's own streams are terminals: diagnostics are
/// coloured only on one, and binary SPIR-V is never written to one.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Terminal {
    /// stdout is a terminal.
    pub stdout: bool,
    /// stderr is a terminal.
    pub stderr: bool,
}

impl Terminal {
    /// This process's streams.
    pub fn detect() -> Terminal {
        use std::io::IsTerminal;
        Terminal {
            stdout: std::io::stdout().is_terminal(),
            stderr: std::io::stderr().is_terminal(),
        }
    }
}

/// What one command line printed, and how it ended.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Output {
    /// What it wrote to stdout: disassembly without `-Fo`, `-P` text, …
    pub stdout: Vec<u8>,
    /// Its diagnostics, rendered (coloured when stderr is a terminal).
    pub stderr: Vec<u8>,
    /// 0 on success, 1 on any error.
    pub exit_code: i32,
}

/// A command-line error, reported as a diagnostic without a location.
pub(crate) fn option_error(message: String) -> Diagnostic {
    Diagnostic::error(diag::codes::BAD_OPTION, message)
}

/// Renders diagnostics into the job's stderr buffer.
struct Reporter<'o> {
    out: &'o mut Output,
    /// In a batch, the job: a line naming it heads its diagnostics (JSON:
    /// each object's `"job"`).
    job: Option<&'o str>,
    headed: bool,
    format: DiagnosticFormat,
    color: bool,
    no_warnings: bool,
    warnings_as_errors: bool,
}

impl Reporter<'_> {
    /// Renders diagnostics; returns true if there was an error.
    fn report(&mut self, diags: &[Diagnostic], sm: &SourceMap) -> bool {
        let mut shown: Vec<Diagnostic> = Vec::with_capacity(diags.len());
        for d in diags {
            let mut d = d.clone();
            if d.severity == Severity::Warning {
                if self.warnings_as_errors {
                    d.severity = Severity::Error;
                } else if self.no_warnings {
                    continue;
                }
            }
            shown.push(d);
        }
        if shown.is_empty() {
            return false;
        }
        if self.format == DiagnosticFormat::Json
            && let Some(job) = self.job
        {
            for d in &shown {
                let line = diag::render_json(d, sm);
                let line = match serde_json::from_str::<serde_json::Value>(&line) {
                    Ok(mut v) => {
                        v["job"] = job.into();
                        v.to_string()
                    }
                    Err(_) => line,
                };
                self.out.stderr.extend_from_slice(line.as_bytes());
                self.out.stderr.push(b'\n');
            }
            return shown.iter().any(Diagnostic::is_error);
        }
        self.head();
        let buf = std::mem::take(&mut self.out.stderr);
        self.out.stderr = if self.color {
            let mut w = Ansi::new(buf);
            let _ = diag::render(&mut w, &shown, sm, self.format);
            w.into_inner()
        } else {
            let mut w = NoColor::new(buf);
            let _ = diag::render(&mut w as &mut dyn WriteColor, &shown, sm, self.format);
            w.into_inner()
        };
        shown.iter().any(Diagnostic::is_error)
    }

    /// In a batch, the line naming the job, once, before what it prints on
    /// stderr (human and short formats).
    fn head(&mut self) {
        if let Some(job) = self.job
            && !self.headed
        {
            self.headed = true;
            self.out
                .stderr
                .extend_from_slice(format!("{job}:\n").as_bytes());
        }
    }

    /// An error without a location; always true (there was an error).
    fn fail(&mut self, message: String) -> bool {
        self.report(&[option_error(message)], &SourceMap::new())
    }

    /// Writes a file; false (after reporting why) when that fails.
    fn write_file(&mut self, path: &Path, bytes: &[u8]) -> bool {
        match super::output::write_output(path, bytes) {
            Ok(_) => true,
            Err(e) => {
                let d = Diagnostic::error(
                    diag::codes::IO_ERROR,
                    format!("cannot write '{}': {e}", path.display()),
                );
                self.report(&[d], &SourceMap::new());
                false
            }
        }
    }
}

/// `-format`: the file in hlslc's layout, with the settings of the nearest
/// `.clang-format` above it; printed, or written back with `-i`. A file
/// the lexer cannot read is reported as preprocessing reports it (E0101 at
/// the place), and left alone.
fn format_file(
    cl: &CommandLine,
    input: &Path,
    loader: &dyn FileLoader,
    r: &mut Reporter,
    stdout: &mut Vec<u8>,
) -> bool {
    let text = match std::fs::read_to_string(input) {
        Ok(t) => t,
        Err(e) => {
            let d = Diagnostic::error(
                diag::codes::IO_ERROR,
                format!("cannot read '{}': {e}", input.display()),
            );
            return !r.report(&[d], &SourceMap::new());
        }
    };
    let options = crate::front::format::options_for(input).unwrap_or_default();
    let Some(formatted) = crate::format(&text, &options) else {
        let (_, c) = crate::preprocess_to_string(input, loader, &cl.options);
        let mut lexing: Vec<Diagnostic> = c
            .diagnostics
            .list
            .into_iter()
            .filter(|d| d.code == diag::codes::PP_LEX_ERROR)
            .collect();
        if lexing.is_empty() {
            // In a group `#if` skips, where preprocessing does not look.
            lexing.push(Diagnostic::error(
                diag::codes::PP_LEX_ERROR,
                format!("'{}' has text that is no HLSL token: not formatted", input.display()),
            ));
        }
        r.report(&lexing, &c.source_map);
        return false;
    };
    if cl.outputs.in_place {
        formatted == text || r.write_file(input, formatted.as_bytes())
    } else {
        stdout.extend_from_slice(formatted.as_bytes());
        true
    }
}

/// A make rule: `target: dep1 dep2 …`, with spaces escaped.
pub(crate) fn depfile(target: &str, deps: &[PathBuf]) -> String {
    let esc = |s: &str| s.replace(' ', "\\ ");
    let mut out = format!("{}:", esc(target));
    for d in deps {
        out.push_str(" \\\n  ");
        out.push_str(&esc(&d.display().to_string()));
    }
    out.push('\n');
    out
}

/// What `-Vi` prints: each file the preprocessor entered, indented by its
/// `#include` depth.
fn include_process(sm: &SourceMap) -> String {
    let mut out = String::new();
    for (name, depth) in sm.include_process() {
        out.push_str(&format!(
            "hlslc -Vi: {:width$}{name}\n",
            "",
            width = 2 * depth
        ));
    }
    out
}

/// The C header `-Fh` writes, laid out as DXC lays it out (CRLF line
/// ends): the disassembly inside `#if 0`, then the module's bytes, little
/// endian, twelve to a line, as `const unsigned char NAME[]`.
pub(crate) fn c_header(disassembly: &str, words: &[u32], name: &str) -> String {
    let mut out = String::with_capacity(disassembly.len() + words.len() * 24 + 64);
    out.push_str("#if 0\r\n");
    out.push_str(&disassembly.trim_end_matches('\0').replace('\n', "\r\n"));
    out.push_str("\r\n#endif\r\n");
    out.push_str(&format!("\r\nconst unsigned char {name}[] = {{"));
    for (i, byte) in words.iter().flat_map(|w| w.to_le_bytes()).enumerate() {
        if i != 0 {
            out.push(',');
        }
        if i % 12 == 0 {
            out.push_str("\r\n ");
        }
        out.push_str(&format!(" 0x{byte:02x}"));
    }
    out.push_str("\r\n};\r\n");
    out
}

/// Runs one parsed command line (compile, `-P`, `-M`, `-fsyntax-only`,
/// `--help`, `--version`) reading files through `loader`; `job` names
/// the job of a batch in its diagnostics.
pub(crate) fn run(
    cl: &CommandLine,
    loader: &dyn FileLoader,
    terminal: Terminal,
    job: Option<&str>,
) -> Output {
    let mut out = Output::default();
    let end = End {
        job,
        exiting: false,
    };
    out.exit_code = i32::from(!run_into(cl, loader, terminal, end, &mut out));
    out
}

/// [`run`] for a process that exits once it has printed the output (the
/// `hlslc` binary): the compilation (source text, syntax tree, IR) is not
/// freed, as the process's exit gives all of its memory back at once;
/// freeing it piece by piece costs about as much as writing the SPIR-V.
pub(crate) fn run_then_exit(
    cl: &CommandLine,
    loader: &dyn FileLoader,
    terminal: Terminal,
) -> Output {
    let mut out = Output::default();
    let end = End {
        job: None,
        exiting: true,
    };
    out.exit_code = i32::from(!run_into(cl, loader, terminal, end, &mut out));
    out
}

/// How a command line ends: `job` names the job of a batch in its
/// diagnostics; `exiting`: the process exits right after it.
#[derive(Clone, Copy)]
struct End<'j> {
    job: Option<&'j str>,
    exiting: bool,
}

impl End<'_> {
    /// Drops a compilation, or leaves it to the process's exit.
    fn dispose(self, c: Compilation) {
        if self.exiting {
            std::mem::forget(c);
        }
    }
}

/// [`run`], into `out`; true on success.
fn run_into(
    cl: &CommandLine,
    loader: &dyn FileLoader,
    terminal: Terminal,
    end: End,
    out: &mut Output,
) -> bool {
    match cl.action {
        Action::Help => {
            out.stdout
                .extend_from_slice(crate::options::help().as_bytes());
            return true;
        }
        Action::Version => {
            out.stdout
                .extend_from_slice(format!("hlslc {}\n", env!("CARGO_PKG_VERSION")).as_bytes());
            return true;
        }
        Action::Compile
        | Action::SyntaxOnly
        | Action::Preprocess
        | Action::Dependencies
        | Action::Format => {}
    }
    let mut stdout = std::mem::take(&mut out.stdout);
    let mut r = Reporter {
        out,
        job: end.job,
        headed: false,
        format: cl.reporting.format,
        // termcolor's `Auto` looks at TERM/NO_COLOR only, not at whether
        // stderr is a terminal: colour escapes in a log or an IDE's parser
        // are noise.
        color: !cl.reporting.no_color
            && std::env::var_os("NO_COLOR").is_none()
            && (cl.reporting.force_color || terminal.stderr),
        no_warnings: cl.reporting.no_warnings,
        warnings_as_errors: cl.reporting.warnings_as_errors,
    };
    let ok = run_action(cl, loader, terminal, end, &mut r, &mut stdout);
    r.out.stdout = stdout;
    ok
}

/// Everything but `--help` and `--version`.
fn run_action(
    cl: &CommandLine,
    loader: &dyn FileLoader,
    terminal: Terminal,
    end: End,
    r: &mut Reporter,
    stdout: &mut Vec<u8>,
) -> bool {
    // Errors in the arguments, and warnings about options accepted without
    // doing what they ask.
    if r.report(&cl.diagnostics, &SourceMap::new()) {
        return false;
    }
    let options = &cl.options;
    let Some(input) = cl.input.as_deref() else {
        return !r.fail("no input file (usage: hlslc -T cs_6_0 -E main FILE -Fo out.spv)".into());
    };
    let show_includes = |r: &mut Reporter, sm: &SourceMap| {
        if cl.reporting.show_includes {
            r.head();
            r.out
                .stderr
                .extend_from_slice(include_process(sm).as_bytes());
        }
    };
    match cl.action {
        Action::Format => format_file(cl, input, loader, r, stdout),
        Action::Preprocess | Action::Dependencies => {
            let (text, c) = crate::preprocess_to_string(input, loader, options);
            show_includes(r, &c.source_map);
            if r.report(&c.diagnostics.list, &c.source_map) {
                return false;
            }
            let (bytes, file) = if cl.action == Action::Dependencies {
                // DXC names the output, or the input when there is none.
                let target = cl.outputs.object.as_deref().unwrap_or(input);
                let rule = depfile(&target.display().to_string(), &c.dependencies);
                (rule, &cl.outputs.depfile)
            } else {
                (text, &cl.outputs.preprocessed)
            };
            match file {
                Some(f) => r.write_file(f, bytes.as_bytes()),
                None => {
                    stdout.extend_from_slice(bytes.as_bytes());
                    true
                }
            }
        }
        Action::SyntaxOnly => {
            let c = crate::check(input, loader, options);
            show_includes(r, &c.source_map);
            !r.report(&c.diagnostics.list, &c.source_map)
        }
        _ => {
            if options.profile.is_none() {
                return !r.fail("missing target profile: pass -T (e.g. -T cs_6_0)".into());
            }
            let c = crate::compile(input, loader, options);
            show_includes(r, &c.source_map);
            let failed = r.report(&c.diagnostics.list, &c.source_map);
            let ok = match &c.artifact {
                Some(artifact) if !failed => write_outputs(cl, &c, artifact, terminal, r, stdout),
                _ => false,
            };
            end.dispose(c);
            ok
        }
    }
}

/// The files (and stdout) of a successful compile: `-Fo` (or stdout),
/// `-Fh`, `-Fc`, `-Fre`, the depfile.
fn write_outputs(
    cl: &CommandLine,
    c: &Compilation,
    artifact: &Artifact,
    terminal: Terminal,
    r: &mut Reporter,
    stdout: &mut Vec<u8>,
) -> bool {
    let options = &cl.options;
    let bytes: Vec<u8> = match options.emit {
        EmitKind::Spirv => {
            // Collected at once, which compiles to vector copies into
            // memory allocated at its size (a push per word cost 8
            // instructions each; zeroed first, the memory cost a byte
            // each when the system allocator reused a block).
            artifact.spirv.iter().flat_map(|w| w.to_le_bytes()).collect()
        }
        EmitKind::Asm => crate::disassemble(&artifact.spirv).into_bytes(),
        EmitKind::Ir => artifact.ir_text.clone().unwrap_or_default().into_bytes(),
    };
    let out = cl.outputs.object.as_deref();
    match out {
        Some(f) if !r.write_file(f, &bytes) => return false,
        Some(_) => {}
        // `--emit` asked for this: text, or binary SPIR-V to a pipe.
        None if cl.emit_given => {
            if options.emit == EmitKind::Spirv && terminal.stdout {
                return !r.fail(
                    "binary SPIR-V is not written to a terminal: give -Fo <file>, or pipe the output"
                        .into(),
                );
            }
            stdout.extend_from_slice(&bytes);
        }
        // As DXC without -Fo: the disassembly, unless -Fh or -Fc took it.
        None if cl.outputs.header.is_none() && cl.outputs.assembly.is_none() => {
            stdout.extend_from_slice(crate::disassemble(&artifact.spirv).as_bytes());
        }
        None => {}
    }
    if let Some(f) = &cl.outputs.header {
        let name = cl
            .outputs
            .header_variable
            .clone()
            .unwrap_or_else(|| format!("g_{}", options.entry));
        let text = c_header(&crate::disassemble(&artifact.spirv), &artifact.spirv, &name);
        if !r.write_file(f, text.as_bytes()) {
            return false;
        }
    }
    if let Some(f) = &cl.outputs.assembly
        && !r.write_file(f, crate::disassemble(&artifact.spirv).as_bytes())
    {
        return false;
    }
    if let Some(f) = &cl.outputs.reflection {
        let Some(reflection) = &artifact.reflection else {
            // Reflection describes the SPIR-V module; `--emit ir` makes none.
            return !r
                .fail("-Fre needs a SPIR-V module (it cannot be combined with --emit ir)".into());
        };
        if !r.write_file(f, reflection.to_json().as_bytes()) {
            return false;
        }
    }
    let target = out.map_or_else(|| "a.spv".to_string(), |o| o.display().to_string());
    let dep_path = cl.outputs.depfile.clone().or_else(|| {
        cl.outputs
            .depfile_next_to_output
            .then(|| PathBuf::from(format!("{target}.d")))
    });
    match dep_path {
        Some(p) => r.write_file(&p, depfile(&target, &c.dependencies).as_bytes()),
        None => true,
    }
}
