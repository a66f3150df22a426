// `discard` and `clip` keep the clear colour where they fire.

float4 VSMain(uint id : SV_VertexID) : SV_Position {
    float2 uv = float2((id << 1) & 2, id & 2);
    return float4(uv * 2.0 - 1.0, 0.0, 1.0);
}

float4 PSMain(float4 pos : SV_Position) : SV_Target {
    // Pixels 0..7 of each row: 7.5 - 8 < 0.
    clip(pos.x - 8.0);
    uint2 p = uint2(pos.xy);
    if (((p.x + p.y) & 1) != 0) {
        discard;
    }
    return float4(pos.xy, 1.0, 2.0);
}
