// args: -T ps_6_0 -E main -fvk-bind-register t1 0 4 2 -vkbr u2 0 5 2
// With -fvk-bind-register the command line places every resource: one
// without a register, a register with no entry, a buffer with a counter
// and the $Globals block without -fvk-bind-globals are errors.
Texture2D<float4> colors : register(t1);
Texture2D<float4> unplaced;
SamplerState linear_clamp : register(s3);
RWStructuredBuffer<float4> log : register(u2);
[[vk::binding(9, 1)]] Texture2D<float4> explicit_binding;
float4 tint;

float4 main(float2 uv : TEXCOORD) : SV_Target {
    log.IncrementCounter();
    return colors.Sample(linear_clamp, uv) * unplaced.Load(int3(0, 0, 0))
        * explicit_binding.Load(int3(0, 0, 0)) * tint;
}
