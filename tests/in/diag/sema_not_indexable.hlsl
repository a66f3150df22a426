// args: -T cs_6_0 -E main
[numthreads(1, 1, 1)]
void main() {
    float f = 2;
    float g = f[1];
    float4 v = 0;
    float h = v[7];
}
