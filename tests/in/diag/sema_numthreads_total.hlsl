// args: -T cs_6_0 -E main
[numthreads(32, 32, 2)]
void main() {}
