// A full-screen triangle from SV_VertexID; the pixel shader writes a
// function of SV_Position, whose xy are pixel centres (x + 0.5, y + 0.5).

float4 VSMain(uint id : SV_VertexID) : SV_Position {
    // (0,0), (2,0), (0,2) scaled to clip space: (-1,-1), (3,-1), (-1,3).
    float2 uv = float2((id << 1) & 2, id & 2);
    return float4(uv * 2.0 - 1.0, 0.0, 1.0);
}

float4 PSMain(float4 pos : SV_Position) : SV_Target {
    return float4(pos.x, pos.y, pos.x * 16.0 + pos.y, pos.z + pos.w);
}
