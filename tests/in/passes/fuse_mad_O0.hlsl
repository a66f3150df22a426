// pass: fuse_mad -O0
// -O0 does not fuse: a * b + c stays a multiply and an add.
RWStructuredBuffer<float> buf : register(u0);

[numthreads(1, 1, 1)]
void main() {
    buf[2] = buf[0] * buf[1] + buf[3];
}
// check: = mul
// check: = add
// not: fma
