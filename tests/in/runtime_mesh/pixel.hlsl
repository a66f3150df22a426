// The pixel shader of meshlets.hlsl: the triangle's per-primitive colour
// (a plain flat input, as DXC maps it) and its SV_PrimitiveID.

float4 PSMain(nointerpolation float4 color : COLOR, uint id : SV_PrimitiveID) : SV_Target {
    return float4(color.xyz, id);
}
