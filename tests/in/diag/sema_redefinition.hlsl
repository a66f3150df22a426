// args: -T cs_6_0 -E main
struct S { float a; float a; };
[numthreads(1, 1, 1)]
void main() {
    int x = 1;
    int x = 2;
}
