// args: -T hs_6_0 -E main
// Too many control points, an unknown domain and a patch-constant function
// that does not exist.
struct CP { float4 pos : POSITION; };

[domain("triangle")]
[partitioning("integer")]
[outputtopology("triangle_cw")]
[outputcontrolpoints(33)]
[patchconstantfunc("PatchConstnats")]
[maxtessfactor(100.0)]
CP main(InputPatch<CP, 3> ip, uint i : SV_OutputControlPointID) {
    return ip[i];
}

struct Factors { float e[3] : SV_TessFactor; float i : SV_InsideTessFactor; };
Factors PatchConstants() { return (Factors)1; }
