// args: -T ps_6_0 -E main
// Draw parameters are vertex shader inputs; the device index an input.
[[vk::builtin("DeviceIndex")]]
float4 main([[vk::builtin("BaseVertex")]] float baseVertex : A,
            [[vk::builtin("HelperInvocation")]] bool helper : B) : SV_Target {
    return helper ? baseVertex : 0;
}
