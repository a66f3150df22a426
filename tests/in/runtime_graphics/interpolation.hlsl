// Interpolation modes with a different w at each vertex: perspective-correct
// (the default), noperspective (linear in screen space) and nointerpolation.

struct VSOut {
    float4 pos : SV_Position;
    float persp : PERSP;
    noperspective float screen : SCREEN;
    nointerpolation float flat : FLAT;
};

VSOut VSMain(uint id : SV_VertexID) {
    // The lower-left half of the target: (-1,-1), (1,-1), (-1,1). No
    // vertex is outside the clip volume (lavapipe 22.3 returned NaN for
    // noperspective inputs of a clipped triangle with different w).
    float2 uv = float2((id << 1) & 2, id & 2) * 0.5;
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
