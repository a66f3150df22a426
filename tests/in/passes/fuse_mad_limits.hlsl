// pass: fuse_mad -O3
// What is not fused: a multiply used twice (fusing would compute it twice),
// a * b - c (it would need a negation), integers. A scalar times a vector
// is (sema splats the scalar first). An explicit mad() that is precise
// stays one fma, marked precise (the backend decorates it NoContraction,
// as DXC does).
RWStructuredBuffer<float4> buf : register(u0);
RWStructuredBuffer<int> ibuf : register(u1);

[numthreads(1, 1, 1)]
void main() {
    float4 a = buf[0];
    float4 b = buf[1];
    float4 c = buf[2];
    float4 m = a * b;
    buf[3] = m + c;
    buf[4] = m;
    buf[5] = a * b - c;
    buf[6] = a.x * b + c;
    ibuf[0] = ibuf[1] * ibuf[2] + ibuf[3];
    precise float4 p = mad(a, b, c);
    buf[7] = p;
}
// check: fn main() {
// not: = fma
// check: = splat
// nextln: = mul
// nextln: = fma
// not: = fma
// check: = precise fma %_, %_, %_
// not: = fma
