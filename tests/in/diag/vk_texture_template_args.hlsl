// args: -T ps_6_0 -E main
// Combined image samplers and subpass inputs hold scalars or vectors.
struct Material { float4 albedo; float roughness; };

vk::SampledTexture2D<Material> materials;
[[vk::input_attachment_index(0)]] SubpassInput<float4x4> matrices;

float4 main() : SV_Target {
    return 0;
}
