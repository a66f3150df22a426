// Static locals keep their value between calls; static globals with
// constant and run-time initializers.
RWStructuredBuffer<uint> output;
StructuredBuffer<uint> input;

static const uint table[5] = { 3, 1, 4, 1, 5 };
static uint scale = input[0];
static uint calls;

uint next() {
    static uint counter = 100;
    counter += 1;
    calls++;
    return counter;
}

uint lazy(uint x) {
    static uint first = x * 2;
    return first;
}

[numthreads(8, 1, 1)]
void main(uint3 id : SV_DispatchThreadID) {
    uint a = next();
    uint b = next();
    uint c = next();
    uint l = lazy(id.x + 1) + lazy(50);
    output[id.x * 4 + 0] = a * 10000 + b * 100 + (c - 100);
    output[id.x * 4 + 1] = table[id.x % 5] * scale;
    output[id.x * 4 + 2] = calls;
    output[id.x * 4 + 3] = l;
}
