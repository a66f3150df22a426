// pass: fuse_mad -O3
// The same through a called function at -O3: the callee is inlined twice;
// the copy whose value reaches the precise local is marked (the precise
// pass runs after inlining), the other copy is fused.
RWStructuredBuffer<float> buf : register(u0);

float mad3(float a, float b, float c) {
    return a * b + c;
}

[numthreads(1, 1, 1)]
void main() {
    precise float p = mad3(buf[0], buf[1], buf[2]);
    buf[3] = p;
    buf[4] = mad3(buf[5], buf[6], buf[7]);
}
// check: fn main() {
// not: call
// check: = precise mul
// nextln: = precise add
// not: call
// check: = fma
// not: precise
// check: return
