// SV_ClipDistance0 (a float) and SV_ClipDistance1 (a float2) share the one
// ClipDistance array: primitives are clipped where any is negative.

struct VSOut {
    float4 pos : SV_Position;
    float clipX : SV_ClipDistance0;
    float2 clipYW : SV_ClipDistance1;
};

VSOut VSMain(uint id : SV_VertexID) {
    float2 uv = float2((id << 1) & 2, id & 2);
    VSOut o;
    o.pos = float4(uv * 2.0 - 1.0, 0.0, 1.0);
    o.clipX = o.pos.x;
    o.clipYW = float2(o.pos.y, 1.0);
    return o;
}

float4 PSMain(float4 pos : SV_Position) : SV_Target {
    return float4(pos.xy, 5.0, 6.0);
}
