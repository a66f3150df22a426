//! The parser against the table: every spelling `--help` lists, values
//! joined and separate, arity errors, unknown options, and the options
//! that are recognised but refused (E0004).

use super::table::{Arity, Effect, options};
use super::*;
use crate::diag::codes;

fn parse(args: &[&str]) -> CommandLine {
    CommandLine::parse(args)
}

/// The messages of the errors in `cl`.
fn errors(cl: &CommandLine) -> Vec<String> {
    cl.diagnostics
        .iter()
        .filter(|d| d.is_error())
        .map(|d| d.message.clone())
        .collect()
}

fn ok(args: &[&str]) -> CommandLine {
    let cl = parse(args);
    assert!(!cl.has_errors(), "{args:?}: {:?}", errors(&cl));
    cl
}

fn err(args: &[&str]) -> String {
    let cl = parse(args);
    let e = errors(&cl);
    assert!(!e.is_empty(), "{args:?} parsed without an error");
    e.join("\n")
}

#[test]
fn profiles_parse() {
    assert_eq!(
        Profile::parse("cs_6_0"),
        Some(Profile {
            stage: Stage::Compute,
            major: 6,
            minor: 0
        })
    );
    assert_eq!(
        Profile::parse("lib_6_3").map(|p| p.stage),
        Some(Stage::Library)
    );
    assert_eq!(Profile::parse("cs_6"), None);
    assert_eq!(Profile::parse("xs_6_0"), None);
    assert_eq!(
        Profile::parse("ps_5_1").map(|p| p.to_string()).as_deref(),
        Some("ps_5_1")
    );
}

#[test]
fn dxc_spellings_parse() {
    let cl = ok(&[
        "-spirv",
        "-T",
        "cs_6_0",
        "-E",
        "CSMain",
        "-fspv-target-env=vulkan1.2",
        "-O1",
        "-DX=1",
        "-D",
        "Y",
        "-Iinc",
        "-fvk-b-shift",
        "10",
        "all",
        "-Zpr",
        "x.hlsl",
        "-Fo",
        "x.spv",
    ]);
    let o = &cl.options;
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
    assert_eq!(cl.input, Some(PathBuf::from("x.hlsl")));
    assert_eq!(cl.outputs.object, Some(PathBuf::from("x.spv")));
    assert_eq!(cl.action, Action::Compile);
    // hlslc's own reflection JSON, also with -spirv (DXC's -Fre is DXIL
    // reflection, which DXC refuses with -spirv).
    let cl = ok(&["-spirv", "-Tcs_6_0", "-Frex.json", "x.hlsl"]);
    assert!(cl.options.reflect);
    assert_eq!(cl.outputs.reflection, Some(PathBuf::from("x.json")));
    let cl = ok(&["-Tps_6_0", "-Od", "-Foout.spv", "-Ecolour", "x.hlsl"]);
    assert_eq!(cl.options.opt_level, 0);
    assert_eq!(cl.options.profile.unwrap().stage, Stage::Pixel);
    assert_eq!(cl.options.entry, "colour");
    assert_eq!(cl.outputs.object, Some(PathBuf::from("out.spv")));
}

#[test]
fn the_last_of_repeated_options_counts() {
    // DXC: the last of -O0 … -O3 and -Od.
    assert_eq!(ok(&["-Od", "-O2"]).options.opt_level, 2);
    assert_eq!(ok(&["-O2", "-Od"]).options.opt_level, 0);
    // -fcgl stops the passes whatever the level.
    assert_eq!(ok(&["-fcgl", "-O3"]).options.opt_level, 0);
    let cl = ok(&[
        "-Fo", "a.spv", "-Fo", "b.spv", "-T", "vs_6_0", "-T", "ps_6_0",
    ]);
    assert_eq!(cl.outputs.object, Some(PathBuf::from("b.spv")));
    assert_eq!(cl.options.profile.unwrap().stage, Stage::Pixel);
    // The same layout twice is fine.
    ok(&["-fvk-use-dx-layout", "-fvk-use-dx-layout"]);
}

