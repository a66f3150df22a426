//! Source-level debug information (`-Zi`): modules compiled with it are
//! read back instruction by instruction, and their NonSemantic.Shader.
//! DebugInfo.100 line table, variables, scopes and sources are checked
//! against the source they came from.

use crate::front::ast;
use crate::tests::common;
use std::collections::{BTreeSet, HashMap};
use std::path::Path;

// NonSemantic.Shader.DebugInfo.100 opcodes (the set's specification).
const TYPE_BASIC: u32 = 2;
const TYPE_ARRAY: u32 = 5;
const TYPE_VECTOR: u32 = 6;
const TYPE_COMPOSITE: u32 = 10;
const GLOBAL_VARIABLE: u32 = 18;
const FUNCTION: u32 = 20;
const SCOPE: u32 = 23;
const INLINED_AT: u32 = 25;
const LEXICAL_BLOCK: u32 = 21;
const LOCAL_VARIABLE: u32 = 26;
const DECLARE: u32 = 28;
const VALUE: u32 = 29;
const SOURCE: u32 = 35;
const SOURCE_CONTINUED: u32 = 102;
const LINE: u32 = 103;
const ENTRY_POINT: u32 = 107;
const TYPE_MATRIX: u32 = 108;
const TYPE_MEMBER: u32 = 11;

/// The debug instructions of a module, read back from its words.
struct DebugModule {
    strings: HashMap<u32, String>,
    /// The value of each 32-bit integer or boolean constant.
    constants: HashMap<u32, u32>,
    /// Every `OpExtInst` of the debug set, in order: (result id, opcode,
    /// operand ids).
    insts: Vec<(u32, u32, Vec<u32>)>,
    by_id: HashMap<u32, usize>,
    extensions: Vec<String>,
}

impl DebugModule {
    /// Walks the words (rspirv's loader has no place for debug
    /// instructions among the globals).
    fn read(words: &[u32]) -> DebugModule {
        let mut m = DebugModule {
            strings: HashMap::new(),
            constants: HashMap::new(),
            insts: Vec::new(),
            by_id: HashMap::new(),
            extensions: Vec::new(),
        };
        let mut set = None;
        let mut at = 5;
        while at < words.len() {
            let count = (words[at] >> 16) as usize;
            assert!(
                count > 0 && at + count <= words.len(),
                "a broken instruction"
            );
            let w = &words[at..at + count];
            match w[0] & 0xffff {
                // OpString, OpExtension, OpExtInstImport
                7 => {
                    m.strings.insert(w[1], literal(&w[2..]));
                }
                10 => m.extensions.push(literal(&w[1..])),
                11 if literal(&w[2..]) == "NonSemantic.Shader.DebugInfo.100" => set = Some(w[1]),
                // OpConstantTrue, OpConstant (32-bit)
                41 => {
                    m.constants.insert(w[2], 1);
                }
                43 if count == 4 => {
                    m.constants.insert(w[2], w[3]);
                }
                // OpExtInst of the debug set
                12 if Some(w[3]) == set => {
                    m.by_id.insert(w[2], m.insts.len());
                    m.insts.push((w[2], w[4], w[5..].to_vec()));
                }
                _ => {}
            }
            at += count;
        }
        m
    }

    fn of(&self, op: u32) -> impl Iterator<Item = &Vec<u32>> {
        self.insts.iter().filter(move |i| i.1 == op).map(|i| &i.2)
    }
    fn inst(&self, id: u32) -> (u32, &[u32]) {
        let i = &self.insts[self.by_id[&id]];
        (i.1, &i.2)
    }
    fn uint(&self, id: u32) -> u32 {
        self.constants[&id]
    }
    fn string(&self, id: u32) -> &str {
        &self.strings[&id]
    }
    /// The file name of a `DebugSource`.
    fn file_of(&self, source: u32) -> String {
        let (op, ops) = self.inst(source);
        assert_eq!(op, SOURCE);
        file_name(self.string(ops[0]))
    }

