// args: -T cs_6_0 -E main
float gain = 2.0;
RWStructuredBuffer<float> o;
[numthreads(1, 1, 1)]
void main() {
    o[0] = gain;
    error_to_show_warnings = 1;
}
