// Reads of a sampled texture in a compute shader: Load, mip-level element
// access, SampleLevel (point sampling, with a constant offset), GatherRed,
// and GetDimensions with the level count.
Texture2D<float4> tex : register(t0);
SamplerState smp : register(s1);
RWStructuredBuffer<float4> o : register(u2);

float4 shifted(float2 uv) {
    // A constant offset given through a parameter (inlined).
    return tex.SampleLevel(smp, uv, 0, int2(1, 0));
}

[numthreads(4, 4, 1)]
void main(uint3 id : SV_DispatchThreadID) {
    uint i = id.y * 4 + id.x;
    float2 uv = (id.xy + 0.5) / 4.0;
    float2 corner = (id.xy + 1.0) / 4.0;
    uint w, h, levels;
    tex.GetDimensions(0, w, h, levels);
    o[i * 6 + 0] = tex.Load(int3(id.xy, 0));
    o[i * 6 + 1] = tex.mips[1][id.xy / 2];
    o[i * 6 + 2] = tex.SampleLevel(smp, uv, 0);
    o[i * 6 + 3] = shifted(uv);
    o[i * 6 + 4] = tex.GatherRed(smp, corner);
    o[i * 6 + 5] = float4(w, h, levels, 0);
}
