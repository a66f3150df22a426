// Functions returning resources: chosen by a constant argument (the call
// is specialized for it and the conditions, `if` or `switch`, fold), and a
// function returning a struct that holds a resource and data.
StructuredBuffer<uint> evens;
StructuredBuffer<uint> odds;
RWStructuredBuffer<uint> outLow;
RWStructuredBuffer<uint> outHigh;

StructuredBuffer<uint> source(int which) {
    if (which == 0) {
        return evens;
    }
    return odds;
}

RWStructuredBuffer<uint> target(bool high) {
    switch (high ? 1 : 0) {
    case 1:
        return outHigh;
    default:
        return outLow;
    }
}

struct View {
    StructuredBuffer<uint> data;
    uint offset;
};

View makeView(uint offset) {
    View v;
    v.data = odds;
    v.offset = offset * 10;
    return v;
}

[numthreads(8, 1, 1)]
void main(uint3 id : SV_DispatchThreadID) {
    uint i = id.x;
    target(false)[i] = source(0)[i] + source(1)[i];
    View v = makeView(i);
    target(true)[i] = source(1)[i] * 2 + v.data[i] + v.offset;
}
