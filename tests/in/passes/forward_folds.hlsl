// pass: forward -O1
// A local forwarded into an expression makes it constant, folded in the
// same walk; an `if` whose condition became constant keeps only its taken
// branch.
RWStructuredBuffer<float> buf : register(u0);

[numthreads(1, 1, 1)]
void main() {
    float k = 2.0f;
    int n = 3;
    buf[0] = k * 4.0f;
    if (n > 2) {
        buf[1] = k;
    } else {
        buf[2] = k;
    }
}
// check: fn src.main() {
// not: if
// check: store %_, 8.0f32
// not: if
// check: store %_, 2.0f32
// not: if
// check: return
