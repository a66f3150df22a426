// pass: dce -O1
// A loop whose work nothing uses (its counter is read only by its own
// test, its sum never leaves) is removed with its phis; a loop whose
// result is stored stays.
RWStructuredBuffer<float> buf : register(u0);
cbuffer C { uint n; };

[numthreads(1, 1, 1)]
void main() {
    float unused = 0.0f;
    for (uint i = 0; i < n; ++i)
        unused += 2.0f;
    float used = 0.0f;
    for (uint j = 0; j < n; ++j)
        used += 3.0f;
    buf[0] = used;
}
// check: fn src.main() {
// check: = carry 0.0f32, %_
// nextln: = carry 0u32, %_
// nextln: loop {
// not: loop {
// check: = add %_, 3.0f32
// not: 2.0f32
// check: return