#[test]
fn bad_options_are_errors() {
    assert!(err(&["-T", "zz_6_0", "x.hlsl"]).contains("unknown target profile"));
    assert!(err(&["-fspv-target-env=vulkan9"]).contains("unknown target environment"));
    assert!(
        err(&["-fvk-use-dx-layout", "-fvk-use-gl-layout"])
            .contains("-fvk-use-dx-layout and -fvk-use-gl-layout cannot be used together")
    );
    assert!(err(&["-Zpr", "-Zpc"]).contains("cannot be used together"));
    assert!(err(&["-HV", "2019"]).contains("unknown HLSL version '2019'"));
    assert!(err(&["-denorm", "slow"]).contains("-denorm: unknown mode"));
    assert!(err(&["-fvk-b-shift", "x", "0"]).contains("-fvk-b-shift: shift: expected a number"));
    assert!(err(&["-vkbr", "q1", "0", "0", "0"]).contains("is not a register"));
    assert!(err(&["-fvk-stage-io-order=sideways"]).contains("unknown order"));
    assert!(err(&["a.hlsl", "b.hlsl"]).contains("more than one input file"));
    // Every problem is reported, and what could be read still counts.
    let cl = parse(&["-T", "zz", "-E", "f", "-fbogus", "-O1"]);
    assert_eq!(errors(&cl).len(), 2);
    assert_eq!((cl.options.entry.as_str(), cl.options.opt_level), ("f", 1));
}

#[test]
fn unknown_options_are_errors_with_a_suggestion() {
    let cl = parse(&["-fbogus", "x.hlsl"]);
    assert_eq!(cl.diagnostics[0].code, codes::BAD_OPTION);
    assert_eq!(
        cl.diagnostics[0].message,
        "unknown option '-fbogus' (hlslc --help lists the options)"
    );
    // DXC's options take one dash.
    assert!(err(&["--fspv-reflect"]).contains("did you mean '-fspv-reflect'?"));
    assert!(err(&["--Fo", "x"]).contains("did you mean '-Fo'?"));
    assert!(err(&["-fspv-target-env", "vulkan1.1"]).contains("did you mean '-fspv-target-env='?"));
    assert!(err(&["-fvk-invert-x"]).contains("did you mean '-fvk-invert-y'?"));
    // A flag takes nothing joined to it; -WX is not -W with value X.
    assert!(err(&["-spirvx"]).contains("unknown option '-spirvx'"));
    assert!(ok(&["-WX"]).reporting.warnings_as_errors);
    assert!(!ok(&["-Wno-effects-syntax"]).reporting.warnings_as_errors);
}

#[test]
fn options_missing_values_are_errors() {
    for (args, message) in [
        (&["-T"][..], "-T needs a value (<profile>), found none"),
        (&["-Fo"], "-Fo needs a value (<file>), found none"),
        (
            &["-auto-binding-space"],
            "-auto-binding-space needs a value (<space>), found none",
        ),
        (
            &["-fvk-t-shift", "1"],
            "-fvk-t-shift needs 2 values (<shift> <space>), found only 1",
        ),
        (
            &["-fvk-bind-register", "t0", "0"],
            "-fvk-bind-register needs 4 values (<register> <space> <binding> <set>), found only 2",
        ),
        (&["--emit"], "--emit needs a value (<kind>), found none"),
    ] {
        assert_eq!(err(args), message, "{args:?}");
    }
    // Values are taken as they come, even when they look like options.
    let cl = ok(&["-E", "-main"]);
    assert_eq!(cl.options.entry, "-main");
}

#[test]
fn own_options_take_gnu_style_values() {
    for args in [&["--emit", "asm"][..], &["--emit=asm"]] {
        assert_eq!(ok(args).options.emit, EmitKind::Asm);
    }
    let cl = ok(&["--diagnostics-format=short", "--no-color", "--verify-ir"]);
    assert_eq!(cl.reporting.format, crate::diag::DiagnosticFormat::Short);
    assert!(cl.reporting.no_color && cl.options.verify_ir);
    // With one dash, as DXC users type them: the longest spelling wins
    // over `-E` + "mit", `-I` + "r-after", `-D` + "iagnostics-format".
    let cl = ok(&[
        "-emit",
        "asm",
        "-diagnostics-format=json",
        "-no-color",
        "-verify-ir",
    ]);
    assert_eq!(cl.options.emit, EmitKind::Asm);
    assert_eq!(cl.options.entry, "main");
    assert!(cl.options.defines.is_empty());
    assert_eq!(cl.reporting.format, crate::diag::DiagnosticFormat::Json);
    assert!(cl.reporting.no_color && cl.options.verify_ir);
    let cl = ok(&["-ir-after=cse"]);
    assert_eq!(cl.options.ir_after_pass.as_deref(), Some("cse"));
    assert!(cl.options.include_dirs.is_empty());
    assert!(err(&["--emit=elf"]).contains("--emit: unknown kind 'elf'"));
    assert!(err(&["--emitasm"]).contains("unknown option"));
}

