// args: -T cs_6_0 -E main
float helper(float x);
RWStructuredBuffer<float> o;
[numthreads(1, 1, 1)]
void main() {
    o[0] = helper(2);
}
