//! The rest of DXC's options (`HLSLOptions.td`): those that only concern
//! DXIL containers, PDBs and root signatures, which DXC itself ignores when
//! it writes SPIR-V (accepted here without effect), and those hlslc does
//! not implement (refused with E0004, naming the option). With the other
//! sections, every spelling DXC accepts is in the table, so none is an
//! "unknown option".
//!
//! Arities are DXC's, so that a refused option's value is not mistaken for
//! an input file.

use super::Arity::*;
use super::*;

/// DXC options that change nothing in the SPIR-V DXC writes, nor here.
pub(super) const NO_EFFECT: &[Opt] = &[
    accepted(&["-nologo"], "No banner (hlslc prints none)"),
    accepted(
        &["-Ges"],
        "Strict mode (hlslc's front end is always strict)",
    ),
    accepted(
        &["-Qstrip_debug"],
        "Strip debug data from DXIL containers (DXC's SPIR-V keeps its names too)",
    ),
    accepted(&["-Qembed_debug"], "Embed a PDB in the DXIL container"),
    accepted(&["-Qstrip_priv"], "Strip private data from DXIL containers"),
    accepted(
        &["-Qstrip_rootsignature"],
        "Strip the root signature from DXIL containers",
    ),
    accepted(
        &["-Qsource_in_debug_module"],
        "Source in the DXIL debug module",
    ),
    accepted(&["-Qpdb_in_private"], "PDB in the DXIL private part"),
    accepted(&["-Qkeep_reflect_in_dxil"], "DXIL reflection placement"),
    accepted(&["-Qstrip_reflect_from_dxil"], "DXIL reflection placement"),
    accepted(&["-Zs"], "PDB with sources only (DXIL)"),
    accepted(&["-Zss"], "PDB named after the source hash (DXIL)"),
    accepted(&["-Zsb"], "PDB named after the binary hash (DXIL)"),
    accepted(
        &["-res-may-alias", "-res_may_alias"],
        "DXIL flag: resources may alias",
    ),
    accepted(
        &["-all-resources-bound", "-all_resources_bound"],
        "DXIL flag: all resources bound",
    ),
    accepted(
        &["-enable_unbounded_descriptor_tables"],
        "DXIL flag: unbounded descriptor tables",
    ),
    accepted(
        &[
            "-pack-prefix-stable",
            "-pack_prefix_stable",
            "-pack_optimized",
        ],
        "Signature packing (DXIL only)",
    ),
    accepted(
        &["-Qunused-arguments"],
        "hlslc does not warn about unused arguments",
    ),
    accepted(
        &["--all-warnings"],
        "As -Wall: warning groups are not configurable yet",
    ),
];

const fn refused(spellings: &'static [&'static str], arity: Arity, help: &'static str) -> Opt {
    let values = match arity {
        Flag => "",
        Joined => "<value>",
        Multi(2) => "<value> <value>",
        _ => "<value>",
    };
    not_yet(spellings, arity, values, help)
}

