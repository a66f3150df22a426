// Two output streams of points: stream 0 (rasterized) gets the pixels of
// the left half, stream 1 the mirrored pixel of the right half, which must
// not be drawn. One-pixel points at pixel centres
// ([[vk::builtin("PointSize")]]).

struct V { float2 pixel : PIXEL; };

struct Shown {
    float4 pos : SV_Position;
    [[vk::builtin("PointSize")]] float size : PSIZE;
    nointerpolation float4 color : COLOR;
};

struct Hidden {
    float4 pos : SV_Position;
    [[vk::builtin("PointSize")]] float size : PSIZE;
    float4 data : DATA;
};

V VSMain(uint id : SV_VertexID) {
    V v;
    v.pixel = float2(id % 8, id / 8) + 0.5;
    return v;
}

[maxvertexcount(2)]
void GSMain(point V p[1], inout PointStream<Shown> shown, inout PointStream<Hidden> hidden) {
    float2 ndc = p[0].pixel / 8.0 - 1.0;
    Hidden h;
    h.pos = float4(-ndc.x, ndc.y, 0, 1);
    h.size = 1;
    h.data = 7;
    hidden.Append(h);
    Shown s;
    s.pos = float4(ndc, 0, 1);
    s.size = 1;
    s.color = float4(p[0].pixel, 3, 4);
    shown.Append(s);
}

float4 PSMain(nointerpolation float4 color : COLOR) : SV_Target {
    return color;
}
