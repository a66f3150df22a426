// args: -T vs_6_0 -E main
// Pixel-shader attributes on a vertex shader, and a clip distance that is
// not a float or float vector.
struct VSOut {
    float4 pos : SV_Position;
    [[vk::location(0), vk::index(1)]] float4 color : COLOR;
    float clip[2] : SV_ClipDistance0;
};

[earlydepthstencil]
VSOut main() {
    VSOut o = (VSOut)0;
    return o;
}