#[test]
fn ir_after_names_a_pass_and_implies_emit_ir() {
    let o = ok(&["--ir-after", "fuse_mad"]).options;
    assert_eq!(o.emit, EmitKind::Ir);
    assert_eq!(o.ir_after_pass.as_deref(), Some("fuse_mad"));
    let o = ok(&["--emit", "ir", "--ir-after=lowering"]).options;
    assert_eq!(o.ir_after_pass.as_deref(), Some("lowering"));
    assert!(err(&["--ir-after", "nonsense"]).contains("unknown pass 'nonsense'"));
    assert!(err(&["--emit", "asm", "--ir-after", "dce"]).contains("needs --emit ir"));
}

#[test]
fn verify_ir_turns_the_validator_on_in_any_build() {
    assert!(ok(&["--verify-ir"]).options.verify_ir);
    // Without the flag, as the build profile decides (on in these tests).
    assert_eq!(ok(&[]).options.verify_ir, cfg!(any(debug_assertions, test)));
}

#[test]
fn actions_and_outputs() {
    assert_eq!(
        ok(&["-P", "-Fi", "x.i", "x.hlsl"]).action,
        Action::Preprocess
    );
    assert_eq!(ok(&["-fsyntax-only"]).action, Action::SyntaxOnly);
    for help in ["--help", "-help", "-?", "-h"] {
        assert_eq!(ok(&[help]).action, Action::Help);
    }
    assert_eq!(ok(&["--version"]).action, Action::Version);
    let cl = ok(&["-MD", "-MFx.d", "-Fc", "x.s"]);
    assert!(cl.outputs.depfile_next_to_output);
    assert_eq!(cl.outputs.depfile, Some(PathBuf::from("x.d")));
    assert_eq!(cl.outputs.assembly, Some(PathBuf::from("x.s")));
}

#[test]
fn dxc_compatibility_options_are_accepted_or_refused_clearly() {
    let cl = ok(&[
        "-fspv-debug=vulkan-with-source",
        "-fspv-debug=line",
        "-fspv-print-all",
        "-Wno-effects-syntax",
        "-vkbr",
        "t3",
        "1",
        "4",
        "2",
        "-ffinite-math-only",
        "-Oconfig=--loop-unroll,--eliminate-dead-code-aggressive",
        "x.hlsl",
    ]);
    assert_eq!(
        cl.options.bind_registers,
        vec![BindRegister {
            class: RegisterClass::T,
            register: 3,
            space: 1,
            binding: 4,
            set: 2
        }]
    );
    // One warning per ignored option, however often it is given.
    let warnings: Vec<_> = cl.diagnostics.iter().map(|d| d.code).collect();
    assert_eq!(warnings, [codes::OPTION_IGNORED, codes::OPTION_IGNORED]);
    assert!(cl.diagnostics[0].message.starts_with("-fspv-debug:"));
    assert!(cl.diagnostics[1].message.starts_with("-Oconfig:"));
}

#[test]
fn oconfig_takes_one_list_of_spirv_opt_passes_and_no_level() {
    // Pass names, with arguments, and spirv-opt's two recipes.
    for list in [
        "--ssa-rewrite,--if-conversion,--eliminate-dead-code-aggressive",
        "--loop-unroll-partial=4,--scalar-replacement=100",
        "-O",
        "-Os,--strip-debug",
    ] {
        let cl = ok(&[&format!("-Oconfig={list}"), "-Od", "x.hlsl"]);
        assert_eq!(cl.diagnostics.len(), 1, "{list}");
        assert_eq!(cl.diagnostics[0].code, codes::OPTION_IGNORED);
    }
    let e = err(&["-Oconfig=--test-unknown-flag", "x.hlsl"]);
    assert!(
        e.contains("unknown spirv-opt pass '--test-unknown-flag'"),
        "{e}"
    );
    let e = err(&["-Oconfig=--loop-unrol", "x.hlsl"]);
    assert!(e.contains("did you mean '--loop-unroll'?"), "{e}");
    // spirv-opt's own options are no passes; neither is a bare name.
    for list in ["--skip-validation", "loop-unroll", "--", ""] {
        err(&[&format!("-Oconfig={list}"), "x.hlsl"]);
    }
    let e = err(&["-Oconfig=-O", "-Oconfig=-Os", "x.hlsl"]);
    assert!(e.contains("-Oconfig: given more than once"), "{e}");
    for level in ["-O0", "-O1", "-O2", "-O3"] {
        for args in [
            [level, "-Oconfig=--loop-unroll"],
            ["-Oconfig=--loop-unroll", level],
        ] {
            let e = err(&[args[0], args[1], "x.hlsl"]);
            assert!(
                e.contains(&format!("-Oconfig and {level} cannot be used together")),
                "{e}"
            );
        }
    }
}

