//! The command-line options, one row each: how they are spelt, how they
//! take their values, what `--help` says, and what they do.
//!
//! DXC's options are spelt as DXC spells them (`include/dxc/Support/
//! HLSLOptions.td`); hlslc's own options (`--emit`, `--verify-ir`, …) are
//! marked [`Origin::Hlslc`]. The parser ([`super::args`]) and `--help` read
//! this table and nothing else, so supporting another option, refusing one
//! (E0004), or accepting another spelling of one is a change to this table.

use super::args::Parser;
use super::{
    BindRegister, DenormMode, EmitKind, LayoutRule, MatrixLayout, Profile, RegisterClass, TargetEnv,
};
use crate::diag::DiagnosticFormat;
use std::path::PathBuf;

mod dxc_rest;
mod spirv;

/// How an option takes its values, in LLVM's option-table terms (which DXC
/// uses).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Arity {
    /// No value: `-spirv`.
    Flag,
    /// The value is the rest of the argument: `-fspv-target-env=vulkan1.1`
    /// (the spelling ends in `=`), `-Wno-foo`.
    Joined,
    /// The value is the next argument: `-auto-binding-space 1`.
    Separate,
    /// Either: `-Fo out.spv` or `-Foout.spv`.
    JoinedOrSeparate,
    /// The next N arguments: `-fvk-b-shift 10 0`.
    Multi(u8),
    /// The next argument or, after `=`, the rest of this one, as GNU-style
    /// options take it: `--emit ir`, `--emit=ir`.
    Value,
}

/// Where an option comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Origin {
    /// One of DXC's options, with DXC's meaning.
    Dxc,
    /// One of hlslc's own.
    Hlslc,
}

/// The heading an option is listed under in `--help`, in this order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Section {
    Compilation,
    Output,
    Optimisation,
    SpirV,
    Diagnostics,
    /// DXC options hlslc accepts although they change nothing here.
    Compatibility,
    /// DXC options hlslc recognises but does not implement (E0004).
    NotYet,
}

impl Section {
    pub(crate) const ALL: [Section; 7] = [
        Section::Compilation,
        Section::Output,
        Section::Optimisation,
        Section::SpirV,
        Section::Diagnostics,
        Section::Compatibility,
        Section::NotYet,
    ];

    pub(crate) fn heading(self) -> &'static str {
        match self {
            Section::Compilation => "Compilation",
            Section::Output => "Output",
            Section::Optimisation => "Optimisation",
            Section::SpirV => "SPIR-V code generation",
            Section::Diagnostics => "Diagnostics",
            Section::Compatibility => "Accepted for DXC compatibility (no effect)",
            Section::NotYet => "Recognised, not supported yet (error E0004)",
        }
    }
}

/// Applies an option's values (as many as its [`Arity`] takes) to the
/// command line being parsed; an `Err` is the message of an E0002 error,
/// which the parser prefixes with the spelling.
pub(crate) type Apply = fn(&mut Parser, &[&str]) -> Result<(), String>;

/// What an option does.
#[derive(Clone, Copy)]
pub(crate) enum Effect {
    /// Sets part of the command line.
    Apply(Apply),
    /// Nothing: hlslc already behaves as the option asks, or the option
    /// only concerns DXIL.
    None,
    /// Recognised, not implemented: error E0004 naming the option.
    NotYet,
}

/// One option.
pub(crate) struct Opt {
    /// How it is typed, dashes included. The first spelling is the one
    /// `--help` and messages use; the others are aliases.
    pub spellings: &'static [&'static str],
    pub arity: Arity,
    /// The values' names in `--help`: `<file>`, `<shift> <space>`.
    pub values: &'static str,
    pub help: &'static str,
    pub section: Section,
    pub origin: Origin,
    pub effect: Effect,
}

impl Opt {
    pub(crate) fn name(&self) -> &'static str {
        self.spellings[0]
    }
}

