// pass: inline -O2
// At -O2 small functions are inlined, and so is a function called from
// one place whatever its size; a larger function with a loop called
// twice stays a call.
RWStructuredBuffer<float> buf : register(u0);

float sq(float x) { return x * x; }

float sum(float x) {
    float s = 0;
    for (int i = 0; i < 4; ++i)
        s += x * i;
    return s;
}

float once(float x) {
    float s = 0;
    for (int i = 0; i < 3; ++i)
        s += x;
    return s;
}

[numthreads(1, 1, 1)]
void main() {
    float x = buf[0];
    buf[1] = sq(x) + sum(x) + sum(x * 2) + once(x);
}
// check: fn main() {
// not: call sq
// not: call once
// check: = call sum(
// check: = call sum(
// not: call
// check: return
