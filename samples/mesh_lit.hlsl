// mesh_lit.hlsl — a textured, normal-mapped mesh lit by one directional
// light (normalised Blinn-Phong) and an environment cube map (vertex and
// pixel shaders).
//
// The object's World matrix comes from the asset pipeline as row-major
// with row vectors (mul(position, World)); the camera's ViewProjection
// comes from a column-vector math library (mul(ViewProjection, position)).
// The cbuffers say so with row_major / column_major.
//
// Compile:  hlslc -spirv -T vs_6_0 -E VSMain samples/mesh_lit.hlsl -Fo mesh_lit.vs.spv
//           hlslc -spirv -T ps_6_0 -E PSMain samples/mesh_lit.hlsl -Fo mesh_lit.ps.spv
//
// Bindings (register(xN, spaceS) -> descriptor set S, binding N):
//   b0         cbuffer PerFrame                  set 0, binding 0
//   b1 space1  cbuffer PerObject                 set 1, binding 1
//   t2         Texture2D<float4> AlbedoMap       set 0, binding 2
//   t3         Texture2D<float2> NormalMap       set 0, binding 3
//   t4         TextureCube<float4> Environment   set 0, binding 4
//   s5         SamplerState LinearWrap           set 0, binding 5

#include "common.hlsli"

cbuffer PerFrame : register(b0)
{
    column_major float4x4 ViewProjection;
    float3 CameraPosition;
    float  EnvironmentIntensity;
    float3 LightDirection;  // towards the light, normalised
    float  EnvironmentMip;  // blurry mip of Environment used for ambient light
    float3 LightColor;
};

cbuffer PerObject : register(b1, space1)
{
    row_major float4x4 World;
    row_major float3x3 WorldInverseTranspose;  // for normals under non-uniform scale
    float4 BaseColor;
    float  SpecularPower;
    float  SpecularIntensity;
    float  AlphaCutoff;
};

Texture2D<float4>   AlbedoMap   : register(t2);
Texture2D<float2>   NormalMap   : register(t3);  // two-channel tangent-space normals
TextureCube<float4> Environment : register(t4);
SamplerState        LinearWrap  : register(s5);

struct VSInput
{
    float3 Position : POSITION;
    float3 Normal   : NORMAL;
    float4 Tangent  : TANGENT;  // w: +1 or -1, the handedness of the bitangent
    float2 UV       : TEXCOORD0;
};

struct VSOutput
{
    float4 Position      : SV_Position;
    float3 WorldPosition : POSITION1;
    float3 Normal        : NORMAL;
    float3 Tangent       : TANGENT;
    float3 Bitangent     : BINORMAL;
    float2 UV            : TEXCOORD0;
};

VSOutput VSMain(VSInput input)
{
    float4 world = mul(float4(input.Position, 1.0f), World);

    VSOutput output;
    output.Position      = mul(ViewProjection, world);
    output.WorldPosition = world.xyz;
    output.Normal        = normalize(mul(input.Normal, WorldInverseTranspose));
    output.Tangent       = normalize(mul(input.Tangent.xyz, (float3x3)World));
    output.Bitangent     = cross(output.Normal, output.Tangent) * input.Tangent.w;
    output.UV            = input.UV;
    return output;
}

// The normal map's normal, in world space.
float3 PerturbedNormal(VSOutput input)
{
    float3 n = normalize(input.Normal);
    // Interpolation skews the tangent frame: make it orthonormal again.
    float3 t = normalize(input.Tangent - n * dot(input.Tangent, n));
    float3 b = cross(n, t) * (dot(input.Bitangent, cross(n, t)) < 0.0f ? -1.0f : 1.0f);
    float3x3 tangentToWorld = float3x3(t, b, n);  // rows
    float3 tangentNormal = UnpackNormalXY(NormalMap.Sample(LinearWrap, input.UV));
    return normalize(mul(tangentNormal, tangentToWorld));
}

float4 PSMain(VSOutput input, bool isFrontFace : SV_IsFrontFace) : SV_Target0
{
    float4 albedo = AlbedoMap.Sample(LinearWrap, input.UV) * BaseColor;
    clip(albedo.a - AlphaCutoff);  // alpha-tested cut-outs (leaves, fences)

    float3 n = PerturbedNormal(input);
    if (!isFrontFace)
        n = -n;  // two-sided materials light their back faces too

    float3 v = normalize(CameraPosition - input.WorldPosition);
    float3 h = normalize(LightDirection + v);
    float nDotL = saturate(dot(n, LightDirection));
    float nDotH = saturate(dot(n, h));

    // (p + 8) / (8 pi) keeps the highlight's energy about constant as the
    // power changes.
    float specular = pow(nDotH, SpecularPower) * (SpecularPower + 8.0f) / (8.0f * PI);
    float3 direct = (albedo.rgb * INV_PI + specular * SpecularIntensity) * LightColor * nDotL;

    float3 ambient = Environment.SampleLevel(LinearWrap, reflect(-v, n), EnvironmentMip).rgb
                   * albedo.rgb * EnvironmentIntensity;

    return float4(direct + ambient, albedo.a);
}
