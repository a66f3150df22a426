//! The `hlslc` command line: DXC's flags → [`hlslc::Options`] → compile →
//! files and diagnostics. Exit code 0 on success, 1 on any error.

use clap::{Arg, ArgAction, ArgMatches, Command};
use hlslc::diag::{self, Diagnostic, DiagnosticFormat};
use hlslc::options::*;
use hlslc::source::{DiskLoader, SourceMap};
use std::io::Write;
use std::path::{Path, PathBuf};

/// DXC spells long options with one dash (`-fspv-target-env=…`, `-Fo`); clap
/// wants two. These are the names that get a second dash.
const LONG_FLAGS: &[&str] = &[
    "fsyntax-only",
    "spirv",
    "Fo",
    "Fc",
    "Fi",
    "Fre",
    "HV",
    "Od",
    "enable-16bit-types",
    "Zpr",
    "Zpc",
    "Gis",
    "denorm",
    "fspv-target-env",
    "fspv-reflect",
    "fspv-entrypoint-name",
    "fspv-extension",
    "fvk-b-shift",
    "fvk-s-shift",
    "fvk-t-shift",
    "fvk-u-shift",
    "fvk-bind-register",
    "fvk-bind-globals",
    "fvk-use-dx-layout",
    "fvk-use-gl-layout",
    "fvk-use-scalar-layout",
    "fvk-invert-y",
    "fvk-use-dx-position-w",
    "fvk-auto-shift-bindings",
    "fcgl",
    "fspv-debug",
    "fspv-print-all",
    "fspv-fix-func-call-arguments",
    "fspv-reduce-load-size",
    "fspv-preserve-bindings",
    "fspv-preserve-interface",
    "fspv-flatten-resource-arrays",
    "fspv-use-unknown-image-format",
    "fspv-use-legacy-buffer-matrix-order",
    "fvk-bind-resource-heap",
    "fvk-bind-sampler-heap",
    "fvk-bind-counter-heap",
    "fvk-stage-io-order",
    "fvk-support-nonzero-base-instance",
    "fvk-support-nonzero-base-vertex",
    "auto-binding-space",
    "Oconfig",
    "ffinite-math-only",
    "pack-optimized",
    "vkbr",
    "Vd",
    "Zi",
    "WX",
    "no-warnings",
    "MD",
    "MF",
];

/// Options that take a value and may have it attached (`-Foout.spv`).
const JOINED_VALUE_FLAGS: &[&str] = &["Fre", "Fo", "Fc", "Fi", "HV", "MF"];

/// Rewrites DXC-style arguments into the form clap parses.
fn normalize_args(args: impl Iterator<Item = String>) -> Vec<String> {
    let mut out = Vec::new();
    for a in args {
        if a.starts_with("--") || !a.starts_with('-') || a.len() < 2 {
            out.push(a);
            continue;
        }
        let body = &a[1..];
        let name = body.split('=').next().unwrap_or(body);
        if LONG_FLAGS.contains(&name) {
            out.push(format!("-{a}"));
            continue;
        }
        if let Some(flag) = JOINED_VALUE_FLAGS
            .iter()
            .find(|f| body.starts_with(*f) && body.len() > f.len())
        {
            out.push(format!("--{flag}"));
            out.push(body[flag.len()..].to_string());
            continue;
        }
        // -O0..-O3 as clap's short option with an attached value.
        out.push(a);
    }
    out
}

