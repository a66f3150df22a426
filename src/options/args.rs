//! The command-line parser: DXC-style arguments → [`CommandLine`], reading
//! the option table ([`super::table`]) and nothing else.
//!
//! Matching follows LLVM's option tables, which DXC uses: an argument is
//! the longest spelling it matches (`-WX` is not `-W` with value `X`), a
//! flag matches only itself, and joined values follow their spelling
//! (`-Foout.spv`, `-fspv-target-env=vulkan1.1`). Every argument that is not
//! an option is an input file. Problems do not stop the parse: every one
//! is reported, and the rest of the command line still counts (the language
//! server compiles with what it could read).

use super::table::{Arity, Effect, GROUPS, Opt, Origin, Section, options};
use super::{EmitKind, LayoutRule, MatrixLayout, Options};
use crate::diag::{Diagnostic, DiagnosticFormat, codes};
use std::path::PathBuf;

/// What a command line asks the `hlslc` driver to do.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Action {
    /// Compile the input (the default).
    #[default]
    Compile,
    /// `-fsyntax-only`: check the whole file ([`crate::check`]), report
    /// diagnostics, write nothing.
    SyntaxOnly,
    /// `-P`: preprocess, print or write (`-Fi`) the text.
    Preprocess,
    /// `--help`: print [`help`].
    Help,
    /// `--version`.
    Version,
    /// `-M`: preprocess, print (or write to the `-MF` file) the make rule
    /// of the files read.
    Dependencies,
    /// `-format`: print the file formatted ([`crate::format`]), or with
    /// `-i` rewrite it.
    Format,
}

/// The files a command line asks for (none is written by the library).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Outputs {
    /// `-Fo`: the SPIR-V module, or what `--emit` names.
    pub object: Option<PathBuf>,
    /// `-Fc`: the disassembly.
    pub assembly: Option<PathBuf>,
    /// `-Fre`: reflection JSON (also sets [`Options::reflect`]).
    pub reflection: Option<PathBuf>,
    /// `-Fi`: the preprocessed text, with `-P`.
    pub preprocessed: Option<PathBuf>,
    /// `-MF`: a make-style depfile.
    pub depfile: Option<PathBuf>,
    /// `-MD`: a depfile named after the output (`OUTPUT.d`).
    pub depfile_next_to_output: bool,
    /// `-Fh`: a C header holding the module (as DXC writes it).
    pub header: Option<PathBuf>,
    /// `-Vn`: the name of the `-Fh` array (default `g_` + the entry point).
    pub header_variable: Option<String>,
    /// `-i`: `-format` rewrites the input.
    pub in_place: bool,
}

/// How the driver reports diagnostics.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Reporting {
    /// `--diagnostics-format`.
    pub format: DiagnosticFormat,
    /// `--no-color`, `-fno-color-diagnostics`.
    pub no_color: bool,
    /// `-fcolor-diagnostics`: colour even when stderr is not a terminal
    /// (`no_color` wins).
    pub force_color: bool,
    /// `-Vi` (`-H`): list the files read, nested by `#include`, on stderr.
    pub show_includes: bool,
    /// `-WX`.
    pub warnings_as_errors: bool,
    /// `-no-warnings`.
    pub no_warnings: bool,
}

/// `--jobs-file` and `-j`: many command lines in one process
/// ([`crate::batch`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Batch {
    /// `--jobs-file`: the file of command lines, one a line.
    pub jobs_file: Option<PathBuf>,
    /// `-j`: how many jobs compile at once (default: one per core).
    pub threads: Option<usize>,
    /// The indices of the arguments that gave these.
    own_args: Vec<usize>,
}

impl Batch {
    /// The arguments of the command line without those of `--jobs-file`
    /// and `-j`: what every job of the batch starts with.
    pub fn common_args(&self, args: &[String]) -> Vec<String> {
        args.iter()
            .enumerate()
            .filter(|(i, _)| !self.own_args.contains(i))
            .map(|(_, a)| a.clone())
            .collect()
    }

    /// Whether the command line asks for a batch (`--jobs-file` or `-j`).
    pub fn is_requested(&self) -> bool {
        !self.own_args.is_empty()
    }
}