#[test]
fn recognised_but_unsupported_options_are_e0004() {
    // Options the table sets but the compiler cannot honour yet, and
    // options the table only recognises.
    for args in [
        &["-fspv-use-unknown-image-format"][..],
        &["-fspv-use-vulkan-memory-model"],
        &["-fspv-max-id", "100"],
        &["-Fd", "x.pdb"],
        &["-Qstrip_reflect"],
        &["-U", "X"],
    ] {
        let cl = parse(args);
        let refusals: Vec<_> = cl
            .diagnostics
            .iter()
            .filter(|d| d.code == codes::UNSUPPORTED)
            .collect();
        assert!(
            refusals.len() == 1 && refusals[0].message == format!("not supported yet: {}", args[0]),
            "{args:?}: {:?}",
            cl.diagnostics
        );
        assert_eq!(cl.diagnostics.len(), 1, "{args:?}: {:?}", cl.diagnostics);
    }
    // The default is not a request.
    ok(&["-fvk-stage-io-order=decl"]);
}

#[test]
fn options_from_args_keeps_the_options_and_the_errors() {
    let o = Options::from_args(["-T", "cs_6_6", "-fvk-use-scalar-layout", "x.hlsl"]).unwrap();
    assert_eq!(o.layout, LayoutRule::Scalar);
    let e = Options::from_args(["-T", "cs_6_0", "-fbogus", "-fspv-use-vulkan-memory-model"])
        .unwrap_err();
    let codes: Vec<_> = e.iter().map(|d| d.code).collect();
    assert_eq!(codes, [codes::BAD_OPTION, codes::UNSUPPORTED]);
}

/// Values that fit each value name of `--help`, as a user would type them.
fn sample_value(name: &str) -> &'static str {
    match name {
        "<profile>" => "cs_6_0",
        "<name>" => "main",
        "<name>[=<value>]" => "FOO=1",
        "<dir>" | "<file>" => "out.x",
        "<version>" => "2021",
        "<mode>" => "ftz",
        "<kind>" => "ir",
        "<format>" => "json",
        "<pass>" => "dce",
        "<passes>" => "--loop-unroll",
        "<env>" => "vulkan1.1",
        "<extension>" => "SPV_KHR_float_controls",
        "<category>" => "line",
        "<shift>" | "<binding>" | "<max>" | "<n>" => "3",
        "<space>" | "<set>" => "1",
        "<register>" => "t2",
        "<order>" => "decl",
        "<warning>" => "no-effects-syntax",
        "<value>" => "1",
        other => panic!("--help names a value {other} that this test has no sample of"),
    }
}

/// The arguments a `--help` option line describes: its spelling with
/// sample values, as a user would type them (`-fvk-b-shift 3 1`,
/// `-fspv-target-env=vulkan1.1`).
pub(crate) fn help_line_arguments(line: &str) -> Option<Vec<String>> {
    let synopsis = line.strip_prefix("  -").map(|s| format!("-{s}"))?;
    let synopsis = synopsis.split("  ").next()?.to_string();
    let mut words = synopsis.split(' ');
    let first = words.next()?;
    let mut args = vec![match first.find('<') {
        // A joined value: `-fspv-target-env=<env>`, `-W<warning>`.
        Some(i) => format!("{}{}", &first[..i], sample_value(&first[i..])),
        None => first.to_string(),
    }];
    args.extend(words.map(|w| sample_value(w).to_string()));
    Some(args)
}

