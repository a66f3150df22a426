// args: -T cs_6_0 -E main
static uint counter;

[numthreads(1, 1, 1)]
void main() {
    uint local = 0;
    uint before;
    InterlockedAdd(counter, 1, before);
    InterlockedMax(local, 2);
}
