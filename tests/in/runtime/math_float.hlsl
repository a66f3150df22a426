// Float intrinsics: 16 results per input value.
StructuredBuffer<float> input;
RWStructuredBuffer<float> output;

[numthreads(32, 1, 1)]
void main(uint3 id : SV_DispatchThreadID) {
    float v = input[id.x];
    uint o = id.x * 16;
    output[o + 0] = abs(v);
    output[o + 1] = floor(v);
    output[o + 2] = ceil(v);
    output[o + 3] = frac(v);
    output[o + 4] = round(v);
    output[o + 5] = trunc(v);
    output[o + 6] = saturate(v);
    output[o + 7] = clamp(v, -1.5, 2.25);
    output[o + 8] = min(v, 0.5);
    output[o + 9] = max(v, 0.5);
    output[o + 10] = lerp(v, 10.0, 0.25);
    output[o + 11] = step(0.0, v);
    output[o + 12] = fmod(v, 1.5);
    output[o + 13] = sign(v);
    output[o + 14] = sqrt(abs(v));
    output[o + 15] = mad(v, 2.0, 1.0);
}
