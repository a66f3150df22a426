// args: -T vs_6_0 -E main
// Output streams belong to geometry shaders.
struct V { float4 pos : SV_Position; };

V main(float4 p : POSITION, inout TriangleStream<V> s) {
    V v;
    v.pos = p;
    return v;
}
