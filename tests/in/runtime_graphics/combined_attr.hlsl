// [[vk::combinedImageSampler]]: a Texture2D and a SamplerState on one
// binding are one combined image sampler descriptor, sampled with its own
// point sampler at pixel centres of a 4x4 texture stretched over the
// target, fetched (Load through OpImage) and measured (GetDimensions).

[[vk::combinedImageSampler]] Texture2D<float4> tex : register(t0);
[[vk::combinedImageSampler]] SamplerState smp : register(s0);

struct VSOut {
    float4 pos : SV_Position;
    float2 uv : TEXCOORD0;
};

VSOut VSMain(uint id : SV_VertexID) {
    float2 uv = float2((id << 1) & 2, id & 2);
    VSOut o;
    o.pos = float4(uv * 2.0 - 1.0, 0.0, 1.0);
    o.uv = uv;
    return o;
}

float4 sample_with(Texture2D<float4> t, SamplerState s, float2 uv) {
    return t.Sample(s, uv);
}

float4 PSMain(VSOut i) : SV_Target {
    uint w, h;
    tex.GetDimensions(w, h);
    float4 s = sample_with(tex, smp, i.uv);
    float4 corner = tex.Load(int3(3, 0, 0));
    return float4(s.xyz * 2.0 + corner.xyz, s.w + float(w * 10 + h));
}
