// args: -T ps_6_0 -E main
// Two members reading one system value.
struct PSInput {
    float4 a : SV_Position;
    float4 b : SV_POSITION;
};

float4 main(PSInput input) : SV_Target {
    return input.a + input.b;
}
