// pass: forward -O3
// D3D's division may be a * (1 / b): a plain x / 3 becomes x * (1/3). A
// precise one stays a division unless the rewrite is exact: x / 4 is
// x * 0.25 bit for bit (a power of two with a normal reciprocal), so it is
// rewritten even when precise, while a precise x / 3 is left alone. No
// rewrite when 1/c would be a denormal or infinite.
RWStructuredBuffer<float> buf : register(u0);

[numthreads(1, 1, 1)]
void main() {
    float x = buf[0];
    buf[1] = x / 4.0f;
    buf[2] = x / 3.0f;
    precise float p = x / 3.0f;
    precise float q = x / 4.0f;
    buf[3] = p;
    buf[4] = q;
    buf[5] = x / 1.0e38f;
}
// check: = mul %_, 0.25f32
// check: = mul %_, 0.33333334f32
// check: = precise div %_, 3.0f32
// check: = precise mul %_, 0.25f32
// check: = div %_, 1e38f32
