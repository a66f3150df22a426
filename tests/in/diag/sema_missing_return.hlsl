// args: -T cs_6_0 -E main
float pick(float x) {
    if (x > 0)
        return x;
}
RWStructuredBuffer<float> o;
[numthreads(1, 1, 1)]
void main() {
    o[0] = pick(1);
    not_declared = 0;
}
