//! Command lines written in files: jobs files (one command line a line)
//! and response files (`@file`: one command line, whatever its lines).
//!
//! Words are split as a POSIX shell splits them, without expansions:
//! blanks separate words; `'…'` keeps everything literally; `"…"` keeps
//! everything but `\"`, `\\`, `` \` `` and `\$`, which lose their
//! backslash; outside quotes a backslash keeps the next character (a
//! backslash before a line end joins the lines). A `#` that starts a word
//! starts a comment to the end of the line. This is what ninja, make and
//! CMake already write for a shell, and what `shlex.join` writes.

/// Splits one command line into its words (see the module docs); an
/// unclosed quote is an error. Newlines count as blanks, so a whole
/// response file is one command line.
///
/// Every character with a meaning here is ASCII, so the text is scanned
/// as bytes and copied into the words a run at a time: a jobs file of a
/// few hundred lines is split before any job can start.
pub fn split_words(text: &str) -> Result<Vec<String>, String> {
    const DOUBLE_UNCLOSED: &str = "a double quote (\") is not closed";
    let bytes = text.as_bytes();
    let mut words = Vec::new();
    let mut word: Option<String> = None;
    let mut i = 0;
    while let Some(&b) = bytes.get(i) {
        match b {
            b' ' | b'\t' | b'\r' | b'\n' => {
                if let Some(w) = word.take() {
                    words.push(w);
                }
                i += 1;
            }
            b'#' if word.is_none() => i = find(bytes, i, |c| c == b'\n').unwrap_or(bytes.len()),
            b'\'' => {
                let close = find(bytes, i + 1, |c| c == b'\'')
                    .ok_or_else(|| "a single quote (') is not closed".to_string())?;
                word.get_or_insert_with(String::new).push_str(&text[i + 1..close]);
                i = close + 1;
            }
            b'"' => {
                let w = word.get_or_insert_with(String::new);
                i += 1;
                loop {
                    let stop = find(bytes, i, |c| c == b'"' || c == b'\\')
                        .ok_or_else(|| DOUBLE_UNCLOSED.to_string())?;
                    w.push_str(&text[i..stop]);
                    if bytes.get(stop) == Some(&b'"') {
                        i = stop + 1;
                        break;
                    }
                    // A backslash: it escapes only these, and joins lines.
                    match bytes.get(stop + 1) {
                        Some(&c @ (b'"' | b'\\' | b'`' | b'$')) => {
                            w.push(char::from(c));
                            i = stop + 2;
                        }
                        Some(b'\n') => i = stop + 2,
                        // Kept, with the character after it (copied next).
                        Some(_) => {
                            w.push('\\');
                            i = stop + 1;
                        }
                        None => return Err(DOUBLE_UNCLOSED.into()),
                    }
                }
            }
            b'\\' => match text[i + 1..].chars().next() {
                Some('\n') => i += 2,
                Some(c) => {
                    word.get_or_insert_with(String::new).push(c);
                    i += 1 + c.len_utf8();
                }
                None => {
                    word.get_or_insert_with(String::new).push('\\');
                    i += 1;
                }
            },
            _ => {
                let end = find(bytes, i, |c| ENDS_RUN[usize::from(c)]).unwrap_or(bytes.len());
                // Most words are one such run: allocated at their size.
                match &mut word {
                    Some(w) => w.push_str(&text[i..end]),
                    None => word = Some(text[i..end].to_owned()),
                }
                i = end;
            }
        }
    }
    words.extend(word);
    Ok(words)
}

/// The bytes that end a run of plain characters: blanks, quotes, the
/// backslash.
const ENDS_RUN: [bool; 256] = {
    let mut table = [false; 256];
    let mut i = 0;
    let ends = b" \t\r\n'\"\\";
    while i < ends.len() {
        table[ends[i] as usize] = true;
        i += 1;
    }
    table
};

/// The first index at or after `from` whose byte is one `stop` takes.
fn find(bytes: &[u8], from: usize, stop: impl Fn(u8) -> bool) -> Option<usize> {
    let rest = bytes.get(from..)?;
    rest.iter().position(|&c| stop(c)).map(|n| from + n)
}

/// One line of a jobs file that holds a command line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct JobLine {
    /// The line's number (1-based); a line continued with `\` counts as
    /// the line it starts on.
    pub line: usize,
    /// Its words.
    pub args: Vec<String>,
}

/// The command lines of a jobs file: one a line, blank and comment lines
/// (and lines of empty words only, `''`) skipped, a line ending in `\`
/// continued on the next. An error names the line. Empty words are kept:
/// the command line's parser skips them as DXC does.
pub fn split_jobs(text: &str) -> Result<Vec<JobLine>, (usize, String)> {
    let mut jobs = Vec::new();
    let mut keep = |line: usize, args: Vec<String>| {
        if args.iter().any(|a| !a.is_empty()) {
            jobs.push(JobLine { line, args });
        }
    };
    let mut pending = String::new();
    let mut start = 0;
    for (i, line) in text.lines().enumerate() {
        // An odd run of trailing backslashes continues the line.
        let trailing = line.bytes().rev().take_while(|&c| c == b'\\').count();
        let continued = trailing % 2 == 1;
        if pending.is_empty() && !continued {
            // A line of its own (most are): split where it is.
            keep(i + 1, split_words(line).map_err(|e| (i + 1, e))?);
            continue;
        }
        if pending.is_empty() {
            start = i + 1;
        }
        pending.push_str(line);
        if continued {
            pending.pop();
            pending.push(' ');
            continue;
        }
        keep(start, split_words(&pending).map_err(|e| (start, e))?);
        pending.clear();
    }
    if !pending.is_empty() {
        keep(start, split_words(&pending).map_err(|e| (start, e))?);
    }
    Ok(jobs)
}

/// How deep `@file` may name files that name files: a response file that
/// names itself is an error, not a hang.
const MAX_RESPONSE_DEPTH: usize = 16;

/// Replaces each `@file` argument by the words of that file (which may
/// name response files in turn), as DXC, clang and MSVC read them: the
/// whole file is one command line. `read` reads a file; an error is a
/// message naming the file.
pub fn expand_response_files(
    args: &[String],
    read: &mut dyn FnMut(&str) -> std::io::Result<String>,
) -> Result<Vec<String>, String> {
    expand_owned(args.to_vec(), read)
}

/// [`expand_response_files`] of words the caller gives up: those that name
/// no response file move into the result rather than being copied.
pub(crate) fn expand_owned(
    args: Vec<String>,
    read: &mut dyn FnMut(&str) -> std::io::Result<String>,
) -> Result<Vec<String>, String> {
    let mut out = Vec::with_capacity(args.len());
    expand_into(args, read, 0, &mut out)?;
    Ok(out)
}

fn expand_into(
    args: Vec<String>,
    read: &mut dyn FnMut(&str) -> std::io::Result<String>,
    depth: usize,
    out: &mut Vec<String>,
) -> Result<(), String> {
    for a in args {
        let Some(path) = a.strip_prefix('@').filter(|p| !p.is_empty()) else {
            out.push(a);
            continue;
        };
        if depth >= MAX_RESPONSE_DEPTH {
            return Err(format!(
                "response file '{path}' nested more than {MAX_RESPONSE_DEPTH} deep (does it name itself?)"
            ));
        }
        let text = read(path).map_err(|e| format!("cannot read response file '{path}': {e}"))?;
        let words = split_words(&text).map_err(|e| format!("response file '{path}': {e}"))?;
        expand_into(words, read, depth + 1, out)?;
    }
    Ok(())
}
