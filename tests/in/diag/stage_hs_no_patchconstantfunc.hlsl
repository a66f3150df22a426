// args: -T hs_6_0 -E main
// A hull shader needs a patch-constant function.
struct CP { float4 pos : POSITION; };

[domain("tri")]
[partitioning("integer")]
[outputtopology("triangle_cw")]
[outputcontrolpoints(3)]
CP main(InputPatch<CP, 3> ip, uint i : SV_OutputControlPointID) {
    return ip[i];
}
