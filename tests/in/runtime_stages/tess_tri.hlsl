// A triangle patch with every factor 2 (from a cbuffer): integer spacing
// splits it into six triangles around the centre. The domain shader
// passes a value that is not linear in the barycentric coordinates, so
// what the pixels get depends on where the six triangles are.

cbuffer Tess : register(b0) {
    float Level;
};

struct CP { float2 pos : POS; };

struct Patch {
    float edges[3] : SV_TessFactor;
    float inside : SV_InsideTessFactor;
};

struct DSOut {
    float4 pos : SV_Position;
    float2 value : VALUE;
};

CP VSMain(uint id : SV_VertexID) {
    // Pixel coordinates (-1, -1), (40, -1), (-1, 40): the triangle covers
    // the whole 16x16 target.
    static const float2 corners[3] = { float2(-1, -1), float2(40, -1), float2(-1, 40) };
    CP c;
    c.pos = corners[id] / 8.0 - 1.0;
    return c;
}

Patch PatchHS(InputPatch<CP, 3> ip) {
    Patch p;
    p.edges[0] = Level;
    p.edges[1] = Level;
    p.edges[2] = Level;
    p.inside = Level;
    return p;
}

[domain("tri")]
[partitioning("integer")]
[outputtopology("triangle_cw")]
[outputcontrolpoints(3)]
[patchconstantfunc("PatchHS")]
CP HSMain(InputPatch<CP, 3> ip, uint i : SV_OutputControlPointID) {
    return ip[i];
}

[domain("tri")]
DSOut DSMain(Patch p, float3 uvw : SV_DomainLocation, const OutputPatch<CP, 3> cp) {
    DSOut o;
    float2 pos = cp[0].pos * uvw.x + cp[1].pos * uvw.y + cp[2].pos * uvw.z;
    o.pos = float4(pos, 0, 1);
    o.value = float2(uvw.x * uvw.x, uvw.y * uvw.z * 4);
    return o;
}

float4 PSMain(float2 value : VALUE) : SV_Target {
    return float4(value, 0, 1);
}
