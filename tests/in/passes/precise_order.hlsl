// pass: forward -O3
// Precise keeps operand order and grouping as written: no reassociation
// of (x + 1) + 2, no moving the constant of 1 + x to the right, no
// x * 1 = x. The plain twins are canonicalised (constant to the right) and
// simplified; floats are never reassociated, precise or not.
RWStructuredBuffer<float> buf : register(u0);

[numthreads(1, 1, 1)]
void main() {
    float x = buf[0];
    precise float p = (1.0f + x) + 2.0f;
    precise float q = x * 1.0f;
    buf[1] = p;
    buf[2] = q;
    buf[3] = (1.0f + x) + 2.0f;
    buf[4] = x * 1.0f;
}
// check: %_:float = precise add 1.0f32, %_
// nextln: %_:float = precise add %_, 2.0f32
// check: %_:float = precise mul %_, 1.0f32
// check: %_:float = add %_, 1.0f32
// nextln: %_:float = add %_, 2.0f32
// not: mul
// check: return