/// A parsed command line: the compiler's [`Options`] and what only the
/// driver uses (input, outputs, reporting).
#[derive(Clone, Debug)]
pub struct CommandLine {
    /// What the compiler is asked to do.
    pub options: Options,
    /// The input file: the argument that is not an option.
    pub input: Option<PathBuf>,
    /// `-fsyntax-only`, `-P`, `--help`, `--version`, or compile.
    pub action: Action,
    /// `-Fo`, `-Fc`, `-Fre`, `-Fi`, `-MD`, `-MF`.
    pub outputs: Outputs,
    /// `--diagnostics-format`, `--no-color`, `-WX`, `-no-warnings`, `-Vi`.
    pub reporting: Reporting,
    /// `--jobs-file`, `-j`.
    pub batch: Batch,
    /// True when `--emit` (or `--ir-after`) chose what to write: without
    /// `-Fo` the driver writes exactly that to stdout (binary SPIR-V only
    /// to a pipe); otherwise it prints the disassembly there, as DXC does.
    pub emit_given: bool,
    /// What was wrong with the arguments, in order: errors E0002 (unknown
    /// option, missing or bad value) and E0004 (recognised, not supported
    /// yet), warnings W0001 (accepted without doing what it asks).
    pub diagnostics: Vec<Diagnostic>,
}

impl CommandLine {
    /// Parses arguments (without the program name) as the `hlslc` binary
    /// does. Never fails: problems are in [`CommandLine::diagnostics`].
    ///
    /// ```
    /// use hlslc::options::{CommandLine, RegisterClass, TargetEnv};
    ///
    /// let cl = CommandLine::parse(["-T", "cs_6_0", "-fvk-t-shift", "10", "0",
    ///                              "-fspv-target-env=vulkan1.1", "x.hlsl", "-Fox.spv"]);
    /// assert!(!cl.has_errors());
    /// assert_eq!(cl.options.register_shifts, [(RegisterClass::T, 10, Some(0))]);
    /// assert_eq!(cl.options.target_env, TargetEnv::Vulkan1_1);
    /// assert_eq!(cl.input.unwrap().to_str(), Some("x.hlsl"));
    /// assert_eq!(cl.outputs.object.unwrap().to_str(), Some("x.spv"));
    /// ```
    pub fn parse<I, S>(args: I) -> CommandLine
    where
        I: IntoIterator<Item = S>,
        S: AsRef<str>,
    {
        let args: Vec<String> = args.into_iter().map(|a| a.as_ref().to_string()).collect();
        let mut p = Parser::new();
        let mut i = 0;
        while i < args.len() {
            i = p.argument(&args, i);
        }
        let mut cl = p.finish();
        if cl.options.debug_info.nonsemantic().is_some() {
            cl.options.debug_info.command_line = args.join(" ");
        }
        cl
    }

    /// True when [`CommandLine::diagnostics`] holds an error.
    pub fn has_errors(&self) -> bool {
        self.diagnostics.iter().any(Diagnostic::is_error)
    }
}

/// The parse in progress: the command line, and what options decide only
/// together.
pub(crate) struct Parser {
    pub(crate) cl: CommandLine,
    /// `--emit`, if given (`--ir-after` implies `ir`).
    pub(crate) emit: Option<EmitKind>,
    /// `-fcgl`: no optimisation whatever the level.
    pub(crate) fcgl: bool,
    /// The option that chose the buffer layout, the matrix layout.
    layout_from: Option<&'static str>,
    matrix_from: Option<&'static str>,
    /// Options whose W0001 warning has been given.
    warned: Vec<&'static str>,
    /// The last of `-O0` … `-O3` given (`-Od` is not a level here), and
    /// whether `-Oconfig=` was given: the two exclude each other.
    level_from: Option<&'static str>,
    oconfig: bool,
}

impl Parser {
    fn new() -> Parser {
        Parser {
            cl: CommandLine {
                options: Options::default(),
                input: None,
                action: Action::default(),
                outputs: Outputs::default(),
                reporting: Reporting::default(),
                batch: Batch::default(),
                emit_given: false,
                diagnostics: Vec::new(),
            },
            emit: None,
            fcgl: false,
            layout_from: None,
            matrix_from: None,
            warned: Vec::new(),
            level_from: None,
            oconfig: false,
        }
    }

    fn error(&mut self, message: String) {
        self.cl
            .diagnostics
            .push(Diagnostic::error(codes::BAD_OPTION, message));
    }

