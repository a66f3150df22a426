// args: -T cs_6_0 -E main
[numthreads(0, 1, 100)]
void main() {}
