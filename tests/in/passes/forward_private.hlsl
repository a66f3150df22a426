// pass: dce -O3
// A static that only the entry point's function uses (once `bump` is
// inlined) is a local of it: its stores forward to its loads and the
// variable goes.
RWStructuredBuffer<float> buf : register(u0);
static float acc;
static float untouched = 4.0f;

void bump(float x) { acc += x; }

[numthreads(1, 1, 1)]
void main() {
    acc = buf[0];
    bump(2.0f);
    bump(3.0f);
    buf[1] = acc * untouched;
}
// check: fn main() {
// not: @acc
// not: local
// check: = add %_, 2.0f32
// check: = add %_, 3.0f32
// check: = mul %_, @c0
// check: return
