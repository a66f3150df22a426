// args: -T cs_6_0 -E main
// A uniform block holds no runtime array, and a buffer's element has a
// size (a runtime array of runtime arrays does not exist).
struct S { uint x; };
RWStructuredBuffer<S[]> bad;
cbuffer C { uint count; uint table[]; };
RWStructuredBuffer<uint> o;

[numthreads(1, 1, 1)]
void main() {
  o[0] = table[count];
}
