// args: -T cs_6_0 -E main
groupshared float cache[4] = { 1, 2, 3, 4 };
[numthreads(4, 1, 1)]
void main() {}
