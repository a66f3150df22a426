// Clip and cull distances written by the vertex shader and read back by
// the pixel shader: both sides pack them by index into one array each.
// Every distance is positive inside the target, so nothing is clipped.

struct V {
    float4 pos : SV_Position;
    float2 clip1 : SV_ClipDistance1;
    float clip0 : SV_ClipDistance0;
    float cull0 : SV_CullDistance0;
};

V VSMain(uint id : SV_VertexID) {
    float2 uv = float2((id << 1) & 2, id & 2);
    float2 ndc = uv * 2.0 - 1.0;
    V v;
    v.pos = float4(ndc, 0.0, 1.0);
    v.clip0 = ndc.x + 2.0;
    v.clip1 = float2(ndc.y + 2.0, 7.0);
    v.cull0 = 0.5;
    return v;
}

float4 PSMain(V v) : SV_Target {
    return float4(v.clip0, v.clip1, v.cull0);
}
