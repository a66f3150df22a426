// Parameters in push constants.
struct Push {
    float scale;
    uint offset;
    float2 bias;
};
[[vk::push_constant]] Push pc;

RWStructuredBuffer<float> output;

[numthreads(16, 1, 1)]
void main(uint3 id : SV_DispatchThreadID) {
    output[id.x] = (float)(id.x + pc.offset) * pc.scale + pc.bias.x - pc.bias.y;
}