    /// (file name, line) of every `DebugLine`.
    fn lines(&self) -> BTreeSet<(String, u32)> {
        self.of(LINE)
            .map(|ops| (self.file_of(ops[0]), self.uint(ops[1])))
            .collect()
    }

    /// Each `DebugSource`: file name and full text (continuations joined).
    fn sources(&self) -> Vec<(String, Option<String>)> {
        let mut out: Vec<(String, Option<String>)> = Vec::new();
        for (_, op, ops) in &self.insts {
            match *op {
                SOURCE => out.push((
                    file_name(self.string(ops[0])),
                    ops.get(1).map(|&t| self.string(t).to_string()),
                )),
                SOURCE_CONTINUED => {
                    let last = out.last_mut().expect("a continuation follows a source");
                    last.1
                        .as_mut()
                        .expect("a source with text")
                        .push_str(self.string(ops[0]));
                }
                _ => {}
            }
        }
        out
    }

    /// HLSL spelling of a debug type (`float3`, `Light`, `float[4]`).
    fn type_name(&self, id: u32) -> String {
        let (op, ops) = self.inst(id);
        match op {
            TYPE_BASIC => self.string(ops[0]).to_string(),
            TYPE_VECTOR => format!("{}{}", self.type_name(ops[0]), self.uint(ops[1])),
            TYPE_MATRIX => format!("{}x{}", self.type_name(ops[0]), self.uint(ops[1])),
            TYPE_ARRAY => format!("{}[{}]", self.type_name(ops[0]), self.uint(ops[1])),
            TYPE_COMPOSITE => self.string(ops[0]).to_string(),
            other => format!("<debug op {other}>"),
        }
    }

    /// Every `DebugLocalVariable` as `name: type` (with `#n` for
    /// parameter n), each checked to be declared or given a value.
    fn variables(&self) -> BTreeSet<String> {
        let used: BTreeSet<u32> = self
            .insts
            .iter()
            .filter(|i| i.1 == DECLARE || i.1 == VALUE)
            .map(|i| i.2[0])
            .collect();
        self.insts
            .iter()
            .filter(|i| i.1 == LOCAL_VARIABLE)
            .map(|(id, _, ops)| {
                let name = self.string(ops[0]);
                assert!(
                    used.contains(id),
                    "`{name}` has no DebugDeclare or DebugValue"
                );
                let arg = ops
                    .get(7)
                    .map_or(String::new(), |&a| format!(" #{}", self.uint(a)));
                format!("{name}: {}{arg}", self.type_name(ops[1]))
            })
            .collect()
    }

    /// (function, line of the call) of every scope of inlined code.
    fn inlined_calls(&self) -> BTreeSet<(String, u32)> {
        self.of(SCOPE)
            .filter(|ops| ops.len() == 2)
            .map(|ops| {
                // A block of inlined code lies in the inlined function.
                let (mut op, mut f) = self.inst(ops[0]);
                while op == LEXICAL_BLOCK {
                    (op, f) = self.inst(f[3]);
                }
                assert_eq!(op, FUNCTION, "an inlined scope is in a function");
                let (op, at) = self.inst(ops[1]);
                assert_eq!(op, INLINED_AT);
                (self.string(f[0]).to_string(), self.uint(at[0]))
            })
            .collect()
    }

    fn function_names(&self) -> BTreeSet<String> {
        self.of(FUNCTION)
            .map(|ops| self.string(ops[0]).to_string())
            .collect()
    }
}

/// A literal string operand: bytes up to the first NUL.
fn literal(words: &[u32]) -> String {
    let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    let end = bytes.iter().position(|&b| b == 0).unwrap_or(bytes.len());
    String::from_utf8_lossy(&bytes[..end]).into_owned()
}

fn file_name(path: &str) -> String {
    Path::new(path)
        .file_name()
        .map_or(path.to_string(), |n| n.to_string_lossy().into_owned())
}

