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
    m.get_many::<std::ffi::OsString>("dxc")
        .into_iter()
        .flatten()
        .map(|a| {
            a.to_str()
                .map(str::to_owned)
                .ok_or_else(|| format!("argument '{}' is not valid UTF-8", a.to_string_lossy()))
        })
        .collect()
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
    let cl = CommandLine::parse(&args);
    match cl.action {
        Action::Help => {
            print!("{}", hlslc::options::help());
            return 0;
        }
        Action::Version => {
            println!("hlslc {}", env!("CARGO_PKG_VERSION"));
            return 0;
        }
        Action::Compile | Action::SyntaxOnly | Action::Preprocess => {}
    }
    let reporter = Reporter {
        format: cl.reporting.format,
        // termcolor's `Auto` looks at TERM/NO_COLOR only, not at whether
        // stderr is a terminal: colour escapes in a log or an IDE's parser
        // are noise.
        color: !cl.reporting.no_color
            && std::env::var_os("NO_COLOR").is_none()
            && std::io::IsTerminal::is_terminal(&std::io::stderr()),
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

    if cl.action == Action::Preprocess {
        let (text, c) = hlslc::preprocess_to_string(&input, &loader, options);
        if reporter.report(&c.diagnostics.list, &c.source_map) {
            return 1;
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
        let c = hlslc::check(&input, &loader, options);
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
        None => {
            if options.emit == EmitKind::Spirv
                && std::io::IsTerminal::is_terminal(&std::io::stdout())
            {
                // Like DXC without -Fo: show the disassembly rather than binary.
                let _ = std::io::stdout().write_all(hlslc::disassemble(&artifact.spirv).as_bytes());
            } else {
                let _ = std::io::stdout().write_all(&bytes);
            }
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