    /// Parses the argument at `i`; returns the index of the next one.
    fn argument(&mut self, args: &[String], i: usize) -> usize {
        let arg = args[i].as_str();
        // An empty argument is no option and no file: build scripts pass
        // `''` for an option a shader does not need, and DXC (LLVM's
        // option parser) skips it. An option's separate value may still
        // be empty (`-D ''`): that is read with the option, below.
        if arg.is_empty() {
            return i + 1;
        }
        if arg.len() < 2 || !arg.starts_with('-') {
            match &self.cl.input {
                Some(first) => {
                    let first = first.display().to_string();
                    self.error(format!(
                        "more than one input file: '{first}' and '{arg}' (hlslc compiles one file at a time)"
                    ))
                }
                None => self.cl.input = Some(PathBuf::from(arg)),
            }
            return i + 1;
        }
        let Some((opt, spelling, joined)) = find(arg) else {
            let message = match suggest(arg) {
                Some(s) => format!("unknown option '{arg}' (did you mean '{s}'?)"),
                None => format!("unknown option '{arg}' (hlslc --help lists the options)"),
            };
            self.error(message);
            return i + 1;
        };
        let mut next = i + 1;
        let mut values: Vec<&str> = Vec::new();
        let wanted = match opt.arity {
            Arity::Flag => 0,
            Arity::Joined => {
                values.push(joined.unwrap_or(""));
                0
            }
            Arity::JoinedOrSeparate | Arity::Value => match joined {
                Some(v) if !v.is_empty() || opt.arity == Arity::Value => {
                    values.push(v);
                    0
                }
                _ => 1,
            },
            Arity::Separate => 1,
            Arity::Multi(n) => n as usize,
        };
        let available = args.len() - next;
        if available < wanted {
            let found = match available {
                0 => "none".to_string(),
                n => format!("only {n}"),
            };
            self.error(format!(
                "{spelling} needs {} ({}), found {found}",
                match wanted {
                    1 => "a value".to_string(),
                    n => format!("{n} values"),
                },
                opt.values
            ));
            return args.len();
        }
        values.extend(args[next..next + wanted].iter().map(String::as_str));
        next += wanted;
        match opt.effect {
            Effect::Apply(apply) => {
                if let Err(e) = apply(self, &values) {
                    self.error(format!("{}: {e}", spelling.trim_end_matches('=')));
                }
            }
            Effect::None => {}
            Effect::NotYet => self.cl.diagnostics.push(Diagnostic::error(
                codes::UNSUPPORTED,
                format!("not supported yet: {}", spelling.trim_end_matches('=')),
            )),
        }
        // The batch's own options are not passed on to its jobs.
        if matches!(opt.name(), "--jobs-file" | "-j") {
            self.cl.batch.own_args.extend(i..next);
        }
        next
    }

    /// Warning W0001 for an option accepted without effect, once however
    /// often it is given.
    pub(crate) fn warn_once(&mut self, option: &'static str, why: &'static str) {
        if !self.warned.contains(&option) {
            self.warned.push(option);
            self.cl
                .diagnostics
                .push(Diagnostic::warning(codes::OPTION_IGNORED, why));
        }
    }

    pub(crate) fn opt_level(&mut self, level: u8, from: &'static str) -> Result<(), String> {
        self.cl.options.opt_level = level;
        if from != "-Od" {
            self.level_from = Some(from);
        }
        Ok(())
    }

    /// `-Oconfig=`: checked ([`super::oconfig`]), then W0001, as hlslc
    /// runs its own pipeline.
    pub(crate) fn oconfig(&mut self, passes: &str) -> Result<(), String> {
        if std::mem::replace(&mut self.oconfig, true) {
            return Err("given more than once (give one list of passes)".into());
        }
        super::oconfig::check(passes)?;
        self.warn_once(
            "-Oconfig=",
            "-Oconfig: hlslc runs its own optimisation pipeline (as at -O3); the spirv-opt passes are checked, not run",
        );
        Ok(())
    }

    pub(crate) fn layout(&mut self, from: &'static str, rule: LayoutRule) -> Result<(), String> {
        exclusive(&mut self.layout_from, from)?;
        self.cl.options.layout = rule;
        Ok(())
    }

    pub(crate) fn matrix_layout(
        &mut self,
        from: &'static str,
        layout: MatrixLayout,
    ) -> Result<(), String> {
        exclusive(&mut self.matrix_from, from)?;
        self.cl.options.matrix_layout = layout;
        Ok(())
    }

    /// What only the whole command line decides.
    fn finish(mut self) -> CommandLine {
        if self.fcgl {
            self.cl.options.opt_level = 0;
        }
        let ir_after = self.cl.options.ir_after_pass.is_some();
        self.cl.emit_given = self.emit.is_some() || ir_after;
        self.cl.options.emit = match self.emit {
            Some(kind) => kind,
            // `--ir-after` alone means `--emit ir`.
            None if ir_after => EmitKind::Ir,
            None => EmitKind::Spirv,
        };
        if ir_after && self.cl.options.emit != EmitKind::Ir {
            self.error("--ir-after prints IR: it needs --emit ir (or no --emit)".into());
        }
        self.check_16bit_types();
        if let (true, Some(level)) = (self.oconfig, self.level_from) {
            self.error(format!(
                "-Oconfig and {level} cannot be used together (-Oconfig replaces the -O level)"
            ));
        }
        // Options that parse but that the compiler cannot honour yet: the
        // same refusal `compile` gives, before any file is read.
        let refused = self.cl.options.unsupported();
        self.cl.diagnostics.extend(refused);
        self.cl
    }
}

