// Methods of structs that hold resources: the object's resources are known
// at compile time, its data members live in the caller and methods may
// change them; a base class's method on a derived object; one method
// calling another.
struct Accumulator {
    RWStructuredBuffer<uint> sums;
    uint total;

    void add(uint i, uint v) {
        sums[i] += v;
        total += v;
    }
    void addTwice(uint i, uint v) {
        add(i, v);
        add(i, v);
    }
};

struct Scaled : Accumulator {
    uint factor;
    void addScaled(uint i, uint v) { addTwice(i, v * factor); }
};

RWStructuredBuffer<uint> first;
RWStructuredBuffer<uint> second;
RWStructuredBuffer<uint> totals;

[numthreads(8, 1, 1)]
void main(uint3 id : SV_DispatchThreadID) {
    uint i = id.x;
    Accumulator a;
    a.sums = first;
    a.total = 0;
    a.add(i, i + 1);
    a.addTwice(i, 10);

    Scaled s;
    s.sums = second;
    s.total = 5;
    s.factor = 3;
    s.addScaled(i, i);
    s.add(i, 1);

    totals[i * 2] = a.total;
    totals[i * 2 + 1] = s.total;
}