const fn dxc(
    spellings: &'static [&'static str],
    arity: Arity,
    values: &'static str,
    section: Section,
    effect: Effect,
    help: &'static str,
) -> Opt {
    Opt {
        spellings,
        arity,
        values,
        help,
        section,
        origin: Origin::Dxc,
        effect,
    }
}

const fn own(
    spellings: &'static [&'static str],
    arity: Arity,
    values: &'static str,
    section: Section,
    effect: Effect,
    help: &'static str,
) -> Opt {
    Opt {
        origin: Origin::Hlslc,
        ..dxc(spellings, arity, values, section, effect, help)
    }
}

/// A DXC option with no effect in hlslc.
const fn accepted(spelling: &'static [&'static str], help: &'static str) -> Opt {
    dxc(
        spelling,
        Arity::Flag,
        "",
        Section::Compatibility,
        Effect::None,
        help,
    )
}

/// A DXC option hlslc does not implement yet.
const fn not_yet(
    spellings: &'static [&'static str],
    arity: Arity,
    values: &'static str,
    help: &'static str,
) -> Opt {
    dxc(
        spellings,
        arity,
        values,
        Section::NotYet,
        Effect::NotYet,
        help,
    )
}

use Arity::*;
use Effect::Apply as Set;
use Section::*;

/// Every option, grouped as `--help` lists them.
pub(crate) fn options() -> impl Iterator<Item = &'static Opt> {
    GROUPS.into_iter().flatten()
}

/// The table, in its order (what [`options`] yields; constant, so that the
/// parser's index of spellings is built by the compiler).
pub(crate) const GROUPS: [&[Opt]; 5] = [
    GENERAL,
    spirv::SPIRV,
    DIAGNOSTICS_AND_COMPATIBILITY,
    dxc_rest::NO_EFFECT,
    dxc_rest::REFUSED,
];

/// `--help`: print the options instead of compiling.
fn help(p: &mut Parser, _: &[&str]) -> Result<(), String> {
    p.cl.action = super::Action::Help;
    Ok(())
}

/// `--version`: print hlslc's version instead of compiling.
fn version(p: &mut Parser, _: &[&str]) -> Result<(), String> {
    p.cl.action = super::Action::Version;
    Ok(())
}

