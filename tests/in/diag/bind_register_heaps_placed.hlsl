// args: -T ps_6_6 -E main -fvk-bind-register t0 0 1 0 -fvk-bind-resource-heap 2 0 -fvk-bind-globals 0 1
// Only the sampler heap lacks its place: the resource heap and $Globals
// have theirs.
Texture2D<float4> albedo : register(t0);
float gain;

float4 main(float2 uv : TEXCOORD) : SV_Target {
    Texture2D<float4> detail = ResourceDescriptorHeap[3];
    SamplerState s = SamplerDescriptorHeap[1];
    return albedo.Sample(s, uv) * detail.Sample(s, uv) * gain;
}
