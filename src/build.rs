//! Compiling shaders from a Cargo build script, in the spirit of
//! `cc::Build`.
//!
//! ```no_run
//! // build.rs, with `hlslc = { version = "…", default-features = false }`
//! // under [build-dependencies]
//! use hlslc::build::{Build, Shader};
//!
//! fn main() {
//!     Build::new()
//!         .include("shaders/include")
//!         .define("USE_FOG", Some("1"))
//!         .args(["-fvk-use-scalar-layout"]) // any of DXC's flags
//!         .shader(Shader::new("shaders/blur.hlsl").profile("cs_6_0"))
//!         .shader(Shader::new("shaders/mesh.hlsl").profile("vs_6_0").entry("VSMain"))
//!         .shader(Shader::new("shaders/mesh.hlsl").profile("ps_6_0").entry("PSMain"))
//!         .compile("shaders");
//! }
//! ```
//!
//! ```ignore
//! // src/main.rs: BLUR, MESH_VSMAIN and MESH_PSMAIN, each a &'static [u32]
//! mod shaders {
//!     include!(concat!(env!("OUT_DIR"), "/shaders.rs"));
//! }
//! ```
//!
//! [`Build::compile`] compiles every shader (several at once, on as many
//! threads as Cargo's `NUM_JOBS` allows), and
//! - writes each module to `OUT_DIR/<name>/<shader>.spv`, and
//!   `OUT_DIR/<name>.rs` with one `pub static SHADER: &[u32]` per module
//!   (upper-case; the file stem, and the entry point when it is not
//!   `main`, or [`Shader::name`]), 4-byte aligned;
//! - prints `cargo:rerun-if-changed` for every file a compilation read, so
//!   that Cargo runs the build script again when a shader or a header it
//!   includes changes (and only then);
//! - prints each warning as `cargo:warning` lines;
//! - on an error, prints every diagnostic to stderr (`file:line:col`, the
//!   source line and a caret), which Cargo shows, and fails the build.
//!
//! Options are built as DXC's command line would set them and read by the
//! parser the `hlslc` binary uses: the profile (`-T`), entry point (`-E`),
//! defines (`-D`) and include directories (`-I`) of the builder, then its
//! raw [`Build::args`], then the shader's own. Relative paths are relative
//! to the build script's working directory, the package root.
//!
//! The `.spv` files hold the words in the target's byte order (SPIR-V
//! allows either; the magic number tells them apart), so that the
//! generated statics can be the bytes themselves.

use crate::diag::{Diagnostic, DiagnosticFormat, render_to_string};
use crate::options::{Action, CommandLine, EmitKind, Outputs};
use crate::source::SourceMap;
use crate::{Compilation, DiskLoader, Options};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

/// One shader's compilation with the options it ran with, or why it could
/// not run.
type ShaderResult = Result<(Compilation, Options), String>;

/// A set of shaders to compile, and the settings they share.
#[derive(Clone, Debug, Default)]
pub struct Build {
    shaders: Vec<Shader>,
    profile: Option<String>,
    entry: Option<String>,
    defines: Vec<(String, Option<String>)>,
    include_dirs: Vec<PathBuf>,
    args: Vec<String>,
    out_dir: Option<PathBuf>,
    quiet: bool,
}

/// One module to compile: a file, with settings of its own.
#[derive(Clone, Debug)]
pub struct Shader {
    path: PathBuf,
    name: Option<String>,
    profile: Option<String>,
    entry: Option<String>,
    args: Vec<String>,
}

impl Shader {
    /// The shader in the file at `path`, with the [`Build`]'s settings.
    pub fn new(path: impl AsRef<Path>) -> Shader {
        Shader {
            path: path.as_ref().to_path_buf(),
            name: None,
            profile: None,
            entry: None,
            args: Vec::new(),
        }
    }

    /// The target profile (`-T`), instead of the build's.
    pub fn profile(mut self, profile: &str) -> Shader {
        self.profile = Some(profile.to_string());
        self
    }

