// Bit-fields: packed into storage units of their type, read with
// extraction (sign-extended for signed fields), written in place.
struct Packed {
    uint lo : 4;
    uint mid : 12;
    int sgn : 5;
    float f;
    uint hi : 3;
};

RWStructuredBuffer<Packed> buf;
RWStructuredBuffer<int> output;

[numthreads(4, 1, 1)]
void main(uint3 id : SV_DispatchThreadID) {
    Packed p = buf[id.x];
    output[id.x * 5 + 0] = p.lo;
    output[id.x * 5 + 1] = p.mid;
    output[id.x * 5 + 2] = p.sgn;
    output[id.x * 5 + 3] = p.hi;
    p.lo = id.x + 3;
    p.mid += 100;
    p.sgn = -(int)id.x;
    p.hi = 7 - id.x;
    buf[id.x] = p;
    Packed q = { 1, 2, -3, 4.0, 5 };
    output[id.x * 5 + 4] = q.sgn + q.mid * 10 + q.hi * 100;
}
