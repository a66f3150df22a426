// Matrix products, transposes, element access and construction.
cbuffer M {
    float4x4 m;
    row_major float4x4 r;
};
StructuredBuffer<float4> v;
RWStructuredBuffer<float4> output;

[numthreads(4, 1, 1)]
void main(uint3 id : SV_DispatchThreadID) {
    float4 x = v[id.x];
    float2x2 small = float2x2(x.x, x.y, x.z, x.w);
    float3x3 t = float3x3(1, 2, 3, 0, 1, 4, 5, 6, 0);
    output[id.x * 6 + 0] = mul(m, x);
    output[id.x * 6 + 1] = mul(x, m);
    output[id.x * 6 + 2] = mul(r, x);
    output[id.x * 6 + 3] = mul(transpose(m), x);
    output[id.x * 6 + 4] = float4(mul(small, small)[1], determinant(small), determinant(t));
    float4x4 p = mul(m, r);
    output[id.x * 6 + 5] = float4(p._m01, p[2][3], p._44, m[id.x][3 - id.x]);
}
