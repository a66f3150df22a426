// A quad patch tessellated with integer spacing by factors from a
// cbuffer: the domain shader places grid column u at x = 2u² - 1 and grid
// row j at the height Heights[j] read from a buffer, so the interpolated
// (u, v) shows where every generated vertex went. The patch constant SUM
// adds up every control point's output.

cbuffer Tess : register(b0) {
    float Outer;
    float Inner;
};
StructuredBuffer<float> Heights : register(t1);

struct VSOut { float4 pos : POS; };
struct CP { float4 pos : POS; };

struct Patch {
    float edges[4] : SV_TessFactor;
    float inside[2] : SV_InsideTessFactor;
    float2 sum : SUM;
};

struct DSOut {
    float4 pos : SV_Position;
    float2 uv : UV;
    nointerpolation float2 sum : SUM;
};

VSOut VSMain(uint id : SV_VertexID) {
    VSOut o;
    o.pos = float4(id, id * 2, 0, 1);
    return o;
}

Patch PatchHS(InputPatch<VSOut, 4> ip, OutputPatch<CP, 4> op) {
    Patch p;
    p.edges[0] = Outer;
    p.edges[1] = Outer;
    p.edges[2] = Outer;
    p.edges[3] = Outer;
    p.inside[0] = Inner;
    p.inside[1] = Inner;
    p.sum = 0;
    for (uint i = 0; i < 4; ++i)
        p.sum += op[i].pos.xy * (i + 1) + ip[i].pos.zw;
    return p;
}

[domain("quad")]
[partitioning("integer")]
[outputtopology("triangle_ccw")]
[outputcontrolpoints(4)]
[patchconstantfunc("PatchHS")]
[maxtessfactor(8)]
CP HSMain(InputPatch<VSOut, 4> ip, uint i : SV_OutputControlPointID) {
    CP c;
    c.pos = ip[i].pos * 10 + 1;
    return c;
}

[domain("quad")]
DSOut DSMain(Patch p, float2 uv : SV_DomainLocation, const OutputPatch<CP, 4> cp) {
    uint row = (uint)round(uv.y * p.edges[1]);
    DSOut o;
    o.pos = float4(uv.x * uv.x * 2 - 1, Heights[row], 0, 1);
    o.uv = uv;
    o.sum = p.sum + cp[3].pos.xy;
    return o;
}

float4 PSMain(float2 uv : UV, nointerpolation float2 sum : SUM) : SV_Target {
    return float4(uv, sum);
}
