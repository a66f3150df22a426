//! The language server (`hlslc lsp`), driven in-process: the server runs on
//! a thread over `lsp_server::Connection::memory()`, the test plays the
//! editor.
//!
//! Every step ends with a request the server does not know
//! (`hlslc/sync`): the server handles messages one at a time, so everything
//! it published before answering that request is the complete effect of
//! the step.

use crate::FileLoader;
use crate::diag::{Diagnostic as HlslDiagnostic, Diagnostics, codes};
use crate::lsp::{CompileFn, compile_document, serve};
use crate::source::SourceMap;
use crate::{Compilation, Options};
use lsp_server::{Connection, Message, Notification, Request, RequestId, Response};
use lsp_types::{Diagnostic, NumberOrString, Position, PublishDiagnosticsParams, Range};
use serde_json::{Value, json};
use std::collections::HashMap;
use std::path::Path;
use std::thread::JoinHandle;
use std::time::Duration;

const TIMEOUT: Duration = Duration::from_secs(30);

struct Client {
    conn: Connection,
    server: Option<JoinHandle<i32>>,
    next_id: i32,
    /// The last diagnostics published for each URI.
    state: HashMap<String, Vec<Diagnostic>>,
    /// Log messages received, in order: (type, message).
    logs: Vec<(i64, String)>,
    /// Messages shown to the user (`window/showMessage`), in order.
    shown: Vec<String>,
    /// The semantic tokens legend the server advertised.
    legend: Value,
}

/// A scratch directory for files on disk (removed when dropped).
fn scratch(name: &str) -> tempfile::TempDir {
    crate::tests::common::scratch_dir(&format!("hlslc-lsp-{name}"))
}

fn uri(path: &Path) -> String {
    format!("file://{}", path.display())
}

fn pos(line: u32, character: u32) -> Position {
    Position { line, character }
}

fn code(d: &Diagnostic) -> &str {
    match &d.code {
        Some(NumberOrString::String(s)) => s,
        _ => "",
    }
}

/// The server's own compiler with the IR validator on, as every test
/// compiles (`cargo test --release` has no debug assertions).
fn verified_compile(path: &Path, loader: &dyn FileLoader, o: &Options) -> Compilation {
    let o = Options {
        verify_ir: true,
        ..o.clone()
    };
    compile_document(path, loader, &o)
}

impl Client {
    fn start(init_options: Value) -> Client {
        Self::start_with(init_options, verified_compile)
    }

    fn start_with(init_options: Value, compile: CompileFn) -> Client {
        Self::start_full(init_options, compile, Value::Null)
    }

    /// A client whose workspace is the folder `root_uri`.
    fn start_in(root_uri: &str) -> Client {
        Self::start_full(json!({}), verified_compile, json!(root_uri))
    }

    fn start_full(init_options: Value, compile: CompileFn, root_uri: Value) -> Client {
        let (server_end, client_end) = Connection::memory();
        let server = std::thread::spawn(move || serve(server_end, compile));
        let mut c = Client {
            conn: client_end,
            server: Some(server),
            next_id: 0,
            state: HashMap::new(),
            logs: Vec::new(),
            shown: Vec::new(),
            legend: Value::Null,
        };
        let init = c.request(
            "initialize",
            json!({
                "processId": null,
                "rootUri": root_uri,
                "capabilities": {
                    "textDocument": {"publishDiagnostics": {"relatedInformation": true}}
                },
                "initializationOptions": init_options,
            }),
        );
        let caps = &init.result.as_ref().expect("initialize succeeds")["capabilities"];
        assert_eq!(caps["textDocumentSync"]["change"], 2, "incremental sync");
        assert_eq!(caps["textDocumentSync"]["openClose"], true);
        assert_eq!(caps["positionEncoding"], "utf-16");
        c.legend = caps["semanticTokensProvider"]["legend"].clone();
        c.notify("initialized", json!({}));
        c
    }

    fn recv(&mut self) -> Message {
        match self.conn.receiver.recv_timeout(TIMEOUT) {
            Ok(m) => m,
            Err(e) => panic!("no message from the server: {e}"),
        }
    }

    /// Handles a notification from the server; returns a publish.
    fn absorb(&mut self, n: Notification) -> Option<PublishDiagnosticsParams> {
        match n.method.as_str() {
            "textDocument/publishDiagnostics" => {
                let p: PublishDiagnosticsParams = serde_json::from_value(n.params).unwrap();
                self.state
                    .insert(p.uri.as_str().to_string(), p.diagnostics.clone());
                Some(p)
            }
            "window/logMessage" => {
                let t = n.params["type"].as_i64().unwrap_or(0);
                let m = n.params["message"].as_str().unwrap_or("").to_string();
                self.logs.push((t, m));
                None
            }
            "window/showMessage" => {
                let m = n.params["message"].as_str().unwrap_or("").to_string();
                self.shown.push(m);
                None
            }
            other => panic!("unexpected notification {other}"),
        }
    }

    /// Sends a request; returns its response (absorbing what comes before).
    fn request(&mut self, method: &str, params: Value) -> Response {
        self.next_id += 1;
        let id = RequestId::from(self.next_id);
        self.conn
            .sender
            .send(Request::new(id.clone(), method.to_string(), params).into())
            .unwrap();
        loop {
            match self.recv() {
                Message::Response(r) if r.id == id => return r,
                Message::Response(r) => panic!("unexpected response {r:?}"),
                Message::Notification(n) => {
                    self.absorb(n);
                }
                Message::Request(r) => panic!("unexpected request {r:?}"),
            }
        }
    }

    fn notify(&self, method: &str, params: Value) {
        self.conn
            .sender
            .send(Notification::new(method.to_string(), params).into())
            .unwrap();
    }

