// args: -T cs_6_0 -E main -HV 2018
// Before HLSL 2021 a `for` initializer declares into the enclosing scope:
// `i` is still visible after the loop, and declaring it again warns.
RWStructuredBuffer<int> o;

[numthreads(1, 1, 1)]
void main() {
    for (int i = 0; i < 3; i++) {
        o[i] = i;
    }
    o[5] = i;
    for (int i = 0; i < 2; i++) {
        o[6 + i] = i;
    }
}
