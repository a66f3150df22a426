// pass: const_fold -O0
// Precise expressions fold only when the machine computes the same value
// exactly: correctly rounded + - * / (Vulkan: OpFAdd, OpFSub, OpFMul
// are correctly rounded; the folded division is the IEEE quotient), but
// not sqrt or fma, which Vulkan does not make correctly rounded.
RWStructuredBuffer<float4> vbuf : register(u0);

[numthreads(1, 1, 1)]
void main() {
    precise float4 a = float4(1, 2, 3, 4) * 0.5f + float4(0.1f, 0.2f, 0.3f, 0.4f);
    precise float4 b = sqrt(float4(4, 2, 1, 9));
    precise float4 c = mad(float4(1, 2, 3, 4), 2.0f, float4(0.5f, 0.5f, 0.5f, 0.5f));
    vbuf[0] = a;
    vbuf[1] = b;
    vbuf[2] = c;
}
// check: = compose 0.6f32, 1.2f32, 1.8f32, 2.4f32
// check: store $a,
// check: = precise sqrt
// check: = precise fma
