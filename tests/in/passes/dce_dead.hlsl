// pass: dce -O1
// Unused values, write-only locals and functions nobody calls disappear;
// what a store uses stays.
RWStructuredBuffer<float> buf : register(u0);

float unused(float x) { return x * 3.0f; }

[numthreads(1, 1, 1)]
void main() {
    float x = buf[0];
    float dead = x * 7.0f;
    float written;
    written = x + 5.0f;
    buf[1] = x * 2.0f;
}
// check: fn src.main() {
// not: local
// not: 7.0f32
// not: 5.0f32
// check: = mul %_, 2.0f32
// check: store
// not: fn unused
