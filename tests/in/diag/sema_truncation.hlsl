// args: -T cs_6_0 -E main
RWStructuredBuffer<float2> o;
[numthreads(1, 1, 1)]
void main() {
    float4 v = 1;
    o[0] = v;
    float3 w = v.xyz + v;
    undefined_after_warnings = 1;
}
