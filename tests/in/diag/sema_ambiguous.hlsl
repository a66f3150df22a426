// args: -T cs_6_0 -E main
void f(int a, float b) {}
void f(float a, int b) {}
[numthreads(1, 1, 1)]
void main() {
    f(1u, 2u);
}
