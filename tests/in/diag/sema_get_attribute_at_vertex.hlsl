// args: -T vs_6_1 -E main
// Vertices have no per-vertex attributes to pick from.
float4 main(nointerpolation float4 p : POSITION) : SV_Position {
    return GetAttributeAtVertex(p, 0);
}
