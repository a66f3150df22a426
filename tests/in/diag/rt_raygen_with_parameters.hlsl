// args: -T lib_6_3 -fspv-target-env=vulkan1.2
// A ray generation shader takes no parameters and returns nothing.
[shader("raygeneration")]
float gen(uint3 id : SV_DispatchThreadID) {
    return 1;
}
