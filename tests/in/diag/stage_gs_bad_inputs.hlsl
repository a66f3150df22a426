// args: -T gs_6_0 -E main
// The input primitive fixes the vertex count; streams are `inout`.
struct V { float4 pos : SV_Position; };

[maxvertexcount(2000)]
void main(triangle V t[2], PointStream<V> s) {
    s.Append(t[0]);
}