    /// The entry point (`-E`), instead of the build's.
    pub fn entry(mut self, entry: &str) -> Shader {
        self.entry = Some(entry.to_string());
        self
    }

    /// The name of the module's static in the generated file (it is
    /// upper-cased) and of its `.spv` file.
    pub fn name(mut self, name: &str) -> Shader {
        self.name = Some(name.to_string());
        self
    }

    /// DXC-style arguments for this shader only, after the build's.
    pub fn args<I, S>(mut self, args: I) -> Shader
    where
        I: IntoIterator<Item = S>,
        S: AsRef<str>,
    {
        self.args
            .extend(args.into_iter().map(|a| a.as_ref().to_string()));
        self
    }
}

/// What [`Build::try_compile`] wrote.
#[derive(Clone, Debug)]
pub struct Output {
    /// The generated Rust file: `OUT_DIR/<name>.rs`.
    pub rust_file: PathBuf,
    /// The modules, in the order they were added.
    pub modules: Vec<Module>,
}

/// One compiled module.
#[derive(Clone, Debug)]
pub struct Module {
    /// The static's name in the generated file (`BLUR`).
    pub name: String,
    /// Where the SPIR-V was written.
    pub spirv_file: PathBuf,
    /// The SPIR-V words.
    pub spirv: Vec<u32>,
    /// Every file the compilation read, the shader first.
    pub dependencies: Vec<PathBuf>,
}

/// Why [`Build::try_compile`] failed: the rendered diagnostics of every
/// shader that did not compile, or what was wrong with the build itself.
#[derive(Clone, Debug)]
pub struct Error {
    message: String,
}

impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Error {}

impl Build {
    /// No shaders yet; no profile, entry point `main`, `OUT_DIR` from Cargo.
    pub fn new() -> Build {
        Build::default()
    }

    /// Adds the shader in the file at `path`, with the build's settings.
    pub fn file(&mut self, path: impl AsRef<Path>) -> &mut Build {
        self.shader(Shader::new(path))
    }

    /// Adds a shader.
    pub fn shader(&mut self, shader: Shader) -> &mut Build {
        self.shaders.push(shader);
        self
    }

    /// The target profile (`-T`) of shaders that name none: `cs_6_0`.
    pub fn profile(&mut self, profile: &str) -> &mut Build {
        self.profile = Some(profile.to_string());
        self
    }

    /// The entry point (`-E`) of shaders that name none (default `main`).
    pub fn entry(&mut self, entry: &str) -> &mut Build {
        self.entry = Some(entry.to_string());
        self
    }

    /// Defines a macro (`-D NAME` or `-D NAME=VALUE`) for every shader.
    pub fn define(&mut self, name: &str, value: Option<&str>) -> &mut Build {
        self.defines
            .push((name.to_string(), value.map(str::to_string)));
        self
    }

    /// Adds an include directory (`-I`) for every shader.
    pub fn include(&mut self, dir: impl AsRef<Path>) -> &mut Build {
        self.include_dirs.push(dir.as_ref().to_path_buf());
        self
    }

    /// Adds a DXC-style argument for every shader (`-fvk-t-shift`, `10`,
    /// `0`, …), read by the `hlslc` binary's parser.
    pub fn arg(&mut self, arg: &str) -> &mut Build {
        self.args.push(arg.to_string());
        self
    }

    /// Adds DXC-style arguments for every shader.
    pub fn args<I, S>(&mut self, args: I) -> &mut Build
    where
        I: IntoIterator<Item = S>,
        S: AsRef<str>,
    {
        self.args
            .extend(args.into_iter().map(|a| a.as_ref().to_string()));
        self
    }

    /// Where to write, instead of Cargo's `OUT_DIR`.
    pub fn out_dir(&mut self, dir: impl AsRef<Path>) -> &mut Build {
        self.out_dir = Some(dir.as_ref().to_path_buf());
        self
    }

