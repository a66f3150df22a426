// pass: const_fold -O1
// Division by zero of float constants gives the IEEE infinity.
RWStructuredBuffer<float> buf : register(u0);

[numthreads(1, 1, 1)]
void main() {
    buf[0] = 1.0f / 0.0f;
}
// check: inf_f32
// not: div
