// Vertex attributes from a vertex buffer: locations follow the order of the
// input struct's members (POSITION 0, COLOR 1, TAG 2).

struct VSIn {
    float2 pos : POSITION;
    float4 color : COLOR;
    uint tag : TAG;
};

struct VSOut {
    float4 pos : SV_Position;
    nointerpolation float4 color : COLOR;
    nointerpolation uint tag : TAG;
};

VSOut VSMain(VSIn i) {
    VSOut o;
    o.pos = float4(i.pos, 0.0, 1.0);
    o.color = i.color;
    o.tag = i.tag;
    return o;
}

float4 PSMain(VSOut i) : SV_Target {
    return float4(i.color.xyz, i.color.w + float(i.tag));
}
