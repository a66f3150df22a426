// args: -T cs_6_0 -E main
RWStructuredBuffer<float3> o;
[numthreads(1, 1, 1)]
void main() {
    o[0] = float2(1, 2);
}
