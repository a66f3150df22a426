// args: -T gs_6_0 -E main
// A geometry shader must say how many vertices it may emit.
struct V { float4 pos : SV_Position; };

void main(point V p[1], inout PointStream<V> s) {
    s.Append(p[0]);
}
