//! The `hlslc` command line: DXC's flags → [`hlslc::options::CommandLine`]
//! (the library's one parser) → [`hlslc::batch`] (compile, write the
//! files, render the diagnostics) → stdout and stderr. Exit code 0 on
//! success, 1 on any error.
//!
//! The process starts at [`main`], called by the C runtime, not through
//! std's `lang_start`: see there.

#![no_main]

// The binary's own modules live in `src/main/` (`src/*.rs` is the library).
#[path = "main/allocator.rs"]
mod allocator;

use hlslc::DiskLoader;
use hlslc::batch::{self, Terminal};
use hlslc::diag::{self, Diagnostic, DiagnosticFormat};
use hlslc::options::CommandLine;
use hlslc::source::SourceMap;
use std::ffi::OsString;
use std::io::Write;

/// A command-line error, reported as a diagnostic without a location.
fn option_error(message: String) -> Diagnostic {
    Diagnostic::error(diag::codes::BAD_OPTION, message)
}

/// Reports a command-line error on stderr; exit code 1.
fn fail(message: String) -> i32 {
    let _ = diag::write_to_stderr(
        &[option_error(message)],
        &SourceMap::new(),
        DiagnosticFormat::Human,
        false,
    );
    1
}

/// The binary's own command line, read by clap: `hlslc lsp [--stdio]`
/// starts the language server. Everything else is DXC's command line,
/// which the library's parser reads (clap's command is not even built for
/// it: start-up time).
fn lsp_command() -> clap::Command {
    use clap::{Arg, ArgAction, Command};
    Command::new("hlslc")
        .version(env!("CARGO_PKG_VERSION"))
        .about("HLSL to Vulkan SPIR-V, with DXC's flags")
        .disable_help_flag(true)
        .disable_version_flag(true)
        .disable_help_subcommand(true)
        .subcommand_required(true)
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

#[cfg(feature = "lsp")]
fn run_language_server() -> i32 {
    hlslc::lsp::run_stdio()
}

#[cfg(not(feature = "lsp"))]
fn run_language_server() -> i32 {
    eprintln!("hlslc lsp: this hlslc was built without the language server (Cargo feature `lsp`)");
    1
}

/// `hlslc lsp …`, read by clap.
fn run_lsp_subcommand() -> i32 {
    match lsp_command().try_get_matches() {
        Ok(_) => run_language_server(),
        Err(e) => {
            // `hlslc lsp --help` prints and succeeds; a wrong argument
            // to `hlslc lsp` is an error with clap's usage line.
            let _ = e.print();
            if e.use_stderr() { 1 } else { 0 }
        }
    }
}

/// Arguments as strings; a non-UTF-8 one (a path) is an error naming it.
fn os_args_to_strings(args: &[OsString]) -> Result<Vec<String>, String> {
    args.iter()
        .map(|a| {
            a.to_str()
                .map(str::to_owned)
                .ok_or_else(|| format!("argument '{}' is not valid UTF-8", a.to_string_lossy()))
        })
        .collect()
}

/// Writes what a command line (or a job) printed.
fn print(out: &batch::Output) {
    let _ = std::io::stdout().lock().write_all(&out.stdout);
    let _ = std::io::stderr().lock().write_all(&out.stderr);
}

/// `--jobs-file FILE`: every line a command line, after the other
/// arguments of this one; compiled in parallel, printed in order.
fn run_batch(args: &[String], cl: &CommandLine, terminal: Terminal) -> i32 {
    if cl.has_errors() {
        print(&batch::run_command_line(cl, &DiskLoader, terminal));
        return 1;
    }
    let Some(jobs_file) = &cl.batch.jobs_file else {
        return 1;
    };
    let common: Vec<String> = cl.batch.common_args(args);
    let jobs = match batch::read_jobs_file(jobs_file, &common) {
        Ok(jobs) => jobs,
        Err(e) => return fail(e),
    };
    let threads = cl.batch.threads.unwrap_or_else(batch::default_threads);
    let failed = batch::run(&jobs, threads, terminal, |_, _, out| print(&out));
    // The process exits next: the jobs' memory is left to it, as a
    // compile's is.
    let count = jobs.len();
    std::mem::forget(jobs);
    if failed == 0 {
        return 0;
    }
    if cl.reporting.format != DiagnosticFormat::Json {
        eprintln!("hlslc: {failed} of {count} jobs failed");
    }
    1
}

/// The allocator: pages of size classes for compiles (see [`allocator`]).
#[global_allocator]
static ALLOCATOR: allocator::Pages = allocator::Pages;

fn run(os_args: Vec<OsString>) -> i32 {
    if os_args.first().is_some_and(|a| a == "lsp") {
        return run_lsp_subcommand();
    }
    let args = match os_args_to_strings(&os_args) {
        Ok(args) => args,
        Err(e) => return fail(e),
    };
    // `@file`: the file's words, as DXC reads a response file.
    let args = match batch::expand_response_files(&args, &mut |p| std::fs::read_to_string(p)) {
        Ok(args) => args,
        Err(e) => return fail(e),
    };
    let cl = CommandLine::parse(&args);
    let terminal = Terminal::detect();
    if cl.batch.jobs_file.is_some() {
        return run_batch(&args, &cl, terminal);
    }
    let out = batch::run_command_line_then_exit(&cl, &DiskLoader, terminal);
    print(&out);
    out.exit_code
}

/// The process entry point, called by the C runtime with the process's
/// arguments. They are read from `argv` here: `std::env::args_os` is
/// filled before `main` only by glibc (which passes them to std's
/// initialiser as well); with musl (`cargo build-static`) it is filled by
/// `lang_start`, which does not run.
///
/// std's usual start-up (`lang_start`) is skipped on purpose: before
/// `main` it reads and parses `/proc/self/maps` to find the main thread's
/// stack guard and installs a signal handler whose only job is to print a
/// message when a stack overflows — about a third of what `hlslc
/// --version` ran. The compiler bounds its own recursion (deep input is a
/// diagnostic, not an overflow), so the handler is not needed. What else
/// `lang_start` did is kept: a panic (a bug) still exits with code 101
/// after printing its message, and [`std::process::exit`] flushes stdout.
/// `SIGPIPE` keeps its default action, as for C tools: `hlslc … | head`
/// ends quietly when the reader stops.
#[unsafe(no_mangle)]
extern "C" fn main(
    argc: std::ffi::c_int,
    argv: *const *const std::ffi::c_char,
) -> std::ffi::c_int {
    // Everything but the language server compiles and exits: it gets the
    // page allocator (see there), decided before anything is allocated.
    // SAFETY: the C runtime passes `argc` valid, NUL-terminated strings.
    let lsp = argc > 1 && unsafe { std::ffi::CStr::from_ptr(*argv.add(1)) }.to_bytes() == b"lsp";
    if !lsp {
        allocator::enable();
    }
    let os_args: Vec<OsString> = (1..usize::try_from(argc).unwrap_or(0))
        .map(|i| {
            // SAFETY: as above, for each of the `argc` arguments.
            let arg = unsafe { std::ffi::CStr::from_ptr(*argv.add(i)) };
            <std::ffi::OsStr as std::os::unix::ffi::OsStrExt>::from_bytes(arg.to_bytes()).to_os_string()
        })
        .collect();
    let code = std::panic::catch_unwind(move || run(os_args)).unwrap_or(101);
    std::process::exit(code)
}
