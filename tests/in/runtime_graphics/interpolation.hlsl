// Interpolation modes with a different w at each vertex: perspective-correct
// (the default), noperspective (linear in screen space) and nointerpolation.

struct VSOut {
    float4 pos : SV_Position;
    float persp : PERSP;
    noperspective float screen : SCREEN;
    nointerpolation float flat : FLAT;
};

VSOut VSMain(uint id : SV_VertexID) {
    float2 uv = float2((id << 1) & 2, id & 2);
    float w = 1.0 + float(id); // 1, 2, 3
    float a = float(id) * 4.0 + 1.0; // 1, 5, 9
    VSOut o;
    o.pos = float4((uv * 2.0 - 1.0) * w, 0.0, w);
    o.persp = a;
    o.screen = a;
    o.flat = a;
    return o;
}

float4 PSMain(VSOut i) : SV_Target {
    return float4(i.persp, i.screen, i.flat, i.pos.w);
}
