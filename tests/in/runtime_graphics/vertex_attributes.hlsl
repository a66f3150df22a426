// GetAttributeAtVertex: each vertex of the full-screen triangle writes its
// own `nointerpolation` values; the pixel shader reads them one vertex at
// a time, directly and through a function, and rebuilds the smooth value
// from the barycentrics.

struct VOut {
    float4 pos : SV_Position;
    nointerpolation float4 c : COLOR;
    nointerpolation uint key : KEY;
    float4 smooth : SMOOTH;
};

VOut VSMain(uint id : SV_VertexID) {
    float2 uv = float2((id << 1) & 2, id & 2);
    VOut o;
    o.pos = float4(uv * 2.0 - 1.0, 0.0, 1.0);
    o.c = float4(id * 10 + 1, id * 10 + 2, id * 10 + 3, id + 0.5);
    o.key = 100 + id;
    o.smooth = o.c;
    return o;
}

struct PIn {
    float4 pos : SV_Position;
    nointerpolation float4 c : COLOR;
    nointerpolation uint key : KEY;
    float4 smooth : SMOOTH;
};

struct Out {
    float4 v0 : SV_Target0;
    float4 v1 : SV_Target1;
    float4 v2 : SV_Target2;
    float4 rebuilt : SV_Target3;
};

float4 at(nointerpolation float4 v, uint k) {
    return GetAttributeAtVertex(v, k);
}

Out PSMain(PIn i, float3 b : SV_Barycentrics) {
    Out o;
    o.v0 = float4(GetAttributeAtVertex(i.c, 0).xyz, i.key);
    o.v1 = float4(GetAttributeAtVertex(i.c, 1).xyz, GetAttributeAtVertex(i.key, 1));
    o.v2 = float4(at(i.c, 2).xyz, i.c.w);
    float4 r = 0;
    for (uint k = 0; k < 3; ++k) {
        r += b[k] * at(i.c, k);
    }
    o.rebuilt = r - i.smooth;
    return o;
}
