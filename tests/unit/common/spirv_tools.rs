//! Wrappers around the SPIRV-Tools command-line programs (`spirv-as`,
//! `spirv-val`, `spirv-dis`), the reference the tests check our output
//! against. Debian ships them in the `spirv-tools` package.
//!
//! A missing tool is a test failure, never a skip: the message says how to
//! install it.

use std::io::Write;
use std::process::{Command, Stdio};

/// What to tell someone whose machine lacks SPIRV-Tools.
const INSTALL_HINT: &str = "install SPIRV-Tools: `apt-get install spirv-tools` (Debian/Ubuntu)";

/// Runs `program args…`, feeding `stdin` and returning (status ok, stdout, stderr).
fn run_tool(program: &str, args: &[&str], stdin: &[u8]) -> Result<(bool, Vec<u8>, String), String> {
    let mut child = Command::new(program)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot run `{program}`: {e}; {INSTALL_HINT}"))?;
    // Write from a thread: a tool that fills its stdout pipe before reading
    // all of stdin would otherwise deadlock with us.
    let mut pipe = child.stdin.take().ok_or("no stdin pipe")?;
    let input = stdin.to_vec();
    let writer = std::thread::spawn(move || pipe.write_all(&input));
    let out = child
        .wait_with_output()
        .map_err(|e| format!("`{program}` failed to run: {e}"))?;
    // A tool may exit before reading everything (e.g. on a parse error); a
    // broken pipe then is not the error worth reporting.
    let _ = writer.join();
    Ok((
        out.status.success(),
        out.stdout,
        String::from_utf8_lossy(&out.stderr).into_owned(),
    ))
}

/// SPIR-V words as the little-endian bytes of a `.spv` file.
pub fn words_to_bytes(words: &[u32]) -> Vec<u8> {
    words.iter().flat_map(|w| w.to_le_bytes()).collect()
}

/// The words of a little-endian `.spv` file; `None` when the length is not a
/// multiple of 4.
pub fn bytes_to_words(bytes: &[u8]) -> Option<Vec<u32>> {
    if !bytes.len().is_multiple_of(4) {
        return None;
    }
    Some(
        bytes
            .chunks_exact(4)
            .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect(),
    )
}

/// Assembles SPIR-V assembly text with `spirv-as --target-env ENV`
/// (`vulkan1.0`…`vulkan1.3`, `spv1.0`…`spv1.6`). Panics with spirv-as's
/// message when the text does not assemble: the text is the test's own.
pub fn spirv_as(text: &str, target_env: &str) -> Vec<u32> {
    let args = ["--target-env", target_env, "-o", "-", "-"];
    let (ok, stdout, stderr) =
        run_tool("spirv-as", &args, text.as_bytes()).unwrap_or_else(|e| panic!("{e}"));
    if !ok {
        panic!(
            "spirv-as --target-env {target_env} rejected the assembly:\n{stderr}\n--- text ---\n{text}"
        );
    }
    bytes_to_words(&stdout)
        .unwrap_or_else(|| panic!("spirv-as wrote {} bytes, not whole words", stdout.len()))
}

/// Validates a module with `spirv-val --target-env ENV`; the error is
/// spirv-val's message. Vulkan 1.1+ environments already accept the relaxed
/// block layout DXC uses by default; see [`spirv_val_with`] for more flags.
pub fn spirv_val(words: &[u32], target_env: &str) -> Result<(), String> {
    spirv_val_with(words, target_env, &[])
}

/// [`spirv_val`] with extra spirv-val flags, such as `--scalar-block-layout`
/// (for `-fvk-use-scalar-layout`), `--relax-block-layout` (for
/// `-fspv-target-env=vulkan1.0` with DXC's relaxed layout) or
/// `--uniform-buffer-standard-layout`.
pub fn spirv_val_with(words: &[u32], target_env: &str, flags: &[&str]) -> Result<(), String> {
    spirv_val_program("spirv-val", words, target_env, flags)
}

/// [`spirv_val_with`] with another spirv-val program (a path), for
/// modules Debian's SPIRV-Tools is too old to read.
pub fn spirv_val_program(
    program: &str,
    words: &[u32],
    target_env: &str,
    flags: &[&str],
) -> Result<(), String> {
    let mut args = vec!["--target-env", target_env];
    args.extend_from_slice(flags);
    args.push("-");
    let (ok, stdout, stderr) = run_tool(program, &args, &words_to_bytes(words))?;
    if ok {
        Ok(())
    } else {
        let mut msg = stderr;
        msg.push_str(&String::from_utf8_lossy(&stdout));
        Err(format!(
            "spirv-val --target-env {target_env} {}: {}",
            flags.join(" "),
            msg.trim_end()
        ))
    }
}

/// Disassembles a module with `spirv-dis` (friendly names, no header
/// comment, no colour): stable text for expected-output files. A module
/// spirv-dis cannot read comes back as its error message, prefixed with
/// `; spirv-dis failed:` so that a comparison fails readably.
pub fn spirv_dis(words: &[u32]) -> String {
    let args = ["--no-header", "--no-color", "-o", "-", "-"];
    match run_tool("spirv-dis", &args, &words_to_bytes(words)) {
        Ok((true, stdout, _)) => String::from_utf8_lossy(&stdout).into_owned(),
        Ok((false, _, stderr)) => format!("; spirv-dis failed: {stderr}"),
        Err(e) => panic!("{e}"),
    }
}
