//! Which options a document is compiled with.
//!
//! Two sources, the second overriding the first:
//! 1. workspace settings: `initializationOptions` of `initialize`, or the
//!    settings of `workspace/didChangeConfiguration` (either the object itself
//!    or its `hlslc` member):
//!    `{"profile": "cs_6_0", "entry": "main", "defines": ["A=1", "B"] or
//!    {"A": "1", "B": null}, "includeDirs": ["include"]}` (relative include
//!    directories are relative to the workspace root);
//! 2. the document's own command line: the first `// … hlslc ARGS` line among
//!    the comment lines that open the file, as the samples write
//!    `// Compile:  hlslc -spirv -T cs_6_0 -E main samples/blur.hlsl`.
//!    The flags that change diagnostics are understood (`-T`, `-E`, `-D`,
//!    `-I`, `-HV`, `-O`, `-enable-16bit-types`, `-Zpr`/`-Zpc`,
//!    `-fspv-target-env=`, `-fspv-entrypoint-name=`, `-fvk-*` layouts,
//!    shifts and bindings, `-Gis`, `--verify-ir`); output flags are
//!    skipped; relative `-I` directories are relative to the workspace root
//!    (or the document's directory without one).
//!
//! With a profile the document is fully compiled (semantic diagnostics
//! included); without one only preprocessed and parsed.

use crate::options::{
    BindRegister, LayoutRule, MatrixLayout, Options, Profile, RegisterClass, TargetEnv,
};
use serde_json::Value;
use std::path::{Path, PathBuf};

/// Settings from the client.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Settings {
    pub profile: Option<Profile>,
    pub entry: Option<String>,
    pub defines: Vec<(String, Option<String>)>,
    pub include_dirs: Vec<PathBuf>,
}

impl Settings {
    /// Reads settings from the client's JSON, resolving relative include
    /// directories against `root`. Values that cannot be used are skipped
    /// with a message for the log.
    pub fn from_json(value: &Value, root: Option<&Path>) -> (Settings, Vec<String>) {
        let mut warnings = Vec::new();
        let mut s = Settings::default();
        let value = value.get("hlslc").unwrap_or(value);
        let Some(obj) = value.as_object() else {
            if !value.is_null() {
                warnings.push(format!("settings: expected an object, found {value}"));
            }
            return (s, warnings);
        };
        match obj.get("profile") {
            Some(Value::String(p)) => match Profile::parse(p) {
                Some(p) => s.profile = Some(p),
                None => warnings.push(format!("settings: unknown profile '{p}'")),
            },
            Some(Value::Null) | None => {}
            Some(other) => {
                warnings.push(format!("settings: profile must be a string, not {other}"))
            }
        }
        if let Some(Value::String(e)) = obj.get("entry") {
            s.entry = Some(e.clone());
        }
        match obj.get("defines") {
            Some(Value::Array(items)) => {
                for d in items {
                    match d.as_str() {
                        Some(d) => s.defines.push(split_define(d)),
                        None => warnings.push(format!("settings: define {d} is not a string")),
                    }
                }
            }
            Some(Value::Object(map)) => {
                for (name, v) in map {
                    let value = match v {
                        Value::Null => None,
                        Value::String(s) => Some(s.clone()),
                        other => Some(other.to_string()),
                    };
                    s.defines.push((name.clone(), value));
                }
            }
            Some(Value::Null) | None => {}
            Some(other) => warnings.push(format!(
                "settings: defines must be a list or an object, not {other}"
            )),
        }
        if let Some(Value::Array(dirs)) = obj.get("includeDirs") {
            for d in dirs.iter().filter_map(Value::as_str) {
                s.include_dirs.push(resolve_dir(d, root));
            }
        }
        (s, warnings)
    }
}

fn resolve_dir(dir: &str, base: Option<&Path>) -> PathBuf {
    let p = Path::new(dir);
    match base {
        Some(b) if p.is_relative() => super::paths::normalize(&b.join(p)),
        _ => p.to_path_buf(),
    }
}

