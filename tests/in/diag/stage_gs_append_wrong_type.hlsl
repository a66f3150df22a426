// args: -T gs_6_0 -E main
// A stream takes vertices of its own type only.
struct V { float4 pos : SV_Position; };
struct W { float4 pos : SV_Position; float4 color : COLOR; };

[maxvertexcount(3)]
void main(triangle V t[3], inout TriangleStream<W> s) {
    s.Append(t[0]);
    s.Append(t[1], t[2]);
    s.Restart();
}
