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
pub fn split_words(text: &str) -> Result<Vec<String>, String> {
    let mut words = Vec::new();
    let mut word: Option<String> = None;
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            ' ' | '\t' | '\r' | '\n' => {
                if let Some(w) = word.take() {
                    words.push(w);
                }
            }
            '#' if word.is_none() => while chars.next_if(|&c| c != '\n').is_some() {},
            '\'' => {
                let w = word.get_or_insert_with(String::new);
                loop {
                    match chars.next() {
                        Some('\'') => break,
                        Some(c) => w.push(c),
                        None => return Err("a single quote (') is not closed".into()),
                    }
                }
            }
            '"' => {
                let w = word.get_or_insert_with(String::new);
                loop {
                    match chars.next() {
                        Some('"') => break,
                        Some('\\') => match chars.next() {
                            Some(c @ ('"' | '\\' | '`' | '$')) => w.push(c),
                            Some('\n') => {}
                            Some(c) => {
                                w.push('\\');
                                w.push(c);
                            }
                            None => return Err("a double quote (\") is not closed".into()),
                        },
                        Some(c) => w.push(c),
                        None => return Err("a double quote (\") is not closed".into()),
                    }
                }
            }
            '\\' => match chars.next() {
                Some('\n') => {}
                Some(c) => word.get_or_insert_with(String::new).push(c),
                None => word.get_or_insert_with(String::new).push('\\'),
            },
            c => word.get_or_insert_with(String::new).push(c),
        }
    }
    words.extend(word);
    Ok(words)
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
    let mut pending = String::new();
    let mut start = 0;
    for (i, line) in text.lines().enumerate() {
        if pending.is_empty() {
            start = i + 1;
        }
        pending.push_str(line);
        // An odd run of trailing backslashes continues the line.
        let trailing = line.chars().rev().take_while(|&c| c == '\\').count();
        if trailing % 2 == 1 {
            pending.pop();
            pending.push(' ');
            continue;
        }
        let args = split_words(&pending).map_err(|e| (start, e))?;
        pending.clear();
        if args.iter().any(|a| !a.is_empty()) {
            jobs.push(JobLine { line: start, args });
        }
    }
    if !pending.is_empty() {
        let args = split_words(&pending).map_err(|e| (start, e))?;
        if args.iter().any(|a| !a.is_empty()) {
            jobs.push(JobLine { line: start, args });
        }
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
    let mut out = Vec::with_capacity(args.len());
    expand_into(args, read, 0, &mut out)?;
    Ok(out)
}

fn expand_into(
    args: &[String],
    read: &mut dyn FnMut(&str) -> std::io::Result<String>,
    depth: usize,
    out: &mut Vec<String>,
) -> Result<(), String> {
    for a in args {
        let Some(path) = a.strip_prefix('@').filter(|p| !p.is_empty()) else {
            out.push(a.clone());
            continue;
        };
        if depth >= MAX_RESPONSE_DEPTH {
            return Err(format!(
                "response file '{path}' nested more than {MAX_RESPONSE_DEPTH} deep (does it name itself?)"
            ));
        }
        let text = read(path).map_err(|e| format!("cannot read response file '{path}': {e}"))?;
        let words = split_words(&text).map_err(|e| format!("response file '{path}': {e}"))?;
        expand_into(&words, read, depth + 1, out)?;
    }
    Ok(())
}