fn compile(path: &str, args: &[&str]) -> Vec<u32> {
    let options = common::options_from_args(args).expect("options parse");
    let c = crate::compile(Path::new(path), &common::RootedLoader, &options);
    assert!(
        !c.has_errors(),
        "{path}: {}",
        c.render(crate::diag::DiagnosticFormat::Short)
    );
    c.artifact.expect("an artifact").spirv
}

/// (file name, line) of every line ending in `//@` in `files`.
fn marked_lines(files: &[&str]) -> BTreeSet<(String, u32)> {
    let mut out = BTreeSet::new();
    for f in files {
        let text = std::fs::read_to_string(common::root().join(f)).expect("readable");
        for (i, line) in text.lines().enumerate() {
            if line.trim_end().ends_with("//@") {
                out.insert((file_name(f), i as u32 + 1));
            }
        }
    }
    out
}

/// The 1-based line of the first line of `file` containing `needle`.
fn line_of(file: &str, needle: &str) -> u32 {
    let text = std::fs::read_to_string(common::root().join(file)).expect("readable");
    text.lines()
        .position(|l| l.contains(needle))
        .expect("needle") as u32
        + 1
}

const LIGHTS: &str = "tests/in/debug/debug_lights.hlsl";
const LIGHTING: &str = "tests/in/debug/lighting.hlsli";

#[test]
fn every_statement_has_a_debug_line_at_every_level() {
    let expected = marked_lines(&[LIGHTS, LIGHTING]);
    assert_eq!(expected.len(), 13, "the sample's marked statements");
    for level in ["-O0", "-O3"] {
        let words = compile(LIGHTS, &["-T", "cs_6_0", "-Zi", level]);
        let lines = DebugModule::read(&words).lines();
        let missing: Vec<_> = expected.difference(&lines).collect();
        assert!(missing.is_empty(), "{level}: no DebugLine for {missing:?}");
    }
}

#[test]
fn locals_and_parameters_are_named_and_typed() {
    for level in ["-O0", "-O3"] {
        let words = compile(LIGHTS, &["-T", "cs_6_0", "-Zi", level]);
        let vars = DebugModule::read(&words).variables();
        for v in [
            "sum: float4",
            "i: uint",
            "l: Light",
            "f: float",
            "c: float4",
            "p: float3",
            "d: float",
            "t: float",
            "light: Light #1",
            "p: float3 #2",
            "p: float3 #1",
            "count: uint #2",
            "id: uint3 #1",
        ] {
            // At -O3 the lights are read member by member from the
            // buffer: no whole value of `l` or `light` is computed, and
            // debug information keeps nothing alive (as after spirv-opt).
            if level == "-O3" && v.contains("Light") {
                assert!(!vars.contains(v), "{level}: `{v}` in {vars:?}");
                continue;
            }
            assert!(vars.contains(v), "{level}: no `{v}` in {vars:?}");
        }
    }
}

/// (file, line) where a `DebugGlobalVariable`, `DebugTypeComposite` or
/// `DebugTypeMember` named `name` says it is declared.
fn declared_at(m: &DebugModule, op: u32, name: &str) -> Option<(String, u32)> {
    m.of(op)
        .find(|ops| m.string(ops[0]) == name)
        .map(|ops| (m.file_of(ops[2]), m.uint(ops[3])))
}

