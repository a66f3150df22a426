// args: -T cs_6_5 -E main
// Implicit-LOD sampling in compute shaders needs shader model 6.6 (and a
// derivative group); explicit-LOD forms need nothing.
Texture2D<float4> tex;
SamplerState smp;
RWStructuredBuffer<float4> o;

[numthreads(8, 8, 1)]
void main(uint3 id : SV_DispatchThreadID) {
    uint status;
    float2 uv = id.xy / 64.0;
    o[0] = tex.Sample(smp, uv, int2(0, 0), 1.0, status);
    o[1] = tex.SampleBias(smp, uv, 0.5);
    o[2] = tex.CalculateLevelOfDetail(smp, uv);
    o[3] = ddx(uv).x;
    // Fine: explicit level of detail.
    o[4] = tex.SampleGrad(smp, uv, float2(0.01, 0), float2(0, 0.01), int2(0, 0), 1.0, status);
}