fn split_define(d: &str) -> (String, Option<String>) {
    match d.split_once('=') {
        Some((n, v)) => (n.to_string(), Some(v.to_string())),
        None => (d.to_string(), None),
    }
}

/// The arguments of the document's `hlslc` command line, if its opening
/// comment lines have one.
pub fn command_line_in(text: &str) -> Option<Vec<String>> {
    for line in text.lines().take(64) {
        let line = line.trim();
        if line.is_empty() {
            continue;
        }
        let comment = line.strip_prefix("//")?;
        // `// hlslc …` or `// Compile:  hlslc …`
        let mut words = comment.split_whitespace();
        let first = words.next();
        let found = match first {
            Some("hlslc") => true,
            Some(w) if w.ends_with(':') => words.next() == Some("hlslc"),
            _ => false,
        };
        if found {
            return Some(words.map(str::to_string).collect());
        }
    }
    None
}

/// The options for a document: `settings`, then its own command line.
/// Returns the options and messages about arguments that were not
/// understood.
pub fn options_for(
    text: &str,
    path: &Path,
    settings: &Settings,
    root: Option<&Path>,
) -> (Options, Vec<String>) {
    let mut o = Options {
        profile: settings.profile,
        defines: settings.defines.clone(),
        include_dirs: settings.include_dirs.clone(),
        ..Options::default()
    };
    if let Some(e) = &settings.entry {
        o.entry = e.clone();
    }
    let mut warnings = Vec::new();
    if let Some(args) = command_line_in(text) {
        let base = root.or(path.parent());
        apply_args(&args, &mut o, base, &mut warnings);
    }
    (o, warnings)
}

