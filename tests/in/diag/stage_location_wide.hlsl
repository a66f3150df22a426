// args: -T ps_6_0 -E main
// A 64-bit vector of 3 or 4 components takes two locations; a matrix one
// per row.
struct PSIn {
    [[vk::location(0)]] double3 a : A;
    [[vk::location(1)]] float b : B;
    [[vk::location(2)]] float3x2 m : M;
    [[vk::location(4)]] float c : C;
};

float4 main(PSIn i) : SV_Target {
    return float4((float)i.a.x, i.b, i.m[0][0], i.c);
}
