// A horizontal box blur, one row per workgroup; BLUR_RADIUS picks the
// permutation (CMakeLists.txt builds radius 2 and 4).
#include "common.hlsli"

Texture2D<float4> source : register(t0);
RWTexture2D<float4> target : register(u1);

[numthreads(64, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    float4 sum = 0;
    for (int dx = -BLUR_RADIUS; dx <= BLUR_RADIUS; dx++) {
        sum += source.Load(int3(int(id.x) + dx, id.y, 0));
    }
    target[id.xy] = sum * BLUR_WEIGHT;
}
