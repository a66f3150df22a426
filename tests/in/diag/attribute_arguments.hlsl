// args: -T cs_6_0 -E main
// The registry of attributes checks every known attribute's arguments:
// how many it takes, and which are string literals.
RWStructuredBuffer<uint> output;

[numthreads(8, 1)]
void helper() {}

[shader(compute)]
[numthreads(8, 1, 1)]
void main(uint id : SV_DispatchThreadID) {
    [unroll(2, 4)]
    for (uint i = 0; i < 4; ++i)
        output[id] += i;
    [branch(1)]
    if (id > 2)
        output[id] = 0;
}
