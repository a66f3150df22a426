// Two output streams: stream 0 (rasterized) gets the left half of the
// screen, stream 1 a full-screen triangle that must not be drawn.

struct V { float4 pos : SV_Position; };

struct Shown {
    float4 pos : SV_Position;
    nointerpolation float4 color : COLOR;
};

struct Hidden {
    float4 pos : SV_Position;
    float4 data : DATA;
};

V VSMain(uint id : SV_VertexID) {
    V v;
    v.pos = float4(float2((id << 1) & 2, id & 2) * 2.0 - 1.0, 0, 1);
    return v;
}

[maxvertexcount(6)]
void GSMain(triangle V tri[3], inout TriangleStream<Shown> shown, inout TriangleStream<Hidden> hidden) {
    for (uint i = 0; i < 3; ++i) {
        Hidden h;
        h.pos = tri[i].pos;
        h.data = 7;
        hidden.Append(h);
    }
    hidden.RestartStrip();
    // The left half: x from -1 to 0, as a strip of two triangles.
    const float2 quad[4] = { float2(-1, -1), float2(0, -1), float2(-1, 1), float2(0, 1) };
    for (uint k = 0; k < 4; ++k) {
        Shown s;
        s.pos = float4(quad[k], 0, 1);
        s.color = float4(1, 2, 3, 4);
        shown.Append(s);
    }
}

float4 PSMain(nointerpolation float4 color : COLOR) : SV_Target {
    return color;
}