#[test]
fn globals_and_structs_point_at_their_declarations() {
    let words = compile(LIGHTS, &["-T", "cs_6_0", "-Zi", "-O0"]);
    let m = DebugModule::read(&words);
    let lights = file_name(LIGHTS);
    let lighting = file_name(LIGHTING);
    for (name, needle) in [
        ("Scene", "cbuffer Scene"),
        ("Output", "RWStructuredBuffer<float4> Output"),
        ("Gain", "static float Gain"),
    ] {
        let at = declared_at(&m, GLOBAL_VARIABLE, name);
        assert_eq!(
            at,
            Some((lights.clone(), line_of(LIGHTS, needle))),
            "{name}"
        );
    }
    // Each names its variable and a debug type (the static's is `float`).
    let gain = m
        .of(GLOBAL_VARIABLE)
        .find(|ops| m.string(ops[0]) == "Gain")
        .expect("Gain");
    assert_eq!(m.type_name(gain[1]), "float");
    assert!(
        !m.by_id.contains_key(&gain[7]),
        "the variable is an OpVariable"
    );
    // The struct and its members, in the header that declares them.
    assert_eq!(
        declared_at(&m, TYPE_COMPOSITE, "Light"),
        Some((lighting.clone(), line_of(LIGHTING, "struct Light")))
    );
    assert_eq!(
        declared_at(&m, TYPE_MEMBER, "radius"),
        Some((lighting, line_of(LIGHTING, "float  radius")))
    );
    assert_eq!(
        declared_at(&m, TYPE_MEMBER, "LightCount"),
        Some((lights, line_of(LIGHTS, "uint LightCount")))
    );
}

#[test]
fn inlined_calls_point_at_the_calling_line() {
    let words = compile(LIGHTS, &["-T", "cs_6_0", "-Zi", "-O3"]);
    let m = DebugModule::read(&words);
    let calls = m.inlined_calls();
    let falloff = line_of(LIGHTS, "Falloff(l, p)");
    let shade = line_of(LIGHTS, "Shade(p, LightCount)");
    assert!(
        calls.contains(&("Falloff".to_string(), falloff)),
        "{calls:?}"
    );
    assert!(calls.contains(&("Shade".to_string(), shade)), "{calls:?}");
    // -O0 calls the functions: each is a DebugFunction of its own, and
    // nothing is inlined.
    let words = compile(LIGHTS, &["-T", "cs_6_0", "-Zi", "-O0"]);
    let m = DebugModule::read(&words);
    assert!(m.inlined_calls().is_empty());
    let names = m.function_names();
    for f in ["Falloff", "Shade", "main"] {
        assert!(names.contains(f), "{names:?}");
    }
}

#[test]
fn sources_hold_each_file_and_its_text() {
    let words = compile(LIGHTS, &["-T", "cs_6_0", "-Zi"]);
    // The preprocessor's own inputs (`<built-in>`: the predefined macros)
    // are sources too; the files follow in the order they were read.
    let sources: Vec<_> = DebugModule::read(&words)
        .sources()
        .into_iter()
        .filter(|s| !s.0.starts_with('<'))
        .collect();
    let names: Vec<&str> = sources.iter().map(|s| s.0.as_str()).collect();
    assert_eq!(names, ["debug_lights.hlsl", "lighting.hlsli"]);
    for (path, (_, text)) in [LIGHTS, LIGHTING].iter().zip(&sources) {
        let expected = std::fs::read_to_string(common::root().join(path)).expect("readable");
        assert_eq!(text.as_deref(), Some(expected.as_str()), "{path}");
    }
    // `vulkan` names the files without their text.
    let words = compile(LIGHTS, &["-T", "cs_6_0", "-fspv-debug=vulkan"]);
    let sources = DebugModule::read(&words).sources();
    assert!(sources.iter().all(|s| s.1.is_none()), "{sources:?}");
}

#[test]
fn long_sources_continue_in_debug_source_continued() {
    let options = common::options_from_args(&["-T", "cs_6_0", "-Zi"]).expect("options");
    let (c, module) = crate::compile_to_ir(Path::new(LIGHTS), &common::RootedLoader, &options);
    let mut module = module.expect("the sample lowers");
    let mut diags = crate::diag::Diagnostics::new();
    crate::passes::run(&mut module, &options.pipeline_options(), &mut diags);
    let mut input = crate::back::spv::DebugInput::new(&c.source_map, true, String::new());
    input.max_string_bytes = 100;
    let back = crate::back::spv::Options {
        debug_names: true,
        ..Default::default()
    };
    let words = crate::back::spv::write_with_debug(&module, &back, Some(&input)).expect("writes");
    common::spirv_val(&words, "vulkan1.0").expect("valid");
    let m = DebugModule::read(&words);
    assert!(m.of(SOURCE_CONTINUED).count() > 10);
    assert!(
        m.of(SOURCE_CONTINUED)
            .all(|ops| m.string(ops[0]).len() <= 100)
    );
    let text = std::fs::read_to_string(common::root().join(LIGHTS)).expect("readable");
    assert_eq!(m.sources()[0].1.as_deref(), Some(text.as_str()));
}

