// pass: cse -O3
// CSE merges equal plain expressions but never a precise expression with
// a plain twin: a * b is computed once for the two plain uses and once
// more, precisely, for the precise one.
RWStructuredBuffer<float> buf : register(u0);

[numthreads(1, 1, 1)]
void main() {
    float a = buf[0];
    float b = buf[1];
    buf[2] = a * b;
    buf[3] = a * b;
    precise float p = a * b;
    buf[4] = p;
}
// check: fn main() {
// check: %_:float = mul %_, %_
// not: = mul
// check: %_:float = precise mul %_, %_
// not: mul
