// args: -T hs_6_0 -E main
// The patch-constant function sees the hull shader's own patches: its
// InputPatch must have as many control points as the hull shader's, its
// OutputPatch as many as [outputcontrolpoints].
struct Cp { float4 p : POSITION; };
struct Pc { float e[3] : SV_TessFactor; float i : SV_InsideTessFactor; };

Pc pcf(InputPatch<Cp, 2> ip, OutputPatch<Cp, 4> op) {
  Pc o = (Pc)0;
  o.e[0] = ip[0].p.x + op[0].p.x;
  return o;
}

[domain("tri")]
[partitioning("integer")]
[outputtopology("triangle_cw")]
[outputcontrolpoints(3)]
[patchconstantfunc("pcf")]
Cp main(InputPatch<Cp, 3> ip, uint i : SV_OutputControlPointID) {
  return ip[i];
}