impl Parser {
    /// DXC: 16-bit types need shader model 6.2 and HLSL 2018 or later (the
    /// native 16-bit operations of SM 6.2; before, `half` is 32-bit).
    fn check_16bit_types(&mut self) {
        let o = &self.cl.options;
        if !o.enable_16bit_types {
            return;
        }
        if let Some(p) = o.profile
            && (p.major, p.minor) < (6, 2)
        {
            self.error(format!(
                "-enable-16bit-types needs shader model 6.2 or later, and -T {p} is {}.{}",
                p.major, p.minor
            ));
        }
        let v = self.cl.options.hlsl_version;
        if v < 2018 {
            self.error(format!(
                "-enable-16bit-types needs HLSL 2018 or later, and -HV {v} is older"
            ));
        }
    }
}

/// Two options that choose the same thing: the first one given may be
/// given again, another one is an error.
fn exclusive(chosen: &mut Option<&'static str>, from: &'static str) -> Result<(), String> {
    match *chosen {
        Some(first) if first != from => Err(format!("{first} and {from} cannot be used together")),
        _ => {
            *chosen = Some(from);
            Ok(())
        }
    }
}

/// The option `arg` spells: the longest spelling that matches it, the
/// spelling, and the value joined to it.
fn find(arg: &str) -> Option<(&'static Opt, &'static str, Option<&str>)> {
    let mut best: Option<(&'static Opt, &'static str, Option<&str>)> = None;
    for (opt, spelling) in spellings_sharing_second_byte(arg) {
        let joined = match opt.arity {
            Arity::Flag | Arity::Separate | Arity::Multi(_) => {
                if arg != spelling {
                    continue;
                }
                None
            }
            Arity::Joined | Arity::JoinedOrSeparate => match arg.strip_prefix(spelling) {
                Some(rest) => Some(rest),
                None => continue,
            },
            Arity::Value => match arg.strip_prefix(spelling) {
                Some("") => None,
                Some(rest) => match rest.strip_prefix('=') {
                    Some(v) => Some(v),
                    None => continue,
                },
                None => continue,
            },
        };
        if best.is_none_or(|(_, s, _)| spelling.len() > s.len()) {
            best = Some((opt, spelling, joined));
        }
    }
    best
}

/// Every option's spellings, grouped by their second byte (the one after
/// the leading `-`), in table order within a group: `entries[starts[b] ..
/// starts[b + 1]]` start with byte `b`.
struct SpellingIndex {
    starts: [u16; 257],
    entries: [(&'static Opt, &'static str); SPELLINGS],
}

/// Every option's spellings with their option, in table order.
const ALL_SPELLINGS: [(&Opt, &str); SPELLINGS] = {
    let mut all = [(&GROUPS[0][0], ""); SPELLINGS];
    let mut n = 0;
    let mut g = 0;
    while g < GROUPS.len() {
        let mut i = 0;
        while i < GROUPS[g].len() {
            let opt = &GROUPS[g][i];
            let mut k = 0;
            while k < opt.spellings.len() {
                all[n] = (opt, opt.spellings[k]);
                n += 1;
                k += 1;
            }
            i += 1;
        }
        g += 1;
    }
    all
};

/// The number of spellings in the table.
const SPELLINGS: usize = {
    let mut n = 0;
    let mut g = 0;
    while g < GROUPS.len() {
        let mut i = 0;
        while i < GROUPS[g].len() {
            n += GROUPS[g][i].spellings.len();
            i += 1;
        }
        g += 1;
    }
    n
};

/// The index, built by the compiler: a counting sort of [`ALL_SPELLINGS`]
/// by second byte, stable (building it at run time cost each process 18 K
/// instructions, as much as parsing its command line).
static INDEX: SpellingIndex = {
    let mut starts = [0u16; 257];
    let mut i = 0;
    while i < SPELLINGS {
        starts[second_byte(ALL_SPELLINGS[i].1) as usize + 1] += 1;
        i += 1;
    }
    let mut b = 1;
    while b < 257 {
        starts[b] += starts[b - 1];
        b += 1;
    }
    let mut next = starts;
    let mut entries = ALL_SPELLINGS;
    let mut i = 0;
    while i < SPELLINGS {
        let slot = &mut next[second_byte(ALL_SPELLINGS[i].1) as usize];
        entries[*slot as usize] = ALL_SPELLINGS[i];
        *slot += 1;
        i += 1;
    }
    SpellingIndex { starts, entries }
};

