// args: -T cs_6_0 -E main
[numthreads(1, 1, 1)]
void main() {
    float2 v = 0;
    float a = v.z;
    float b = v.xg;
}
