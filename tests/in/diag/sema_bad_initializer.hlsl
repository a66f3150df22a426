// args: -T cs_6_0 -E main
[numthreads(1, 1, 1)]
void main() {
    float3 a = { 1, 2 };
    int b[2] = { 1, 2, 3 };
}