    /// Whether to print Cargo's `cargo:` lines (`rerun-if-changed`,
    /// `warning`); on by default, off outside a build script.
    pub fn cargo_metadata(&mut self, print: bool) -> &mut Build {
        self.quiet = !print;
        self
    }

    /// Compiles every shader and writes `OUT_DIR/<name>.rs`; on any error,
    /// prints the diagnostics and fails the build script (exit status 1).
    pub fn compile(&self, name: &str) -> Output {
        match self.try_compile(name) {
            Ok(output) => output,
            Err(e) => {
                eprintln!("{e}");
                std::process::exit(1);
            }
        }
    }

    /// Compiles every shader and writes `OUT_DIR/<name>.rs`, or says why
    /// not. Cargo's `rerun-if-changed` and warning lines are printed either
    /// way.
    pub fn try_compile(&self, name: &str) -> Result<Output, Error> {
        let fail = |message: String| Error {
            message: format!("error: hlslc::build: {message}"),
        };
        if !is_identifier(name) {
            return Err(fail(format!(
                "`{name}` cannot name the generated file (letters, digits and `_`)"
            )));
        }
        let out_dir = match &self.out_dir {
            Some(d) => d.clone(),
            None => std::env::var_os("OUT_DIR")
                .map(PathBuf::from)
                .ok_or_else(|| {
                    fail("OUT_DIR is not set: run from a build script, or call out_dir".into())
                })?,
        };
        let names = self.module_names().map_err(fail)?;
        let results = self.compile_all();

        let mut modules = Vec::new();
        let mut failures = String::new();
        for ((shader, name), result) in self.shaders.iter().zip(names).zip(results) {
            let (c, options) = match result {
                Ok(x) => x,
                Err(text) => {
                    self.cargo(&format!("rerun-if-changed={}", shader.path.display()));
                    let _ = writeln!(failures, "{text}");
                    continue;
                }
            };
            for dep in &c.dependencies {
                self.cargo(&format!("rerun-if-changed={}", dep.display()));
            }
            self.warnings(&c, shader, &options);
            match c.artifact.filter(|_| !c.diagnostics.has_errors()) {
                Some(artifact) => modules.push(Module {
                    spirv_file: PathBuf::new(),
                    name,
                    spirv: artifact.spirv,
                    dependencies: c.dependencies,
                }),
                None => {
                    let _ = writeln!(
                        failures,
                        "{}error: hlslc: could not compile {}\n",
                        render_to_string(
                            &c.diagnostics.list,
                            &c.source_map,
                            DiagnosticFormat::Human
                        ),
                        shader.path.display()
                    );
                }
            }
        }
        if !failures.is_empty() {
            return Err(Error {
                message: failures.trim_end().to_string(),
            });
        }
        self.write(name, &out_dir, modules)
            .map_err(|e| fail(format!("cannot write to {}: {e}", out_dir.display())))
    }

    /// Each shader's static name: its own, else the file stem (and the
    /// entry point when it is not `main`), upper-cased; no two alike.
    fn module_names(&self) -> Result<Vec<String>, String> {
        let mut names: Vec<String> = Vec::new();
        for s in &self.shaders {
            let name = match &s.name {
                Some(n) => n.clone(),
                None => {
                    let stem = s
                        .path
                        .file_stem()
                        .map(|s| s.to_string_lossy().into_owned())
                        .unwrap_or_default();
                    match s.entry.as_ref().or(self.entry.as_ref()) {
                        Some(e) if e != "main" => format!("{stem}_{e}"),
                        _ => stem,
                    }
                }
            };
            let mut upper: String = name
                .chars()
                .map(|c| {
                    if c.is_ascii_alphanumeric() {
                        c.to_ascii_uppercase()
                    } else {
                        '_'
                    }
                })
                .collect();
            if upper.is_empty() || upper.starts_with(|c: char| c.is_ascii_digit()) {
                upper.insert(0, '_');
            }
            if names.contains(&upper) {
                return Err(format!(
                    "two shaders are named {upper}: give one a name with Shader::name"
                ));
            }
            names.push(upper);
        }
        Ok(names)
    }

