// args: -T ps_6_6 -E main -fvk-bind-register t0 0 1 0
// With -fvk-bind-register, a descriptor heap the shader uses needs its
// own place on the command line (-fvk-bind-resource-heap,
// -fvk-bind-sampler-heap).
Texture2D<float4> albedo : register(t0);

float4 main(float2 uv : TEXCOORD) : SV_Target {
    Texture2D<float4> detail = ResourceDescriptorHeap[3];
    SamplerState s = SamplerDescriptorHeap[1];
    return albedo.Sample(s, uv) * detail.Sample(s, uv);
}
