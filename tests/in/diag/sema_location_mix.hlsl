// args: -T vs_6_0 -E main
// An automatic location could land on an explicit one: DXC rejects the mix.
struct VSOut {
    float4 pos : SV_Position;
    [[vk::location(0)]] float3 normal : NORMAL;
    float2 uv : TEXCOORD0;
};

VSOut main(float3 p : POSITION) {
    VSOut o;
    o.pos = float4(p, 1);
    o.normal = p;
    o.uv = p.xy;
    return o;
}
