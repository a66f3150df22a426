// args: -T cs_6_0 -E main
cbuffer C {
    row_major float4 v;
};
RWStructuredBuffer<float4> o;
[numthreads(1, 1, 1)]
void main() {
    o[0] = v;
    error_to_show_output = 1;
}
