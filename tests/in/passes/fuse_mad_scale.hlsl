// pass: dce -O1
// A float vector or matrix times a scalar multiplies by the scalar itself
// (OpVectorTimesScalar, OpMatrixTimesScalar), precise or not: no splat.
RWStructuredBuffer<float4> buf : register(u0);
RWStructuredBuffer<float3x3> mats : register(u1);

[numthreads(1, 1, 1)]
void main() {
    float4 v = buf[0];
    float s = buf[1].x;
    buf[2] = v * s;
    precise float4 p = s * v;
    buf[5] = p;
    float3x3 m = mats[0];
    mats[1] = m * s;
}
// check: fn src.main() {
// not: splat
// check: %_:float4 = mul %_, %_
// check: %_:float4 = precise mul %_, %_
// check: %_:float3x3 = mul %_, %_
// check: return
