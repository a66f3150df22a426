// args: -T hs_6_0 -E main
// The patch-constant function must output the tessellation factors.
struct CP { float4 pos : POSITION; };
struct Constants { float3 center : CENTER; };

Constants pc(InputPatch<CP, 3> ip) {
    Constants c;
    c.center = ip[0].pos.xyz;
    return c;
}

[domain("tri")]
[partitioning("integer")]
[outputtopology("triangle_cw")]
[outputcontrolpoints(3)]
[patchconstantfunc("pc")]
CP main(InputPatch<CP, 3> ip, uint i : SV_OutputControlPointID) {
    return ip[i];
}
