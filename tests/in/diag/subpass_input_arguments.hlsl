// args: -T ps_6_0 -E main
// SubpassLoad takes the sample index of a SubpassInputMS and nothing
// else; the attachment index is for subpass inputs only.
[[vk::input_attachment_index(0)]] SubpassInput<float4> single;
[[vk::input_attachment_index(1)]] SubpassInputMS<float4> samples;
[[vk::input_attachment_index(2)]] Texture2D<float4> not_an_input;

float4 main() : SV_Target {
    return single.SubpassLoad(0) + samples.SubpassLoad();
}
