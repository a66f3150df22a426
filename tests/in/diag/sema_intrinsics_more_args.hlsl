// args: -T cs_6_6 -E main -fspv-target-env=vulkan1.1
// The intrinsics of later shader models and the vk:: built-ins with
// arguments of the wrong number or type.
RWStructuredBuffer<uint4> o;

[numthreads(1, 1, 1)]
void main() {
    float4 l = lit(1.0, 2.0);
    uint p = pack_clamp_u8(uint4(1, 2, 3, 4));
    int4 u = unpack_s8s32(float4(1, 2, 3, 4));
    uint4 m = msad4(1u, uint2(1, 2));
    uint64_t c = vk::ReadClock(vk::WorkgroupScope);
    uint s = vk::DeviceScope(1);
    printf(o[0].x);
}
