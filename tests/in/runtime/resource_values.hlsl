// Resources as values: function parameters and results, locals assigned
// in branches, static aliases, and a struct holding resources and data.
struct Pair {
    StructuredBuffer<uint> src;
    RWStructuredBuffer<uint> dst;
    uint scale;
};

StructuredBuffer<uint> inA;
StructuredBuffer<uint> inB;
RWStructuredBuffer<uint> outA;
RWStructuredBuffer<uint> outB;
static RWStructuredBuffer<uint> alias = outB;

void copyScaled(StructuredBuffer<uint> s, RWStructuredBuffer<uint> d, uint i, uint k) {
    d[i] = s[i] * k;
}

RWStructuredBuffer<uint> firstOut() {
    return outA;
}

[numthreads(8, 1, 1)]
void main(uint3 id : SV_DispatchThreadID) {
    uint i = id.x;
    Pair p = { inA, outA, 3 };
    copyScaled(p.src, p.dst, i, p.scale);
    StructuredBuffer<uint> other;
    if (i % 2 == 0) {
        other = inB;
        alias[i] = other[i] + 1;
    } else {
        other = inA;
        alias[i] = other[i] + 2;
    }
    firstOut()[i + 8] = p.src[i] + 100;
}
