// pass: fuse_mad -O3
// The precise computation keeps its multiply and add separate; the same
// expression written into a plain variable is fused.
RWStructuredBuffer<float> buf : register(u0);

[numthreads(1, 1, 1)]
void main() {
    float a = buf[0];
    float b = buf[1];
    float c = buf[2];
    precise float p = a * b + c;
    float q = a * b + c;
    buf[3] = p;
    buf[4] = q;
}
// check: = precise mul
// check: = precise add
// check: = fma
