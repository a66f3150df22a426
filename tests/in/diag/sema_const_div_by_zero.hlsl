// args: -T cs_6_0 -E main
static const int N = 4;
[numthreads(1, 1, 1)]
void main() {
    float a[N / (N - 4)];
}
