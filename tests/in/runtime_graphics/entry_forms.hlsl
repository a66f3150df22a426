// Entry points with `out` parameters instead of return values, and a
// push-constant block read by both stages.

struct Push {
    float4 offset;
    uint mode;
};
[[vk::push_constant]] Push pc;

void VSMain(uint id : SV_VertexID, out float4 pos : SV_Position,
            out nointerpolation float3 col : COLOR) {
    float2 uv = float2((id << 1) & 2, id & 2);
    pos = float4(uv * 2.0 - 1.0, 0.0, 1.0);
    col = pc.offset.xyz + float(id) * 10.0; // flat: vertex 0's value
}

void PSMain(float4 pos : SV_Position, nointerpolation float3 col : COLOR,
            out float4 a : SV_Target0, out float4 b : SV_Target1) {
    a = float4(col, pc.offset.w);
    b = float4(pos.xy, float(pc.mode), -1.0);
}
