// args: -T cs_6_0 -E main
struct Light { float3 dir; };
[numthreads(1, 1, 1)]
void main() {
    Light l;
    l.color = 1;
}
