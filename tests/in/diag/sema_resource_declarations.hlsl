// args: -T cs_6_0 -E main
struct Pair { float a; float b; };
struct Push { float4 v; };

// Typed buffers and textures hold scalars or vectors.
Buffer<Pair> pairs;
// The format's numeric type must match the element type.
[[vk::image_format("rgba32f")]] RWTexture2D<int4> ints;
// A push constant block has no binding, and there is only one.
[[vk::push_constant, vk::binding(3)]] Push first;
[[vk::push_constant]] Push second;
// A member of $Globals has no binding of its own.
[[vk::binding(4)]] float4 tint;
// Explicit offsets may not overlap.
float4 a : register(c0);
float4 b : register(c0);

RWStructuredBuffer<float4> o;

[numthreads(1, 1, 1)]
void main() {
    uint64_t wide = 5;
    o[0] = first.v + tint + a + b + firstbithigh(wide);
}
