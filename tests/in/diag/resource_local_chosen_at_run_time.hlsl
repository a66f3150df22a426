// args: -T cs_6_0 -E main -O3
// A resource local assigned different resources on the two sides of a
// branch that only the running shader decides names neither at the join.
StructuredBuffer<float4> first;
StructuredBuffer<float4> second;
RWStructuredBuffer<float4> result;

[numthreads(8, 1, 1)]
void main(uint id : SV_DispatchThreadID) {
    StructuredBuffer<float4> src;
    if (id < 4) {
        src = first;
    } else {
        src = second;
    }
    result[id] = src[id];
}
