// pass: fuse_mad -O0
// A precise return value: the function's own arithmetic is marked, and at
// -O0 the call stays. Using the precise result does not make the caller's
// arithmetic precise (-O0 does not fuse; the caller's ops are plain).
RWStructuredBuffer<float> buf : register(u0);

precise float exact(float a, float b, float c) {
    return a * b + c;
}

[numthreads(1, 1, 1)]
void main() {
    float e = exact(buf[0], buf[1], buf[2]);
    buf[3] = e * e + e;
}
// check: fn src.main() {
// check: = call exact(
// check: = mul
// not: precise
// check: = add
// check: fn exact(%a:float, %b:float, %c:float) -> float precise {
// check: = precise mul
// check: = precise add