#[test]
fn every_option_in_help_parses_with_the_values_it_names() {
    let text = help();
    let mut lines = 0;
    for line in text.lines() {
        let Some(args) = help_line_arguments(line) else {
            continue;
        };
        lines += 1;
        let mut with_input = args.clone();
        with_input.push("shader.hlsl".into());
        let cl = CommandLine::parse(&with_input);
        // Recognised, with as many values as help says (the input is
        // left over), and refused only as not supported yet.
        assert_eq!(
            cl.input,
            Some(PathBuf::from("shader.hlsl")),
            "{args:?}: {:?}",
            cl.diagnostics
        );
        for d in &cl.diagnostics {
            assert!(
                d.code == codes::UNSUPPORTED || !d.is_error(),
                "{args:?}: {}",
                d.message
            );
        }
    }
    let spellings: usize = options().map(|o| o.spellings.len()).sum();
    assert_eq!(lines, spellings, "one help line per spelling");
}

#[test]
fn the_table_is_consistent() {
    let mut seen = Vec::new();
    for opt in options() {
        for &s in opt.spellings {
            assert!(s.starts_with('-'), "{s}");
            assert!(!seen.contains(&s), "{s} is in the table twice");
            seen.push(s);
            // Only joined spellings end in `=`; values have names.
            assert_eq!(
                s.ends_with('='),
                opt.arity == Arity::Joined && s != "-W",
                "{s}"
            );
            assert_eq!(opt.values.is_empty(), opt.arity == Arity::Flag, "{s}");
        }
        assert!(!opt.help.is_empty(), "{}", opt.name());
        if matches!(opt.effect, Effect::NotYet) {
            assert_eq!(opt.origin, super::table::Origin::Dxc, "{}", opt.name());
        }
    }
}

