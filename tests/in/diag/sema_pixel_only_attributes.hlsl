// args: -T vs_6_0 -E main
// Pixel-shader attributes on a vertex shader, and a clip distance that is
// not a float, a float vector or an array of them.
struct VSOut {
    float4 pos : SV_Position;
    [[vk::location(0), vk::index(1)]] float4 color : COLOR;
    float2x3 clip : SV_ClipDistance0;
};

[earlydepthstencil]
VSOut main() {
    VSOut o = (VSOut)0;
    return o;
}
