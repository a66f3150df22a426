// args: -T cs_6_8 -E main -fspv-target-env=vulkan1.0
// A barrier of device scope uses the Vulkan memory model, whose extension
// needs SPIR-V 1.3.
RWStructuredBuffer<uint> data;

[numthreads(8, 1, 1)]
void main(uint i : SV_GroupIndex) {
    data[i] = 1;
    Barrier(UAV_MEMORY, DEVICE_SCOPE);
}
