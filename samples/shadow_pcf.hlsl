// shadow_pcf.hlsl — the sun's shadow on a surface, from cascaded shadow
// maps with 3x3 percentage-closer filtering (pixel shader).
//
// The cascade is the first whose far split lies beyond the pixel's view
// depth. The pixel's position is projected into that cascade's shadow map
// (one layer of a Texture2DArray), and nine comparison samples around it
// give a soft 0 (shadowed) .. 1 (lit) edge: with a linear comparison
// sampler each sample already blends 2x2 texels' comparisons.
//
// As D3D code often does, this shader reuses register numbers across
// register types (t0, s0, b0). Vulkan has one binding space per set, so
// shift two of the types apart:
//
// Compile:  hlslc -spirv -T ps_6_0 -E main -fvk-s-shift 8 0 -fvk-b-shift 16 0 samples/shadow_pcf.hlsl -Fo shadow_pcf.spv
//
// Bindings (descriptor set 0), with those shifts:
//   t0  Texture2DArray<float> ShadowMap          binding 0
//   s0  SamplerComparisonState ShadowCompare     binding 8
//   b0  cbuffer ShadowParams                     binding 16

#define CASCADE_COUNT 4

cbuffer ShadowParams : register(b0)
{
    float4x4 CascadeViewProjection[CASCADE_COUNT];
    float4   CascadeSplits;       // far view depth of each cascade
    float2   ShadowMapTexelSize;  // 1 / shadow map resolution
    float    DepthBias;           // against shadow acne
};

Texture2DArray<float>  ShadowMap     : register(t0);
SamplerComparisonState ShadowCompare : register(s0);

struct PSInput
{
    float4 Position      : SV_Position;
    float3 WorldPosition : POSITION1;
    float  ViewDepth     : VIEW_DEPTH;
};

uint SelectCascade(float viewDepth)
{
    // The number of cascades that end before this pixel is the index of the
    // first one that reaches it.
    float4 passed = step(CascadeSplits, viewDepth.xxxx);
    return min((uint)dot(passed, 1.0f.xxxx), CASCADE_COUNT - 1);
}

float ShadowFactor(float3 worldPosition, uint cascade)
{
    float4 clip = mul(CascadeViewProjection[cascade], float4(worldPosition, 1.0f));
    float3 ndc = clip.xyz / clip.w;
    float2 uv = ndc.xy * float2(0.5f, -0.5f) + 0.5f;
    float reference = ndc.z - DepthBias;

    float lit = 0.0f;
    [unroll]
    for (int y = -1; y <= 1; ++y)
    {
        [unroll]
        for (int x = -1; x <= 1; ++x)
        {
            float3 location = float3(uv + float2(x, y) * ShadowMapTexelSize, cascade);
            lit += ShadowMap.SampleCmpLevelZero(ShadowCompare, location, reference);
        }
    }
    return lit / 9.0f;
}

float4 main(PSInput input) : SV_Target
{
    uint cascade = SelectCascade(input.ViewDepth);
    float shadow = ShadowFactor(input.WorldPosition, cascade);
    return float4(shadow.xxx, 1.0f);
}
