// Storage image writes and reads, GetDimensions.
RWTexture2D<float4> image;
RWStructuredBuffer<uint> dims;

[numthreads(4, 4, 1)]
void main(uint3 id : SV_DispatchThreadID) {
    float4 old = image[id.xy];
    image[id.xy] = float4(id.x, id.y, old.x + 1, 1);
    if (id.x == 0 && id.y == 0) {
        uint w, h;
        image.GetDimensions(w, h);
        dims[0] = w;
        dims[1] = h;
    }
}
