// Byte-address buffer loads and stores of several widths and types.
ByteAddressBuffer src;
RWByteAddressBuffer dst;

struct Pair {
    float f;
    uint u;
};

[numthreads(4, 1, 1)]
void main(uint3 id : SV_DispatchThreadID) {
    uint base = id.x * 32;
    uint a = src.Load(base);
    uint2 b = src.Load2(base + 4);
    uint3 c = src.Load3(base + 12);
    uint4 d = src.Load4(base + 16);
    float f = src.Load<float>(base + 24);
    Pair p = src.Load<Pair>(base + 24);
    dst.Store(base, a + 1);
    dst.Store2(base + 4, b * 2);
    dst.Store3(base + 12, c + uint3(1, 2, 3));
    dst.Store(base + 24, asuint(f * 2));
    dst.Store<uint>(base + 28, p.u + d.w);
    uint size;
    src.GetDimensions(size);
    if (id.x == 0)
        dst.Store(128, size);
}
