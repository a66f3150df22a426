// pass: dce -O3
// Identities that are wrong for NaN, infinities or signed zeros are never
// used, on precise values or not: x * 0 (NaN, -0), x - x (NaN, inf),
// x + 0.0 (-0 + 0 = +0). Only bit-exact ones are: x - 0.0 and x + -0.0
// are x when not precise; a precise one stays as written.
RWStructuredBuffer<float> buf : register(u0);

[numthreads(1, 1, 1)]
void main() {
    float x = buf[0];
    precise float a = x * 0.0f;
    precise float b = x - x;
    precise float c = x + 0.0f;
    precise float d = x - 0.0f;
    buf[1] = a;
    buf[2] = b;
    buf[3] = c;
    buf[4] = d;
    buf[5] = x * 0.0f;
    buf[6] = x - x;
    buf[7] = x + 0.0f;
    buf[8] = x - 0.0f;
}
// check: = precise mul %_, 0.0f32
// check: = precise sub %_, %_
// check: = precise add %_, 0.0f32
// check: = precise sub %_, 0.0f32
// check: = mul %_, 0.0f32
// check: = sub %_, %_
// check: = add %_, 0.0f32
// not: sub
// check: return
