// VS -> PS varyings through structs with semantics: an interpolated float3,
// flat (nointerpolation) uint and float2, and two render targets.

struct VSOut {
    float4 pos : SV_Position;
    float3 ndc : NDC;
    nointerpolation uint tag : TAG;
    nointerpolation float2 pair : PAIR;
};

struct PSOut {
    float4 color : SV_Target0;
    float4 extra : SV_Target1;
};

VSOut VSMain(uint id : SV_VertexID) {
    float2 uv = float2((id << 1) & 2, id & 2);
    VSOut o;
    o.pos = float4(uv * 2.0 - 1.0, 0.0, 1.0);
    o.ndc = float3(o.pos.xy, 0.5);
    // Flat values come from the provoking vertex, the first of a
    // triangle in Vulkan: 100 and (1.5, -2.25).
    o.tag = 100 + id * 7;
    o.pair = float2(1.5 + id, -2.25 * (id + 1));
    return o;
}

PSOut PSMain(VSOut i) {
    PSOut o;
    o.color = float4(i.ndc, 1.0);
    o.extra = float4(float(i.tag), i.pair, i.pos.x);
    return o;
}
