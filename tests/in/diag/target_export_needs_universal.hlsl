// args: -T lib_6_3 -fspv-target-env=vulkan1.2
// An exported function needs the Linkage capability, which no Vulkan
// environment allows: only a universal target links.
export float scale(float x) {
    return x * 2.0;
}
