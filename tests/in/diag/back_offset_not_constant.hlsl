// args: -T cs_6_0 -E main
// The offset is a parameter, so sema accepts it, but the caller passes a
// run-time value: after inlining it is still not a constant.
Texture2D<float4> tex;
RWStructuredBuffer<float4> o;

float4 fetch(int2 p, int2 offset) {
    return tex.Load(int3(p, 0), offset);
}

[numthreads(8, 1, 1)]
void main(uint3 id : SV_DispatchThreadID) {
    o[id.x] = fetch(id.xy, int2(id.xy));
}
