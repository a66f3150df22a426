// Points expanded to quads by a geometry shader: four points, each the
// centre of a pixel-aligned square, drawn as a 4-vertex triangle strip.

struct Point {
    float2 center : CENTER;  // NDC
    float half_size : SIZE;  // NDC
    nointerpolation float2 color : COLOR;
};

struct Corner {
    float4 pos : SV_Position;
    float2 uv : TEXCOORD0;
    nointerpolation float2 color : COLOR;
};

Point VSMain(uint id : SV_VertexID) {
    // Squares of 4x4 pixels (0.5 NDC) at pixels (1,2), (9,1), (3,10), (10,9).
    static const float2 corners[4] = { float2(1, 2), float2(9, 1), float2(3, 10), float2(10, 9) };
    Point p;
    p.center = (corners[id] + 2.0) / 8.0 - 1.0;
    p.half_size = 0.25;
    p.color = float2(id + 1, 10 * id);
    return p;
}

[maxvertexcount(4)]
void GSMain(point Point input[1], inout TriangleStream<Corner> stream) {
    const float2 offsets[4] = { float2(-1, -1), float2(1, -1), float2(-1, 1), float2(1, 1) };
    for (uint i = 0; i < 4; ++i) {
        Corner c;
        c.pos = float4(input[0].center + offsets[i] * input[0].half_size, 0, 1);
        c.uv = offsets[i] * 0.5 + 0.5;
        c.color = input[0].color;
        stream.Append(c);
    }
    stream.RestartStrip();
}

float4 PSMain(Corner c) : SV_Target {
    return float4(c.uv, c.color);
}