    /// Everything published since the last step.
    fn sync(&mut self) -> Vec<PublishDiagnosticsParams> {
        self.next_id += 1;
        let id = RequestId::from(self.next_id);
        self.conn
            .sender
            .send(Request::new(id.clone(), "hlslc/sync".to_string(), json!(null)).into())
            .unwrap();
        let mut out = Vec::new();
        loop {
            match self.recv() {
                Message::Response(r) if r.id == id => {
                    let e = r.error.expect("an unknown request is an error");
                    assert_eq!(e.code, lsp_server::ErrorCode::MethodNotFound as i32);
                    return out;
                }
                Message::Notification(n) => out.extend(self.absorb(n)),
                m => panic!("unexpected {m:?}"),
            }
        }
    }

    fn step(&mut self, method: &str, params: Value) -> Vec<PublishDiagnosticsParams> {
        self.notify(method, params);
        self.sync()
    }

    fn open(&mut self, uri: &str, version: i32, text: &str) -> Vec<PublishDiagnosticsParams> {
        self.step(
            "textDocument/didOpen",
            json!({"textDocument": {"uri": uri, "languageId": "hlsl", "version": version, "text": text}}),
        )
    }

    /// One incremental edit: replace `range` with `text`.
    fn edit(
        &mut self,
        uri: &str,
        version: i32,
        range: Range,
        text: &str,
    ) -> Vec<PublishDiagnosticsParams> {
        self.step(
            "textDocument/didChange",
            json!({
                "textDocument": {"uri": uri, "version": version},
                "contentChanges": [{"range": range, "text": text}],
            }),
        )
    }

    fn close(&mut self, uri: &str) -> Vec<PublishDiagnosticsParams> {
        self.step(
            "textDocument/didClose",
            json!({"textDocument": {"uri": uri}}),
        )
    }

    fn diagnostics(&self, uri: &str) -> &[Diagnostic] {
        self.state.get(uri).map_or(&[], Vec::as_slice)
    }

    /// `shutdown` then `exit`; returns the server's exit status.
    fn shutdown(mut self) -> i32 {
        let r = self.request("shutdown", json!(null));
        assert!(r.error.is_none(), "{r:?}");
        assert_eq!(r.result, Some(Value::Null));
        self.notify("exit", json!(null));
        self.join()
    }

    fn join(&mut self) -> i32 {
        let server = self.server.take().expect("running");
        // Wait for the thread without hanging the test forever.
        let start = std::time::Instant::now();
        while !server.is_finished() {
            assert!(start.elapsed() < TIMEOUT, "the server did not stop");
            std::thread::sleep(Duration::from_millis(5));
        }
        server.join().expect("the server thread did not panic")
    }
}

fn published_for<'a>(
    pubs: &'a [PublishDiagnosticsParams],
    uri: &str,
) -> Option<&'a PublishDiagnosticsParams> {
    pubs.iter().rev().find(|p| p.uri.as_str() == uri)
}

// --- protocol ----------------------------------------------------------

#[test]
fn initialize_shutdown_exit() {
    let mut c = Client::start(json!(null));
    // Requests the server does not handle are errors, not crashes.
    let r = c.request("textDocument/codeLens", json!({}));
    assert_eq!(
        r.error.unwrap().code,
        lsp_server::ErrorCode::MethodNotFound as i32
    );
    let r = c.request("shutdown", json!(null));
    assert_eq!(r.result, Some(Value::Null));
    // After shutdown, requests are refused and notifications ignored.
    let r = c.request("textDocument/hover", json!({}));
    assert_eq!(
        r.error.unwrap().code,
        lsp_server::ErrorCode::InvalidRequest as i32
    );
    c.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": "file:///x.hlsl", "languageId": "hlsl", "version": 1, "text": "#error x"}}),
    );
    c.notify("exit", json!(null));
    assert_eq!(c.join(), 0);
    assert!(c.state.is_empty(), "nothing compiled after shutdown");
}

#[test]
fn exit_without_shutdown_is_status_1() {
    let mut c = Client::start(json!(null));
    c.notify("exit", json!(null));
    assert_eq!(c.join(), 1);
}

#[test]
fn client_disconnecting_ends_the_server() {
    let c = Client::start(json!(null));
    let Client {
        conn, mut server, ..
    } = c;
    drop(conn);
    let server = server.take().unwrap();
    assert_eq!(server.join().unwrap(), 1);
}

#[test]
fn malformed_notifications_are_logged_and_ignored() {
    let mut c = Client::start(json!({"profile": 42}));
    c.step("textDocument/didOpen", json!({"textDocument": 7}));
    c.step(
        "textDocument/didChange",
        json!({"textDocument": {"uri": "file:///never-opened.hlsl", "version": 2}, "contentChanges": []}),
    );
    c.step("workspace/didChangeConfiguration", json!({"settings": []}));
    c.step("$/cancelRequest", json!({"id": 1}));
    let logs: Vec<&str> = c.logs.iter().map(|(_, m)| m.as_str()).collect();
    assert!(
        logs.iter().any(|m| m.contains("profile must be a string")),
        "{logs:?}"
    );
    assert!(
        logs.iter()
            .any(|m| m.contains("malformed 'textDocument/didOpen'")),
        "{logs:?}"
    );
    assert!(logs.iter().any(|m| m.contains("not open")), "{logs:?}");
    assert!(c.state.is_empty());
    assert_eq!(c.shutdown(), 0);
}

// --- panics --------------------------------------------------------------

fn panicking_compiler(_: &Path, _: &dyn FileLoader, _: &Options) -> Compilation {
    panic!("boom in the compiler")
}

