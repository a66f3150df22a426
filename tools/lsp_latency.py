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
    lines, edits = 1500, 200
    while args:
        a = args.pop(0)
        if a == "--lines":
            lines = int(args.pop(0))
        elif a == "--edits":
            edits = int(args.pop(0))
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
        change = ({"range": {"start": {"line": edit_line, "character": col},
                             "end": {"line": edit_line, "character": col}},
                   "text": "undefinedName; "} if add else
                  {"range": {"start": {"line": edit_line, "character": col},
                             "end": {"line": edit_line, "character": col + 15}},
                   "text": ""})
        t0 = time.perf_counter()
        send({"jsonrpc": "2.0", "method": "textDocument/didChange", "params": {
            "textDocument": {"uri": uri, "version": e + 2}, "contentChanges": [change]}})
        pub = wait_publish()
        dt = time.perf_counter() - t0
        assert (len(pub["diagnostics"]) > 0) == add, pub
        if e > 0:
            times.append(dt * 1000)
    cpu = (cpu_seconds(p.pid) - cpu0) * 1000 / (edits + 1)
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

if __name__ == "__main__":
    main()
