// tessellation.hlsl — displacement-mapped triangle patches (vertex, hull
// and domain shaders).
//
// The hull shader passes the three control points through and, once per
// patch, picks tessellation factors from each edge's distance to the
// camera: near edges split into up to MaxTessFactor segments, far ones into
// one. The domain shader interpolates each generated vertex from the patch,
// pushes it along the normal by a height map, and projects it.
//
// Cracks between patches: two patches that share an edge must produce
// bit-identical positions along it. EdgeFactor is symmetric in its two
// corners, so both patches compute the same factor for the shared edge, and
// the tessellation factors and the final position are `precise`, so the
// compiler may not fuse or reorder their arithmetic differently in
// different places.
//
// Compile:  hlslc -spirv -T vs_6_0 -E VSMain samples/tessellation.hlsl -Fo tess.vs.spv
//           hlslc -spirv -T hs_6_0 -E HSMain samples/tessellation.hlsl -Fo tess.hs.spv
//           hlslc -spirv -T ds_6_0 -E DSMain samples/tessellation.hlsl -Fo tess.ds.spv
//
// Bindings (register(xN) -> descriptor set 0, binding N):
//   b0  cbuffer TessParams          uniform buffer
//   t1  Texture2D<float> HeightMap  sampled image
//   s2  SamplerState LinearClamp    sampler

#include "common.hlsli"

#define CONTROL_POINTS 3

cbuffer TessParams : register(b0)
{
    float4x4 ViewProjection;
    float3   CameraPosition;
    float    DisplacementScale;  // metres at height 1
    float    DetailDistance;     // edges this close get MaxTessFactor
    float    MaxTessFactor;      // at most 64
};

Texture2D<float> HeightMap   : register(t1);
SamplerState     LinearClamp : register(s2);

struct VSInput
{
    float3 Position : POSITION;  // world space already (static terrain)
    float3 Normal   : NORMAL;
    float2 UV       : TEXCOORD0;
};

struct ControlPoint
{
    float3 Position : WORLDPOS;
    float3 Normal   : NORMAL;
    float2 UV       : TEXCOORD0;
};

struct PatchConstants
{
    precise float Edges[3] : SV_TessFactor;
    precise float Inside   : SV_InsideTessFactor;
};

struct DomainOutput
{
    precise float4 Position : SV_Position;
    float3 Normal : NORMAL;
    float2 UV     : TEXCOORD0;
};

ControlPoint VSMain(VSInput input)
{
    ControlPoint output;
    output.Position = input.Position;
    output.Normal   = input.Normal;
    output.UV       = input.UV;
    return output;
}

// The tessellation factor of the edge from a to b; the same for (b, a).
float EdgeFactor(float3 a, float3 b)
{
    float distance = length((a + b) * 0.5f - CameraPosition);
    return clamp(MaxTessFactor * DetailDistance / max(distance, 1e-3f), 1.0f, MaxTessFactor);
}

PatchConstants PatchConstantsHS(InputPatch<ControlPoint, CONTROL_POINTS> patch,
                                uint patchId : SV_PrimitiveID)
{
    PatchConstants output;
    // In a triangle domain, edge i lies opposite corner i.
    output.Edges[0] = EdgeFactor(patch[1].Position, patch[2].Position);
    output.Edges[1] = EdgeFactor(patch[2].Position, patch[0].Position);
    output.Edges[2] = EdgeFactor(patch[0].Position, patch[1].Position);
    output.Inside   = (output.Edges[0] + output.Edges[1] + output.Edges[2]) * (1.0f / 3.0f);
    return output;
}

[domain("tri")]
[partitioning("fractional_odd")]
[outputtopology("triangle_cw")]
[outputcontrolpoints(CONTROL_POINTS)]
[patchconstantfunc("PatchConstantsHS")]
[maxtessfactor(64.0f)]
ControlPoint HSMain(InputPatch<ControlPoint, CONTROL_POINTS> patch,
                    uint pointId : SV_OutputControlPointID,
                    uint patchId : SV_PrimitiveID)
{
    return patch[pointId];
}

[domain("tri")]
DomainOutput DSMain(PatchConstants constants,
                    float3 barycentric : SV_DomainLocation,
                    const OutputPatch<ControlPoint, CONTROL_POINTS> patch)
{
    float3 position = barycentric.x * patch[0].Position
                    + barycentric.y * patch[1].Position
                    + barycentric.z * patch[2].Position;
    float3 normal = normalize(barycentric.x * patch[0].Normal
                            + barycentric.y * patch[1].Normal
                            + barycentric.z * patch[2].Normal);
    float2 uv = barycentric.x * patch[0].UV
              + barycentric.y * patch[1].UV
              + barycentric.z * patch[2].UV;

    // No derivatives in a domain shader: sample an explicit mip level.
    float height = HeightMap.SampleLevel(LinearClamp, uv, 0.0f);
    position += normal * (height * DisplacementScale);

    DomainOutput output;
    output.Position = mul(ViewProjection, float4(position, 1.0f));
    output.Normal   = normal;
    output.UV       = uv;
    return output;
}
