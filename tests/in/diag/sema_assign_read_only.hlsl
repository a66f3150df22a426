// args: -T cs_6_0 -E main
float uniform_value;
cbuffer Constants { float4 tint; };
StructuredBuffer<float> readonly_data;
[numthreads(1, 1, 1)]
void main() {
    const int k = 3;
    k = 4;
    uniform_value = 1;
    tint.x = 2;
    readonly_data[0] = 5;
}
