// args: -T cs_6_0 -E main
[numthreads(1, 1, 1)]
void main() {
    float x = undefined_thing + 1;
}
