// args: -T cs_6_0 -E main -enable-16bit-types
// 16-bit types are native from shader model 6.2 on; DXC refuses the
// option below it, and so does hlslc, before reading the file.
RWStructuredBuffer<half> h;
[numthreads(1, 1, 1)] void main() { h[0] = h[1]; }
