// args: -T vs_6_0 -E main
// Two inputs, and two outputs, on one location: Vulkan gives each
// location to one variable.
struct Extra {
    [[vk::location(2)]] float2 uv : TEXCOORD;
};

[[vk::location(0)]]
float4 main([[vk::location(2)]] float3 normal : NORMAL,
            Extra e,
            [[vk::location(0)]] out float4 color : COLOR) : POSITION_OUT {
    color = float4(normal, e.uv.x);
    return color;
}