/// The spellings that can match `arg`: a spelling matches only as a prefix
/// of the argument, so it shares the argument's second byte. The table has
/// hundreds of spellings and a build system passes a dozen arguments per
/// job: comparing each argument with all of them was most of what parsing
/// a command line cost.
fn spellings_sharing_second_byte(arg: &str) -> impl Iterator<Item = (&'static Opt, &'static str)> {
    let b = second_byte(arg) as usize;
    INDEX.entries[INDEX.starts[b] as usize..INDEX.starts[b + 1] as usize]
        .iter()
        .copied()
}

/// The byte after the first (0 for a string shorter than two bytes).
const fn second_byte(s: &str) -> u8 {
    match s.as_bytes() {
        [_, b, ..] => *b,
        _ => 0,
    }
}

/// The spelling closest to an unknown `arg`, if one is close: DXC's
/// spelling of an option typed with two dashes, or a small typo.
fn suggest(arg: &str) -> Option<&'static str> {
    let name = arg.split('=').next().unwrap_or(arg);
    let bare = name.trim_start_matches('-');
    let mut best: Option<(usize, &'static str)> = None;
    for opt in options() {
        for &spelling in opt.spellings {
            let s = spelling.trim_end_matches('=');
            let d = if s.trim_start_matches('-') == bare {
                0
            } else {
                edit_distance(name, s)
            };
            if d <= 2.max(name.len() / 6) && best.is_none_or(|(bd, _)| d < bd) {
                best = Some((d, spelling));
            }
        }
    }
    best.map(|(_, s)| s)
}

fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut prev = row[0];
        row[0] = i + 1;
        for (j, &cb) in b.iter().enumerate() {
            let here = row[j + 1];
            row[j + 1] = (prev + usize::from(ca != cb)).min(row[j] + 1).min(here + 1);
            prev = here;
        }
    }
    row[b.len()]
}

/// How `--help` shows an option's spelling and values: `-Fo <file>`,
/// `-fspv-target-env=<env>`, `-W<warning>`.
fn synopsis(spelling: &str, opt: &Opt) -> String {
    match opt.arity {
        Arity::Flag => spelling.to_string(),
        Arity::Joined => format!("{spelling}{}", opt.values),
        _ => format!("{spelling} {}", opt.values),
    }
}

/// The text of `hlslc --help`: every option of the table under its
/// heading, one line per spelling, and the passes each `-O` level runs.
pub fn help() -> String {
    const COLUMN: usize = 30;
    let mut out = format!(
        "hlslc {}: compiles HLSL to Vulkan SPIR-V. Options are spelt as DXC spells them.\n\n\
         Usage: hlslc [OPTIONS] FILE\n       \
         hlslc -spirv -T cs_6_0 -E main shader.hlsl -Fo shader.spv\n       \
         hlslc lsp    (a language server on stdin/stdout)\n",
        env!("CARGO_PKG_VERSION")
    );
    for section in Section::ALL {
        out.push('\n');
        out.push_str(section.heading());
        out.push_str(":\n");
        for opt in options().filter(|o| o.section == section) {
            for (n, spelling) in opt.spellings.iter().enumerate() {
                let left = synopsis(spelling, opt);
                let help = if n == 0 {
                    opt.help.to_string()
                } else {
                    format!("Alias of {}", opt.name())
                };
                let mark = if opt.origin == Origin::Hlslc {
                    " [hlslc]"
                } else {
                    ""
                };
                if left.len() + 2 > COLUMN {
                    out.push_str(&format!("  {left}\n  {:COLUMN$}{help}{mark}\n", ""));
                } else {
                    out.push_str(&format!("  {left:COLUMN$}{help}{mark}\n"));
                }
            }
        }
    }
    out.push_str(
        "\nPasses, in order (--ir-after also takes 'lowering', the IR before any pass):\n",
    );
    for (levels, level) in [("at -O0, -Od:", 0), ("at -O1:", 1), ("at -O2, -O3:", 2)] {
        let passes: Vec<_> = crate::passes::passes_at(level).collect();
        out.push_str(&format!("  {levels:COLUMN$}{}\n", passes.join(", ")));
    }
    out
}
