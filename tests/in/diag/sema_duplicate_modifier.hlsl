// args: -T cs_6_0 -E main
static static float a;
[numthreads(1, 1, 1)]
void main() {
    precise precise float b = 1;
}
