// args: -T cs_6_0 -E main
volatile float g;
in float h;
[numthreads(1, 1, 1)]
void main() {
    extern float x = 1;
    groupshared float y;
}
