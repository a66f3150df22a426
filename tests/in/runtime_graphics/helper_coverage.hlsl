// A triangle whose long edge crosses the target along x + y = 14.3 (pixel
// units), so the quads along it have helper invocations. Each covered
// pixel writes whether it is a helper (never), the fine x derivative of
// that (1 where its right neighbour in the quad is a helper), and its
// input coverage (1: one sample). Its output coverage drops the pixels
// of odd x, which keep the clear colour.

float4 VSMain(uint id : SV_VertexID) : SV_Position {
    // Pixel coordinates (-20, -20), (34.3, -20), (-20, 34.3); NDC = p / 8 - 1.
    float2 p = id == 0 ? float2(-20.0, -20.0) : (id == 1 ? float2(34.3, -20.0) : float2(-20.0, 34.3));
    return float4(p / 8.0 - 1.0, 0.0, 1.0);
}

float4 PSMain(float4 pos : SV_Position, uint coverage : SV_Coverage, out uint keep : SV_Coverage) : SV_Target {
    float helper = IsHelperLane() ? 1.0 : 0.0;
    keep = ((uint)pos.x & 1) == 0 ? coverage : 0;
    return float4(helper, ddx_fine(helper), coverage, 1.0);
}
