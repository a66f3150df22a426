// pass: algebra -O3
// x / 4 is x * 0.25 (exact), also when precise; a precise x / 3 stays.
RWStructuredBuffer<float> buf : register(u0);

[numthreads(1, 1, 1)]
void main() {
    float x = buf[0];
    buf[1] = x / 4.0f;
    precise float p = x / 3.0f;
    buf[2] = p;
}
// check: = mul %_, 0.25f32
// check: = precise div %_, 3.0f32
