// SV_Barycentrics as colours: the full-screen triangle, its third vertex
// with w = 2 (the same point on screen), so that the perspective-correct
// barycentrics (target 0) differ from the screen-space ones (target 1).

float4 VSMain(uint id : SV_VertexID) : SV_Position {
    float2 uv = float2((id << 1) & 2, id & 2);
    float w = id == 2 ? 2.0 : 1.0;
    return float4(uv * 2.0 - 1.0, 0.0, 1.0) * w;
}

struct Out {
    float4 perspective : SV_Target0;
    float4 screen : SV_Target1;
};

Out PSMain(float3 b : SV_Barycentrics0, noperspective float3 s : SV_Barycentrics1) {
    Out o;
    o.perspective = float4(b, 1.0);
    o.screen = float4(s, 1.0);
    return o;
}
