// Specialization constants at their default values: they stay constants
// the pipeline may override, so the compiler must not fold them away.
[[vk::constant_id(0)]] const bool UseScale = true;
[[vk::constant_id(1)]] const int Offset = -3;
[[vk::constant_id(2)]] const float Scale = 2.5;
[[vk::constant_id(3)]] const uint Count = 6;

RWStructuredBuffer<float> o;

[numthreads(8, 1, 1)]
void main(uint3 id : SV_DispatchThreadID) {
    uint i = id.x;
    float v = (float)((int)i + Offset);
    if (UseScale) {
        v *= Scale;
    }
    o[i] = i < Count ? v : -1.0;
}
