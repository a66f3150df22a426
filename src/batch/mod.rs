//! Batch compiles: many DXC command lines ("jobs") in one process, on
//! every core, sharing the lexed headers they include.
//!
//! This is what `hlslc --jobs-file FILE` runs. Each job is a whole DXC
//! command line, with its own outputs (`-Fo`, `-Fh`, `-Fre`, `-MF`, …),
//! and writes exactly what a separate `hlslc` process given that command
//! line writes, byte for byte. What a job prints (its diagnostics, its
//! stdout) is kept until it ends and handed over in job order, so the
//! output of two jobs is never interleaved; a job's diagnostics are headed
//! by the job (`job 3 (jobs.txt:3, out/blur.spv):`) or, as JSON, carry it.
//!
//! ```no_run
//! use hlslc::batch::{self, Job, Terminal};
//!
//! let jobs: Vec<Job> = ["blur", "tint"]
//!     .iter()
//!     .enumerate()
//!     .map(|(i, name)| Job {
//!         args: ["-T", "cs_6_0", &format!("{name}.hlsl"), "-Fo", &format!("{name}.spv")]
//!             .map(String::from)
//!             .to_vec(),
//!         origin: format!("shader {}", i + 1),
//!     })
//!     .collect();
//! let failed = batch::run(&jobs, batch::default_threads(), Terminal::default(), |_, _, out| {
//!     eprint!("{}", String::from_utf8_lossy(&out.stderr));
//! });
//! assert_eq!(failed, 0);
//! ```

pub(crate) mod driver;
pub(crate) mod output;
pub mod words;

pub use driver::{Output, Terminal};
pub use words::{expand_response_files, split_jobs, split_words};

use crate::options::CommandLine;
use crate::{CachingLoader, DiskLoader, FileLoader, SnapshotLoader};
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, PoisonError};

/// Runs one DXC command line (read by [`CommandLine::parse`]) as the
/// `hlslc` binary does, reading files through `loader`: compiles (or
/// preprocesses, or checks), writes the files it names, and returns what
/// it prints.
pub fn run_command_line(cl: &CommandLine, loader: &dyn FileLoader, terminal: Terminal) -> Output {
    driver::run(cl, loader, terminal, None)
}

/// [`run_command_line`] for a process that exits as soon as it has printed
/// the output (the `hlslc` binary): the compilation's memory is left to
/// the process's exit rather than freed piece by piece.
pub fn run_command_line_then_exit(
    cl: &CommandLine,
    loader: &dyn FileLoader,
    terminal: Terminal,
) -> Output {
    driver::run_then_exit(cl, loader, terminal)
}

/// One command line of a batch.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Job {
    /// The DXC command line, without the program name.
    pub args: Vec<String>,
    /// Where it came from, for its diagnostics: `jobs.txt:3`.
    pub origin: String,
}

/// The jobs of a jobs file (one command line a line, see [`words`]), each
/// after `common` (the arguments given beside `--jobs-file`). `@file`
/// arguments are expanded in both. An error names the file and line.
pub fn read_jobs_file(path: &Path, common: &[String]) -> Result<Vec<Job>, String> {
    let name = path.display().to_string();
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read jobs file '{name}': {e}"))?;
    let lines = split_jobs(&text).map_err(|(line, e)| format!("{name}:{line}: {e}"))?;
    let mut read = |p: &str| std::fs::read_to_string(p);
    let common = expand_response_files(common, &mut read)?;
    lines
        .into_iter()
        .map(|l| {
            let mut args = common.clone();
            args.extend(
                words::expand_owned(l.args, &mut read)
                    .map_err(|e| format!("{name}:{}: {e}", l.line))?,
            );
            Ok(Job {
                args,
                origin: format!("{name}:{}", l.line),
            })
        })
        .collect()
}

/// One thread per core ([`std::thread::available_parallelism`]).
pub fn default_threads() -> usize {
    std::thread::available_parallelism().map_or(1, usize::from)
}

/// Each compiler thread's stack: as much as the main thread has on Linux,
/// which the parser's and the passes' depth limits assume.
const STACK_SIZE: usize = 8 << 20;

