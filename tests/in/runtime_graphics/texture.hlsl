// Texture2D.Sample with a point sampler at pixel centres of a 4x4 texture
// stretched over the target, the pixel shader scaling by a cbuffer value.

Texture2D<float4> tex : register(t0);
SamplerState pointSampler : register(s1);

cbuffer Params : register(b2) {
    float4 scale;
};

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

float4 PSMain(VSOut i) : SV_Target {
    return tex.Sample(pointSampler, i.uv) * scale;
}
