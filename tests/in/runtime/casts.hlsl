// Casts: matrix truncation, zero-initialized structs, flattening casts
// between structs, vectors and arrays of the same size, float to int
// (toward zero), bit casts.
struct S { float a; float2 b; float c; };
struct T { float4 v; };

RWStructuredBuffer<float4> input;
RWStructuredBuffer<float4> o;

[numthreads(1, 1, 1)]
void main() {
    float4 r0 = input[0], r1 = input[1], r2 = input[2], r3 = input[3];
    float4x4 m = float4x4(r0, r1, r2, r3);
    float3x3 m3 = (float3x3)m;
    o[0] = float4(m3[0], m3[2][2]);
    S s = (S)0;
    o[1] = float4(s.a, s.b, s.c);
    s.a = r0.x; s.b = r1.xy; s.c = r2.w;
    T t = (T)s;
    o[2] = t.v;
    o[3] = (float4)s;
    float arr[4] = { r3.x, r3.y, r3.z, r3.w };
    o[4] = (float4)arr;
    S back = (S)r1;
    o[5] = float4(back.c, back.b, back.a);
    int4 iv = (int4)float4(r0.x + 0.5, -r0.x - 0.5, 2.7, -2.7);
    o[6] = iv;
    uint2 bits = asuint(float2(1.0, -2.0));
    o[7] = float4(asfloat(bits), (float)(bits.x >> 23), (float)(bits.y >> 31));
}
