// args: -T cs_6_0 -E main
[[vk::image_format("rgb9e5")]] RWTexture2D<float4> img;
[[vk::binding]] Texture2D t;
[numthreads(1, 1, 1)]
void main() {}
