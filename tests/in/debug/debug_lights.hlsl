// Sums the light of a few point lights at each texel (compute shader), for
// the debug-info test: an include, a struct, a loop, a nested block and a
// called function. Lines ending in `//@` are statements.

#include "lighting.hlsli"

cbuffer Scene : register(b0)
{
    Light Lights[4];
    uint LightCount;
};

RWStructuredBuffer<float4> Output : register(u1);
static float Gain = 1.0;

float4 Shade(float3 p, uint count)
{
    float4 sum = float4(0, 0, 0, 1);             //@
    for (uint i = 0; i < count; ++i)             //@
    {
        Light l = Lights[i];                     //@
        float f = Falloff(l, p);                 //@
        if (f > 0.0)                             //@
        {
            float4 c = l.color * f;              //@
            sum.rgb += c.rgb * Gain;             //@
        }
    }
    return sum;                                  //@
}

[numthreads(8, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    float3 p = float3(id.x, 0, 0);               //@
    Output[id.x] = Shade(p, LightCount);         //@
}
