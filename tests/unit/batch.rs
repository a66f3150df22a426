//! Batch compiles: command lines in files (quoting, comments, response
//! files), the shared cache of lexed files, job outputs.

use crate::batch::{Job, Terminal, expand_response_files, split_jobs, split_words};
use crate::{CachingLoader, FileLoader};
use std::cell::RefCell;
use std::path::Path;

fn words(s: &str) -> Vec<String> {
    split_words(s).unwrap()
}

#[test]
fn words_are_split_as_a_shell_splits_them() {
    assert_eq!(words("-T cs_6_0\t-E  main"), ["-T", "cs_6_0", "-E", "main"]);
    assert_eq!(words("'a b' \"c d\" e\\ f"), ["a b", "c d", "e f"]);
    // Adjacent quoted and bare parts make one word; empty quotes a word.
    assert_eq!(words("-D'X=1 2'\"3\" ''"), ["-DX=1 23", ""]);
    // In double quotes, backslash escapes only " \ ` $; in single
    // quotes, nothing.
    assert_eq!(words(r#""a\"b\\c\d" 'e\f'"#), [r#"a"b\c\d"#, r"e\f"]);
    // `#` starts a comment only at the start of a word.
    assert_eq!(words("-DA=#1 # the rest\n-E m"), ["-DA=#1", "-E", "m"]);
    assert_eq!(words("a\\\nb"), ["ab"]);
    assert!(split_words("'open").is_err());
    assert!(split_words("\"open").is_err());
}

/// The splitter as first written, a character at a time: the byte-wise
/// one must split every text as it does.
fn split_words_by_char(text: &str) -> Result<Vec<String>, String> {
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

#[test]
fn words_split_as_the_character_at_a_time_splitter_does() {
    // Every string of up to four of these pieces (quotes, escapes, blanks,
    // comments, line joins, non-ASCII), and longer mixes of them.
    let pieces = [
        "a", "é", " ", "\t", "\n", "'", "\"", "\\", "#", "$", "`", "x y", "\\\n", "'q'",
    ];
    let mut texts = vec![String::new()];
    for _ in 0..4 {
        let longer: Vec<String> = texts
            .iter()
            .flat_map(|t| pieces.iter().map(move |p| format!("{t}{p}")))
            .collect();
        texts.extend(longer.into_iter().filter(|t| t.len() <= 12));
        texts.sort();
        texts.dedup();
    }
    let mut seed = 7u32;
    for _ in 0..2000 {
        let mut t = String::new();
        for _ in 0..12 {
            seed = seed.wrapping_mul(1_103_515_245).wrapping_add(12345);
            t.push_str(pieces[(seed >> 16) as usize % pieces.len()]);
        }
        texts.push(t);
    }
    assert!(texts.len() > 10_000, "{}", texts.len());
    for t in &texts {
        assert_eq!(split_words(t), split_words_by_char(t), "{t:?}");
    }
}

#[test]
fn a_jobs_file_is_one_command_line_a_line() {
    let text = "# permutations\n\n-T cs_6_0 a.hlsl -Fo a.spv\n  # indented comment\n\
                -T cs_6_0 b.hlsl \\\n  -DX=1 -Fo b.spv\n-T ps_6_0 c.hlsl";
    let jobs = split_jobs(text).unwrap();
    let lines: Vec<usize> = jobs.iter().map(|j| j.line).collect();
    assert_eq!(lines, [3, 5, 7]);
    assert_eq!(
        jobs[1].args,
        ["-T", "cs_6_0", "b.hlsl", "-DX=1", "-Fo", "b.spv"]
    );
    assert_eq!(jobs[2].args, ["-T", "ps_6_0", "c.hlsl"]);
    assert_eq!(
        split_jobs("ok\n'bad\n"),
        Err((2, "a single quote (') is not closed".into()))
    );
}

#[test]
fn response_files_expand_in_place_and_may_nest() {
    let mut read = |p: &str| match p {
        "a.rsp" => Ok("-T cs_6_0\n@b.rsp\n-Fo 'o u t.spv'".to_string()),
        "b.rsp" => Ok("-E main".to_string()),
        "self.rsp" => Ok("@self.rsp".to_string()),
        _ => Err(std::io::Error::new(
            std::io::ErrorKind::NotFound,
            "not found",
        )),
    };
    let args: Vec<String> = ["x.hlsl", "@a.rsp", "-O0"].map(String::from).to_vec();
    assert_eq!(
        expand_response_files(&args, &mut read).unwrap(),
        [
            "x.hlsl",
            "-T",
            "cs_6_0",
            "-E",
            "main",
            "-Fo",
            "o u t.spv",
            "-O0"
        ]
    );
    let e = expand_response_files(&["@self.rsp".into()], &mut read).unwrap_err();
    assert!(e.contains("nested more than 16 deep"), "{e}");
    let e = expand_response_files(&["@none.rsp".into()], &mut read).unwrap_err();
    assert!(e.starts_with("cannot read response file 'none.rsp'"), "{e}");
}

/// An in-memory file system whose files can change between compiles.
#[derive(Default)]
struct Changing(RefCell<Vec<(String, String)>>);

impl Changing {
    fn set(&self, path: &str, text: &str) {
        let mut files = self.0.borrow_mut();
        files.retain(|(p, _)| p != path);
        files.push((path.into(), text.into()));
    }
}

impl FileLoader for Changing {
    fn read(&self, path: &Path) -> std::io::Result<String> {
        let files = self.0.borrow();
        let found = files.iter().find(|(p, _)| Path::new(p) == path);
        found
            .map(|(_, t)| t.clone())
            .ok_or_else(|| std::io::Error::new(std::io::ErrorKind::NotFound, "not found"))
    }
    fn exists(&self, path: &Path) -> bool {
        self.0.borrow().iter().any(|(p, _)| Path::new(p) == path)
    }
}

/// A loader over `Changing` that counts what it is asked.
struct Counting<'a> {
    files: &'a Changing,
    reads: RefCell<Vec<String>>,
    exists: RefCell<Vec<String>>,
}

impl FileLoader for Counting<'_> {
    fn read(&self, path: &Path) -> std::io::Result<String> {
        self.reads.borrow_mut().push(path.display().to_string());
        self.files.read(path)
    }
    fn exists(&self, path: &Path) -> bool {
        self.exists.borrow_mut().push(path.display().to_string());
        self.files.exists(path)
    }
}

/// A snapshot loader asks its inner loader once a path: later compiles
/// get the first text (an edit after it is not seen), a missing file
/// stays missing with the same error.
#[test]
fn a_snapshot_reads_each_file_once() {
    let files = Changing::default();
    files.set(
        "main.hlsl",
        "#include \"value.hlsli\"\nRWStructuredBuffer<uint> o;\n\
         [numthreads(1, 1, 1)] void main() { o[0] = VALUE; }\n",
    );
    files.set("value.hlsli", "#define VALUE 7u\n");
    let loader = crate::SnapshotLoader::new(Counting {
        files: &files,
        reads: RefCell::default(),
        exists: RefCell::default(),
    });
    let counting = loader.inner();
    let options = crate::Options::from_args(["-T", "cs_6_0", "--verify-ir"]).unwrap();
    let first = crate::compile(Path::new("main.hlsl"), &loader, &options);
    assert!(!first.has_errors(), "{:?}", first.diagnostics.list);
    files.set("value.hlsli", "#define VALUE 9u\n");
    let second = crate::compile(Path::new("main.hlsl"), &loader, &options);
    assert_eq!(
        second.artifact.unwrap().spirv,
        first.artifact.unwrap().spirv,
        "the edit is not seen"
    );
    assert_eq!(*counting.reads.borrow(), ["main.hlsl", "value.hlsli"]);
    assert_eq!(*counting.exists.borrow(), ["value.hlsli"]);
    let missing = |l: &dyn FileLoader| l.read(Path::new("none.hlsl")).unwrap_err().to_string();
    assert_eq!(missing(&loader), missing(&loader));
    assert_eq!(missing(&loader), missing(&files));
    assert!(!loader.exists(Path::new("none.hlsl")));
    assert_eq!(counting.reads.borrow().len(), 3);
}

#[test]
fn a_header_edited_between_compiles_is_lexed_again() {
    let loader = CachingLoader::new(Changing::default());
    loader.inner().set(
        "main.hlsl",
        "#include \"value.hlsli\"\nRWStructuredBuffer<uint> o;\n\
         [numthreads(1, 1, 1)] void main() { o[0] = VALUE; }\n",
    );
    let options = crate::Options::from_args(["-T", "cs_6_0", "--verify-ir"]).unwrap();
    let compile = || {
        let c = crate::compile(Path::new("main.hlsl"), &loader, &options);
        assert!(!c.has_errors(), "{:?}", c.diagnostics.list);
        c.artifact.unwrap().spirv
    };
    loader.inner().set("value.hlsli", "#define VALUE 7u\n");
    let seven = compile();
    assert_eq!(compile(), seven, "the cached tokens compile the same");
    loader.inner().set("value.hlsli", "#define VALUE 9u\n");
    let nine = compile();
    assert_ne!(nine, seven, "an edited header is not served stale");
    let constants = |spirv: &[u32]| {
        let m = rspirv::dr::load_words(spirv).unwrap();
        m.types_global_values
            .iter()
            .filter(|i| i.class.opcode == rspirv::spirv::Op::Constant)
            .filter_map(|i| match i.operands.first() {
                Some(rspirv::dr::Operand::LiteralBit32(v)) => Some(*v),
                _ => None,
            })
            .collect::<Vec<_>>()
    };
    assert!(constants(&seven).contains(&7) && !constants(&seven).contains(&9));
    assert!(constants(&nine).contains(&9));
}

#[test]
fn jobs_report_in_order_whatever_order_they_finish_in() {
    let tmp = crate::tests::common::scratch_dir("hlslc-unit-batch");
    let dir = tmp.path();
    let src = dir.join("k.hlsl");
    std::fs::write(
        &src,
        "RWStructuredBuffer<uint> o;\n[numthreads(1, 1, 1)] void main() { o[0] = K; }\n",
    )
    .unwrap();
    // Even jobs fail (K undefined), odd ones define it.
    let jobs: Vec<Job> = (0..12)
        .map(|i| {
            let mut args = vec!["-T".to_string(), "cs_6_0".into(), src.display().to_string()];
            if i % 2 == 1 {
                args.push(format!("-DK={i}u"));
            }
            args.extend([
                "-Fo".into(),
                dir.join(format!("{i}.spv")).display().to_string(),
            ]);
            Job {
                args,
                origin: format!("line {}", i + 1),
            }
        })
        .collect();
    let mut seen = Vec::new();
    let failed = crate::batch::run(&jobs, 4, Terminal::default(), |i, job, out| {
        assert_eq!(out.exit_code, i32::from(i % 2 == 0), "{}", job.origin);
        let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
        if i % 2 == 0 {
            let output = jobs[i].args.last().unwrap();
            let heading = format!("job {} (line {}, {output}):\n", i + 1, i + 1);
            assert!(stderr.starts_with(&heading), "{stderr}");
        } else {
            assert!(stderr.is_empty(), "{stderr}");
        }
        seen.push(i);
    });
    assert_eq!(failed, 6);
    assert_eq!(seen, (0..12).collect::<Vec<_>>());
}

#[test]
fn depfiles_escape_spaces() {
    assert_eq!(
        crate::batch::driver::depfile("o.spv", &[std::path::PathBuf::from("a b.hlsl")]),
        "o.spv: \\\n  a\\ b.hlsl\n"
    );
}

/// An output that already holds the bytes is left in place (the same
/// inode, never truncated) with a new modification time; any other is
/// written as `std::fs::write` writes it.
#[test]
fn an_output_holding_the_bytes_is_only_touched() {
    use crate::batch::output::write_output;
    use std::time::{Duration, SystemTime};
    let dir = crate::tests::common::scratch_dir("hlslc-output");
    let path = dir.path().join("a.spv");
    // Created.
    assert!(!write_output(&path, b"module").unwrap());
    assert_eq!(std::fs::read(&path).unwrap(), b"module");
    let old = SystemTime::UNIX_EPOCH + Duration::from_secs(1_000_000_000);
    let age = |p: &Path| std::fs::metadata(p).unwrap().modified().unwrap();
    let make_old = |p: &Path| {
        let f = std::fs::OpenOptions::new().write(true).open(p).unwrap();
        f.set_modified(old).unwrap();
        assert_eq!(age(p), old);
    };
    make_old(&path);
    #[cfg(unix)]
    let inode = {
        use std::os::unix::fs::MetadataExt;
        let ino = |p: &Path| std::fs::metadata(p).unwrap().ino();
        let before = ino(&path);
        move |p: &Path| assert_eq!(ino(p), before)
    };
    // The same bytes: left in place, newer.
    assert!(write_output(&path, b"module").unwrap());
    assert_eq!(std::fs::read(&path).unwrap(), b"module");
    assert!(age(&path) > old);
    #[cfg(unix)]
    inode(&path);
    // Other bytes of the same size, then of another size: written.
    make_old(&path);
    assert!(!write_output(&path, b"modulf").unwrap());
    assert_eq!(std::fs::read(&path).unwrap(), b"modulf");
    assert!(age(&path) > old);
    assert!(!write_output(&path, b"mod").unwrap());
    assert_eq!(std::fs::read(&path).unwrap(), b"mod");
    assert!(!write_output(&path, b"").unwrap());
    assert_eq!(std::fs::read(&path).unwrap(), b"");
    // Not a regular file: written, never read.
    #[cfg(unix)]
    assert!(!write_output(Path::new("/dev/null"), b"x").unwrap());
    // Where it cannot be written, the error says so.
    assert!(write_output(&dir.path().join("no/such/dir/a.spv"), b"x").is_err());
}