#[test]
fn debug_modules_validate_at_every_target() {
    let cases = [
        (LIGHTS, "cs_6_0"),
        ("samples/blur.hlsl", "cs_6_0"),
        ("samples/skinning.hlsl", "vs_6_0"),
        ("samples/tonemap.hlsl", "vs_6_0"),
    ];
    for (path, profile) in cases {
        let entry = if path.ends_with("tonemap.hlsl") {
            "FullscreenVS"
        } else {
            "main"
        };
        for env in ["vulkan1.0", "vulkan1.1", "vulkan1.2", "vulkan1.3"] {
            for level in ["-O0", "-O3"] {
                let target = format!("-fspv-target-env={env}");
                let words = compile(path, &["-T", profile, "-E", entry, "-Zi", level, &target]);
                if let Err(e) = common::spirv_val(&words, env) {
                    panic!("{path} {env} {level}: {e}");
                }
                let m = DebugModule::read(&words);
                assert_eq!(m.of(ENTRY_POINT).count(), 1, "{path}");
                // An extension below SPIR-V 1.6; core in it.
                let ext = m
                    .extensions
                    .iter()
                    .any(|e| e == "SPV_KHR_non_semantic_info");
                assert_eq!(ext, env != "vulkan1.3", "{path} {env}");
            }
        }
    }
}

/// (file name, line) of each statement of the functions named in
/// `functions`, from the AST.
fn statement_lines(path: &str, functions: &BTreeSet<String>) -> BTreeSet<(String, u32)> {
    let options = common::options_from_args(&["-T", "cs_6_0"]).expect("options");
    let (parsed, sm, _) = crate::parse(Path::new(path), &common::RootedLoader, &options);
    let mut out = BTreeSet::new();
    let mut stack: Vec<&ast::Stmt> = Vec::new();
    for item in &parsed.unit.items {
        if let ast::Item::Function(f) = item
            && let Some(body) = &f.body
            && functions.contains(f.name.last().name.as_str())
        {
            stack.extend(&body.stmts);
        }
    }
    while let Some(s) = stack.pop() {
        use ast::StmtKind as S;
        match &s.kind {
            S::Block(b) => stack.extend(&b.stmts),
            S::If { then, else_, .. } => {
                stack.push(then);
                stack.extend(else_.as_deref());
            }
            S::For { init, body, .. } => {
                stack.extend(init.as_deref());
                stack.push(body);
            }
            S::While { body, .. } | S::DoWhile { body, .. } => stack.push(body),
            S::Switch { body, .. } => stack.extend(&body.stmts),
            _ => {}
        }
        if matches!(
            s.kind,
            S::Expr(_)
                | S::Decl(_)
                | S::If { .. }
                | S::For { .. }
                | S::While { .. }
                | S::DoWhile { .. }
                | S::Switch { .. }
                | S::Break
                | S::Continue
                | S::Discard
                | S::Return(_)
        ) {
            let fs = sm
                .file_span(sm.expansion_site(s.span))
                .expect("a file span");
            let (line, _) = sm.line_col(fs.file, fs.range.start);
            out.insert((file_name(&sm.file(fs.file).name), line as u32));
        }
    }
    out
}

