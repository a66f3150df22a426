// skinning.hlsl — linear-blend skinning of a character (vertex shader).
//
// Each vertex follows up to four bones of the skeleton, weighted. Bone
// matrices are 4x3 (the last column of an affine transform is always
// (0, 0, 0, 1)), stored row-major so that a bone takes three float4
// registers and multiplies row vectors: mul(float4(position, 1), bone).
// `#pragma pack_matrix(row_major)` makes that the default for every
// matrix in this file. The draw's push constants say where the character's
// bones start in the shared palette and which material it uses.
//
// Compile:  hlslc -spirv -T vs_6_0 -E main samples/skinning.hlsl -Fo skinning.spv
//
// Bindings (register(xN) -> descriptor set 0, binding N):
//   b0  cbuffer Camera      uniform buffer
//   b1  cbuffer Skeleton    uniform buffer (MAX_BONES bones)
//   Draw                    push constants ([[vk::push_constant]])

#pragma pack_matrix(row_major)

#include "common.hlsli"

#define MAX_BONES 256

cbuffer Camera : register(b0)
{
    float4x4 ViewProjection;  // row-major: mul(position, ViewProjection)
};

cbuffer Skeleton : register(b1)
{
    float4x3 Bones[MAX_BONES];  // object space <- bind-pose bone space
};

struct DrawConstants
{
    uint BoneOffset;  // first bone of this character in Bones
    uint MaterialId;
};

[[vk::push_constant]] DrawConstants Draw;

struct SkinnedVertex
{
    float3 Position    : POSITION;
    float3 Normal      : NORMAL;
    float2 UV          : TEXCOORD0;
    uint4  BoneIndices : BLENDINDICES;
    float4 BoneWeights : BLENDWEIGHT;  // sum to 1 by construction
};

struct VSOutput
{
    float4 Position : SV_Position;
    float3 Normal   : NORMAL;
    float2 UV       : TEXCOORD0;
    nointerpolation uint MaterialId : MATERIAL;  // integers cannot be interpolated
};

// The weighted sum of the vertex's bone matrices.
float4x3 BlendBones(uint4 indices, float4 weights)
{
    indices += Draw.BoneOffset;
    float4x3 skin = Bones[indices.x] * weights.x;
    skin += Bones[indices.y] * weights.y;
    skin += Bones[indices.z] * weights.z;
    skin += Bones[indices.w] * weights.w;
    return skin;
}

VSOutput main(SkinnedVertex input)
{
    float4x3 skin = BlendBones(input.BoneIndices, input.BoneWeights);
    float3 position = mul(float4(input.Position, 1.0f), skin);
    // Fine for rigid bones: blended matrices are close to rotations.
    float3 normal = normalize(mul(input.Normal, (float3x3)skin));

    VSOutput output;
    output.Position   = mul(float4(position, 1.0f), ViewProjection);
    output.Normal     = normal;
    output.UV         = input.UV;
    output.MaterialId = Draw.MaterialId;
    return output;
}