/// Every spelling in DXC's option table (`include/dxc/Support/
/// HLSLOptions.td`, with its `-` prefix; `--` where DXC takes only that),
/// none an unknown option here: each does what DXC does or is refused.
const DXC_SPELLINGS: &[&str] = &[
    "-D",
    "-H",
    "-I",
    "-O0",
    "-O1",
    "-O2",
    "-O3",
    "-Odump",
    "-Qunused-arguments",
    "-Wall",
    "-Wdeprecated",
    "-Wfoo",
    "-fcolor-diagnostics",
    "-fdiagnostics-color",
    "-fdiagnostics-color=",
    "-fansi-escape-codes",
    "-fconstexpr-depth=",
    "-fconstexpr-steps=",
    "-fconstexpr-backtrace-limit=",
    "-fdiagnostics-format=",
    "-fdiagnostics-show-option",
    "-fno-diagnostics-show-option",
    "-fdiagnostics-show-category=",
    "-ferror-limit=",
    "-import-binding-table",
    "-binding-table-define",
    "-funsafe-math-optimizations",
    "-fno-unsafe-math-optimizations",
    "-fassociative-math",
    "-fno-associative-math",
    "-fno-reciprocal-math",
    "-ffinite-math-only",
    "-fno-finite-math-only",
    "-fsigned-zeros",
    "-fhonor-nans",
    "-fno-honor-nans",
    "-fhonor-infinities",
    "-fno-honor-infinities",
    "-ftrapping-math",
    "-fno-trapping-math",
    "-ffp-contract=",
    "-flimited-precision=",
    "-memdep-block-scan-limit",
    "-opt-disable",
    "-opt-enable",
    "-opt-select",
    "-fdisable-loc-tracking",
    "-fnew-inlining-behavior",
    "-ftime-report",
    "-ftime-trace",
    "-ftime-trace=",
    "-ftime-trace-granularity=",
    "-verify",
    "-verbose",
    "-v",
    "-fno-caret-diagnostics",
    "-fno-color-diagnostics",
    "-fno-diagnostics-color",
    "-fno-show-column",
    "-fno-spell-checking",
    "-fshow-column",
    "-fshow-source-location",
    "-fspell-checking",
    "-fspell-checking-limit=",
    "-funroll-loops",
    "-fno-unroll-loops",
    "-freroll-loops",
    "-fno-reroll-loops",
    "-help",
    "--help",
    "-imacros",
    "--imacros",
    "-include",
    "--include",
    "-mllvm",
    "-mms-bitfields",
    "-o",
    "-time",
    "-U",
    "-w",
    "-working-directory",
    "-working-directory=",
    "--all-warnings",
    "--help-hidden",
    "-?",
    "--version",
    "-ast-dump",
    "-ast-dump-implicit",
    "-M",
    "-MD",
    "-MF",
    "-external",
    "-external-fn",
    "-fcgl",
    "-preserve-intermediate-values",
    "-flegacy-macro-expansion",
    "-flegacy-resource-reservation",
    "-no-legacy-cbuf-layout",
    "-not_use_legacy_cbuf_load",
    "-pack-prefix-stable",
    "-pack_prefix_stable",
    "-pack-optimized",
    "-pack_optimized",
    "-HV",
    "-no-warnings",
    "-rootsig-define",
    "-enable-16bit-types",
    "-ignore-line-directives",
    "-auto-binding-space",
    "-exports",
    "-export-shaders-only",
    "-default-linkage",
    "-precise-output",
    "-encoding",
    "-validator-version",
    "-print-before-all",
    "-print-before",
    "-print-after-all",
    "-print-after",
    "-ignore-opt-semdefs",
    "-ignore-semdef",
    "-override-semdef",
    "-force-zero-store-lifetimes",
    "-enable-lifetime-markers",
    "-disable-lifetime-markers",
    "-enable-payload-qualifiers",
    "-disable-payload-qualifiers",
    "-disable-exception-handling",
    "-skip-serialization",
    "-metal",
    "-spirv",
    "-fvk-stage-io-order=",
    "-fvk-invert-y",
    "-fvk-use-dx-position-w",
    "-fvk-support-nonzero-base-instance",
    "-fvk-support-nonzero-base-vertex",
    "-fvk-use-gl-layout",
    "-fvk-use-dx-layout",
    "-fvk-use-scalar-layout",
    "-fspv-use-legacy-buffer-matrix-order",
    "-fspv-reflect",
    "-fspv-debug=",
    "-fspv-extension=",
    "-fspv-target-env=",
    "-fspv-flatten-resource-arrays",
    "-fspv-reduce-load-size",
    "-fspv-fix-func-call-arguments",
    "-fspv-entrypoint-name=",
    "-fspv-enable-maximal-reconvergence",
    "-fspv-use-vulkan-memory-model",
    "-fspv-use-unknown-image-format",
    "-fvk-auto-shift-bindings",
    "-Wno-vk-ignored-features",
    "-Wno-vk-emulated-features",
    "-fspv-print-all",
    "-fspv-use-emulated-heap",
    "-fspv-use-descriptor-heap",
    "-Oconfig=",
    "-fspv-preserve-bindings",
    "-fspv-preserve-interface",
    "-fvk-b-shift",
    "-fvk-s-shift",
    "-fvk-t-shift",
    "-fvk-u-shift",
    "-fvk-bind-globals",
    "-fvk-bind-register",
    "-vkbr",
    "-fvk-bind-resource-heap",
    "-fvk-bind-sampler-heap",
    "-fvk-bind-counter-heap",
    "-fspv-max-id",
    "-T",
    "-E",
    "-Vi",
    "-Od",
    "-WX",
    "-Vd",
    "-Zi",
    "-Zs",
    "-recompile",
    "-Zpr",
    "-Zpc",
    "-Zss",
    "-Zsb",
    "-Gpp",
    "-Gfa",
    "-Gfp",
    "-Gec",
    "-Ges",
    "-Gis",
    "-denorm",
    "-Fo",
    "-Fl",
    "-Fc",
    "-Fx",
    "-Fh",
    "-Fe",
    "-Fd",
    "-Fre",
    "-Frs",
    "-Fsh",
    "-Fi",
    "-Vn",
    "-Cc",
    "-Ni",
    "-No",
    "-Lx",
    "-P",
    "-Po",
    "-dumpbin",
    "-link",
    "-Qstrip_reflect",
    "-Qstrip_debug",
    "-Qembed_debug",
    "-Qstrip_priv",
    "-Qsource_in_debug_module",
    "-Qpdb_in_private",
    "-Qstrip_rootsignature",
    "-setrootsignature",
    "-extractrootsignature",
    "-verifyrootsignature",
    "-force-rootsig-ver",
    "-force_rootsig_ver",
    "-Qkeep_reflect_in_dxil",
    "-Qstrip_reflect_from_dxil",
    "-shtemplate",
    "-mergeUAVs",
    "-matchUAVs",
    "-enable_unbounded_descriptor_tables",
    "-res-may-alias",
    "-res_may_alias",
    "-all-resources-bound",
    "-all_resources_bound",
    "-setprivate",
    "-getprivate",
    "-nologo",
    "-unchanged",
    "-skip-fn-body",
    "-skip-static",
    "-global-extern-by-default",
    "-keep-user-macro",
    "-extract-entry-uniforms",
    "-remove-unused-globals",
    "-remove-unused-functions",
    "-line-directive",
    "-decl-global-cb",
];

