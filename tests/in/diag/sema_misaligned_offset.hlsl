// args: -T cs_6_0 -E main
struct Pair { float a; float b; };

struct Item {
    float2 uv;
    // std140 aligns structs to 16 bytes.
    [[vk::offset(8)]] Pair pair;
};

cbuffer Params {
    Item item;
    float3 dir : packoffset(c1.z);
};

RWStructuredBuffer<float> o;

[numthreads(1, 1, 1)]
void main() { o[0] = item.pair.a + dir.x; }
