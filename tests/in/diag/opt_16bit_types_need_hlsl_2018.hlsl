// args: -T cs_6_2 -E main -HV 2016 -enable-16bit-types
// The option needs HLSL 2018 or later too.
RWStructuredBuffer<half> h;
[numthreads(1, 1, 1)] void main() { h[0] = h[1]; }