#[test]
fn a_compiler_panic_becomes_a_diagnostic() {
    let mut c = Client::start_with(json!(null), panicking_compiler);
    let u = "file:///work/panic.hlsl";
    let pubs = c.open(u, 1, "float4 main() : SV_Target { return 0; }\n");
    let p = published_for(&pubs, u).expect("published");
    assert_eq!(p.version, Some(1));
    assert_eq!(p.diagnostics.len(), 1);
    let d = &p.diagnostics[0];
    assert_eq!(d.range, Range::new(pos(0, 0), pos(0, 0)));
    assert_eq!(code(d), codes::INTERNAL.0);
    assert!(d.message.contains("boom in the compiler"), "{}", d.message);
    assert!(
        c.logs
            .iter()
            .any(|(t, m)| *t == 1 && m.contains("panicked") && m.contains("panic.hlsl")),
        "{:?}",
        c.logs
    );
    // The server goes on: edits are still handled, and it shuts down cleanly.
    c.edit(u, 2, Range::new(pos(0, 0), pos(0, 0)), " ");
    assert_eq!(c.shutdown(), 0);
}

// --- options -------------------------------------------------------------

/// A "compiler" that reports the options it was given.
fn options_echo(path: &Path, loader: &dyn FileLoader, o: &Options) -> Compilation {
    let text = loader.read(path).unwrap_or_default();
    let mut diagnostics = Diagnostics::new();
    diagnostics.push(HlslDiagnostic::warning(
        codes::UNSUPPORTED,
        format!(
            "profile={} entry={} defines={:?} includes={:?} chars={}",
            o.profile.map_or("none".to_string(), |p| p.to_string()),
            o.entry,
            o.defines,
            o.include_dirs,
            text.chars().count()
        ),
    ));
    Compilation {
        diagnostics,
        source_map: SourceMap::new(),
        dependencies: vec![path.to_path_buf()],
        artifact: None,
        index: None,
        leftovers: crate::Leftovers::default(),
    }
}

#[test]
fn options_come_from_settings_and_the_command_line_comment() {
    let mut c = Client::start_with(
        json!({"profile": "ps_6_0", "defines": ["A=1"], "includeDirs": ["/inc"]}),
        options_echo,
    );
    let plain = "file:///w/plain.hlsl";
    let pubs = c.open(plain, 1, "float x;\n");
    let d = &published_for(&pubs, plain).unwrap().diagnostics[0];
    assert!(
        d.message.starts_with(
            "profile=ps_6_0 entry=main defines=[(\"A\", Some(\"1\"))] includes=[\"/inc\"]"
        ),
        "{}",
        d.message
    );
    assert_eq!(d.severity, Some(lsp_types::DiagnosticSeverity::WARNING));
    // No location: the start of the document.
    assert_eq!(d.range, Range::new(pos(0, 0), pos(0, 0)));

    let cs = "file:///w/cs.hlsl";
    let pubs = c.open(
        cs,
        1,
        "// A compute shader.\n// Compile:  hlslc -spirv -T cs_6_2 -E CSMain -DB -I sub x.hlsl -Fo x.spv\nfloat x;\n",
    );
    let m = &published_for(&pubs, cs).unwrap().diagnostics[0].message;
    assert!(m.contains("profile=cs_6_2 entry=CSMain"), "{m}");
    assert!(
        m.contains("defines=[(\"A\", Some(\"1\")), (\"B\", None)]"),
        "{m}"
    );
    // Without a workspace root, -I is relative to the document.
    assert!(m.contains("includes=[\"/inc\", \"/w/sub\"]"), "{m}");

    // New settings recompile every document.
    let pubs = c.step(
        "workspace/didChangeConfiguration",
        json!({"settings": {"hlslc": {"profile": "vs_6_1"}}}),
    );
    let m = &published_for(&pubs, plain).unwrap().diagnostics[0].message;
    assert!(m.starts_with("profile=vs_6_1 entry=main defines=[]"), "{m}");
    let m = &published_for(&pubs, cs).unwrap().diagnostics[0].message;
    assert!(m.contains("profile=cs_6_2"), "{m}");
    assert_eq!(c.shutdown(), 0);
}

// --- diagnostics from the front end -----------------------------------------

#[test]
fn error_directive_moves_with_utf16_edits_and_clears() {
    let mut c = Client::start(json!(null));
    let u = "file:///w/main.hlsl";
    let pubs = c.open(u, 1, "float4 x;\n#error stop here\nfloat y;\n");
    let p = published_for(&pubs, u).expect("published");
    assert_eq!(p.version, Some(1));
    assert_eq!(p.diagnostics.len(), 1, "{:?}", p.diagnostics);
    let d = &p.diagnostics[0];
    assert_eq!(d.range, Range::new(pos(1, 0), pos(1, 6)));
    assert_eq!(code(d), "E0114");
    assert_eq!(d.severity, Some(lsp_types::DiagnosticSeverity::ERROR));
    assert_eq!(d.source.as_deref(), Some("hlslc"));
    assert!(d.message.starts_with("stop here"), "{}", d.message);

    // Non-ASCII text before the directive: 'é' is one UTF-16 unit (two
    // bytes), '𝄞' two units (four bytes). A comment keeps it one line.
    let pubs = c.edit(u, 2, Range::new(pos(1, 0), pos(1, 0)), "/*é𝄞*/ ");
    let p = published_for(&pubs, u).expect("moved");
    assert_eq!(p.version, Some(2));
    assert_eq!(
        p.diagnostics[0].range,
        Range::new(pos(1, 8), pos(1, 14)),
        "UTF-16 columns, not bytes (11) or chars (6)"
    );
    // An edit elsewhere that changes nothing publishes nothing.
    let pubs = c.edit(u, 3, Range::new(pos(2, 6), pos(2, 7)), "z");
    assert!(published_for(&pubs, u).is_none(), "{pubs:?}");
    // Removing the directive clears the diagnostic.
    let pubs = c.edit(u, 4, Range::new(pos(1, 0), pos(2, 0)), "");
    let p = published_for(&pubs, u).expect("cleared");
    assert!(p.diagnostics.is_empty());
    assert_eq!(p.version, Some(4));
    assert_eq!(c.shutdown(), 0);
}

