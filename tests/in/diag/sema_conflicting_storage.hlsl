// args: -T cs_6_0 -E main
static extern float a;
static uniform float b;
[numthreads(1, 1, 1)]
void main() {}
