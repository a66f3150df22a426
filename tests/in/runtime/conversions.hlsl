// Conversions between scalar types, vectors and bools.
StructuredBuffer<float> input;
RWStructuredBuffer<int> ints;
RWStructuredBuffer<float> floats;

[numthreads(8, 1, 1)]
void main(uint3 id : SV_DispatchThreadID) {
    float f = input[id.x];
    int i = (int)f;
    uint u = (uint)abs(f);
    bool b = f;
    int3 v = int3(f, f * 2, -f);
    float4 w = float4(v, b);
    ints[id.x * 6 + 0] = i;
    ints[id.x * 6 + 1] = (int)u;
    ints[id.x * 6 + 2] = b ? 1 : 0;
    ints[id.x * 6 + 3] = v.y;
    ints[id.x * 6 + 4] = (int)(uint)-1 == -1 ? 1 : 0;
    ints[id.x * 6 + 5] = (int)(f > 0) + (int)true;
    floats[id.x * 3 + 0] = w.x + w.w;
    floats[id.x * 3 + 1] = (float)i / 2;
    floats[id.x * 3 + 2] = 7 / 2 + 7.0 / 2;
}
