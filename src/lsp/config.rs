//! Which options a document is compiled with.
//!
//! Two sources, the second overriding the first:
//! 1. workspace settings: `initializationOptions` of `initialize`, or the
//!    settings of `workspace/didChangeConfiguration` (either the object itself
//!    or its `hlslc` member):
//!    `{"profile": "cs_6_0", "entry": "main", "defines": ["A=1", "B"] or
//!    {"A": "1", "B": null}, "includeDirs": ["include"],
//!    "args": ["-fvk-t-shift", "10", "0"]}` (relative include directories
//!    are relative to the workspace root; `args` are DXC's flags, read by
//!    the compiler's one argument parser after the other settings);
//! 2. the document's own command line: the first `// … hlslc ARGS` line among
//!    the comment lines that open the file, as the samples write
//!    `// Compile:  hlslc -spirv -T cs_6_0 -E main samples/blur.hlsl`.
//!    It is read by the compiler's one argument parser
//!    ([`CommandLine::parse`]), as `hlslc` would read it; outputs are
//!    ignored, problems with the arguments go to the log and the rest of
//!    the line still counts. Relative `-I` directories are relative to the
//!    workspace root (or the document's directory without one).
//!
//! With a profile the document is fully compiled; without one it is
//! checked as a library ([`crate::check`]). The entry counts as named
//! (`Options::entry_named`) when the `entry` setting or a `-E` gives it.

use crate::options::{CommandLine, Options, Profile};
use serde_json::Value;
use std::path::{Path, PathBuf};

/// Settings from the client.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Settings {
    pub profile: Option<Profile>,
    pub entry: Option<String>,
    pub defines: Vec<(String, Option<String>)>,
    pub include_dirs: Vec<PathBuf>,
    /// `args`: DXC command-line flags.
    pub args: Vec<String>,
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
        s.args = read_args(obj.get("args"), &mut warnings);
        (s, warnings)
    }
}

/// The `args` setting: a list of strings, checked by the compiler's
/// argument parser now, so that a mistake is reported once, when the
/// settings arrive. Arguments it cannot read are still passed on: the
/// parser skips them and honours the rest, as on the command line.
fn read_args(value: Option<&Value>, warnings: &mut Vec<String>) -> Vec<String> {
    let items = match value {
        Some(Value::Array(items)) => items,
        Some(Value::Null) | None => return Vec::new(),
        Some(other) => {
            warnings.push(format!(
                "settings: args must be a list of strings such as [\"-fvk-t-shift\", \"10\", \"0\"], not {other}"
            ));
            return Vec::new();
        }
    };
    let mut args = Vec::new();
    for a in items {
        match a.as_str() {
            Some(a) => args.push(a.to_string()),
            None => warnings.push(format!("settings: args: {a} is not a string")),
        }
    }
    let cl = CommandLine::parse(&args);
    warnings.extend(
        cl.diagnostics
            .iter()
            .map(|d| format!("settings: args: {}", d.message)),
    );
    args
}

fn resolve_dir(dir: impl AsRef<Path>, base: Option<&Path>) -> PathBuf {
    let p = dir.as_ref();
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
        o.entry_named = true;
    }
    let mut warnings = Vec::new();
    let mut args = settings.args.clone();
    let from_settings = args.len();
    args.extend(command_line_in(text).unwrap_or_default());
    if !args.is_empty() {
        let base = root.or(path.parent());
        let mut all = Vec::new();
        apply_args(&args, &mut o, base, &mut all);
        // The settings' own problems were reported when they arrived.
        let settings_only = CommandLine::parse(&args[..from_settings]).diagnostics;
        warnings.extend(
            all.into_iter()
                .filter(|w| !settings_only.iter().any(|d| &d.message == w)),
        );
    }
    (o, warnings)
}

/// Applies a document's `hlslc` arguments to `o`, the options from the
/// settings, as if they followed the settings on one command line: what
/// the document sets replaces the settings, its `-D` and `-I` come after
/// theirs (its relative `-I` directories resolved against `base`).
/// Problems with the arguments become messages for the log.
pub fn apply_args(
    args: &[String],
    o: &mut Options,
    base: Option<&Path>,
    warnings: &mut Vec<String>,
) {
    let mut line: Vec<String> = Vec::new();
    if let Some(p) = o.profile {
        line.extend(["-T".to_string(), p.to_string()]);
    }
    if o.entry_named {
        line.extend(["-E".to_string(), o.entry.clone()]);
    }
    for (name, value) in &o.defines {
        line.push("-D".into());
        line.push(match value {
            Some(v) => format!("{name}={v}"),
            None => name.clone(),
        });
    }
    for dir in &o.include_dirs {
        line.push("-I".into());
        line.push(dir.display().to_string());
    }
    let from_settings = o.include_dirs.len();
    line.extend(args.iter().cloned());
    let cl = CommandLine::parse(&line);
    warnings.extend(cl.diagnostics.iter().map(|d| d.message.clone()));
    *o = cl.options;
    for dir in &mut o.include_dirs[from_settings..] {
        *dir = resolve_dir(&*dir, base);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::options::{LayoutRule, RegisterClass, Stage, TargetEnv};

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
        assert_eq!(
            w,
            vec!["unknown option '-bogus' (hlslc --help lists the options)"]
        );
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
