// args: -T ps_6_0 -E main
// A subpass input is a descriptor of the render pass: a static one could
// only be another name for one, which nothing else can be.
[[vk::input_attachment_index(0)]] static SubpassInput<float4> previous;

float4 main() : SV_Target {
    return 0;
}
