// args: -T cs_6_0 -E main
RWStructuredBuffer<uint> o;
void main(uint3 id : SV_DispatchThreadID) {
    o[id.x] = id.x;
}
