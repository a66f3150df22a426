// args: -T cs_6_0 -E main
RWStructuredBuffer<uint> o;
[numthreads(1, 1, 1)]
void main() {
    uint n = o[0];
    float a[n];
}
