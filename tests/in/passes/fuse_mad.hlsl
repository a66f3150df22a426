// pass: fuse_mad -O1
// a * b + c and c + a * b become fma at -O1.
RWStructuredBuffer<float4> buf : register(u0);

[numthreads(1, 1, 1)]
void main() {
    buf[2] = buf[0] * buf[1] + buf[3];
    buf[5] = buf[3] + buf[0] * buf[1];
}
// check: :float4 = fma
// check: :float4 = fma
// not: precise