/// DXC options hlslc recognises and refuses (E0004).
pub(super) const REFUSED: &[Opt] = &[
    // Outputs hlslc does not write.
    refused(&["-Fd"], JoinedOrSeparate, "Debug information file (PDB)"),
    refused(&["-Fe"], JoinedOrSeparate, "Warnings and errors to a file"),
    refused(&["-Frs"], Separate, "Root signature file"),
    refused(&["-Fsh"], Separate, "Shader hash file"),
    refused(&["-Fl"], JoinedOrSeparate, "Library output"),
    refused(&["-Fx"], JoinedOrSeparate, "Assembly and hex listing"),
    refused(&["-o"], JoinedOrSeparate, "Output file (hlslc: -Fo)"),
    refused(&["-Cc"], Flag, "Colour-coded assembly listing"),
    refused(&["-Ni"], Flag, "Instruction numbers in listings"),
    refused(&["-No"], Flag, "Byte offsets in listings"),
    refused(&["-Lx"], Flag, "Hexadecimal literals in listings"),
    refused(&["-Gec"], Flag, "Backward-compatibility mode"),
    refused(&["-Gfa"], Flag, "Avoid flow control"),
    refused(&["-Gfp"], Flag, "Prefer flow control"),
    refused(&["-Gpp"], Flag, "Partial precision"),
    refused(&["-Qstrip_reflect"], Flag, "Strip reflection data"),
    refused(&["-Odump"], Flag, "Print the optimiser's pass list"),
    refused(&["-Po"], Flag, "Preprocess to a file"),
    refused(&["-U"], JoinedOrSeparate, "Undefine a macro"),
    refused(
        &["-imacros", "--imacros"],
        JoinedOrSeparate,
        "Macros from a file",
    ),
    refused(
        &["-include", "--include"],
        JoinedOrSeparate,
        "Include a file first",
    ),
    refused(&["-ignore-line-directives"], Flag, "Ignore #line"),
    refused(&["-flegacy-macro-expansion"], Flag, "FXC's macro expansion"),
    refused(
        &["-flegacy-resource-reservation"],
        Flag,
        "FXC's register reservation",
    ),
    // Containers, linking, root signatures, private data.
    refused(&["-dumpbin"], Flag, "Load a binary instead of compiling"),
    refused(&["-link"], Flag, "Link libraries"),
    refused(&["-recompile"], Flag, "Recompile from a DXIL container"),
    refused(
        &["-setrootsignature"],
        JoinedOrSeparate,
        "Attach a root signature",
    ),
    refused(
        &["-extractrootsignature"],
        Flag,
        "Extract the root signature",
    ),
    refused(
        &["-verifyrootsignature"],
        JoinedOrSeparate,
        "Verify a root signature",
    ),
    refused(
        &["-rootsig-define"],
        Separate,
        "Root signature from a macro",
    ),
    refused(
        &["-force-rootsig-ver", "-force_rootsig_ver"],
        JoinedOrSeparate,
        "Root signature version",
    ),
    refused(&["-setprivate"], JoinedOrSeparate, "Private data to attach"),
    refused(&["-getprivate"], JoinedOrSeparate, "Private data to save"),
    refused(&["-exports"], Separate, "Library exports"),
    refused(
        &["-export-shaders-only"],
        Flag,
        "Library: export shaders only",
    ),
    refused(&["-default-linkage"], Separate, "Library: default linkage"),
    refused(&["-shtemplate"], JoinedOrSeparate, "Shader template"),
    refused(&["-mergeUAVs"], JoinedOrSeparate, "Merge UAV slots"),
    refused(&["-matchUAVs"], JoinedOrSeparate, "Match UAV slots"),
    refused(
        &["-import-binding-table"],
        JoinedOrSeparate,
        "Binding table file",
    ),
    refused(&["-binding-table-define"], Separate, "Binding table macro"),
    refused(&["-validator-version"], Separate, "DXIL validator version"),
    refused(&["-metal"], Flag, "Metal output"),
    refused(
        &["-skip-serialization"],
        Flag,
        "Keep the module unserialised",
    ),
    refused(
        &["-fspv-use-emulated-heap"],
        Flag,
        "Emulated descriptor heaps",
    ),
    // Code generation and the optimiser.
    refused(&["-precise-output"], Separate, "Precise output semantics"),
    refused(&["-enable-lifetime-markers"], Flag, "Lifetime markers"),
    refused(&["-disable-lifetime-markers"], Flag, "No lifetime markers"),
    refused(
        &["-force-zero-store-lifetimes"],
        Flag,
        "Zero stores at lifetime ends",
    ),
    refused(
        &["-enable-payload-qualifiers"],
        Flag,
        "Payload access qualifiers",
    ),
    refused(
        &["-disable-payload-qualifiers"],
        Flag,
        "No payload access qualifiers",
    ),
    refused(
        &["-disable-exception-handling"],
        Flag,
        "No exception handling",
    ),
    refused(
        &["-preserve-intermediate-values"],
        Flag,
        "Keep intermediate values",
    ),
    refused(
        &["-no-legacy-cbuf-layout"],
        Flag,
        "Non-legacy cbuffer layout (DXIL)",
    ),
    refused(
        &["-not_use_legacy_cbuf_load"],
        Flag,
        "Non-legacy cbuffer loads (DXIL)",
    ),
    refused(&["-fnew-inlining-behavior"], Flag, "Experimental inlining"),
    refused(&["-fdisable-loc-tracking"], Flag, "No location tracking"),
    refused(
        &["-ignore-opt-semdefs"],
        Flag,
        "Ignore optimisation semantic defines",
    ),
    refused(&["-ignore-semdef"], Separate, "Ignore a semantic define"),
    refused(
        &["-override-semdef"],
        Separate,
        "Override a semantic define",
    ),
    refused(&["-opt-disable"], Separate, "Disable an optimisation"),
    refused(&["-opt-enable"], Separate, "Enable an optimisation"),
    refused(&["-opt-select"], Multi(2), "Select an optimisation variant"),
    refused(
        &["-memdep-block-scan-limit"],
        Separate,
        "Optimiser scan limit",
    ),
    refused(
        &["-print-before-all"],
        Flag,
        "Print the module before each pass",
    ),
    refused(
        &["-print-after-all"],
        Flag,
        "Print the module after each pass",
    ),
    refused(
        &["-print-before"],
        Separate,
        "Print the module before a pass",
    ),
    refused(&["-print-after"], Separate, "Print the module after a pass"),
    refused(&["-mllvm"], Separate, "LLVM options"),
    refused(&["-funsafe-math-optimizations"], Flag, "Unsafe math"),
    refused(&["-fno-unsafe-math-optimizations"], Flag, "No unsafe math"),
    refused(&["-fassociative-math"], Flag, "Reassociation"),
    refused(&["-fno-associative-math"], Flag, "No reassociation"),
    refused(&["-fno-reciprocal-math"], Flag, "No reciprocals"),
    refused(&["-fno-finite-math-only"], Flag, "Not only finite math"),
    refused(&["-fsigned-zeros"], Flag, "Signed zeros"),
    refused(&["-fhonor-nans"], Flag, "Honour NaNs"),
    refused(&["-fno-honor-nans"], Flag, "Do not honour NaNs"),
    refused(&["-fhonor-infinities"], Flag, "Honour infinities"),
    refused(&["-fno-honor-infinities"], Flag, "Do not honour infinities"),
    refused(&["-ftrapping-math"], Flag, "Trapping math"),
    refused(&["-fno-trapping-math"], Flag, "No trapping math"),
    refused(&["-ffp-contract="], Joined, "Floating-point contraction"),
    refused(&["-flimited-precision="], Joined, "Limited precision"),
    refused(&["-funroll-loops"], Flag, "Unroll loops"),
    refused(&["-fno-unroll-loops"], Flag, "Do not unroll loops"),
    refused(&["-freroll-loops"], Flag, "Reroll loops"),
    refused(&["-fno-reroll-loops"], Flag, "Do not reroll loops"),
    refused(&["-fconstexpr-depth="], Joined, "constexpr depth"),
    refused(&["-fconstexpr-steps="], Joined, "constexpr steps"),
    refused(
        &["-fconstexpr-backtrace-limit="],
        Joined,
        "constexpr backtraces",
    ),
    refused(&["-mms-bitfields"], Flag, "MS bit-field layout"),
    // Diagnostics and reports hlslc does not give.
    refused(
        &["-fdiagnostics-format="],
        Joined,
        "Diagnostic style (hlslc: --diagnostics-format)",
    ),
    refused(
        &["-fdiagnostics-show-option"],
        Flag,
        "Option names in diagnostics",
    ),
    refused(
        &["-fno-diagnostics-show-option"],
        Flag,
        "No option names in diagnostics",
    ),
    refused(
        &["-fdiagnostics-show-category="],
        Joined,
        "Diagnostic categories",
    ),
    refused(
        &["-fdiagnostics-color="],
        Joined,
        "Colour: always, never or auto",
    ),
    refused(&["-ferror-limit="], Joined, "Stop after N errors"),
    refused(&["-fno-caret-diagnostics"], Flag, "No carets"),
    refused(&["-fno-show-column"], Flag, "No columns"),
    refused(&["-fshow-column"], Flag, "Columns"),
    refused(&["-fshow-source-location"], Flag, "Source locations"),
    refused(&["-fspell-checking"], Flag, "Spelling suggestions"),
    refused(&["-fno-spell-checking"], Flag, "No spelling suggestions"),
    refused(
        &["-fspell-checking-limit="],
        Joined,
        "Spelling suggestion limit",
    ),
    refused(&["-fansi-escape-codes"], Flag, "ANSI escape codes"),
    refused(&["-verify"], Flag, "Check expected diagnostics"),
    refused(&["-v", "-verbose"], Flag, "Verbose output"),
    refused(&["-time"], Flag, "Time the compile"),
    refused(&["-ftime-report"], Flag, "Time report"),
    refused(&["-ftime-trace"], Flag, "Time trace"),
    refused(&["-ftime-trace="], Joined, "Time trace to a file"),
    refused(
        &["-ftime-trace-granularity="],
        Joined,
        "Time trace granularity",
    ),
    refused(&["-ast-dump"], Flag, "Print the AST"),
    refused(
        &["-ast-dump-implicit"],
        Flag,
        "Print the AST with implicit declarations",
    ),
    refused(
        &["-working-directory"],
        JoinedOrSeparate,
        "Resolve paths from a directory",
    ),
    refused(
        &["-working-directory="],
        Joined,
        "Resolve paths from a directory",
    ),
    refused(&["-external"], Separate, "External compiler library"),
    refused(&["-external-fn"], Separate, "External compiler entry point"),
    refused(&["-encoding"], Separate, "Text encoding of outputs"),
    // The rewriter.
    refused(&["-unchanged"], Flag, "Rewriter"),
    refused(&["-skip-fn-body"], Flag, "Rewriter"),
    refused(&["-skip-static"], Flag, "Rewriter"),
    refused(&["-global-extern-by-default"], Flag, "Rewriter"),
    refused(&["-keep-user-macro"], Flag, "Rewriter"),
    refused(&["-extract-entry-uniforms"], Flag, "Rewriter"),
    refused(&["-remove-unused-globals"], Flag, "Rewriter"),
    refused(&["-remove-unused-functions"], Flag, "Rewriter"),
    refused(&["-line-directive"], Flag, "Rewriter"),
    refused(&["-decl-global-cb"], Flag, "Rewriter"),
];