fn cli() -> Command {
    let flag = |name: &'static str, help: &'static str| {
        Arg::new(name)
            .long(name)
            .action(ArgAction::SetTrue)
            .help(help)
    };
    let value = |name: &'static str, v: &'static str, help: &'static str| {
        Arg::new(name)
            .long(name)
            .value_name(v)
            .action(ArgAction::Set)
            .help(help)
    };
    Command::new("hlslc")
        .version(env!("CARGO_PKG_VERSION"))
        .about("Compiles HLSL to Vulkan SPIR-V. Flags follow DXC's spelling (one dash).")
        .override_usage("hlslc [OPTIONS] FILE\n       hlslc -spirv -T cs_6_0 -E main shader.hlsl -Fo shader.spv\n       hlslc lsp    (language server on stdin/stdout)")
        .arg(Arg::new("input").value_name("FILE").help("The HLSL file to compile"))
        .arg(Arg::new("T").short('T').value_name("PROFILE").help("Target profile: cs_6_0, vs_6_0, ps_6_0, gs_6_0, hs_6_0, ds_6_0, lib_6_3, …"))
        .arg(Arg::new("E").short('E').value_name("NAME").help("Entry point name (default: main)"))
        .arg(value("Fo", "FILE", "Write the SPIR-V module to FILE"))
        .arg(value("Fc", "FILE", "Write the SPIR-V disassembly to FILE"))
        .arg(value("Fre", "FILE", "Write reflection JSON (bindings, layouts, stage I/O) to FILE"))
        .arg(flag("P", "Preprocess only: print the preprocessed text (or write it to the -Fi file)").short('P').long(None::<&str>))
        .arg(value("Fi", "FILE", "With -P: write the preprocessed text to FILE"))
        .arg(flag("fsyntax-only", "Preprocess and parse only; report diagnostics"))
        .arg(flag("spirv", "Generate SPIR-V (always on; accepted for DXC compatibility)"))
        .arg(Arg::new("D").short('D').value_name("NAME[=VALUE]").action(ArgAction::Append).help("Define a macro"))
        .arg(Arg::new("I").short('I').value_name("DIR").action(ArgAction::Append).help("Add a directory to the include search path"))
        .arg(value("HV", "VERSION", "HLSL language version: 2016, 2017, 2018, 2021 (default), 202x"))
        .arg(Arg::new("O").short('O').value_name("LEVEL").help("Optimisation level 0-3 (default 3); -Od disables optimisation"))
        .arg(flag("Od", "Disable optimisations (as -O0)"))
        .arg(flag("enable-16bit-types", "Enable 16-bit types (half, int16_t, uint16_t are 16-bit)"))
        .arg(flag("Zpr", "Pack matrices in row-major order by default"))
        .arg(flag("Zpc", "Pack matrices in column-major order by default (the default)"))
        .arg(flag("Gis", "Strict IEEE: SignedZeroInfNanPreserve"))
        .arg(value("denorm", "MODE", "Denormal handling: any, preserve, ftz"))
        .arg(value("fspv-target-env", "ENV", "vulkan1.0 (default), vulkan1.1, vulkan1.1spirv1.4, vulkan1.2, vulkan1.3").require_equals(true))
        .arg(flag("fspv-reflect", "Emit reflection decorations (HLSL semantics, counter buffers)"))
        .arg(value("fspv-entrypoint-name", "NAME", "Name of the entry point in the SPIR-V module").require_equals(true))
        .arg(value("fspv-extension", "EXT", "Allow only the named SPIR-V extensions (repeatable)").require_equals(true).action(ArgAction::Append))
        .arg(Arg::new("fvk-b-shift").long("fvk-b-shift").num_args(2).value_names(["SHIFT", "SPACE"]).action(ArgAction::Append).help("Shift b-register bindings by SHIFT in SPACE (a number or 'all')"))
        .arg(Arg::new("fvk-s-shift").long("fvk-s-shift").num_args(2).value_names(["SHIFT", "SPACE"]).action(ArgAction::Append).help("Shift s-register bindings"))
        .arg(Arg::new("fvk-t-shift").long("fvk-t-shift").num_args(2).value_names(["SHIFT", "SPACE"]).action(ArgAction::Append).help("Shift t-register bindings"))
        .arg(Arg::new("fvk-u-shift").long("fvk-u-shift").num_args(2).value_names(["SHIFT", "SPACE"]).action(ArgAction::Append).help("Shift u-register bindings"))
        .arg(Arg::new("fvk-bind-register").long("fvk-bind-register").num_args(4).value_names(["REG", "SPACE", "BINDING", "SET"]).action(ArgAction::Append).help("Bind register REG in SPACE to BINDING in descriptor SET"))
        .arg(Arg::new("fvk-bind-globals").long("fvk-bind-globals").num_args(2).value_names(["BINDING", "SET"]).help("Binding and set of the $Globals cbuffer"))
        .arg(flag("fvk-use-dx-layout", "Use D3D memory layout for buffers (the device needs scalarBlockLayout)"))
        .arg(flag("fvk-use-gl-layout", "Use strict std140/std430 layout for buffers"))
        .arg(flag("fvk-use-scalar-layout", "Use scalar block layout for buffers (the device needs scalarBlockLayout)"))
        .arg(flag("fvk-invert-y", "Negate SV_Position.y before writing it (vertex/geometry/domain)"))
        .arg(flag("fvk-use-dx-position-w", "Use 1/w for SV_Position.w in pixel shaders, as D3D"))
        .arg(flag("fvk-auto-shift-bindings", "Shift automatically assigned bindings by the register class shifts"))
        .arg(flag("fcgl", "Accepted for DXC compatibility (no effect)"))
        .arg(value("fspv-debug", "CATEGORY", "Accepted for DXC compatibility; hlslc emits debug names only (warning)").require_equals(true).action(ArgAction::Append))
        .arg(flag("fspv-print-all", "Accepted for DXC compatibility (no effect)"))
        .arg(flag("fspv-fix-func-call-arguments", "Accepted for DXC compatibility: call arguments are always legal"))
        .arg(flag("fspv-reduce-load-size", "Accepted for DXC compatibility (an optimisation hint)"))
        .arg(flag("fspv-preserve-bindings", "Keep unused resource declarations"))
        .arg(flag("fspv-preserve-interface", "Keep unused stage inputs and outputs"))
        .arg(flag("fspv-flatten-resource-arrays", "Give each element of a resource array its own binding"))
        .arg(flag("fspv-use-unknown-image-format", "Storage images without [[vk::image_format]] get format Unknown"))
        .arg(flag("fspv-use-legacy-buffer-matrix-order", "Keep DXC's older matrix element order in structured buffers"))
        .arg(Arg::new("fvk-bind-resource-heap").long("fvk-bind-resource-heap").num_args(2).value_names(["BINDING", "SET"]).help("Binding and set of ResourceDescriptorHeap"))
        .arg(Arg::new("fvk-bind-sampler-heap").long("fvk-bind-sampler-heap").num_args(2).value_names(["BINDING", "SET"]).help("Binding and set of SamplerDescriptorHeap"))
        .arg(Arg::new("fvk-bind-counter-heap").long("fvk-bind-counter-heap").num_args(2).value_names(["BINDING", "SET"]).help("Binding and set of the counter heap"))
        .arg(value("fvk-stage-io-order", "ORDER", "Stage I/O location order: decl (default) or alpha").require_equals(true).value_parser(["decl", "alpha"]))
        .arg(flag("fvk-support-nonzero-base-instance", "SV_InstanceID counts from the draw's first instance, as in D3D"))
        .arg(flag("fvk-support-nonzero-base-vertex", "SV_VertexID counts from the draw's first vertex, as in D3D"))
        .arg(value("auto-binding-space", "SPACE", "Descriptor set for resources without an explicit space"))
        .arg(value("Oconfig", "PASSES", "Accepted for DXC compatibility; hlslc runs its own -O3 pipeline (warning)").require_equals(true))
        .arg(flag("ffinite-math-only", "Accepted for DXC compatibility (no effect: hlslc never assumes finite math)"))
        .arg(flag("pack-optimized", "Accepted for DXC compatibility (no effect on SPIR-V)"))
        .arg(Arg::new("vkbr").long("vkbr").num_args(4).value_names(["REG", "SPACE", "BINDING", "SET"]).action(ArgAction::Append).help("Alias of -fvk-bind-register"))
        .arg(Arg::new("W").short('W').value_name("WARNING").action(ArgAction::Append).help("Accepted for DXC compatibility (-Wno-…: warning groups are not configurable yet)"))
        .arg(flag("Vd", "Accepted for DXC compatibility (no effect)"))
        .arg(flag("Zi", "Accepted for DXC compatibility (no effect)"))
        .arg(flag("WX", "Treat warnings as errors"))
        .arg(flag("no-warnings", "Do not print warnings"))
        .arg(flag("MD", "Write a make-style depfile next to the output (OUTPUT.d)"))
        .arg(value("MF", "FILE", "Write a make-style depfile to FILE"))
        .arg(value("emit", "KIND", "What to write to -Fo (or stdout): spirv (default), asm, ir").value_parser(["spirv", "asm", "ir"]))
        .arg(value("ir-after", "PASS", "With --emit ir (implied): print the IR after PASS (lowering, float_controls, inline, precise, const_fold, forward, algebra, fuse_mad, cse, dce) instead of after the whole pipeline").value_parser(clap::builder::PossibleValuesParser::new(hlslc::passes::ir_after_names())))
        .arg(flag("verify-ir", "Check the IR's invariants after lowering and after every pass (always on in debug builds); a violation is an internal error (E0003), not SPIR-V"))
        .arg(flag("no-color", "Never colour diagnostics"))
        .arg(value("diagnostics-format", "FORMAT", "human (default), short (file:line:col: …), json").value_parser(["human", "short", "json"]))
}