/// Applies DXC-style arguments to `o`.
pub fn apply_args(
    args: &[String],
    o: &mut Options,
    base: Option<&Path>,
    warnings: &mut Vec<String>,
) {
    let mut it = args.iter().map(String::as_str).peekable();
    // The value of a flag, attached (`-Tcs_6_0`) or in the next argument.
    fn value<'a>(
        arg: &'a str,
        flag: &str,
        it: &mut std::iter::Peekable<impl Iterator<Item = &'a str>>,
    ) -> Option<&'a str> {
        let rest = &arg[flag.len()..];
        if rest.is_empty() {
            it.next()
        } else {
            Some(rest)
        }
    }
    fn number(s: Option<&str>) -> Option<u32> {
        s?.parse().ok()
    }
    while let Some(arg) = it.next() {
        let Some(flag) = arg.strip_prefix('-') else {
            continue; // the input file
        };
        let flag = flag.strip_prefix('-').unwrap_or(flag);
        let arg = &arg[arg.len() - flag.len() - 1..];
        match flag {
            "spirv" | "fcgl" | "Vd" | "Zi" | "WX" | "no-warnings" | "MD" | "P" | "fsyntax-only"
            | "no-color" | "Zpc" => {}
            "enable-16bit-types" => o.enable_16bit_types = true,
            "verify-ir" => o.verify_ir = true,
            "Zpr" => o.matrix_layout = MatrixLayout::RowMajor,
            "Od" => o.opt_level = 0,
            "Gis" => o.ieee_strict = true,
            "fspv-reflect" => o.spv_reflect = true,
            "fvk-invert-y" => o.invert_y = true,
            "fvk-use-dx-position-w" => o.dx_position_w = true,
            "fvk-auto-shift-bindings" => o.auto_shift_bindings = true,
            "fvk-use-dx-layout" => o.layout = LayoutRule::Dx,
            "fvk-use-gl-layout" => o.layout = LayoutRule::Gl,
            "fvk-use-scalar-layout" => o.layout = LayoutRule::Scalar,
            "fvk-b-shift" | "fvk-s-shift" | "fvk-t-shift" | "fvk-u-shift" => {
                let class = match flag.as_bytes()[4] {
                    b'b' => RegisterClass::B,
                    b's' => RegisterClass::S,
                    b't' => RegisterClass::T,
                    _ => RegisterClass::U,
                };
                let shift = number(it.next());
                let space = it.next();
                match (shift, space) {
                    (Some(shift), Some("all")) => o.register_shifts.push((class, shift, None)),
                    (Some(shift), Some(s)) if s.parse::<u32>().is_ok() => {
                        o.register_shifts.push((class, shift, s.parse().ok()))
                    }
                    _ => warnings.push(format!("{arg}: expected SHIFT SPACE")),
                }
            }
            "fvk-bind-register" => {
                let reg = it.next().unwrap_or("");
                let nums: Vec<Option<u32>> = (0..3).map(|_| number(it.next())).collect();
                let class = match reg.as_bytes().first() {
                    Some(b'b') => Some(RegisterClass::B),
                    Some(b's') => Some(RegisterClass::S),
                    Some(b't') => Some(RegisterClass::T),
                    Some(b'u') => Some(RegisterClass::U),
                    _ => None,
                };
                match (class, reg.get(1..).and_then(|r| r.parse().ok()), &nums[..]) {
                    (Some(class), Some(register), [Some(space), Some(binding), Some(set)]) => {
                        o.bind_registers.push(BindRegister {
                            class,
                            register,
                            space: *space,
                            binding: *binding,
                            set: *set,
                        })
                    }
                    _ => warnings.push(format!("{arg}: expected REGISTER SPACE BINDING SET")),
                }
            }
            "fvk-bind-globals" => match (number(it.next()), number(it.next())) {
                (Some(b), Some(s)) => o.bind_globals = Some((b, s)),
                _ => warnings.push(format!("{arg}: expected BINDING SET")),
            },
            // Outputs and output formats: their values are not options.
            "Fo" | "Fc" | "Fre" | "Fi" | "MF" | "emit" | "diagnostics-format" | "denorm" => {
                it.next();
            }
            _ if flag.starts_with("fspv-target-env=") => {
                let env = &flag["fspv-target-env=".len()..];
                match TargetEnv::parse(env) {
                    Some(e) => o.target_env = e,
                    None => warnings.push(format!("unknown target environment '{env}'")),
                }
            }
            _ if flag.starts_with("fspv-entrypoint-name=") => {
                o.entrypoint_name = Some(flag["fspv-entrypoint-name=".len()..].to_string());
            }
            _ if flag.starts_with("HV") => match value(arg, "-HV", &mut it) {
                Some("202x") => o.hlsl_version = 2029,
                v => match number(v) {
                    Some(v) => o.hlsl_version = v,
                    None => warnings.push(format!("{arg}: expected an HLSL version")),
                },
            },
            _ if flag.starts_with('T') => match value(arg, "-T", &mut it).map(Profile::parse) {
                Some(Some(p)) => o.profile = Some(p),
                _ => warnings.push(format!("{arg}: unknown target profile")),
            },
            _ if flag.starts_with('E') => {
                if let Some(e) = value(arg, "-E", &mut it) {
                    o.entry = e.to_string();
                }
            }
            _ if flag.starts_with('D') => {
                if let Some(d) = value(arg, "-D", &mut it) {
                    o.defines.push(split_define(d));
                }
            }
            _ if flag.starts_with('I') => {
                if let Some(d) = value(arg, "-I", &mut it) {
                    o.include_dirs.push(resolve_dir(d, base));
                }
            }
            _ if flag.starts_with('O') => match &flag[1..] {
                "0" | "d" => o.opt_level = 0,
                "1" => o.opt_level = 1,
                "2" => o.opt_level = 2,
                "3" => o.opt_level = 3,
                _ => warnings.push(format!("{arg}: unknown optimisation level")),
            },
            // Anything else hlslc may learn later does not stop the others.
            _ => warnings.push(format!("ignored option {arg}")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::options::Stage;

    #[test]
    fn finds_the_command_line_in_the_opening_comments() {
        let text = "// blur.hlsl — a blur\n//\n// Compile:  hlslc -spirv -T cs_6_0 -E main blur.hlsl -Fo blur.spv\n//           hlslc -T ps_6_0 x\nfloat x;";
        assert_eq!(
            command_line_in(text).unwrap(),
            vec![
                "-spirv",
                "-T",
                "cs_6_0",
                "-E",
                "main",
                "blur.hlsl",
                "-Fo",
                "blur.spv"
            ]
        );
        assert_eq!(
            command_line_in("// hlslc -Tps_6_0\n").unwrap(),
            vec!["-Tps_6_0"]
        );
        // Only the opening comment block counts.
        assert_eq!(command_line_in("float x;\n// hlslc -T cs_6_0\n"), None);
        assert_eq!(command_line_in("// compile with hlslc -T cs_6_0\n"), None);
    }

    #[test]
    fn document_options_override_settings() {
        let (settings, w) = Settings::from_json(
            &serde_json::json!({
                "profile": "vs_6_0",
                "entry": "VSMain",
                "defines": ["A=1", "B"],
                "includeDirs": ["inc", "/abs"]
            }),
            Some(Path::new("/ws")),
        );
        assert!(w.is_empty(), "{w:?}");
        assert_eq!(settings.profile.unwrap().stage, Stage::Vertex);
        assert_eq!(
            settings.include_dirs,
            vec![PathBuf::from("/ws/inc"), PathBuf::from("/abs")]
        );
        let text = "// hlslc -T cs_6_2 -E CSMain -DC=3 -I ../shared -fvk-use-scalar-layout \
                    -fvk-b-shift 16 0 -fspv-target-env=vulkan1.2 -Fo x.spv -O1 -bogus a.hlsl\n";
        let (o, w) = options_for(
            text,
            Path::new("/ws/a.hlsl"),
            &settings,
            Some(Path::new("/ws")),
        );
        assert_eq!(w, vec!["ignored option -bogus"]);
        let p = o.profile.unwrap();
        assert_eq!((p.stage, p.minor), (Stage::Compute, 2));
        assert_eq!(o.entry, "CSMain");
        assert_eq!(
            o.defines,
            vec![
                ("A".into(), Some("1".into())),
                ("B".into(), None),
                ("C".into(), Some("3".into()))
            ]
        );
        assert_eq!(o.include_dirs.last().unwrap(), &PathBuf::from("/shared"));
        assert_eq!(o.layout, LayoutRule::Scalar);
        assert_eq!(o.register_shifts, vec![(RegisterClass::B, 16, Some(0))]);
        assert_eq!(o.target_env, TargetEnv::Vulkan1_2);
        assert_eq!(o.opt_level, 1);

        let (s2, w) = Settings::from_json(
            &serde_json::json!({"hlslc": {"profile": "xx", "defines": {"K": null, "V": 2}}}),
            None,
        );
        assert_eq!(w, vec!["settings: unknown profile 'xx'"]);
        assert_eq!(
            s2.defines,
            vec![("K".into(), None), ("V".into(), Some("2".into()))]
        );
        // No profile anywhere: syntax only.
        let (o, _) = options_for("float x;", Path::new("/a.hlsl"), &Settings::default(), None);
        assert!(o.profile.is_none());
    }

    #[test]
    fn verify_ir_in_the_command_line_turns_the_validator_on() {
        let (o, w) = options_for(
            "// hlslc -T cs_6_0 --verify-ir a.hlsl\n",
            Path::new("/a.hlsl"),
            &Settings::default(),
            None,
        );
        assert!(w.is_empty(), "{w:?}");
        assert!(o.verify_ir);
    }

    #[test]
    fn broken_arguments_do_not_panic() {
        let mut o = Options::default();
        let mut w = Vec::new();
        for args in [
            vec!["-T"],
            vec!["-fvk-bind-register"],
            vec!["-fvk-bind-register", "x1", "a", "b"],
            vec!["-fvk-t-shift", "1"],
            vec!["-"],
            vec!["--"],
            vec!["-HV"],
            vec!["-O"],
            vec!["-fvk-bind-globals", "1"],
        ] {
            let args: Vec<String> = args.into_iter().map(String::from).collect();
            apply_args(&args, &mut o, None, &mut w);
        }
        assert!(!w.is_empty());
    }
}
