// pass: fuse_mad -O3
// A precise return value inlined at -O3: the body is marked in the caller
// (spliced in place: a single final return needs no one-trip loop), the
// caller's own use of the result is fused.
RWStructuredBuffer<float> buf : register(u0);

precise float exact(float a, float b, float c) {
    return a * b + c;
}

[numthreads(1, 1, 1)]
void main() {
    float e = exact(buf[0], buf[1], buf[2]);
    buf[3] = e * e + e;
}
// check: fn main() {
// not: call
// not: loop
// check: %_:float = precise mul %_, %_
// nextln: %_:float = precise add %_, %_
// check: = fma %_, %_, %_
// check: return