    /// Compiles every shader, several at once; the results in shader order.
    fn compile_all(&self) -> Vec<ShaderResult> {
        let jobs = std::env::var("NUM_JOBS")
            .ok()
            .and_then(|n| n.parse().ok())
            .or_else(|| std::thread::available_parallelism().ok().map(usize::from))
            .unwrap_or(1)
            .clamp(1, self.shaders.len().max(1));
        let next = AtomicUsize::new(0);
        let results: Vec<Mutex<Option<ShaderResult>>> =
            self.shaders.iter().map(|_| Mutex::new(None)).collect();
        std::thread::scope(|scope| {
            for _ in 0..jobs {
                scope.spawn(|| {
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        let Some(shader) = self.shaders.get(i) else {
                            break;
                        };
                        let result = self.compile_one(shader);
                        if let Ok(mut slot) = results[i].lock() {
                            *slot = Some(result);
                        }
                    }
                });
            }
        });
        results
            .into_iter()
            .map(|slot| {
                slot.into_inner().ok().flatten().unwrap_or_else(|| {
                    Err("error: hlslc::build: a compiler thread panicked".into())
                })
            })
            .collect()
    }

    /// The options of one shader: the build's and the shader's settings as
    /// a DXC command line, read by the one parser.
    fn options(&self, shader: &Shader) -> Result<(Options, Vec<Diagnostic>), String> {
        let mut args: Vec<String> = Vec::new();
        if let Some(p) = shader.profile.as_ref().or(self.profile.as_ref()) {
            args.extend(["-T".into(), p.clone()]);
        }
        if let Some(e) = shader.entry.as_ref().or(self.entry.as_ref()) {
            args.extend(["-E".into(), e.clone()]);
        }
        for (name, value) in &self.defines {
            args.push("-D".into());
            args.push(match value {
                Some(v) => format!("{name}={v}"),
                None => name.clone(),
            });
        }
        for dir in &self.include_dirs {
            args.extend(["-I".into(), dir.display().to_string()]);
        }
        args.extend(self.args.iter().cloned());
        args.extend(shader.args.iter().cloned());
        let cl = CommandLine::parse(&args);
        let shown = || args.join(" ");
        if cl.has_errors() {
            let sm = SourceMap::new();
            return Err(format!(
                "{}error: hlslc::build: bad arguments for {}: {}",
                render_to_string(&cl.diagnostics, &sm, DiagnosticFormat::Human),
                shader.path.display(),
                shown()
            ));
        }
        if cl.input.is_some()
            || cl.outputs != Outputs::default()
            || cl.action != Action::Compile
            || cl.options.emit != EmitKind::Spirv
        {
            return Err(format!(
                "error: hlslc::build: the arguments for {} name an input, an output or an \
                 action (a file, -Fo, -P, --emit, …), which the builder chooses: {}",
                shader.path.display(),
                shown()
            ));
        }
        if cl.options.profile.is_none() {
            return Err(format!(
                "error: hlslc::build: no target profile for {}: call profile(\"cs_6_0\") on \
                 the Build or the Shader",
                shader.path.display()
            ));
        }
        Ok((cl.options, cl.diagnostics))
    }

    fn compile_one(&self, shader: &Shader) -> Result<(Compilation, Options), String> {
        let (options, warnings) = self.options(shader)?;
        let mut c = crate::compile(&shader.path, &DiskLoader, &options);
        // Warnings about the arguments first, as the binary prints them.
        let mut list = warnings;
        list.append(&mut c.diagnostics.list);
        c.diagnostics.list = list;
        Ok((c, options))
    }

    /// Every warning of a successful compilation as `cargo:warning` lines
    /// (a failed one shows them with its errors).
    fn warnings(&self, c: &Compilation, shader: &Shader, options: &Options) {
        if c.diagnostics.has_errors() {
            return;
        }
        let warnings: Vec<Diagnostic> = c
            .diagnostics
            .list
            .iter()
            .filter(|d| !d.is_error())
            .cloned()
            .collect();
        if warnings.is_empty() {
            return;
        }
        let profile = options.profile.map(|p| p.to_string()).unwrap_or_default();
        self.cargo(&format!(
            "warning=hlslc: {} ({profile}, {}):",
            shader.path.display(),
            options.entry
        ));
        let text = render_to_string(&warnings, &c.source_map, DiagnosticFormat::Human);
        for line in text.lines().filter(|l| !l.trim().is_empty()) {
            self.cargo(&format!("warning={line}"));
        }
    }

    fn cargo(&self, line: &str) {
        if !self.quiet {
            println!("cargo:{line}");
        }
    }

    /// Writes the `.spv` files and the Rust file that offers them.
    fn write(
        &self,
        name: &str,
        out_dir: &Path,
        mut modules: Vec<Module>,
    ) -> std::io::Result<Output> {
        let dir = out_dir.join(name);
        std::fs::create_dir_all(&dir)?;
        let big_endian = std::env::var("CARGO_CFG_TARGET_ENDIAN").is_ok_and(|e| e == "big");
        let mut rust =
            String::from("// Generated by hlslc::build (the build script); do not edit.\n");
        for (m, shader) in modules.iter_mut().zip(&self.shaders) {
            m.spirv_file = dir.join(format!("{}.spv", m.name.to_ascii_lowercase()));
            let bytes: Vec<u8> = m
                .spirv
                .iter()
                .flat_map(|w| {
                    if big_endian {
                        w.to_be_bytes()
                    } else {
                        w.to_le_bytes()
                    }
                })
                .collect();
            write_if_changed(&m.spirv_file, &bytes)?;
            let path = std::path::absolute(&m.spirv_file)?;
            let _ = write!(
                rust,
                "\n/// `{}`: {} words of SPIR-V.\n\
                 #[allow(unsafe_code)]\n\
                 pub static {}: &[u32] = {{\n    \
                     #[repr(C, align(4))]\n    \
                     struct Aligned<T: ?Sized>(T);\n    \
                     static BYTES: &Aligned<[u8]> = &Aligned(*include_bytes!({:?}));\n    \
                     // SAFETY: the bytes are 4-byte aligned and a whole number of words,\n    \
                     // in the target's byte order, and live as long as the program.\n    \
                     unsafe {{ core::slice::from_raw_parts(BYTES.0.as_ptr().cast::<u32>(), BYTES.0.len() / 4) }}\n\
                 }};\n",
                shader.path.display(),
                m.spirv.len(),
                m.name,
                path.display().to_string(),
            );
        }
        let rust_file = out_dir.join(format!("{name}.rs"));
        write_if_changed(&rust_file, rust.as_bytes())?;
        Ok(Output { rust_file, modules })
    }
}