/// Runs `jobs` on up to `threads` threads, reading files from disk
/// through one shared [`CachingLoader`] over a [`SnapshotLoader`]: each
/// file is read once for all the jobs. `done` gets each job's output in
/// job order, as soon as that job and all before it have finished, on the
/// thread that finished the last of them. Returns how many jobs failed.
pub fn run(
    jobs: &[Job],
    threads: usize,
    terminal: Terminal,
    done: impl FnMut(usize, &Job, Output) + Send,
) -> usize {
    let loader = CachingLoader::new(SnapshotLoader::new(DiskLoader));
    let next = AtomicUsize::new(0);
    // Each worker hands over what it can itself: a job's end wakes no
    // thread that waits only to print.
    let order = Mutex::new(InOrder {
        jobs,
        waiting: vec![None; jobs.len()],
        shown: 0,
        failed: 0,
        done,
    });
    std::thread::scope(|scope| {
        for _ in 0..threads.clamp(1, jobs.len().max(1)) {
            let (loader, next, order) = (&loader, &next, &order);
            let spawned = std::thread::Builder::new()
                .stack_size(STACK_SIZE)
                .spawn_scoped(scope, move || {
                    while let Some((i, job)) = claim(next, jobs) {
                        let out = run_job(i, job, loader, terminal);
                        order.lock().unwrap_or_else(PoisonError::into_inner).arrive(i, out);
                    }
                });
            if spawned.is_err() {
                break;
            }
        }
    });
    order.into_inner().unwrap_or_else(PoisonError::into_inner).finish()
}

/// The next job nobody has taken, if any.
fn claim<'j>(next: &AtomicUsize, jobs: &'j [Job]) -> Option<(usize, &'j Job)> {
    let i = next.fetch_add(1, Ordering::Relaxed);
    jobs.get(i).map(|job| (i, job))
}

/// Hands jobs' outputs, which arrive in any order, over in job order.
struct InOrder<'j, F> {
    jobs: &'j [Job],
    waiting: Vec<Option<Output>>,
    /// The jobs handed over: those before this one.
    shown: usize,
    failed: usize,
    done: F,
}

impl<F: FnMut(usize, &Job, Output)> InOrder<'_, F> {
    /// Job `i`'s output, and those it held back.
    fn arrive(&mut self, i: usize, out: Output) {
        if let Some(slot) = self.waiting.get_mut(i) {
            *slot = Some(out);
        }
        while let Some(out) = self.waiting.get_mut(self.shown).and_then(Option::take) {
            self.hand_over(out);
        }
    }

    /// The output of the next job in order.
    fn hand_over(&mut self, out: Output) {
        if let Some(job) = self.jobs.get(self.shown) {
            self.failed += usize::from(out.exit_code != 0);
            (self.done)(self.shown, job, out);
        }
        self.shown += 1;
    }

    /// After every worker stopped: the outputs still held back, and for a
    /// job whose thread could not start or died, a failure, said so.
    /// Returns how many jobs failed.
    fn finish(mut self) -> usize {
        while let Some(job) = self.jobs.get(self.shown) {
            let out = self.waiting.get_mut(self.shown).and_then(Option::take);
            let out = out.unwrap_or_else(|| Output {
                exit_code: 1,
                stderr: format!(
                    "{}: error: internal error: this job did not run\n",
                    label(self.shown, job, None)
                )
                .into_bytes(),
                ..Output::default()
            });
            self.hand_over(out);
        }
        self.failed
    }
}

/// How a job names itself in its diagnostics: its number (1-based), where
/// it came from, and its output (or input) file.
fn label(i: usize, job: &Job, cl: Option<&CommandLine>) -> String {
    let file = cl.and_then(|cl| cl.outputs.object.as_ref().or(cl.input.as_ref()));
    match file {
        Some(f) => format!("job {} ({}, {})", i + 1, job.origin, f.display()),
        None => format!("job {} ({})", i + 1, job.origin),
    }
}

/// Parses and runs one job.
fn run_job(i: usize, job: &Job, loader: &dyn FileLoader, terminal: Terminal) -> Output {
    let mut cl = CommandLine::parse(&job.args);
    if cl.batch.is_requested() {
        cl.diagnostics.push(driver::option_error(
            "a job cannot run a batch of its own (--jobs-file or -j inside a jobs file)".into(),
        ));
    }
    let label = label(i, job, Some(&cl));
    driver::run(&cl, loader, terminal, Some(&label))
}
