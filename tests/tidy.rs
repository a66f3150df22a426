//! Rules about the source tree that keep themselves, as rust-analyzer's
//! tidy tests do: the layers of `src/` that README's Architecture section
//! lists (a module imports only from layers below its own), and the size
//! limits of files and functions.

use crate::common;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The layers of README's "Layers" list, bottom first: each numbered line
/// names the top-level modules of `src/` in that layer as `` `name` ``
/// (`lib.rs` for the crate root's own items).
fn layers_from_readme() -> Vec<Vec<String>> {
    let readme = std::fs::read_to_string(common::root().join("README.md")).unwrap();
    let section = readme
        .split("### Layers")
        .nth(1)
        .expect("README has a `### Layers` section");
    let mut layers = Vec::new();
    for line in section.lines().skip(1) {
        let t = line.trim_start();
        if t.starts_with('#') {
            break;
        }
        let Some((number, rest)) = t.split_once(". ") else {
            continue;
        };
        if number.parse::<u32>().is_err() {
            continue;
        }
        // The modules are the code spans before the first dash.
        let names = rest.split(" — ").next().unwrap_or("");
        let layer: Vec<String> = names
            .split('`')
            .skip(1)
            .step_by(2)
            .map(|n| match n.trim_end_matches(".rs") {
                "lib" => "crate".to_string(),
                m => m.to_string(),
            })
            .collect();
        assert!(!layer.is_empty(), "a layer without modules: {line}");
        layers.push(layer);
    }
    layers
}

/// Every `.rs` file under `dir`, sorted.
fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            out.extend(rust_files(&p));
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
    out.sort();
    out
}

/// The code of a file without comments and without its test-only parts:
/// a file named `tests.rs` or under a `tests/` folder is all test code,
/// and a `#[cfg(test)]` item (a `mod tests { … }` at a file's end, a
/// helper) is skipped to its end.
fn code_lines(path: &Path, text: &str) -> Vec<(usize, String)> {
    let in_tests = path
        .file_name()
        .is_some_and(|n| n == "tests.rs" || n == "test_util.rs")
        || path.components().any(|c| c.as_os_str() == "tests");
    if in_tests {
        return Vec::new();
    }
    let mut out = Vec::new();
    let mut skip_item = false;
    let mut depth = 0i32;
    let mut block_comment = false;
    for (i, line) in text.lines().enumerate() {
        let mut code = line.to_string();
        if block_comment {
            match code.find("*/") {
                Some(e) => {
                    code = code[e + 2..].to_string();
                    block_comment = false;
                }
                None => continue,
            }
        }
        if let Some(s) = code.find("/*") {
            block_comment = !code[s..].contains("*/");
            code.truncate(s);
        }
        if let Some(c) = code.find("//") {
            code.truncate(c);
        }
        if code.trim() == "#[cfg(test)]" {
            skip_item = true;
            depth = 0;
            continue;
        }
        if skip_item {
            depth += code.matches('{').count() as i32 - code.matches('}').count() as i32;
            // The item ends where its braces close, or at its `;`.
            if depth <= 0 && (code.contains('}') || code.trim_end().ends_with(';')) {
                skip_item = false;
            }
            continue;
        }
        out.push((i + 1, code));
    }
    out
}

/// The top-level module a file of `src/` belongs to (`crate` for
/// `lib.rs`, `main` for the binary).
fn module_of(src: &Path, path: &Path) -> String {
    let rel = path.strip_prefix(src).unwrap();
    let first = rel
        .components()
        .next()
        .unwrap()
        .as_os_str()
        .to_string_lossy();
    match first.trim_end_matches(".rs") {
        "lib" => "crate".to_string(),
        m => m.to_string(),
    }
}

