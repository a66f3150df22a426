// pass: const_fold -O0
// IEEE binary32 special values, folded at every level. Sema already folds
// scalar literal arithmetic; what reaches this pass are bit casts and
// component-wise vector operations (checked after lowering, they are
// still operations).
RWStructuredBuffer<float> buf : register(u0);
RWStructuredBuffer<float4> vbuf : register(u1);

[numthreads(1, 1, 1)]
void main() {
    buf[0] = asfloat(0x7f800000u) - asfloat(0x7f800000u);
    buf[1] = 1.0f / asfloat(0xff800000u);
    buf[2] = asfloat(0x00000001u) * 0.5f;  // a tie: to even, +0
    buf[3] = asfloat(0x00000003u) * 0.5f;  // 1.5 ulp: to even, 2 ulp
    buf[4] = asfloat(0x80000001u) + asfloat(0x00000001u);
    vbuf[0] = float4(1.0f, -1.0f, 0.0f, 3.0e38f) / float4(asfloat(0x80000000u), 0.0f, 0.0f, 0.1f);
    vbuf[1] = mad(float4(1, 2, 3, 4), 2.0f, float4(0.5f, 0.5f, 0.5f, 0.5f));
    vbuf[2] = sqrt(float4(4, 2, -1, asfloat(0x80000000u)));
    vbuf[3] = float4(1, 2, 3, 4).wzyx + 1.0f;
}
// check: store %_, nan_f32(
// check: store %_, -0.0f32
// check: store %_, 0.0f32
// nextln: access
// nextln: access
// nextln: store %_, 3e-45f32(0x00000002)
// check: store %_, 0.0f32
// check: = compose -inf_f32, -inf_f32, nan_f32(0x7fc00000), inf_f32
// check: = compose 2.5f32, 4.5f32, 6.5f32, 8.5f32
// check: = compose 2.0f32, 1.4142135f32, nan_f32(0x7fc00000), -0.0f32
// check: = compose 5.0f32, 4.0f32, 3.0f32, 2.0f32
// not: div
// not: sub
// not: mul
// not: fma
// not: sqrt
