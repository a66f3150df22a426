//! The `hlslc` command line: DXC's flags → [`hlslc::options::CommandLine`]
//! (the library's one parser) → compile → files and diagnostics. Exit code
//! 0 on success, 1 on any error.

use hlslc::diag::{self, Diagnostic, DiagnosticFormat};
use hlslc::options::{Action, CommandLine, EmitKind};
use hlslc::source::{DiskLoader, SourceMap};
use std::io::Write;
use std::path::{Path, PathBuf};

/// A command-line error, reported as a diagnostic without a location.
fn option_error(message: String) -> Diagnostic {
    Diagnostic::error(diag::codes::BAD_OPTION, message)
}

struct Reporter {
    format: DiagnosticFormat,
    color: bool,
    no_warnings: bool,
    warnings_as_errors: bool,
}

impl Reporter {
    /// Prints diagnostics; returns true if there was an error.
    fn report(&self, diags: &[Diagnostic], sm: &SourceMap) -> bool {
        let mut shown: Vec<Diagnostic> = Vec::with_capacity(diags.len());
        for d in diags {
            let mut d = d.clone();
            if d.severity == diag::Severity::Warning {
                if self.warnings_as_errors {
                    d.severity = diag::Severity::Error;
                } else if self.no_warnings {
                    continue;
                }
            }
            shown.push(d);
        }
        let _ = diag::write_to_stderr(&shown, sm, self.format, self.color);
        shown.iter().any(Diagnostic::is_error)
    }
}

fn write_file(path: &Path, bytes: &[u8], reporter: &Reporter) -> bool {
    match std::fs::write(path, bytes) {
        Ok(()) => true,
        Err(e) => {
            reporter.report(
                &[Diagnostic::error(
                    diag::codes::IO_ERROR,
                    format!("cannot write '{}': {e}", path.display()),
                )],
                &SourceMap::new(),
            );
            false
        }
    }
}

