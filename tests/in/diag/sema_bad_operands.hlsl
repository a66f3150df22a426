// args: -T cs_6_0 -E main
struct S { float a; };
[numthreads(1, 1, 1)]
void main() {
    S s, t;
    s.a = 0;
    t.a = 1;
    S u = s + t;
    float f = 1.5 & 2;
}