/// The options outside the SPIR-V section, in `--help` order.
const GENERAL: &[Opt] = &[
    // Compilation
    dxc(
        &["-T"],
        JoinedOrSeparate,
        "<profile>",
        Compilation,
        Set(|p, v| {
            p.cl.options.profile = Some(Profile::parse(v[0]).ok_or_else(|| {
                format!(
                    "unknown target profile '{}' (expected e.g. cs_6_0, ps_6_5, lib_6_3)",
                    v[0]
                )
            })?);
            Ok(())
        }),
        "Target profile: cs_6_0, vs_6_0, ps_6_0, gs_6_0, hs_6_0, ds_6_0, ms_6_5, as_6_5, lib_6_3, …",
    ),
    dxc(
        &["-E"],
        JoinedOrSeparate,
        "<name>",
        Compilation,
        Set(|p, v| {
            p.cl.options.entry = v[0].to_string();
            p.cl.options.entry_named = true;
            Ok(())
        }),
        "Entry point name (default: main)",
    ),
    dxc(
        &["-D"],
        JoinedOrSeparate,
        "<name>[=<value>]",
        Compilation,
        Set(|p, v| {
            p.cl.options.defines.push(split_define(v[0]));
            Ok(())
        }),
        "Define a macro",
    ),
    dxc(
        &["-I"],
        JoinedOrSeparate,
        "<dir>",
        Compilation,
        Set(|p, v| {
            p.cl.options.include_dirs.push(PathBuf::from(v[0]));
            Ok(())
        }),
        "Add a directory to the include search path",
    ),
    own(
        &["--jobs-file", "-jobs-file"],
        Value,
        "<file>",
        Compilation,
        Set(|p, v| {
            p.cl.batch.jobs_file = Some(PathBuf::from(v[0]));
            Ok(())
        }),
        "Run many command lines in one process, in parallel: one a line of <file>, quoted as a \
         shell quotes them, # comments; the other arguments are given to every one",
    ),
    own(
        &["-j"],
        JoinedOrSeparate,
        "<n>",
        Compilation,
        Set(|p, v| {
            match v[0].parse::<usize>() {
                Ok(n) if n > 0 => p.cl.batch.threads = Some(n),
                _ => return Err(format!("'{}' is not a number of threads (1 or more)", v[0])),
            }
            Ok(())
        }),
        "With --jobs-file: compile <n> jobs at once (default: one per core)",
    ),
    // DXC takes `-HV 2021` only; hlslc has always taken `-HV2021` too.
    dxc(
        &["-HV"],
        JoinedOrSeparate,
        "<version>",
        Compilation,
        Set(|p, v| {
            p.cl.options.hlsl_version = match v[0] {
                "2016" => 2016,
                "2017" => 2017,
                "2018" => 2018,
                "2021" => 2021,
                "202x" => 2029,
                other => {
                    return Err(format!(
                        "unknown HLSL version '{other}' (expected 2016, 2017, 2018, 2021 or 202x)"
                    ));
                }
            };
            Ok(())
        }),
        "HLSL language version: 2016, 2017, 2018, 2021 (default), 202x",
    ),
    dxc(
        &["-enable-16bit-types"],
        Flag,
        "",
        Compilation,
        Set(|p, _| {
            p.cl.options.enable_16bit_types = true;
            Ok(())
        }),
        "Enable 16-bit types (half, int16_t, uint16_t are 16-bit)",
    ),
    dxc(
        &["-Zpr"],
        Flag,
        "",
        Compilation,
        Set(|p, _| p.matrix_layout("-Zpr", MatrixLayout::RowMajor)),
        "Pack matrices in row-major order by default",
    ),
    dxc(
        &["-Zpc"],
        Flag,
        "",
        Compilation,
        Set(|p, _| p.matrix_layout("-Zpc", MatrixLayout::ColumnMajor)),
        "Pack matrices in column-major order by default (the default)",
    ),
    dxc(
        &["-Gis"],
        Flag,
        "",
        Compilation,
        Set(|p, _| {
            p.cl.options.ieee_strict = true;
            Ok(())
        }),
        "Strict IEEE: SignedZeroInfNanPreserve",
    ),
    dxc(
        &["-denorm"],
        JoinedOrSeparate,
        "<mode>",
        Compilation,
        Set(|p, v| {
            p.cl.options.denorm = Some(match v[0] {
                "any" => DenormMode::Any,
                "preserve" => DenormMode::Preserve,
                "ftz" => DenormMode::Ftz,
                other => {
                    return Err(format!(
                        "unknown mode '{other}' (expected any, preserve or ftz)"
                    ));
                }
            });
            Ok(())
        }),
        "Denormal handling of 32-bit floats: any (default), preserve, ftz",
    ),
    dxc(
        &["-spirv"],
        Flag,
        "",
        Compilation,
        Effect::None,
        "Generate SPIR-V (always on: hlslc generates nothing else)",
    ),
    own(
        &["-fsyntax-only"],
        Flag,
        "",
        Compilation,
        Set(|p, _| {
            p.cl.action = super::Action::SyntaxOnly;
            Ok(())
        }),
        "Check the file without compiling it: every function, as a library (stage rules for the -T/-E entry and for functions whose attributes or semantics name a stage); no output",
    ),
    own(
        &["-format"],
        Flag,
        "",
        Compilation,
        Set(|p, _| {
            p.cl.action = super::Action::Format;
            Ok(())
        }),
        "Format the file in hlslc's layout (settings from the nearest .clang-format: IndentWidth, UseTab, ColumnLimit, BreakBeforeBraces): print it, or with -i rewrite the file",
    ),
    own(
        &["-i"],
        Flag,
        "",
        Output,
        Set(|p, _| {
            p.cl.outputs.in_place = true;
            Ok(())
        }),
        "With -format: rewrite the file instead of printing it",
    ),
    dxc(
        &["-P"],
        Flag,
        "",
        Compilation,
        Set(|p, _| {
            p.cl.action = super::Action::Preprocess;
            Ok(())
        }),
        "Preprocess only: print the preprocessed text (or write it to the -Fi file)",
    ),
    // Output
    dxc(
        &["-Fo"],
        JoinedOrSeparate,
        "<file>",
        Output,
        Set(|p, v| {
            p.cl.outputs.object = Some(PathBuf::from(v[0]));
            Ok(())
        }),
        "Write the SPIR-V module (or what --emit names) to <file>",
    ),
    dxc(
        &["-Fc"],
        JoinedOrSeparate,
        "<file>",
        Output,
        Set(|p, v| {
            p.cl.outputs.assembly = Some(PathBuf::from(v[0]));
            Ok(())
        }),
        "Write the SPIR-V disassembly to <file>",
    ),
    // DXC takes `-Fre FILE` only; hlslc has always taken `-FreFILE` too.
    dxc(
        &["-Fre"],
        JoinedOrSeparate,
        "<file>",
        Output,
        Set(|p, v| {
            p.cl.outputs.reflection = Some(PathBuf::from(v[0]));
            p.cl.options.reflect = true;
            Ok(())
        }),
        "Write reflection JSON (bindings, layouts, stage I/O) to <file>",
    ),
    dxc(
        &["-Fi"],
        JoinedOrSeparate,
        "<file>",
        Output,
        Set(|p, v| {
            p.cl.outputs.preprocessed = Some(PathBuf::from(v[0]));
            Ok(())
        }),
        "With -P: write the preprocessed text to <file>",
    ),
    dxc(
        &["-MD"],
        Flag,
        "",
        Output,
        Set(|p, _| {
            p.cl.outputs.depfile_next_to_output = true;
            Ok(())
        }),
        "Write a make-style depfile next to the output (<output>.d)",
    ),
    dxc(
        &["-MF"],
        JoinedOrSeparate,
        "<file>",
        Output,
        Set(|p, v| {
            p.cl.outputs.depfile = Some(PathBuf::from(v[0]));
            Ok(())
        }),
        "Write a make-style depfile to <file>",
    ),
    dxc(
        &["-M"],
        Flag,
        "",
        Output,
        Set(|p, _| {
            p.cl.action = super::Action::Dependencies;
            Ok(())
        }),
        "Preprocess only: print the make rule of the output's dependencies (to the -MF file if given)",
    ),
    dxc(
        &["-Fh"],
        JoinedOrSeparate,
        "<file>",
        Output,
        Set(|p, v| {
            p.cl.outputs.header = Some(PathBuf::from(v[0]));
            Ok(())
        }),
        "Write a C header: the disassembly in a comment, the module as an array of bytes",
    ),
    dxc(
        &["-Vn"],
        JoinedOrSeparate,
        "<name>",
        Output,
        Set(|p, v| {
            p.cl.outputs.header_variable = Some(v[0].to_string());
            Ok(())
        }),
        "The name of the array -Fh writes (default: g_<entry point>)",
    ),
    dxc(
        &["-Vi", "-H"],
        Flag,
        "",
        Output,
        Set(|p, _| {
            p.cl.reporting.show_includes = true;
            Ok(())
        }),
        "List the files the preprocessor reads, nested by #include, on stderr",
    ),
    own(
        &["--emit", "-emit"],
        Value,
        "<kind>",
        Output,
        Set(|p, v| {
            p.emit = Some(match v[0] {
                "spirv" => EmitKind::Spirv,
                "asm" => EmitKind::Asm,
                "ir" => EmitKind::Ir,
                other => {
                    return Err(format!(
                        "unknown kind '{other}' (expected spirv, asm or ir)"
                    ));
                }
            });
            Ok(())
        }),
        "What to write to -Fo (or stdout): spirv (default), asm, ir",
    ),
    own(
        &["--ir-after", "-ir-after"],
        Value,
        "<pass>",
        Output,
        Set(|p, v| {
            if !crate::passes::ir_after_names().any(|n| n == v[0]) {
                let known: Vec<_> = crate::passes::ir_after_names().collect();
                return Err(format!(
                    "unknown pass '{}' (expected one of {})",
                    v[0],
                    known.join(", ")
                ));
            }
            p.cl.options.ir_after_pass = Some(v[0].to_string());
            Ok(())
        }),
        "Print the IR after <pass> instead of after the whole pipeline (implies --emit ir; \
         the passes are listed below)",
    ),
    // Optimisation: the last of -O0 … -O3 and -Od counts, as in DXC.
    dxc(
        &["-O0"],
        Flag,
        "",
        Optimisation,
        Set(|p, _| p.opt_level(0, "-O0")),
        "Optimisation level 0",
    ),
    dxc(
        &["-O1"],
        Flag,
        "",
        Optimisation,
        Set(|p, _| p.opt_level(1, "-O1")),
        "Optimisation level 1",
    ),
    dxc(
        &["-O2"],
        Flag,
        "",
        Optimisation,
        Set(|p, _| p.opt_level(2, "-O2")),
        "Optimisation level 2",
    ),
    dxc(
        &["-O3"],
        Flag,
        "",
        Optimisation,
        Set(|p, _| p.opt_level(3, "-O3")),
        "Optimisation level 3 (the default)",
    ),
    dxc(
        &["-Od"],
        Flag,
        "",
        Optimisation,
        Set(|p, _| p.opt_level(0, "-Od")),
        "Disable optimisations (as -O0)",
    ),
    dxc(
        &["-fcgl"],
        Flag,
        "",
        Optimisation,
        Set(|p, _| {
            p.fcgl = true;
            Ok(())
        }),
        "No optimisation passes, whatever the -O level",
    ),
    dxc(
        &["-Oconfig="],
        Joined,
        "<passes>",
        Optimisation,
        Set(|p, v| p.oconfig(v[0])),
        "spirv-opt passes (checked, not run: hlslc optimises as at -O3; warning)",
    ),
];

