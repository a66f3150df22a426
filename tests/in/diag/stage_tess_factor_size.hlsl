// args: -T hs_6_0 -E main
// A quad patch has four edge factors and two inside factors; the
// patch-constant function gives three and one.
struct CP { float4 pos : POSITION; };
struct Factors {
    float edges[3] : SV_TessFactor;
    float inside : SV_InsideTessFactor;
};

Factors pc() { return (Factors)1; }

[domain("quad")]
[partitioning("integer")]
[outputtopology("triangle_cw")]
[outputcontrolpoints(4)]
[patchconstantfunc("pc")]
CP main(InputPatch<CP, 4> ip, uint i : SV_OutputControlPointID) {
    return ip[i];
}
