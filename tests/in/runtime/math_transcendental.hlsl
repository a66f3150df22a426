// Transcendental intrinsics (compared with a tolerance).
StructuredBuffer<float> input;
RWStructuredBuffer<float4> output;

[numthreads(16, 1, 1)]
void main(uint3 id : SV_DispatchThreadID) {
    float v = input[id.x];
    float p = abs(v) + 0.5;
    output[id.x * 3 + 0] = float4(sin(v), cos(v), tan(v * 0.25), atan(v));
    output[id.x * 3 + 1] = float4(exp(v * 0.5), exp2(v), log(p), log2(p));
    output[id.x * 3 + 2] = float4(log10(p), pow(p, 1.5), rsqrt(p), atan2(v, 2.0));
}
