#!/usr/bin/env python3
"""didChange -> publishDiagnostics latency of `hlslc lsp` on a generated
1,500-line shader (issue 12's goal: <= 20 ms on the project's VM).

    python3 tools/lsp_latency.py [target/release/hlslc] [--lines 1500] [--edits 200]

Opens one document with no settings (checked as a library: every function,
two entry points with their stage rules), then edits it `--edits` times,
one edit at a time, alternately adding and removing an unknown name in the
last function so that every edit changes the diagnostics, and times each
edit from sending didChange to reading its publishDiagnostics. Prints the
median, 90th percentile, the server's CPU time per edit and the load
average (a shared machine's wall-clock numbers are only as good as its
load).

Then, with `--requests N` (default 60), N more edits, each followed at
once by one request (hover, definition and completion in turn, at a call
of a helper in the pixel entry point and in the edited function): the time
from sending the request to its answer, which includes building the code
intelligence of the edit just published (the server builds it on the
first request, or when idle).
"""
import json, os, statistics, subprocess, sys, time

def shader(lines):
    head = [
        "// A generated post-processing library: cbuffers, resources, helpers,",
        "// a vertex and a pixel entry point.",
        "cbuffer Frame : register(b2) {",
        "    float4x4 viewProj;",
        "    float4 tint;",
        "    float exposure;",
        "    float time;",
        "};",
        "Texture2D<float4> scene : register(t0);",
        "SamplerState linearClamp : register(s1);",
        "struct Varyings {",
        "    float4 position : SV_Position;",
        "    float2 uv : TEXCOORD0;",
        "    float3 normal : NORMAL;",
        "};",
    ]
    body = []
    i = 0
    while len(head) + len(body) + 40 < lines:
        body += [
            f"float3 helper{i}(float3 c, float2 uv, float k) {{",
            "    float3 acc = c;",
            f"    [unroll] for (int j = 0; j < 4; ++j) {{",
            "        float w = exp2(-float(j) * k);",
            "        acc += scene.SampleLevel(linearClamp, uv + float2(j, 0) * 0.001, 0).rgb * w;",
            "    }",
            "    float l = dot(acc, float3(0.2126, 0.7152, 0.0722));",
            "    if (l > 1.0)",
            "        acc /= l;",
            "    acc = lerp(acc, tint.rgb, saturate(k * 0.5));",
            "    acc *= exposure;",
            f"    return acc + sin(time + {i}.0) * 0.01;",
            "}",
            "",
        ]
        i += 1
    n = i
    tail = [
        "Varyings VSMain(uint id : SV_VertexID, float3 normal : NORMAL) {",
        "    Varyings v;",
        "    v.uv = float2((id << 1) & 2, id & 2);",
        "    v.position = mul(viewProj, float4(v.uv * 2.0 - 1.0, 0.0, 1.0));",
        "    v.normal = normal;",
        "    return v;",
        "}",
        "",
        "float4 PSMain(Varyings v) : SV_Target {",
        "    float3 c = scene.Sample(linearClamp, v.uv).rgb;",
    ]
    for k in range(0, n, max(1, n // 8)):
        tail.append(f"    c = helper{k}(c, v.uv, {k % 5}.0);")
    tail += ["    return float4(c, 1.0);", "}"]
    text = head + body + tail
    return "\n".join(text) + "\n", len(text) - 2

def toggle_error(line, col, add):
    """The edit that inserts an undefined name at (line, col), or removes it."""
    end = col if add else col + 15
    return {"range": {"start": {"line": line, "character": col},
                      "end": {"line": line, "character": end}},
            "text": "undefinedName; " if add else ""}


def cpu_seconds(pid):
    """User + system CPU time of a process (Linux), which a loaded machine
    does not inflate as it does wall-clock time."""
    try:
        fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except OSError:
        return 0.0

def main():
    args = sys.argv[1:]
    exe = "target/release/hlslc"
    lines, edits, requests = 1500, 200, 60
    while args:
        a = args.pop(0)
        if a == "--lines":
            lines = int(args.pop(0))
        elif a == "--edits":
            edits = int(args.pop(0))
        elif a == "--requests":
            requests = int(args.pop(0))
        else:
            exe = a
    text, edit_line = shader(lines)
    p = subprocess.Popen([exe, "lsp"], stdin=subprocess.PIPE, stdout=subprocess.PIPE)

    def send(msg):
        body = json.dumps(msg).encode()
        p.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        p.stdin.flush()

    def read():
        length = 0
        while True:
            line = p.stdout.readline()
            if line in (b"\r\n", b""):
                break
            if line.lower().startswith(b"content-length:"):
                length = int(line.split(b":")[1])
        return json.loads(p.stdout.read(length))

    def wait_publish():
        while True:
            m = read()
            if m.get("method") == "textDocument/publishDiagnostics":
                return m["params"]

    def wait_response(id):
        while True:
            m = read()
            if m.get("id") == id:
                return m

    uri = "file:///tmp/hlslc-latency/post.hlsl"
    send({"jsonrpc": "2.0", "id": 1, "method": "initialize",
          "params": {"processId": None, "rootUri": None, "capabilities": {}}})
    while read().get("id") != 1:
        pass
    send({"jsonrpc": "2.0", "method": "initialized", "params": {}})
    send({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {
        "uri": uri, "languageId": "hlsl", "version": 1, "text": text}}})
    # A clean file publishes nothing: add the first error to see a publish.
    times = []
    col = 4
    cpu0 = cpu_seconds(p.pid)
    for e in range(edits + 1):
        add = e % 2 == 0
        change = toggle_error(edit_line, col, add)
        t0 = time.perf_counter()
        send({"jsonrpc": "2.0", "method": "textDocument/didChange", "params": {
            "textDocument": {"uri": uri, "version": e + 2}, "contentChanges": [change]}})
        pub = wait_publish()
        dt = time.perf_counter() - t0
        assert (len(pub["diagnostics"]) > 0) == add, pub
        if e > 0:
            times.append(dt * 1000)
    cpu = (cpu_seconds(p.pid) - cpu0) * 1000 / (edits + 1)
    # A call `helperK(` in the pixel entry point: hover and definition on
    # the name; completion at the start of the edited line.
    call_line = text.split("\n").index(next(l for l in text.split("\n") if "c = helper" in l))
    kinds = ["textDocument/hover", "textDocument/definition", "textDocument/completion"]
    answered = {k: [] for k in kinds}
    version = edits + 2
    for r in range(requests + (requests % 2)):
        add = r % 2 == 0
        change = toggle_error(edit_line, col, add)
        version += 1
        send({"jsonrpc": "2.0", "method": "textDocument/didChange", "params": {
            "textDocument": {"uri": uri, "version": version}, "contentChanges": [change]}})
        wait_publish()
        kind = kinds[r % 3]
        at = ({"line": edit_line, "character": col} if kind.endswith("completion")
              else {"line": call_line, "character": 10})
        t0 = time.perf_counter()
        send({"jsonrpc": "2.0", "id": 100 + r, "method": kind, "params": {
            "textDocument": {"uri": uri}, "position": at}})
        answer = wait_response(100 + r)
        answered[kind].append((time.perf_counter() - t0) * 1000)
        assert answer.get("result") is not None, answer
    send({"jsonrpc": "2.0", "id": 2, "method": "shutdown", "params": None})
    while read().get("id") != 2:
        pass
    send({"jsonrpc": "2.0", "method": "exit", "params": None})
    p.wait(timeout=10)
    times.sort()
    q = statistics.quantiles(times, n=10)
    print(f"{lines} lines, {len(times)} edits: median {statistics.median(times):.1f} ms, "
          f"p90 {q[-1]:.1f} ms, min {times[0]:.1f} ms; server CPU {cpu:.1f} ms per edit; "
          f"load average {tuple(round(x, 2) for x in os.getloadavg())}")
    for kind, ms in answered.items():
        if len(ms) >= 2:
            ms.sort()
            q = statistics.quantiles(ms, n=10)
            print(f"  {kind.split('/')[1]} just after an edit ({len(ms)}): "
                  f"median {statistics.median(ms):.1f} ms, p90 {q[-1]:.1f} ms")

if __name__ == "__main__":
    main()
