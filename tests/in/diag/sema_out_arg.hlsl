// args: -T cs_6_0 -E main
void store(out float result) { result = 1; }
[numthreads(1, 1, 1)]
void main() {
    float a = 0;
    store(a + 1);
}
