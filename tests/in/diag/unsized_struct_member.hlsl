// args: -T ps_6_0 -E main
// Vulkan allows a runtime array only as the last member of a buffer block,
// which the compiler builds itself; a struct member needs a size.
struct Samples { uint count; float values[]; };
StructuredBuffer<Samples> samples;

float4 main() : SV_Target {
    return samples[0].count;
}
