// args: -T ps_6_0 -E main
// Dual-source blending: both sources at location 0, index 0 and 1.
struct PSOut {
    [[vk::location(1), vk::index(5)]] float4 a : SV_Target0;
    [[vk::location(0), vk::index(1)]] float4 b : SV_Target1;
    [[vk::index(0)]] float4 c : SV_Target2;
};

PSOut main() {
    PSOut o = (PSOut)0;
    return o;
}
