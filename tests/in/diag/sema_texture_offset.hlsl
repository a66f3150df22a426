// args: -T cs_6_0 -E main
// Vulkan takes variable texture offsets only in gathers.
Texture2D<float4> tex;
SamplerState smp;
RWStructuredBuffer<float4> o;

float4 fetch(int2 p, int2 offset) {
    // A parameter: constant once inlined if the caller passes a constant.
    return tex.Load(int3(p, 0), offset);
}

[numthreads(8, 1, 1)]
void main(uint3 id : SV_DispatchThreadID) {
    int2 shift = int2(id.xy);
    o[0] = tex.Load(int3(0, 0, 0), shift);
    o[1] = tex.SampleLevel(smp, float2(0.5, 0.5), 0, shift);
    o[2] = fetch(id.xy, int2(1, 0));
}