#[test]
fn every_dxc_option_is_known() {
    for &spelling in DXC_SPELLINGS {
        let cl = parse(&[spelling]);
        for d in &cl.diagnostics {
            assert!(
                !d.message.starts_with("unknown option"),
                "{spelling}: {}",
                d.message
            );
            // A refusal names the option as DXC spells it.
            if d.code == codes::UNSUPPORTED {
                assert!(
                    d.message.contains(spelling.trim_end_matches('=')),
                    "{spelling}: {}",
                    d.message
                );
            }
        }
    }
}

#[test]
fn sixteen_bit_types_need_shader_model_6_2_and_hlsl_2018() {
    ok(&["-T", "cs_6_2", "-enable-16bit-types"]);
    ok(&["-T", "ps_6_6", "-HV", "2018", "-enable-16bit-types"]);
    assert!(err(&["-T", "cs_6_0", "-enable-16bit-types"]).contains("shader model 6.2 or later"));
    assert!(
        err(&["-T", "cs_6_2", "-HV", "2016", "-enable-16bit-types"]).contains("HLSL 2018 or later")
    );
}

#[test]
fn header_include_listing_and_dependency_options() {
    let cl = ok(&[
        "-Fh",
        "x.h",
        "-Vn",
        "g_blur",
        "-Vi",
        "-nologo",
        "-Ges",
        "-Qstrip_debug",
    ]);
    assert_eq!(cl.outputs.header, Some(PathBuf::from("x.h")));
    assert_eq!(cl.outputs.header_variable.as_deref(), Some("g_blur"));
    assert!(cl.reporting.show_includes);
    assert!(ok(&["-H"]).reporting.show_includes);
    assert_eq!(ok(&["-M"]).action, Action::Dependencies);
    assert!(ok(&["-w"]).reporting.no_warnings);
    assert!(ok(&["-fno-color-diagnostics"]).reporting.no_color);
    assert!(ok(&["-fcolor-diagnostics"]).reporting.force_color);
    assert!(!ok(&["-T", "cs_6_0"]).emit_given);
    assert!(ok(&["-emit", "spirv"]).emit_given);
}

#[test]
fn zi_and_spv_debug_combine_as_dxc_does() {
    let debug = |args: &[&str]| ok(args).options.debug_info.nonsemantic();
    assert_eq!(debug(&["x.hlsl"]), None);
    // -Zi alone: with the source text.
    assert_eq!(debug(&["-Zi"]), Some(true));
    // A category overrules -Zi, given before or after it.
    assert_eq!(debug(&["-fspv-debug=vulkan", "-Zi"]), Some(false));
    assert_eq!(debug(&["-Zi", "-fspv-debug=vulkan"]), Some(false));
    assert_eq!(debug(&["-fspv-debug=vulkan-with-source"]), Some(true));
    assert_eq!(debug(&["-fspv-debug=vulkan-with-source-test"]), Some(true));
    // OpenCL.DebugInfo.100 is not written: the NonSemantic set instead,
    // with a warning.
    let cl = ok(&["-fspv-debug=rich-with-source"]);
    assert_eq!(cl.options.debug_info.nonsemantic(), Some(true));
    assert_eq!(cl.diagnostics[0].code, codes::OPTION_IGNORED);
    assert_eq!(debug(&["-fspv-debug=rich"]), Some(false));
    // DXC's OpSource/OpLine categories: a warning, and no NonSemantic
    // debug information even with -Zi.
    let cl = ok(&["-Zi", "-fspv-debug=line", "-fspv-debug=tool"]);
    assert_eq!(cl.options.debug_info.nonsemantic(), None);
    let warnings: Vec<_> = cl.diagnostics.iter().map(|d| d.code).collect();
    assert_eq!(warnings, [codes::OPTION_IGNORED]);
    // The command line is kept for DebugEntryPoint only when used.
    assert_eq!(
        ok(&["-Zi", "-E", "main"]).options.debug_info.command_line,
        "-Zi -E main"
    );
    assert_eq!(ok(&["-E", "main"]).options.debug_info.command_line, "");
}