#[test]
fn the_blur_sample_has_a_line_for_every_statement() {
    for level in ["-O0", "-O3"] {
        let words = compile("samples/blur.hlsl", &["-T", "cs_6_0", "-Zi", level]);
        let m = DebugModule::read(&words);
        let mut functions = m.function_names();
        functions.insert("main".into());
        let mut expected = statement_lines("samples/blur.hlsl", &functions);
        assert!(expected.len() > 15, "{expected:?}");
        if level == "-O3" {
            // The `[unroll]` loop's own statement leaves no code once
            // unrolled: a line that describes no instruction goes (as
            // spirv-opt's do). Its body's statements keep theirs.
            let unrolled = line_of("samples/blur.hlsl", "[unroll]");
            assert!(expected.remove(&("blur.hlsl".to_string(), unrolled)));
        }
        let lines = m.lines();
        let missing: Vec<_> = expected.difference(&lines).collect();
        assert!(missing.is_empty(), "{level}: no DebugLine for {missing:?}");
        let vars = m.variables();
        assert!(
            vars.iter().any(|v| v.starts_with("sum: float4")),
            "{vars:?}"
        );
    }
}

#[test]
fn without_zi_there_is_no_debug_information() {
    let words = compile(LIGHTS, &["-T", "cs_6_0"]);
    let m = DebugModule::read(&words);
    assert!(m.insts.is_empty());
    assert!(m.strings.is_empty());
    // And -Zi changes only what debug information adds: the same
    // arithmetic, control flow, locals and stores (debug information
    // keeps nothing alive: a DebugValue tells what a removed local held).
    let plain = common::spirv_dis(&words);
    let debug = common::spirv_dis(&compile(LIGHTS, &["-T", "cs_6_0", "-Zi"]));
    let count = |text: &str, op: &str| text.matches(op).count();
    for op in [
        "OpFMul",
        "OpLoopMerge",
        "OpSelectionMerge",
        "OpStore",
        "OpVariable",
    ] {
        assert_eq!(count(&plain, op), count(&debug, op), "{op}");
    }
}

/// `-Fc` and the disassembly on stdout: a `-Zi` module (extended
/// instructions among the globals, which rspirv's module loader refuses)
/// is still written out, instruction by instruction.
#[test]
fn debug_modules_disassemble() {
    let words = compile("samples/blur.hlsl", &["-T", "cs_6_0", "-E", "main", "-Zi"]);
    let text = crate::disassemble(&words);
    assert!(!text.contains("could not disassemble"), "{text}");
    assert!(
        text.contains("OpExtInstImport \"NonSemantic.Shader.DebugInfo.100\""),
        "{text}"
    );
    assert!(text.starts_with("; SPIR-V\n; Version: "), "{text}");
    let ops = text.lines().filter(|l| l.contains("OpExtInst ")).count();
    assert!(ops > 20, "{text}");
    assert!(text.contains("OpFunctionEnd"), "{text}");
}

/// A NUL byte in a source file (here in a comment) cannot be in a SPIR-V
/// string, which ends at the first one: the embedded text has U+FFFD in
/// its place, and the module validates.
#[test]
fn a_nul_in_the_source_text_is_replaced() {
    let (loader, path) = common::single_file(
        "// a \0 in a comment\nRWStructuredBuffer<uint> o;\n\
         [numthreads(1, 1, 1)] void main() { o[0] = 1; }\n",
    );
    let options = common::options_from_args(&["-T", "cs_6_0", "-E", "main", "-Zi"]).expect("options");
    let c = crate::compile(&path, &loader, &options);
    assert!(!c.has_errors(), "{:?}", c.diagnostics.list);
    let words = c.artifact.expect("an artifact").spirv;
    common::spirv_val(&words, "vulkan1.0").expect("valid");
    let sources = DebugModule::read(&words).sources();
    let text = sources.iter().find_map(|s| s.1.clone().filter(|t| t.contains("comment")));
    assert_eq!(
        text.as_deref(),
        Some(
            "// a \u{FFFD} in a comment\nRWStructuredBuffer<uint> o;\n\
             [numthreads(1, 1, 1)] void main() { o[0] = 1; }\n"
        )
    );
}
