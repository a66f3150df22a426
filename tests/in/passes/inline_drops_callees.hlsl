// pass: inline -O3
// A function inlined at every call site leaves the module with the inlining
// (the passes after it do not see it again).
RWStructuredBuffer<float> buf : register(u0);

float sq(float x) { return x * x; }

[numthreads(1, 1, 1)]
void main() {
    buf[1] = sq(buf[0]) + sq(buf[2]);
}
// check: fn main() {
// check: mul
// check: mul
// check: return
// not: fn sq(
// not: fn src.main(