/// The diagnostics options and those hlslc accepts without effect or
/// refuses.
const DIAGNOSTICS_AND_COMPATIBILITY: &[Opt] = &[
    // Diagnostics
    dxc(
        &["-WX"],
        Flag,
        "",
        Diagnostics,
        Set(|p, _| {
            p.cl.reporting.warnings_as_errors = true;
            Ok(())
        }),
        "Treat warnings as errors",
    ),
    dxc(
        &["-no-warnings", "-w"],
        Flag,
        "",
        Diagnostics,
        Set(|p, _| {
            p.cl.reporting.no_warnings = true;
            Ok(())
        }),
        "Do not print warnings",
    ),
    dxc(
        &["-fno-color-diagnostics", "-fno-diagnostics-color"],
        Flag,
        "",
        Diagnostics,
        Set(|p, _| {
            p.cl.reporting.no_color = true;
            Ok(())
        }),
        "Never colour diagnostics (as --no-color)",
    ),
    dxc(
        &["-fcolor-diagnostics", "-fdiagnostics-color"],
        Flag,
        "",
        Diagnostics,
        Set(|p, _| {
            p.cl.reporting.force_color = true;
            Ok(())
        }),
        "Colour diagnostics even when stderr is not a terminal (unless --no-color)",
    ),
    own(
        &["--diagnostics-format", "-diagnostics-format"],
        Value,
        "<format>",
        Diagnostics,
        Set(|p, v| {
            p.cl.reporting.format = match v[0] {
                "human" => DiagnosticFormat::Human,
                "short" => DiagnosticFormat::Short,
                "json" => DiagnosticFormat::Json,
                other => {
                    return Err(format!(
                        "unknown format '{other}' (expected human, short or json)"
                    ));
                }
            };
            Ok(())
        }),
        "human (default), short (file:line:col: …), json",
    ),
    own(
        &["--no-color", "-no-color"],
        Flag,
        "",
        Diagnostics,
        Set(|p, _| {
            p.cl.reporting.no_color = true;
            Ok(())
        }),
        "Never colour diagnostics (they are coloured only on a terminal anyway)",
    ),
    own(
        &["--verify-ir", "-verify-ir"],
        Flag,
        "",
        Diagnostics,
        Set(|p, _| {
            p.cl.options.verify_ir = true;
            Ok(())
        }),
        "Check the IR's invariants after lowering and after every pass (always on in debug \
         builds); a violation is an internal error (E0003), not SPIR-V",
    ),
    dxc(
        &["--help", "-help", "-?", "--help-hidden"],
        Flag,
        "",
        Diagnostics,
        Set(help),
        "Print this help",
    ),
    own(&["-h"], Flag, "", Diagnostics, Set(help), "Print this help"),
    dxc(
        &["--version"],
        Flag,
        "",
        Diagnostics,
        Set(version),
        "Print hlslc's version",
    ),
    own(
        &["-V"],
        Flag,
        "",
        Diagnostics,
        Set(version),
        "Print hlslc's version",
    ),
    // Accepted for DXC compatibility
    dxc(
        &["-W"],
        Joined,
        "<warning>",
        Compatibility,
        Effect::None,
        "-Wno-<warning> and the like: warning groups are not configurable yet",
    ),
    accepted(&["-Vd"], "Disable validation (hlslc's output needs none)"),
    dxc(
        &["-Zi"],
        Flag,
        "",
        Compatibility,
        Set(|p, _| {
            p.cl.options.debug_info.zi = true;
            Ok(())
        }),
        "Source-level debug information: -fspv-debug=vulkan-with-source unless -fspv-debug= says otherwise",
    ),
    accepted(
        &["-ffinite-math-only"],
        "hlslc never assumes finite math, which is always correct",
    ),
    accepted(&["-pack-optimized"], "Signature packing (DXIL only)"),
    accepted(
        &["-fspv-print-all"],
        "Print the module before each spirv-opt pass",
    ),
    accepted(
        &["-fspv-fix-func-call-arguments"],
        "Call arguments are always legal in hlslc's output",
    ),
    accepted(&["-fspv-reduce-load-size"], "An optimisation hint"),
    // Recognised, not supported yet
    not_yet(
        &["-fspv-use-vulkan-memory-model"],
        Flag,
        "",
        "The Vulkan memory model instead of GLSL450's",
    ),
    not_yet(
        &["-fspv-use-descriptor-heap"],
        Flag,
        "",
        "SPV_EXT_descriptor_heap for descriptor heaps",
    ),
    not_yet(
        &["-fspv-max-id"],
        Multi(1),
        "<max>",
        "The largest id the module may use",
    ),
];

fn split_define(d: &str) -> (String, Option<String>) {
    match d.split_once('=') {
        Some((n, v)) => (n.to_string(), Some(v.to_string())),
        None => (d.to_string(), None),
    }
}

fn number(s: &str, what: &str) -> Result<u32, String> {
    s.parse()
        .map_err(|_| format!("{what}: expected a number, found '{s}'"))
}

fn binding_set(v: &[&str]) -> Result<(u32, u32), String> {
    Ok((number(v[0], "binding")?, number(v[1], "set")?))
}

impl Parser {
    fn register_shift(&mut self, class: RegisterClass, v: &[&str]) -> Result<(), String> {
        let shift = number(v[0], "shift")?;
        let space = match v[1] {
            "all" => None,
            s => Some(number(s, "space")?),
        };
        self.cl.options.register_shifts.push((class, shift, space));
        Ok(())
    }
}