/// A make rule: `target: dep1 dep2 …`, with spaces escaped.
fn depfile(target: &str, deps: &[PathBuf]) -> String {
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
fn c_header(disassembly: &str, words: &[u32], name: &str) -> String {
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

/// The binary's own command line, read by clap: `hlslc lsp [--stdio]`
/// starts the language server; anything else is DXC's command line, kept
/// as written (as OS strings: a path need not be UTF-8) for the library's
/// parser, which alone knows DXC's flags, their help and their errors.
fn command() -> clap::Command {
    use clap::{Arg, ArgAction, Command, value_parser};
    Command::new("hlslc")
        .version(env!("CARGO_PKG_VERSION"))
        .about("HLSL to Vulkan SPIR-V, with DXC's flags")
        // `-help`, `--help`, `/?`, `--version` are DXC's: the library's
        // parser answers them with the table of options.
        .disable_help_flag(true)
        .disable_version_flag(true)
        .disable_help_subcommand(true)
        .args_conflicts_with_subcommands(true)
        .arg(
            Arg::new("dxc")
                .num_args(0..)
                .allow_hyphen_values(true)
                .trailing_var_arg(true)
                .value_parser(value_parser!(std::ffi::OsString))
                .value_name("DXC ARGUMENTS"),
        )
        .subcommand(
            Command::new("lsp")
                .about("A language server on stdin/stdout reporting hlslc's diagnostics")
                .arg(
                    Arg::new("help")
                        .short('h')
                        .long("help")
                        .action(ArgAction::Help)
                        .help("Print this help"),
                )
                .arg(
                    Arg::new("stdio")
                        .long("stdio")
                        .action(ArgAction::SetTrue)
                        .help(
                            "Talk over stdin/stdout (the only transport; editors' clients pass it)",
                        ),
                ),
        )
}

/// DXC's arguments as strings. A non-UTF-8 argument (a path) is an error
/// naming it, as the parser's own errors are.
fn dxc_args(m: &clap::ArgMatches) -> Result<Vec<String>, String> {
    let args: Vec<std::ffi::OsString> = m
        .get_many::<std::ffi::OsString>("dxc")
        .into_iter()
        .flatten()
        .cloned()
        .collect();
    os_args_to_strings(&args)
}

#[cfg(feature = "lsp")]
fn run_language_server() -> i32 {
    hlslc::lsp::run_stdio()
}

#[cfg(not(feature = "lsp"))]
fn run_language_server() -> i32 {
    eprintln!("hlslc lsp: this hlslc was built without the language server (Cargo feature `lsp`)");
    1
}

fn run() -> i32 {
    // Start-up: clap's command is built only for its one subcommand; a
    // compile goes straight to the library's parser.
    if std::env::args_os().nth(1).is_none_or(|a| a != "lsp") {
        let args: Vec<std::ffi::OsString> = std::env::args_os().skip(1).collect();
        return match os_args_to_strings(&args) {
            Ok(args) => run_dxc(&args),
            Err(e) => {
                let _ = diag::write_to_stderr(
                    &[option_error(e)],
                    &SourceMap::new(),
                    DiagnosticFormat::Human,
                    false,
                );
                1
            }
        };
    }
    let matches = match command().try_get_matches() {
        Ok(m) => m,
        Err(e) => {
            // `hlslc lsp --help` prints and succeeds; a wrong argument
            // to `hlslc lsp` is an error with clap's usage line.
            let _ = e.print();
            return if e.use_stderr() { 1 } else { 0 };
        }
    };
    if matches.subcommand_matches("lsp").is_some() {
        return run_language_server();
    }
    let args = match dxc_args(&matches) {
        Ok(a) => a,
        Err(e) => {
            let _ = diag::write_to_stderr(
                &[option_error(e)],
                &SourceMap::new(),
                DiagnosticFormat::Human,
                false,
            );
            return 1;
        }
    };
    run_dxc(&args)
}

/// Arguments as strings; a non-UTF-8 one (a path) is an error naming it.
fn os_args_to_strings(args: &[std::ffi::OsString]) -> Result<Vec<String>, String> {
    args.iter()
        .map(|a| {
            a.to_str()
                .map(str::to_owned)
                .ok_or_else(|| format!("argument '{}' is not valid UTF-8", a.to_string_lossy()))
        })
        .collect()
}

/// A DXC command line: compile, preprocess, help, version.
fn run_dxc(args: &[String]) -> i32 {
    let cl = CommandLine::parse(args);
    match cl.action {
        Action::Help => {
            print!("{}", hlslc::options::help());
            return 0;
        }
        Action::Version => {
            println!("hlslc {}", env!("CARGO_PKG_VERSION"));
            return 0;
        }
        Action::Compile | Action::SyntaxOnly | Action::Preprocess | Action::Dependencies => {}
    }
    let reporter = Reporter {
        format: cl.reporting.format,
        // termcolor's `Auto` looks at TERM/NO_COLOR only, not at whether
        // stderr is a terminal: colour escapes in a log or an IDE's parser
        // are noise.
        color: !cl.reporting.no_color
            && std::env::var_os("NO_COLOR").is_none()
            && (cl.reporting.force_color || std::io::IsTerminal::is_terminal(&std::io::stderr())),
        no_warnings: cl.reporting.no_warnings,
        warnings_as_errors: cl.reporting.warnings_as_errors,
    };
    // Errors in the arguments, and warnings about options accepted without
    // doing what they ask.
    if reporter.report(&cl.diagnostics, &SourceMap::new()) {
        return 1;
    }
    let options = &cl.options;
    let Some(input) = cl.input.clone() else {
        reporter.report(
            &[option_error(
                "no input file (usage: hlslc -T cs_6_0 -E main FILE -Fo out.spv)".into(),
            )],
            &SourceMap::new(),
        );
        return 1;
    };
    let loader = DiskLoader;

    let show_includes = |sm: &SourceMap| {
        if cl.reporting.show_includes {
            eprint!("{}", include_process(sm));
        }
    };

    if cl.action == Action::Preprocess || cl.action == Action::Dependencies {
        let (text, c) = hlslc::preprocess_to_string(&input, &loader, options);
        show_includes(&c.source_map);
        if reporter.report(&c.diagnostics.list, &c.source_map) {
            return 1;
        }
        if cl.action == Action::Dependencies {
            // DXC names the output, or the input when there is none.
            let target = cl.outputs.object.as_deref().unwrap_or(&input);
            let rule = depfile(&target.display().to_string(), &c.dependencies);
            return match &cl.outputs.depfile {
                Some(f) => i32::from(!write_file(f, rule.as_bytes(), &reporter)),
                None => {
                    let _ = std::io::stdout().write_all(rule.as_bytes());
                    0
                }
            };
        }
        return match &cl.outputs.preprocessed {
            Some(f) => i32::from(!write_file(f, text.as_bytes(), &reporter)),
            None => {
                let _ = std::io::stdout().write_all(text.as_bytes());
                0
            }
        };
    }

    if cl.action == Action::SyntaxOnly {
        let c = hlslc::check_syntax(&input, &loader, options);
        show_includes(&c.source_map);
        return i32::from(reporter.report(&c.diagnostics.list, &c.source_map));
    }

    if options.profile.is_none() {
        reporter.report(
            &[option_error(
                "missing target profile: pass -T (e.g. -T cs_6_0)".into(),
            )],
            &SourceMap::new(),
        );
        return 1;
    }
    let c = hlslc::compile(&input, &loader, options);
    show_includes(&c.source_map);
    let failed = reporter.report(&c.diagnostics.list, &c.source_map);
    let Some(artifact) = c.artifact.filter(|_| !failed) else {
        return 1;
    };

    let bytes: Vec<u8> = match options.emit {
        EmitKind::Spirv => artifact
            .spirv
            .iter()
            .flat_map(|w| w.to_le_bytes())
            .collect(),
        EmitKind::Asm => hlslc::disassemble(&artifact.spirv).into_bytes(),
        EmitKind::Ir => artifact.ir_text.clone().unwrap_or_default().into_bytes(),
    };
    let out = cl.outputs.object.as_deref();
    match out {
        Some(f) => {
            if !write_file(f, &bytes, &reporter) {
                return 1;
            }
        }
        // `--emit` asked for this: text, or binary SPIR-V to a pipe.
        None if cl.emit_given => {
            if options.emit == EmitKind::Spirv
                && std::io::IsTerminal::is_terminal(&std::io::stdout())
            {
                reporter.report(
                    &[option_error(
                        "binary SPIR-V is not written to a terminal: give -Fo <file>, or pipe the output"
                            .into(),
                    )],
                    &SourceMap::new(),
                );
                return 1;
            }
            let _ = std::io::stdout().write_all(&bytes);
        }
        // As DXC without -Fo: the disassembly, unless -Fh or -Fc took it.
        None if cl.outputs.header.is_none() && cl.outputs.assembly.is_none() => {
            let _ = std::io::stdout().write_all(hlslc::disassemble(&artifact.spirv).as_bytes());
        }
        None => {}
    }
    if let Some(f) = &cl.outputs.header {
        let name = cl
            .outputs
            .header_variable
            .clone()
            .unwrap_or_else(|| format!("g_{}", options.entry));
        let text = c_header(&hlslc::disassemble(&artifact.spirv), &artifact.spirv, &name);
        if !write_file(f, text.as_bytes(), &reporter) {
            return 1;
        }
    }
    if let Some(f) = &cl.outputs.assembly {
        if !write_file(f, hlslc::disassemble(&artifact.spirv).as_bytes(), &reporter) {
            return 1;
        }
    }
    if let Some(f) = &cl.outputs.reflection {
        let Some(reflection) = &artifact.reflection else {
            // Reflection describes the SPIR-V module; `--emit ir` makes none.
            reporter.report(
                &[option_error(
                    "-Fre needs a SPIR-V module (it cannot be combined with --emit ir)".into(),
                )],
                &SourceMap::new(),
            );
            return 1;
        };
        if !write_file(f, reflection.to_json().as_bytes(), &reporter) {
            return 1;
        }
    }
    let target = out.map_or_else(|| "a.spv".to_string(), |o| o.display().to_string());
    let dep_path = cl.outputs.depfile.clone().or_else(|| {
        cl.outputs
            .depfile_next_to_output
            .then(|| PathBuf::from(format!("{target}.d")))
    });
    if let Some(p) = dep_path {
        if !write_file(&p, depfile(&target, &c.dependencies).as_bytes(), &reporter) {
            return 1;
        }
    }
    0
}

fn main() {
    std::process::exit(run());
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn depfile_escapes_spaces() {
        assert_eq!(
            depfile("o.spv", &[PathBuf::from("a b.hlsl")]),
            "o.spv: \\\n  a\\ b.hlsl\n"
        );
    }
}
