// sprites.hlsl — draws the particles of particles.hlsl as camera-facing
// quads (vertex, geometry and pixel shaders).
//
// Draw(ParticleCount, 1, 0, 0) with a point-list topology and no vertex
// buffer: the vertex shader fetches particle SV_VertexID, the geometry
// shader expands each live particle into a four-vertex triangle strip
// facing the camera, and the pixel shader tints a soft round sprite.
//
// Compile:  hlslc -spirv -T vs_6_0 -E SpriteVS samples/sprites.hlsl -Fo sprites.vs.spv
//           hlslc -spirv -T gs_6_0 -E SpriteGS samples/sprites.hlsl -Fo sprites.gs.spv
//           hlslc -spirv -T ps_6_0 -E SpritePS samples/sprites.hlsl -Fo sprites.ps.spv
//
// Bindings (register(xN) -> descriptor set 0, binding N):
//   t0  StructuredBuffer<Particle> Particles   storage buffer, read-only
//   b1  cbuffer SpriteCamera                   uniform buffer
//   t2  Texture2D<float4> SpriteTexture        sampled image
//   s3  SamplerState LinearClamp               sampler

#include "particle.hlsli"

StructuredBuffer<Particle> Particles     : register(t0);
Texture2D<float4>          SpriteTexture : register(t2);
SamplerState               LinearClamp   : register(s3);

cbuffer SpriteCamera : register(b1)
{
    float4x4 ViewProjection;
    float3   CameraRight;  // world-space unit vectors of the view
    float    SpriteSize;   // half the quad's width, metres
    float3   CameraUp;
};

struct SpriteVertex
{
    float3 Center : POSITION;
    float  Size   : SIZE;  // 0 for a dead particle
    float4 Color  : COLOR0;
};

struct SpritePixel
{
    float4 Position : SV_Position;
    float2 UV       : TEXCOORD0;
    float4 Color    : COLOR0;
};

SpriteVertex SpriteVS(uint vertexId : SV_VertexID)
{
    Particle p = Particles[vertexId];
    SpriteVertex output;
    output.Center = p.Position;
    output.Size   = p.Lifetime > 0.0f ? SpriteSize : 0.0f;
    output.Color  = p.Color;
    return output;
}

// Strip order: top-left, top-right, bottom-left, bottom-right.
static const float2 Corners[4] =
{
    float2(-1.0f,  1.0f),
    float2( 1.0f,  1.0f),
    float2(-1.0f, -1.0f),
    float2( 1.0f, -1.0f),
};

[maxvertexcount(4)]
void SpriteGS(point SpriteVertex input[1], inout TriangleStream<SpritePixel> stream)
{
    SpriteVertex particle = input[0];
    if (particle.Size <= 0.0f || particle.Color.a <= 0.0f)
        return;  // emit nothing for dead or invisible particles

    [unroll]
    for (uint i = 0; i < 4; ++i)
    {
        float2 corner = Corners[i];
        float3 world = particle.Center + (CameraRight * corner.x + CameraUp * corner.y) * particle.Size;

        SpritePixel vertex;
        vertex.Position = mul(ViewProjection, float4(world, 1.0f));
        vertex.UV       = corner * float2(0.5f, -0.5f) + 0.5f;
        vertex.Color    = particle.Color;
        stream.Append(vertex);
    }
    stream.RestartStrip();
}

float4 SpritePS(SpritePixel input) : SV_Target
{
    float4 texel = SpriteTexture.Sample(LinearClamp, input.UV);
    float4 color = texel * input.Color;
    color.rgb *= color.a;  // premultiplied alpha for order-independent-ish blending
    return color;
}
