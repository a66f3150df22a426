// Vector intrinsics: dot, cross, length, normalize, distance, reflect.
StructuredBuffer<float3> a;
StructuredBuffer<float3> b;
RWStructuredBuffer<float4> output;

[numthreads(8, 1, 1)]
void main(uint3 id : SV_DispatchThreadID) {
    float3 x = a[id.x];
    float3 y = b[id.x];
    output[id.x * 3 + 0] = float4(cross(x, y), dot(x, y));
    output[id.x * 3 + 1] = float4(normalize(x), length(y));
    output[id.x * 3 + 2] = float4(reflect(x, normalize(y)), distance(x, y));
}
