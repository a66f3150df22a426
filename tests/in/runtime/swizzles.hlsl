// Swizzle reads and writes, scalar swizzles, matrix selectors.
RWStructuredBuffer<float4> output;

[numthreads(2, 1, 1)]
void main(uint3 id : SV_DispatchThreadID) {
    float4 v = float4(1, 2, 3, 4) + (float)id.x;
    v.wx = v.xw;
    v.yz += float2(10, 20);
    float s = 5;
    float3 sss = s.xxx;
    float2x2 m = float2x2(1, 2, 3, 4);
    m._m10_m01 = float2(30, 20);
    m[1].y += 100;
    output[id.x * 4 + 0] = v;
    output[id.x * 4 + 1] = float4(sss, v.r);
    output[id.x * 4 + 2] = float4(m._11_12_21_22);
    output[id.x * 4 + 3] = v.zzyx;
}
