// args: -T cs_6_0 -E main
// Structured and byte-address buffers are not images: SPIR-V has no
// residency code for them.
StructuredBuffer<float4> sb;
ByteAddressBuffer bab;
Buffer<float4> typed;
RWStructuredBuffer<float4> o;

[numthreads(1, 1, 1)]
void main() {
    uint status;
    o[0] = sb.Load(0, status);
    o[1] = asfloat(bab.Load4(0, status));
    // Fine: a typed buffer is an image.
    o[2] = typed.Load(0, status);
}