#[test]
fn syntax_error_is_reported() {
    let mut c = Client::start(json!(null));
    let u = "file:///w/syntax.hlsl";
    // (`static`: library checking warns that a uniform's initializer is
    // ignored.)
    let pubs = c.open(u, 1, "static float x;\nstatic float y = ;\n");
    let p = published_for(&pubs, u).expect("published");
    assert!(!p.diagnostics.is_empty());
    let d = &p.diagnostics[0];
    assert!(code(d).starts_with("E02"), "{d:?}");
    assert_eq!(d.range.start.line, 1, "{d:?}");
    assert_eq!(d.severity, Some(lsp_types::DiagnosticSeverity::ERROR));
    let pubs = c.edit(u, 2, Range::new(pos(1, 17), pos(1, 17)), "1");
    assert!(
        published_for(&pubs, u)
            .expect("cleared")
            .diagnostics
            .is_empty()
    );
    assert_eq!(c.shutdown(), 0);
}

#[test]
fn an_open_unsaved_header_is_read_from_the_editor() {
    // Neither file exists on disk: the include can only be found in memory.
    let tmp = scratch("unsaved");
    let dir = tmp.path();
    let main = uri(&dir.join("main.hlsl"));
    let header = uri(&dir.join("common.hlsli"));
    let mut c = Client::start(json!(null));
    c.open(&header, 1, "// common\n#define SCALE 2\n");
    let pubs = c.open(
        &main,
        1,
        "#include \"common.hlsli\"\n#if SCALE != 3\n#error wrong scale\n#endif\n",
    );
    let p = published_for(&pubs, &main).expect("main published");
    assert_eq!(p.diagnostics.len(), 1, "{:?}", p.diagnostics);
    assert_eq!(
        code(&p.diagnostics[0]),
        "E0114",
        "found through the overlay"
    );

    // An edit of the unsaved header recompiles the file that includes it.
    let pubs = c.edit(&header, 2, Range::new(pos(1, 14), pos(1, 15)), "3");
    assert!(
        published_for(&pubs, &main)
            .expect("main recompiled")
            .diagnostics
            .is_empty()
    );

    // A problem in the header: published for the header, echoed in main at
    // the #include line.
    let pubs = c.edit(
        &header,
        3,
        Range::new(pos(0, 0), pos(0, 0)),
        "#warning header warning\n",
    );
    let h = published_for(&pubs, &header).expect("header published");
    assert_eq!(h.version, Some(3));
    assert_eq!(h.diagnostics.len(), 1, "{:?}", h.diagnostics);
    let hd = &h.diagnostics[0];
    assert_eq!(code(hd), "W0101");
    assert_eq!(hd.range, Range::new(pos(0, 0), pos(0, 8)));
    assert_eq!(hd.severity, Some(lsp_types::DiagnosticSeverity::WARNING));
    let related = hd.related_information.as_ref().expect("include chain");
    assert!(
        related.iter().any(|r| r.location.uri.as_str() == main
            && r.location.range.start == pos(0, 0)
            && r.message == "included from here"),
        "{related:?}"
    );
    let m = &c.diagnostics(&main)[0];
    assert_eq!(m.range.start, pos(0, 0));
    assert!(
        m.message.starts_with("in included file: header warning"),
        "{}",
        m.message
    );

    // Fixing the header clears both.
    let pubs = c.edit(&header, 4, Range::new(pos(0, 0), pos(1, 0)), "");
    assert!(
        published_for(&pubs, &header)
            .expect("cleared")
            .diagnostics
            .is_empty()
    );
    assert!(
        published_for(&pubs, &main)
            .expect("cleared")
            .diagnostics
            .is_empty()
    );
    assert_eq!(c.shutdown(), 0);
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn diagnostics_in_a_closed_header_are_published_for_it() {
    let tmp = scratch("closed");
    let dir = tmp.path();
    std::fs::write(dir.join("inc.hlsli"), "#error broken header\n").unwrap();
    let main = uri(&dir.join("main.hlsl"));
    let header = uri(&dir.join("inc.hlsli"));
    let mut c = Client::start(json!(null));
    let pubs = c.open(&main, 1, "float a;\n#include \"inc.hlsli\"\n");
    let h = published_for(&pubs, &header).expect("header published");
    assert_eq!(h.version, None, "not open");
    assert_eq!(code(&h.diagnostics[0]), "E0114");
    assert_eq!(h.diagnostics[0].range.start, pos(0, 0));
    let m = published_for(&pubs, &main).expect("echo in main");
    assert_eq!(m.diagnostics[0].range.start, pos(1, 0));
    assert_eq!(code(&m.diagnostics[0]), "E0114");

    // Dropping the include clears the header's diagnostics too.
    let pubs = c.edit(&main, 2, Range::new(pos(1, 0), pos(2, 0)), "");
    assert!(
        published_for(&pubs, &header)
            .expect("cleared")
            .diagnostics
            .is_empty()
    );
    assert!(
        published_for(&pubs, &main)
            .expect("cleared")
            .diagnostics
            .is_empty()
    );

    // Closing a document with diagnostics clears them.
    c.edit(&main, 3, Range::new(pos(0, 0), pos(0, 0)), "#error x\n");
    assert_eq!(c.diagnostics(&main).len(), 1);
    let pubs = c.close(&main);
    assert!(
        published_for(&pubs, &main)
            .expect("cleared")
            .diagnostics
            .is_empty()
    );
    assert_eq!(c.shutdown(), 0);
    let _ = std::fs::remove_dir_all(dir);
}

// --- the binary on stdio ---------------------------------------------------

#[test]
fn a_problem_inside_a_header_macro_is_echoed_at_its_use() {
    let tmp = scratch("macro");
    let dir = tmp.path();
    std::fs::write(dir.join("m.hlsli"), "#define DIV(a) (1 / (a))\n").unwrap();
    let main = uri(&dir.join("main.hlsl"));
    let header = uri(&dir.join("m.hlsli"));
    let mut c = Client::start(json!(null));
    let pubs = c.open(&main, 1, "#include \"m.hlsli\"\n#if DIV(0)\n#endif\n");
    // Where the text was spelled: the `/` in the header's macro body.
    let h = &published_for(&pubs, &header).expect("header").diagnostics;
    assert_eq!(h.len(), 1, "{h:?}");
    assert_eq!(code(&h[0]), "E0109");
    assert_eq!(h[0].range, Range::new(pos(0, 18), pos(0, 19)));
    let related = h[0].related_information.as_ref().unwrap();
    assert_eq!(related[0].message, "in expansion of macro `DIV`");
    assert_eq!(related[0].location.uri.as_str(), main);
    assert_eq!(related[0].location.range, Range::new(pos(1, 4), pos(1, 10)));
    assert_eq!(related[1].message, "included from here");
    // Echoed in the document at the macro's use.
    let m = &published_for(&pubs, &main).expect("main").diagnostics;
    assert_eq!(m.len(), 1, "{m:?}");
    assert_eq!(m[0].range, Range::new(pos(1, 4), pos(1, 10)));
    assert!(
        m[0].message
            .starts_with("in expansion of macro `DIV`: division by zero"),
        "{}",
        m[0].message
    );
    let back = &m[0].related_information.as_ref().unwrap()[0];
    assert_eq!(back.location.uri.as_str(), header);
    assert_eq!(back.location.range, h[0].range);
    assert_eq!(c.shutdown(), 0);
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn closing_the_including_document_compiles_the_header_on_its_own() {
    let tmp = scratch("reroot");
    let dir = tmp.path();
    let main = uri(&dir.join("main.hlsl"));
    let header = uri(&dir.join("h.hlsli"));
    let mut c = Client::start(json!(null));
    c.open(&header, 1, "#warning from h\n");
    let alone = c.diagnostics(&header).to_vec();
    assert_eq!(alone.len(), 1);
    assert!(
        alone[0].related_information.is_none(),
        "compiled on its own"
    );
    c.open(&main, 1, "#include \"h.hlsli\"\n");
    let included = c.diagnostics(&header).to_vec();
    assert_eq!(included.len(), 1, "not reported twice: {included:?}");
    assert_eq!(
        included[0].related_information.as_ref().unwrap()[0].message,
        "included from here"
    );
    assert_eq!(c.diagnostics(&main).len(), 1, "the echo");
    let pubs = c.close(&main);
    assert!(
        published_for(&pubs, &main)
            .expect("cleared")
            .diagnostics
            .is_empty()
    );
    assert_eq!(
        published_for(&pubs, &header)
            .expect("again alone")
            .diagnostics,
        alone
    );
    assert_eq!(c.shutdown(), 0);
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn semantic_errors_with_a_profile_and_without() {
    let mut c = Client::start(json!(null));
    let with = "file:///w/sema.hlsl";
    let text = "// hlslc -T cs_6_0 -E main\nRWStructuredBuffer<float> b;\n[numthreads(1, 1, 1)]\nvoid main() { b[0] = missing; }\n";
    let pubs = c.open(with, 1, text);
    let d = &published_for(&pubs, with).expect("published").diagnostics;
    assert_eq!(d.len(), 1, "{d:?}");
    assert_eq!(code(&d[0]), "E0301");
    assert_eq!(d[0].range, Range::new(pos(3, 21), pos(3, 28)));
    // The same text without a profile is checked as a library: the same
    // error.
    let without = "file:///w/library.hlsl";
    let pubs = c.open(without, 1, &text[text.find('\n').unwrap() + 1..]);
    let d = &published_for(&pubs, without)
        .expect("published")
        .diagnostics;
    assert_eq!(d.len(), 1, "{d:?}");
    assert_eq!(code(&d[0]), "E0301");
    assert_eq!(d[0].range, Range::new(pos(2, 21), pos(2, 28)));
    // Fixing the name clears the error.
    let pubs = c.edit(with, 2, Range::new(pos(3, 21), pos(3, 28)), "1.0");
    assert!(
        published_for(&pubs, with)
            .expect("cleared")
            .diagnostics
            .is_empty()
    );
    assert_eq!(c.shutdown(), 0);
}

/// Samples that hlslc compiles today, opened as an editor would: their
/// `// Compile:` lines give profile, entry point and flags (shadow_pcf's
/// register shifts), their includes come from the disk.
#[test]
fn samples_open_without_diagnostics() {
    let mut c = Client::start(json!(null));
    let dir = crate::tests::common::root().join("samples");
    for name in [
        "blur",
        "cull_instances",
        "histogram",
        "matmul",
        "mesh_lit",
        "particles",
        "prefix_sum",
        "reduce_sum",
        "shadow_pcf",
        "skinning",
        "tonemap",
    ] {
        let p = dir.join(format!("{name}.hlsl"));
        let text = std::fs::read_to_string(&p).unwrap();
        c.open(&uri(&p), 1, &text);
    }
    let all: Vec<(&String, &Diagnostic)> = c
        .state
        .iter()
        .flat_map(|(u, ds)| ds.iter().map(move |d| (u, d)))
        .collect();
    assert!(all.is_empty(), "{all:#?}");
    assert_eq!(c.shutdown(), 0);
}

/// Syntax checking plus a note naming the file compiled as the main file.
fn tagging_compiler(path: &Path, loader: &dyn FileLoader, o: &Options) -> Compilation {
    let mut c = crate::check_syntax(path, loader, o);
    c.diagnostics.push(HlslDiagnostic::new(
        crate::diag::Severity::Note,
        codes::UNSUPPORTED,
        format!(
            "main file {}",
            path.file_name().unwrap_or_default().to_string_lossy()
        ),
    ));
    c
}

#[test]
fn a_document_with_its_own_command_line_is_compiled_on_its_own() {
    let tmp = scratch("standalone");
    let dir = tmp.path();
    let a = uri(&dir.join("a.hlsl"));
    let b = uri(&dir.join("b.hlsl"));
    let h = uri(&dir.join("h.hlsli"));
    let mut c = Client::start_with(json!(null), tagging_compiler);
    c.open(&b, 1, "// hlslc -T ps_6_0 -E main\n#warning in b\n");
    c.open(&h, 1, "#warning in h\n");
    c.open(&a, 1, "#include \"b.hlsl\"\n#include \"h.hlsli\"\n");
    let notes = |c: &Client, u: &str| -> Vec<String> {
        c.diagnostics(u)
            .iter()
            .filter(|d| d.message.starts_with("main file"))
            .map(|d| d.message.clone())
            .collect()
    };
    assert_eq!(notes(&c, &a), vec!["main file a.hlsl"]);
    assert_eq!(
        notes(&c, &b),
        vec!["main file b.hlsl"],
        "still its own root"
    );
    assert!(notes(&c, &h).is_empty(), "compiled through a.hlsl only");
    // b's warning, from both compilations, is listed once.
    let warnings: Vec<&Diagnostic> = c
        .diagnostics(&b)
        .iter()
        .filter(|d| code(d) == "W0101")
        .collect();
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    // An edit of b recompiles both: a echoes b's warning at its #include.
    let pubs = c.edit(&b, 2, Range::new(pos(1, 12), pos(1, 13)), "B");
    assert!(published_for(&pubs, &b).is_some());
    let echo = &published_for(&pubs, &a).expect("a too").diagnostics;
    assert!(
        echo.iter()
            .any(|d| d.message == "in included file: in B" && d.range.start == pos(0, 0)),
        "{echo:?}"
    );
    assert!(
        c.diagnostics(&b)
            .iter()
            .any(|d| d.message.starts_with("in B"))
    );
    assert_eq!(c.shutdown(), 0);
    let _ = std::fs::remove_dir_all(dir);
}

// --- geometry and tessellation stages ------------------------------------

#[test]
fn geometry_and_hull_shader_rules_are_published() {
    let mut c = Client::start(json!(null));
    let gs = "file:///w/sprites_gs.hlsl";
    let text = "// Compile:  hlslc -spirv -T gs_6_0 -E GSMain sprites_gs.hlsl -Fo x.spv\n\
                struct V { float4 pos : SV_Position; };\n\
                void GSMain(point V p[1], inout PointStream<V> s) { s.Append(p[0]); }\n";
    let pubs = c.open(gs, 1, text);
    let ds = &published_for(&pubs, gs).expect("published").diagnostics;
    assert_eq!(ds.len(), 1, "{ds:?}");
    assert_eq!(code(&ds[0]), codes::BAD_ATTRIBUTE.0);
    assert!(
        ds[0].message.contains("no `[maxvertexcount]`"),
        "{}",
        ds[0].message
    );
    assert_eq!(ds[0].range, Range::new(pos(2, 5), pos(2, 11)));
    // With the attribute the geometry shader compiles.
    let pubs = c.edit(
        gs,
        2,
        Range::new(pos(2, 0), pos(2, 0)),
        "[maxvertexcount(1)] ",
    );
    let p = published_for(&pubs, gs).expect("published again");
    assert!(p.diagnostics.is_empty(), "{:?}", p.diagnostics);

    let hs = "file:///w/patch_hs.hlsl";
    let text = "// Compile:  hlslc -spirv -T hs_6_0 -E HSMain patch_hs.hlsl -Fo x.spv\n\
                struct CP { float4 pos : POS; };\n\
                [domain(\"tri\")] [outputcontrolpoints(3)] [patchconstantfunc(\"Missing\")]\n\
                CP HSMain(InputPatch<CP, 3> ip, uint i : SV_OutputControlPointID) { return ip[i]; }\n";
    let pubs = c.open(hs, 1, text);
    let ds = &published_for(&pubs, hs).expect("published").diagnostics;
    assert!(
        ds.iter().any(|d| d
            .message
            .contains("patch constant function `Missing` is not defined")),
        "{ds:?}"
    );
    assert_eq!(c.shutdown(), 0);
}

// --- no setup: library checking --------------------------------------------

const TWO_ENTRIES: &str = "\
struct Varyings {
    float4 position : SV_Position;
    float2 uv : TEXCOORD0;
};

Texture2D albedo : register(t0);
SamplerState linearWrap : register(s1);

float3 tonemap(float3 c) {
    return c / (1.0 + luminance(c));
}

Varyings VSMain(uint id : SV_VertexID) {
    Varyings v;
    v.uv = float2((id << 1) & 2, id & 2);
    v.position = float4(v.uv * 2.0 - 1.0, 0.0, 1.0);
    return v;
}

float4 PSMain(Varyings v) : SV_Target {
    float4 c = albedo.Sample(linearWrap, v.uv);
    return float4(tonemap(c.rgb), c.a);
}
";

#[test]
fn with_no_setup_every_function_is_checked() {
    let mut c = Client::start(json!(null));
    let doc = "file:///w/post.hlsl";
    // `tonemap` calls a function that does not exist; only PSMain calls
    // it, and nothing names PSMain as an entry point.
    let pubs = c.open(doc, 1, TWO_ENTRIES);
    let d = &published_for(&pubs, doc).expect("published").diagnostics;
    assert_eq!(d.len(), 1, "{d:?}");
    assert_eq!(code(&d[0]), "E0301", "{d:?}");
    assert_eq!(d[0].range, Range::new(pos(9, 22), pos(9, 31)));
    // Stage rules from the semantics: `discard` in the vertex function.
    let pubs = c.edit(
        doc,
        2,
        Range::new(pos(16, 4), pos(16, 4)),
        "if (id > 3) discard;\n    ",
    );
    let d = &published_for(&pubs, doc).expect("published").diagnostics;
    let codes: Vec<&str> = d.iter().map(code).collect();
    assert_eq!(codes, ["E0301", "E0507"], "{d:?}");
    assert_eq!(d[1].range.start, pos(16, 16));
    assert!(d.iter().all(|d| code(d) != "E0601"));
    assert_eq!(c.shutdown(), 0);
}

#[test]
fn a_workspace_profile_without_an_entry_gives_no_false_e0601() {
    let mut c = Client::start(json!({"profile": "ps_6_0"}));
    // Several entry points and no `main`: checked as a library.
    let doc = "file:///w/fullscreen.hlsl";
    let text = TWO_ENTRIES.replace("luminance(c)", "dot(c, float3(0.3, 0.6, 0.1))");
    let pubs = c.open(doc, 1, &text);
    assert!(published_for(&pubs, doc).is_none(), "{pubs:?}");
    // A file with `main` is compiled for the profile: pixel rules.
    let ps = "file:///w/tint.hlsl";
    let pubs = c.open(
        ps,
        1,
        "float4 tint;\nfloat4 main(float4 p : SV_Position) : SV_Target {\n    return tint * ddx(p.x);\n}\n",
    );
    assert!(published_for(&pubs, ps).is_none(), "{pubs:?}");
    // (A pixel shader cannot write SV_Position.)
    let pubs = c.edit(ps, 2, Range::new(pos(1, 38), pos(1, 47)), "SV_Position");
    let d = &published_for(&pubs, ps).expect("published").diagnostics;
    assert!(d.iter().any(|d| code(d) == "E0604"), "{d:?}");
    // An entry named by the settings must exist.
    c.notify(
        "workspace/didChangeConfiguration",
        json!({"settings": {"hlslc": {"profile": "ps_6_0", "entry": "PSMian"}}}),
    );
    c.sync();
    let d = c.diagnostics(doc);
    assert_eq!(d.len(), 1, "{d:?}");
    assert_eq!(code(&d[0]), "E0601");
    assert!(d[0].message.contains("PSMian"), "{d:?}");
    assert_eq!(c.shutdown(), 0);
}

#[test]
fn a_header_alone_is_checked_as_a_library_and_in_the_file_including_it() {
    let tmp = scratch("library-header");
    let dir = tmp.path();
    let main = uri(&dir.join("lit.hlsl"));
    let header = uri(&dir.join("brdf.hlsli"));
    let header_text = "\
#ifndef BRDF_HLSLI
#define BRDF_HLSLI
static const float PI = 3.14159265;

float3 lambert(float3 albedo) {
    return albedo / PI;
}

float ggx(float nh, float roughness) {
    float a2 = roughness * roughness * roughness * roughness;
    float d = nh * nh * (a2 - 1.0) + 1.0;
    return a2 / (PI * d * d * rougness);
}
#endif
";
    let mut c = Client::start(json!({"profile": "ps_6_0"}));
    // Opened alone, under a workspace profile: no E0601, the mistake found.
    let pubs = c.open(&header, 1, header_text);
    let d = &published_for(&pubs, &header)
        .expect("published")
        .diagnostics;
    assert_eq!(d.len(), 1, "{d:?}");
    assert_eq!(code(&d[0]), "E0301");
    assert_eq!(d[0].range, Range::new(pos(11, 30), pos(11, 38)));
    // The file including it is compiled instead; the header's error shows
    // in the header and at the #include line.
    let pubs = c.open(
        &main,
        1,
        "#include \"brdf.hlsli\"\n\nfloat4 main(float3 n : NORMAL, float3 albedo : COLOR) : SV_Target {\n    return float4(lambert(albedo) * ggx(n.z, 0.5), 1.0);\n}\n",
    );
    let m = &published_for(&pubs, &main)
        .expect("main published")
        .diagnostics;
    assert_eq!(m.len(), 1, "{m:?}");
    assert_eq!(m[0].range.start, pos(0, 0));
    assert!(m[0].message.starts_with("in included file:"), "{m:?}");
    assert_eq!(c.diagnostics(&header).len(), 1);
    assert_eq!(code(&c.diagnostics(&header)[0]), "E0301");
    // Fixing the header clears both.
    let pubs = c.edit(
        &header,
        2,
        Range::new(pos(11, 30), pos(11, 38)),
        "roughness",
    );
    assert!(
        published_for(&pubs, &header)
            .expect("cleared")
            .diagnostics
            .is_empty()
    );
    assert!(
        published_for(&pubs, &main)
            .expect("cleared")
            .diagnostics
            .is_empty()
    );
    assert_eq!(c.shutdown(), 0);
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn a_header_is_checked_with_what_its_includer_defines() {
    // The header uses a macro and a struct that only the including file
    // provides: alone it has errors, in its includer's context none.
    let tmp = scratch("header-context");
    let dir = tmp.path();
    let main = uri(&dir.join("blur.hlsl"));
    let header = uri(&dir.join("taps.hlsli"));
    let header_text = "float4 blurTaps(Texture2D t, SamplerState s, float2 uv) {\n    float4 sum = 0;\n    for (int i = 0; i < TAPS; i++)\n        sum += t.Sample(s, uv + float2(i, 0) * settings.texel);\n    return sum / TAPS;\n}\n";
    std::fs::write(dir.join("taps.hlsli"), header_text).unwrap();
    let mut c = Client::start(json!(null));
    c.open(
        &main,
        1,
        "#define TAPS 4\nstruct Settings { float2 texel; };\nSettings settings;\nTexture2D src : register(t0);\nSamplerState smp : register(s1);\n#include \"taps.hlsli\"\nfloat4 PSMain(float2 uv : TEXCOORD0) : SV_Target { return blurTaps(src, smp, uv); }\n",
    );
    let pubs = c.open(&header, 1, header_text);
    assert!(published_for(&pubs, &header).is_none(), "{pubs:?}");
    assert!(c.diagnostics(&header).is_empty());
    assert!(
        c.diagnostics(&main).is_empty(),
        "{:?}",
        c.diagnostics(&main)
    );
    // Once the includer closes, the header is checked on its own.
    let pubs = c.close(&main);
    let d = &published_for(&pubs, &header)
        .expect("published")
        .diagnostics;
    assert!(d.iter().any(|d| code(d) == "E0301"), "{d:?}");
    assert_eq!(c.shutdown(), 0);
    let _ = std::fs::remove_dir_all(dir);
}

// --- settings: args ------------------------------------------------------

const REGISTERS: &str = "\
cbuffer Frame : register(b0) { float4x4 viewProj; };
Texture2D diffuse : register(t0);
SamplerState aniso : register(s0);

float4 PSMain(float2 uv : TEXCOORD0) : SV_Target {
    return diffuse.Sample(aniso, uv) * viewProj[0];
}
";

#[test]
fn args_setting_takes_dxc_flags() {
    // Without shifts, b0, t0 and s0 share binding 0: W0601 names the fix.
    let mut c = Client::start(json!(null));
    let doc = "file:///w/registers.hlsl";
    let pubs = c.open(doc, 1, REGISTERS);
    let d = &published_for(&pubs, doc).expect("published").diagnostics;
    assert!(
        !d.is_empty() && d.iter().all(|d| code(d) == "W0601"),
        "{d:?}"
    );
    assert!(d[0].message.contains("-fvk-"), "{}", d[0].message);
    assert!(d[0].message.contains("vk::binding"), "{}", d[0].message);
    assert_eq!(c.shutdown(), 0);

    let mut c =
        Client::start(json!({"args": ["-fvk-t-shift", "10", "0", "-fvk-s-shift", "20", "0"]}));
    let pubs = c.open(doc, 1, REGISTERS);
    assert!(published_for(&pubs, doc).is_none(), "{pubs:?}");
    // The per-file comment still counts, after the settings' args.
    let pubs = c.edit(
        doc,
        2,
        Range::new(pos(0, 0), pos(0, 0)),
        "// hlslc -T ps_6_0 -E PSMain\n",
    );
    assert!(published_for(&pubs, doc).is_none(), "{pubs:?}");
    // Bad args: a message for the user, no panic; the good ones still count.
    c.notify(
        "workspace/didChangeConfiguration",
        json!({"settings": {"args": ["-fvk-s-shift", "20", "0", "-fvk-t-shift", "ten", "0", 7]}}),
    );
    c.sync();
    assert!(
        c.shown
            .iter()
            .any(|m| m.contains("-fvk-t-shift") && m.contains("not a string")),
        "{:?}",
        c.shown
    );
    let d = c.diagnostics(doc);
    assert_eq!(d.len(), 1, "t0 meets b0 again: {d:?}");
    assert_eq!(c.shutdown(), 0);
}

// --- speed: stale work -----------------------------------------------------

#[test]
fn a_burst_of_changes_ends_with_the_newest_text() {
    let mut c = Client::start(json!(null));
    let doc = "file:///w/burst.hlsl";
    c.open(doc, 1, "float f(float x) { return x; }\n");
    // Ten keystrokes sent at once, typing `+ y` letter by letter and back
    // again; only the last text counts.
    let steps = ["+", " ", "y", " ", "*", " ", "z", "", "", ""];
    let mut col = 27;
    for (i, s) in steps.iter().enumerate() {
        c.notify(
            "textDocument/didChange",
            json!({
                "textDocument": {"uri": doc, "version": i + 2},
                "contentChanges": [{"range": Range::new(pos(0, col), pos(0, col)), "text": format!(" {s}")}],
            }),
        );
        col += 1 + s.len() as u32;
    }
    let pubs = c.sync();
    let last = published_for(&pubs, doc).expect("published");
    assert_eq!(last.version, Some(11));
    let names: Vec<&str> = last
        .diagnostics
        .iter()
        .map(|d| d.message.as_str())
        .collect();
    assert_eq!(last.diagnostics.len(), 2, "{names:?}");
    assert!(
        names[0].contains("`y`") && names[1].contains("`z`"),
        "{names:?}"
    );
    // Every publish for the document came after the last change was
    // applied: the stale texts were never compiled, or were superseded.
    assert_eq!(
        pubs.iter()
            .filter(|p| p.uri.as_str() == doc)
            .last()
            .unwrap()
            .version,
        Some(11)
    );
    assert_eq!(c.shutdown(), 0);
}

// Code intelligence requests: their own file, a child of this module for
// its client.
#[path = "lsp_intel.rs"]
mod intel;
#[path = "lsp_tokens.rs"]
mod tokens;
#[path = "lsp_rename.rs"]
mod rename;
#[path = "lsp_actions.rs"]
mod actions;
