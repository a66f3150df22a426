// args: -T ps_6_1 -E main
// GetAttributeAtVertex reads stage inputs declared nointerpolation: not a
// local, not a smooth input, and a nointerpolation parameter must be given
// such an input. Matrices and bools are not read per vertex.
struct PIn {
    float4 smooth : SMOOTH;
    nointerpolation float4 flat : FLAT;
    nointerpolation float2x2 m : MATRIX;
    nointerpolation bool flag : FLAG;
};

float4 at(nointerpolation float4 v) { return GetAttributeAtVertex(v, 1); }

float4 main(PIn i) : SV_Target {
    float4 local = i.flat;
    float4 a = GetAttributeAtVertex(local, 0);
    float4 b = GetAttributeAtVertex(i.smooth, 0);
    float4 c = at(i.smooth);
    float4 d = GetAttributeAtVertex(i.m, 2)[0].xyxy;
    float4 e = GetAttributeAtVertex(i.flat);
    bool f = GetAttributeAtVertex(i.flag, 1);
    return a + b + c + d + e + f;
}
