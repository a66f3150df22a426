// SV_PrimitiveID into the geometry shader, a new one out of it, and into
// the pixel shader.

struct V { float4 pos : SV_Position; };
struct G { float4 pos : SV_Position; uint prim : SV_PrimitiveID; };

V VSMain(uint id : SV_VertexID) {
    // Two quads (left, right), two triangles each.
    static const float2 corners[6] = { float2(0, 0), float2(1, 0), float2(1, 2),
                                       float2(0, 0), float2(1, 2), float2(0, 2) };
    uint quad = id / 6;
    float2 p = corners[id % 6] + float2(quad, 0);
    V v;
    v.pos = float4(p - 1.0, 0, 1);
    return v;
}

[maxvertexcount(3)]
void GSMain(triangle V tri[3], uint prim : SV_PrimitiveID, inout TriangleStream<G> s) {
    for (uint i = 0; i < 3; ++i) {
        G g;
        g.pos = tri[i].pos;
        g.prim = prim * 10 + 3;
        s.Append(g);
    }
}

float4 PSMain(uint prim : SV_PrimitiveID) : SV_Target {
    return float4(prim, 0, 0, 1);
}
