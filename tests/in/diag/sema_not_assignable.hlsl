// args: -T cs_6_0 -E main
float get() { return 1; }
[numthreads(1, 1, 1)]
void main() {
    get() = 2;
    float2 v = 0;
    v.xx = float2(1, 2);
}
