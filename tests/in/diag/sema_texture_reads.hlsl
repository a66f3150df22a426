// args: -T cs_6_0 -E main
Texture2D<float> depth;
SamplerComparisonState cmp;
RWTexture2D<uint> img;
RWStructuredBuffer<float4> o;

[numthreads(1, 1, 1)]
void main() {
    // The residency code is written back: a literal cannot take it.
    o[0] = img.Load(int2(0, 0), 0);
    o[1] = depth.GatherCmpGreen(cmp, float2(0.5, 0.5), 0.5);
}