/// Writes `bytes` unless the file already holds them, so that an unchanged
/// module does not make Cargo rebuild the crate that includes it.
fn write_if_changed(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    if std::fs::read(path).is_ok_and(|old| old == bytes) {
        return Ok(());
    }
    std::fs::write(path, bytes)
}

fn is_identifier(s: &str) -> bool {
    !s.is_empty()
        && s.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        && !s.starts_with(|c: char| c.is_ascii_digit())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> tempfile::TempDir {
        crate::tests::common::scratch_dir(&format!("hlslc-build-{name}"))
    }

    const DOUBLE: &str = "#include \"common.hlsli\"\n\
        RWStructuredBuffer<float> data : register(u0);\n\
        [numthreads(64, 1, 1)] void main(uint3 id : SV_DispatchThreadID) { data[id.x] *= SCALE; }\n";

    #[test]
    fn compiles_into_out_dir_with_a_rust_file() {
        let tmp = scratch("ok");
        let dir = tmp.path();
        std::fs::write(dir.join("common.hlsli"), "#define SCALE 2.0\n").unwrap();
        std::fs::write(dir.join("double.hlsl"), DOUBLE).unwrap();
        std::fs::write(
            dir.join("two.hlsl"),
            "float4 VSMain() : SV_Position { return 0; }\nfloat4 PSMain() : SV_Target { return 1; }\n",
        )
        .unwrap();
        let out = Build::new()
            .out_dir(dir.join("out"))
            .cargo_metadata(false)
            .profile("cs_6_0")
            .file(dir.join("double.hlsl"))
            .shader(
                Shader::new(dir.join("two.hlsl"))
                    .profile("vs_6_0")
                    .entry("VSMain"),
            )
            .shader(
                Shader::new(dir.join("two.hlsl"))
                    .profile("ps_6_0")
                    .entry("PSMain"),
            )
            .try_compile("shaders")
            .unwrap();
        let names: Vec<_> = out.modules.iter().map(|m| m.name.as_str()).collect();
        assert_eq!(names, ["DOUBLE", "TWO_VSMAIN", "TWO_PSMAIN"]);
        assert_eq!(
            out.modules[0].dependencies.len(),
            2,
            "the shader and its header"
        );
        for m in &out.modules {
            assert_eq!(m.spirv[0], 0x0723_0203);
            assert_eq!(
                std::fs::read(&m.spirv_file).unwrap().len(),
                4 * m.spirv.len()
            );
        }
        let rust = std::fs::read_to_string(&out.rust_file).unwrap();
        assert!(rust.contains("pub static TWO_PSMAIN: &[u32] = {"), "{rust}");
        assert!(rust.contains("include_bytes!("), "{rust}");
    }

    #[test]
    fn errors_are_rendered_with_file_line_and_column() {
        let tmp = scratch("bad");
        let dir = tmp.path();
        std::fs::write(dir.join("common.hlsli"), "#define SCALE nope\n").unwrap();
        std::fs::write(dir.join("double.hlsl"), DOUBLE).unwrap();
        let e = Build::new()
            .out_dir(dir.join("out"))
            .cargo_metadata(false)
            .profile("cs_6_0")
            .file(dir.join("double.hlsl"))
            .try_compile("shaders")
            .unwrap_err()
            .to_string();
        let at = format!("{}:3:", dir.join("double.hlsl").display());
        assert!(e.contains("error[E0301]") && e.contains(&at), "{e}");
        assert!(e.contains("could not compile"), "{e}");
        assert!(!dir.join("out/shaders.rs").exists());
    }

    #[test]
    fn the_arguments_go_through_the_parser() {
        let b = |args: &[&str]| {
            let mut b = Build::new();
            b.profile("cs_6_0").args(args);
            b.options(&Shader::new("x.hlsl"))
        };
        let (o, _) = b(&["-fvk-t-shift", "10", "0", "-O1"]).unwrap();
        assert_eq!(o.opt_level, 1);
        assert_eq!(o.register_shifts.len(), 1);
        assert!(
            b(&["-fvk-t-shift", "10"])
                .unwrap_err()
                .contains("needs 2 values")
        );
        assert!(
            b(&["-Fo", "x.spv"])
                .unwrap_err()
                .contains("which the builder chooses")
        );
        assert!(
            b(&["-fspv-use-vulkan-memory-model"])
                .unwrap_err()
                .contains("E0004")
        );
        let none = Build::new().options(&Shader::new("x.hlsl")).unwrap_err();
        assert!(none.contains("no target profile"), "{none}");
    }

    #[test]
    fn names_are_checked() {
        let mut b = Build::new();
        b.file("a/x.hlsl").file("b/x.hlsl");
        assert!(
            b.module_names()
                .unwrap_err()
                .contains("two shaders are named X")
        );
        let mut b = Build::new();
        b.shader(Shader::new("3d-blur.hlsl"));
        assert_eq!(b.module_names().unwrap(), ["_3D_BLUR"]);
        assert!(Build::new().out_dir("/tmp").try_compile("a-b").is_err());
    }
}
