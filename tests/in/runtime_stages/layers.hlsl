// [instance(2)]: each instance re-emits the full-screen triangle into the
// layer of its number (SV_RenderTargetArrayIndex).

struct V { float4 pos : SV_Position; };

struct Layered {
    float4 pos : SV_Position;
    nointerpolation float tag : TAG;
    uint layer : SV_RenderTargetArrayIndex;
};

V VSMain(uint id : SV_VertexID) {
    V v;
    v.pos = float4(float2((id << 1) & 2, id & 2) * 2.0 - 1.0, 0, 1);
    return v;
}

[maxvertexcount(3)]
[instance(2)]
void GSMain(triangle V tri[3], uint instance : SV_GSInstanceID, inout TriangleStream<Layered> s) {
    for (uint i = 0; i < 3; ++i) {
        Layered o;
        o.pos = tri[i].pos;
        o.tag = 100.0 + instance * 11.0;
        o.layer = instance;
        s.Append(o);
    }
}

float4 PSMain(float4 pos : SV_Position, nointerpolation float tag : TAG) : SV_Target {
    return float4(pos.xy, tag, 1);
}