#[test]
fn modules_import_only_from_layers_below_their_own() {
    let layers = layers_from_readme();
    let layer_of: BTreeMap<String, usize> = layers
        .iter()
        .enumerate()
        .flat_map(|(i, l)| l.iter().map(move |m| (m.clone(), i)))
        .collect();
    let src = common::root().join("src");
    let mut modules: Vec<String> = std::fs::read_dir(&src)
        .unwrap()
        .map(|e| e.unwrap().path())
        .map(|p| module_of(&src, &p))
        .filter(|m| m != "main")
        .collect();
    modules.sort();
    modules.dedup();
    for m in &modules {
        assert!(
            layer_of.contains_key(m),
            "src/{m} is in no layer of README's Layers list"
        );
    }
    let mut wrong = Vec::new();
    for path in rust_files(&src) {
        let from = module_of(&src, &path);
        let Some(&from_layer) = layer_of.get(&from) else {
            continue; // the binary, src/main.rs, uses the public API only
        };
        let text = std::fs::read_to_string(&path).unwrap();
        for (line, code) in code_lines(&path, &text) {
            for (at, _) in code.match_indices("crate::") {
                let name: String = code[at + 7..]
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_')
                    .collect();
                // `crate::{a, b}` and `crate::Item` of the crate root.
                let to = if modules.contains(&name) {
                    name
                } else {
                    "crate".to_string()
                };
                if to == from {
                    continue;
                }
                let to_layer = layer_of[&to];
                if to_layer >= from_layer {
                    wrong.push(format!(
                        "{}:{line}: `{from}` (layer {}) imports from `{to}` (layer {})",
                        path.strip_prefix(common::root()).unwrap().display(),
                        from_layer + 1,
                        to_layer + 1
                    ));
                }
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "imports against README's layers:\n{}",
        wrong.join("\n")
    );
}

/// No file of `src/` is over 900 lines (the IR's definition, `ir/mod.rs`,
/// over 1,400), and no function over 220.
#[test]
fn files_and_functions_stay_small() {
    let src = common::root().join("src");
    let mut wrong = Vec::new();
    for path in rust_files(&src) {
        let text = std::fs::read_to_string(&path).unwrap();
        let name = path
            .strip_prefix(common::root())
            .unwrap()
            .display()
            .to_string();
        let limit = if name == "src/ir/mod.rs" { 1400 } else { 900 };
        let lines: Vec<&str> = text.lines().collect();
        if lines.len() > limit {
            wrong.push(format!("{name}: {} lines (limit {limit})", lines.len()));
        }
        for (n, f, start) in long_functions(&lines, 220) {
            wrong.push(format!("{name}:{start}: fn {f} has {n} lines (limit 220)"));
        }
    }
    assert!(wrong.is_empty(), "too long:\n{}", wrong.join("\n"));
}

/// The functions of `lines` longer than `limit` lines: (length, name,
/// first line). A function runs from its `fn` line to the `}` at the
/// same indentation (rustfmt's layout).
fn long_functions(lines: &[&str], limit: usize) -> Vec<(usize, String, usize)> {
    let mut out = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let t = line.trim_start();
        let indent = line.len() - t.len();
        let sig = ["pub ", "pub(crate) ", "pub(super) ", "const ", "unsafe "]
            .iter()
            .fold(t, |t, p| t.strip_prefix(p).unwrap_or(t));
        let Some(rest) = sig.strip_prefix("fn ") else {
            continue;
        };
        if t.ends_with(';') {
            continue;
        }
        let name: String = rest
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        let closing = " ".repeat(indent) + "}";
        if let Some(end) = lines[i + 1..].iter().position(|l| *l == closing) {
            let n = end + 2;
            if n > limit {
                out.push((n, name, i + 1));
            }
        }
    }
    out
}

#[test]
fn long_functions_are_measured_from_fn_to_its_closing_brace() {
    let text =
        "fn short() {\n    1\n}\n    pub(crate) fn long() {\n        a;\n        b;\n    }\n";
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(long_functions(&lines, 3), vec![(4, "long".to_string(), 4)]);
}
