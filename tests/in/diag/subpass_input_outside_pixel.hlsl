// args: -T cs_6_0 -E main
// A subpass input holds the texel of the fragment being shaded: only a
// pixel shader can read one.
[[vk::input_attachment_index(0)]] SubpassInput<float4> previous;
RWStructuredBuffer<float4> output;

[numthreads(8, 1, 1)]
void main(uint3 id : SV_DispatchThreadID) {
    output[id.x] = previous.SubpassLoad();
}
