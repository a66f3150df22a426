// args: -T cs_6_0 -E main
struct A { float x; };
RWStructuredBuffer<float> buf;
[numthreads(1, 1, 1)]
void main() {
    A a = (A)buf;
}
