// args: -T hs_6_0 -E main
// The hull shader runs once per output control point, which
// SV_OutputControlPointID numbers.
struct CP { float2 origin : TEXCOORD0; };
struct PC {
    float edges[4] : SV_TessFactor;
    float inside[2] : SV_InsideTessFactor;
};

PC constants(InputPatch<CP, 1> ip) {
    return (PC)0;
}

[domain("quad")]
[outputtopology("triangle_ccw")]
[partitioning("fractional_odd")]
[outputcontrolpoints(1)]
[patchconstantfunc("constants")]
CP main(InputPatch<CP, 1> ip) {
    return ip[0];
}