/// A command-line error, reported as a diagnostic without a location.
fn option_error(message: String) -> Diagnostic {
    Diagnostic::error(diag::codes::BAD_OPTION, message)
}

fn parse_u32(s: &str, what: &str) -> Result<u32, Diagnostic> {
    s.parse()
        .map_err(|_| option_error(format!("{what}: expected a number, found '{s}'")))
}

fn register_class(c: char) -> Option<RegisterClass> {
    Some(match c {
        'b' => RegisterClass::B,
        's' => RegisterClass::S,
        't' => RegisterClass::T,
        'u' => RegisterClass::U,
        _ => return None,
    })
}

/// Turns parsed flags into [`Options`].
fn options_from(m: &ArgMatches) -> Result<Options, Diagnostic> {
    let mut o = Options::default();
    if let Some(t) = m.get_one::<String>("T") {
        o.profile = Some(Profile::parse(t).ok_or_else(|| {
            option_error(format!(
                "unknown target profile '{t}' (expected e.g. cs_6_0, ps_6_5, lib_6_3)"
            ))
        })?);
    }
    if let Some(e) = m.get_one::<String>("E") {
        o.entry = e.clone();
    }
    for d in m.get_many::<String>("D").into_iter().flatten() {
        match d.split_once('=') {
            Some((n, v)) => o.defines.push((n.to_string(), Some(v.to_string()))),
            None => o.defines.push((d.clone(), None)),
        }
    }
    o.include_dirs = m
        .get_many::<String>("I")
        .into_iter()
        .flatten()
        .map(PathBuf::from)
        .collect();
    if let Some(v) = m.get_one::<String>("HV") {
        o.hlsl_version = match v.as_str() {
            "2016" | "2017" | "2018" | "2021" => parse_u32(v, "-HV")?,
            "202x" => 2029,
            _ => {
                return Err(option_error(format!(
                    "unknown HLSL version '{v}' (expected 2016, 2017, 2018, 2021 or 202x)"
                )));
            }
        };
    }
    if let Some(l) = m.get_one::<String>("O") {
        o.opt_level = match l.as_str() {
            "0" | "d" => 0,
            "1" => 1,
            "2" => 2,
            "3" => 3,
            _ => {
                return Err(option_error(format!(
                    "unknown optimisation level '-O{l}' (expected -O0 … -O3 or -Od)"
                )));
            }
        };
    }
    if m.get_flag("Od") || m.get_flag("fcgl") {
        o.opt_level = 0;
    }
    o.enable_16bit_types = m.get_flag("enable-16bit-types");
    if m.get_flag("Zpr") {
        o.matrix_layout = MatrixLayout::RowMajor;
    }
    o.ieee_strict = m.get_flag("Gis");
    if let Some(d) = m.get_one::<String>("denorm") {
        o.denorm = Some(match d.as_str() {
            "any" => DenormMode::Any,
            "preserve" => DenormMode::Preserve,
            "ftz" => DenormMode::Ftz,
            _ => {
                return Err(option_error(format!(
                    "unknown -denorm mode '{d}' (expected any, preserve or ftz)"
                )));
            }
        });
    }
    if let Some(e) = m.get_one::<String>("fspv-target-env") {
        o.target_env = TargetEnv::parse(e).ok_or_else(|| {
            option_error(format!("unknown target environment '{e}' (expected vulkan1.0, vulkan1.1, vulkan1.1spirv1.4, vulkan1.2 or vulkan1.3)"))
        })?;
    }
    o.spv_reflect = m.get_flag("fspv-reflect");
    o.entrypoint_name = m.get_one::<String>("fspv-entrypoint-name").cloned();
    o.allowed_extensions = m
        .get_many::<String>("fspv-extension")
        .into_iter()
        .flatten()
        .cloned()
        .collect();
    for (name, class) in [
        ("fvk-b-shift", RegisterClass::B),
        ("fvk-s-shift", RegisterClass::S),
        ("fvk-t-shift", RegisterClass::T),
        ("fvk-u-shift", RegisterClass::U),
    ] {
        if let Some(occ) = m.get_occurrences::<String>(name) {
            for vals in occ {
                let vals: Vec<&String> = vals.collect();
                let shift = parse_u32(vals[0], name)?;
                let space = if vals[1] == "all" {
                    None
                } else {
                    Some(parse_u32(vals[1], name)?)
                };
                o.register_shifts.push((class, shift, space));
            }
        }
    }
    let bind_register_occurrences = m
        .get_occurrences::<String>("fvk-bind-register")
        .into_iter()
        .flatten()
        .chain(m.get_occurrences::<String>("vkbr").into_iter().flatten());
    {
        for vals in bind_register_occurrences {
            let vals: Vec<&String> = vals.collect();
            let reg = vals[0];
            let class = reg.chars().next().and_then(register_class).ok_or_else(|| {
                option_error(format!(
                    "-fvk-bind-register: '{reg}' is not a register (expected b0, t3, s1, u2…)"
                ))
            })?;
            o.bind_registers.push(BindRegister {
                class,
                register: parse_u32(&reg[1..], "-fvk-bind-register register")?,
                space: parse_u32(vals[1], "-fvk-bind-register space")?,
                binding: parse_u32(vals[2], "-fvk-bind-register binding")?,
                set: parse_u32(vals[3], "-fvk-bind-register set")?,
            });
        }
    }
    if let Some(vals) = m.get_many::<String>("fvk-bind-globals") {
        let vals: Vec<&String> = vals.collect();
        o.bind_globals = Some((
            parse_u32(vals[0], "-fvk-bind-globals")?,
            parse_u32(vals[1], "-fvk-bind-globals")?,
        ));
    }
    let layouts = [
        ("fvk-use-dx-layout", LayoutRule::Dx),
        ("fvk-use-gl-layout", LayoutRule::Gl),
        ("fvk-use-scalar-layout", LayoutRule::Scalar),
    ];
    let chosen: Vec<_> = layouts.iter().filter(|(f, _)| m.get_flag(f)).collect();
    if chosen.len() > 1 {
        return Err(option_error(format!(
            "-{} and -{} cannot be used together",
            chosen[0].0, chosen[1].0
        )));
    }
    if let Some((_, l)) = chosen.first() {
        o.layout = *l;
    }
    o.invert_y = m.get_flag("fvk-invert-y");
    o.dx_position_w = m.get_flag("fvk-use-dx-position-w");
    o.auto_shift_bindings = m.get_flag("fvk-auto-shift-bindings");
    let ir_after = m.get_one::<String>("ir-after").cloned();
    o.emit = match m.get_one::<String>("emit").map(String::as_str) {
        Some("asm") => EmitKind::Asm,
        Some("ir") => EmitKind::Ir,
        // `--ir-after` alone means `--emit ir`.
        None if ir_after.is_some() => EmitKind::Ir,
        _ => EmitKind::Spirv,
    };
    if ir_after.is_some() && o.emit != EmitKind::Ir {
        return Err(option_error(
            "--ir-after prints IR: it needs --emit ir (or no --emit)".into(),
        ));
    }
    o.ir_after_pass = ir_after;
    // On by default in debug builds; the flag turns it on in any build.
    if m.get_flag("verify-ir") {
        o.verify_ir = true;
    }
    o.reflect = m.get_one::<String>("Fre").is_some();
    for (name, slot) in [
        ("fvk-bind-resource-heap", &mut o.resource_heap_binding),
        ("fvk-bind-sampler-heap", &mut o.sampler_heap_binding),
        ("fvk-bind-counter-heap", &mut o.counter_heap_binding),
    ] {
        if let Some(vals) = m.get_many::<String>(name) {
            let vals: Vec<&String> = vals.collect();
            *slot = Some((parse_u32(vals[0], name)?, parse_u32(vals[1], name)?));
        }
    }
    if let Some(s) = m.get_one::<String>("auto-binding-space") {
        o.auto_binding_space = parse_u32(s, "-auto-binding-space")?;
    }
    o.stage_io_order_alpha = m
        .get_one::<String>("fvk-stage-io-order")
        .is_some_and(|v| v == "alpha");
    o.flatten_resource_arrays = m.get_flag("fspv-flatten-resource-arrays");
    o.unknown_image_format = m.get_flag("fspv-use-unknown-image-format");
    o.nonzero_base_instance = m.get_flag("fvk-support-nonzero-base-instance");
    o.nonzero_base_vertex = m.get_flag("fvk-support-nonzero-base-vertex");
    o.legacy_buffer_matrix_order = m.get_flag("fspv-use-legacy-buffer-matrix-order");
    o.preserve_interface = m.get_flag("fspv-preserve-interface");
    o.preserve_bindings = m.get_flag("fspv-preserve-bindings");
    // Flags whose effect is not implemented yet: refuse them rather than
    // produce a module that silently differs from what the user asked for.
    for (flag, set) in [
        ("-fspv-flatten-resource-arrays", o.flatten_resource_arrays),
        ("-fvk-stage-io-order=alpha", o.stage_io_order_alpha),
        ("-fspv-use-unknown-image-format", o.unknown_image_format),
        (
            "-fvk-support-nonzero-base-instance",
            o.nonzero_base_instance,
        ),
        ("-fvk-support-nonzero-base-vertex", o.nonzero_base_vertex),
        (
            "-fspv-use-legacy-buffer-matrix-order",
            o.legacy_buffer_matrix_order,
        ),
        ("-fspv-preserve-interface", o.preserve_interface),
        ("-fspv-preserve-bindings", o.preserve_bindings),
        ("-auto-binding-space", o.auto_binding_space != 0),
        ("-fvk-bind-resource-heap", o.resource_heap_binding.is_some()),
        ("-fvk-bind-sampler-heap", o.sampler_heap_binding.is_some()),
        ("-fvk-bind-counter-heap", o.counter_heap_binding.is_some()),
    ] {
        if set {
            return Err(Diagnostic::error(
                diag::codes::UNSUPPORTED,
                format!("not supported yet: {flag}"),
            ));
        }
    }
    Ok(o)
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
        let choice = if self.color {
            codespan_reporting::term::termcolor::ColorChoice::Auto
        } else {
            codespan_reporting::term::termcolor::ColorChoice::Never
        };
        let mut stderr = codespan_reporting::term::termcolor::StandardStream::stderr(choice);
        let _ = diag::render(&mut stderr, &shown, sm, self.format);
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

/// `hlslc lsp [--stdio]`: the language server (editors' LSP clients may
/// add `--stdio`).
fn run_lsp(args: &[String]) -> i32 {
    for a in args {
        match a.as_str() {
            "--stdio" => {}
            "-h" | "--help" => {
                println!(
                    "hlslc lsp: a language server on stdin/stdout reporting hlslc's diagnostics\n\nUsage: hlslc lsp [--stdio]"
                );
                return 0;
            }
            _ => {
                eprintln!("hlslc lsp: unknown argument '{a}' (usage: hlslc lsp [--stdio])");
                return 1;
            }
        }
    }
    hlslc::lsp::run_stdio()
}

fn run() -> i32 {
    let raw: Vec<String> = std::env::args().collect();
    if raw.get(1).map(String::as_str) == Some("lsp") {
        return run_lsp(&raw[2..]);
    }
    let args = normalize_args(raw.into_iter());
    let m = match cli().try_get_matches_from(args) {
        Ok(m) => m,
        Err(e) => {
            let _ = e.print();
            return if e.use_stderr() { 1 } else { 0 };
        }
    };
    let reporter = Reporter {
        format: match m
            .get_one::<String>("diagnostics-format")
            .map(String::as_str)
        {
            Some("short") => DiagnosticFormat::Short,
            Some("json") => DiagnosticFormat::Json,
            _ => DiagnosticFormat::Human,
        },
        // termcolor's `Auto` looks at TERM/NO_COLOR only, not at whether
        // stderr is a terminal: colour escapes in a log or an IDE's parser
        // are noise.
        color: !m.get_flag("no-color")
            && std::env::var_os("NO_COLOR").is_none()
            && std::io::IsTerminal::is_terminal(&std::io::stderr()),
        no_warnings: m.get_flag("no-warnings"),
        warnings_as_errors: m.get_flag("WX"),
    };
    let options = match options_from(&m) {
        Ok(o) => o,
        Err(d) => {
            reporter.report(&[d], &SourceMap::new());
            return 1;
        }
    };
    // Flags accepted for DXC compatibility whose request hlslc does not
    // carry out: say so once, as a warning.
    let mut ignored = Vec::new();
    if m.get_many::<String>("fspv-debug").is_some() {
        ignored.push("-fspv-debug: hlslc does not emit SPIR-V debug instructions yet (only OpName/OpMemberName)");
    }
    if m.get_one::<String>("Oconfig").is_some() {
        ignored.push("-Oconfig: hlslc runs its own optimisation pipeline for the -O level; the spirv-opt pass list is ignored");
    }
    let option_warnings: Vec<Diagnostic> = ignored
        .into_iter()
        .map(|w| Diagnostic::warning(diag::codes::OPTION_IGNORED, w))
        .collect();
    if reporter.report(&option_warnings, &SourceMap::new()) {
        return 1;
    }
    let Some(input) = m.get_one::<String>("input") else {
        reporter.report(
            &[option_error(
                "no input file (usage: hlslc -T cs_6_0 -E main FILE -Fo out.spv)".into(),
            )],
            &SourceMap::new(),
        );
        return 1;
    };
    let input = PathBuf::from(input);
    let loader = DiskLoader;

    if m.get_flag("P") {
        let (text, c) = hlslc::preprocess_to_string(&input, &loader, &options);
        if reporter.report(&c.diagnostics.list, &c.source_map) {
            return 1;
        }
        return match m.get_one::<String>("Fi") {
            Some(f) => i32::from(!write_file(Path::new(f), text.as_bytes(), &reporter)),
            None => {
                let _ = std::io::stdout().write_all(text.as_bytes());
                0
            }
        };
    }

    if m.get_flag("fsyntax-only") {
        let c = hlslc::check_syntax(&input, &loader, &options);
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
    let c = hlslc::compile(&input, &loader, &options);
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
        EmitKind::Asm => hlslc::back::spv::disassemble(&artifact.spirv).into_bytes(),
        EmitKind::Ir => artifact.ir_text.clone().unwrap_or_default().into_bytes(),
    };
    let out = m.get_one::<String>("Fo");
    match out {
        Some(f) => {
            if !write_file(Path::new(f), &bytes, &reporter) {
                return 1;
            }
        }
        None => {
            if options.emit == EmitKind::Spirv
                && std::io::IsTerminal::is_terminal(&std::io::stdout())
            {
                // Like DXC without -Fo: show the disassembly rather than binary.
                let _ = std::io::stdout()
                    .write_all(hlslc::back::spv::disassemble(&artifact.spirv).as_bytes());
            } else {
                let _ = std::io::stdout().write_all(&bytes);
            }
        }
    }
    if let Some(f) = m.get_one::<String>("Fc") {
        if !write_file(
            Path::new(f),
            hlslc::back::spv::disassemble(&artifact.spirv).as_bytes(),
            &reporter,
        ) {
            return 1;
        }
    }
    if let Some(f) = m.get_one::<String>("Fre") {
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
        if !write_file(Path::new(f), reflection.to_json().as_bytes(), &reporter) {
            return 1;
        }
    }
    let dep_path = m.get_one::<String>("MF").cloned().or_else(|| {
        (m.get_flag("MD")).then(|| format!("{}.d", out.map_or("a.spv", String::as_str)))
    });
    if let Some(p) = dep_path {
        let target = out.map_or("a.spv", String::as_str);
        if !write_file(
            Path::new(&p),
            depfile(target, &c.dependencies).as_bytes(),
            &reporter,
        ) {
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

    fn parse(args: &[&str]) -> Result<Options, String> {
        let args = normalize_args(
            std::iter::once("hlslc".to_string()).chain(args.iter().map(|s| s.to_string())),
        );
        let m = cli()
            .try_get_matches_from(args)
            .map_err(|e| e.to_string())?;
        options_from(&m).map_err(|d| d.message)
    }

    #[test]
    fn dxc_spellings_parse() {
        let o = parse(&[
            "-spirv",
            "-T",
            "cs_6_0",
            "-E",
            "CSMain",
            "-fspv-target-env=vulkan1.2",
            "-O1",
            "-DX=1",
            "-DY",
            "-Iinc",
            "-fvk-b-shift",
            "10",
            "all",
            "-Zpr",
            "x.hlsl",
            "-Fo",
            "x.spv",
        ])
        .unwrap();
        assert_eq!(o.profile.unwrap().stage, Stage::Compute);
        assert_eq!(o.entry, "CSMain");
        assert_eq!(o.target_env, TargetEnv::Vulkan1_2);
        assert_eq!(o.opt_level, 1);
        assert_eq!(
            o.defines,
            vec![("X".into(), Some("1".into())), ("Y".into(), None)]
        );
        assert_eq!(o.include_dirs, vec![PathBuf::from("inc")]);
        assert_eq!(o.register_shifts, vec![(RegisterClass::B, 10, None)]);
        assert_eq!(o.matrix_layout, MatrixLayout::RowMajor);
        assert!(!o.reflect);
        assert!(
            parse(&["-Tcs_6_0", "-Frex.json", "x.hlsl"])
                .unwrap()
                .reflect
        );
        let o = parse(&["-Tps_6_0", "-Od", "-Foout.spv", "x.hlsl"]).unwrap();
        assert_eq!(o.opt_level, 0);
        assert_eq!(o.profile.unwrap().stage, Stage::Pixel);
    }

    #[test]
    fn bad_options_are_errors() {
        assert!(
            parse(&["-T", "zz_6_0", "x.hlsl"])
                .unwrap_err()
                .contains("unknown target profile")
        );
        assert!(
            parse(&["-fspv-target-env=vulkan9", "x.hlsl"])
                .unwrap_err()
                .contains("unknown target environment")
        );
        assert!(
            parse(&["-fvk-use-dx-layout", "-fvk-use-gl-layout", "x.hlsl"])
                .unwrap_err()
                .contains("cannot be used together")
        );
        assert!(parse(&["-fbogus", "x.hlsl"]).is_err());
    }

    #[test]
    fn ir_after_names_a_pass_and_implies_emit_ir() {
        let o = parse(&["-T", "cs_6_0", "--ir-after", "fuse_mad", "x.hlsl"]).unwrap();
        assert_eq!(o.emit, EmitKind::Ir);
        assert_eq!(o.ir_after_pass.as_deref(), Some("fuse_mad"));
        let o = parse(&[
            "-T",
            "cs_6_0",
            "--emit",
            "ir",
            "--ir-after",
            "lowering",
            "x.hlsl",
        ])
        .unwrap();
        assert_eq!(o.ir_after_pass.as_deref(), Some("lowering"));
        assert!(parse(&["-T", "cs_6_0", "--ir-after", "nonsense", "x.hlsl"]).is_err());
        assert!(
            parse(&[
                "-T",
                "cs_6_0",
                "--emit",
                "asm",
                "--ir-after",
                "dce",
                "x.hlsl"
            ])
            .unwrap_err()
            .contains("needs --emit ir")
        );
    }

    #[test]
    fn verify_ir_turns_the_validator_on_in_any_build() {
        let o = parse(&["-T", "cs_6_0", "--verify-ir", "x.hlsl"]).unwrap();
        assert!(o.verify_ir);
        // Without the flag, as the build profile decides.
        let o = parse(&["-T", "cs_6_0", "x.hlsl"]).unwrap();
        assert_eq!(o.verify_ir, cfg!(debug_assertions));
        assert!(cli().render_long_help().to_string().contains("--verify-ir"));
    }

    #[test]
    fn dxc_compatibility_flags_are_accepted_or_refused_clearly() {
        let o = parse(&[
            "-fspv-debug=vulkan-with-source",
            "-fspv-print-all",
            "-Wno-effects-syntax",
            "-vkbr",
            "t3",
            "1",
            "4",
            "2",
            "-ffinite-math-only",
            "x.hlsl",
        ])
        .unwrap();
        assert_eq!(
            o.bind_registers,
            vec![BindRegister {
                class: RegisterClass::T,
                register: 3,
                space: 1,
                binding: 4,
                set: 2
            }]
        );
        for flag in [
            "-fspv-flatten-resource-arrays",
            "-fvk-support-nonzero-base-instance",
            "-fspv-preserve-interface",
        ] {
            let e = parse(&[flag, "x.hlsl"]).unwrap_err();
            assert!(
                e.contains("not supported yet") && e.contains(flag),
                "{flag}: {e}"
            );
        }
        assert!(parse(&["-fvk-stage-io-order=sideways", "x.hlsl"]).is_err());
    }

    #[test]
    fn depfile_escapes_spaces() {
        assert_eq!(
            depfile("o.spv", &[PathBuf::from("a b.hlsl")]),
            "o.spv: \\\n  a\\ b.hlsl\n"
        );
    }
}
