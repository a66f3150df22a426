// Texel buffers: Buffer<T> read, RWBuffer<T> read-modify-write.
Buffer<float4> lookup;
RWBuffer<uint> values;

[numthreads(8, 1, 1)]
void main(uint3 id : SV_DispatchThreadID) {
    float4 l = lookup[id.x % 4];
    values[id.x] = values[id.x] * 2 + (uint)l.y;
}
